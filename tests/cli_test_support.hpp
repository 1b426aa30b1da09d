// Running the nnref command in-process, as the cli tests do: its exit code and what it printed.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/app.hpp"

namespace nnref::test {

struct Run {
  int code;
  std::string out, err;
};

inline Run nnref_cli(std::vector<std::string> args) {
  std::ostringstream out, err;
  int code = run_app(args, out, err);
  return {code, out.str(), err.str()};
}

inline std::string shell_quoted(const std::string& arg) {
  std::string q = "'";
  for (char ch : arg) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

// `nnref ARGS` as a user runs it: the real binary in its own process, its output kept in `dir`.
inline Run nnref_process(const std::vector<std::string>& args, const std::filesystem::path& dir) {
  std::string command = shell_quoted(NNREF_BINARY);
  for (const auto& a : args) command += " " + shell_quoted(a);
  command += " >" + shell_quoted((dir / "out").string()) + " 2>" + shell_quoted((dir / "err").string());
  const int status = std::system(command.c_str());
  const auto slurp = [](const std::filesystem::path& p) {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir / "out"), slurp(dir / "err")};
}

// A file of one of the bundled examples: example("mlp", "model.nnl").
inline std::string example(const std::string& name, const std::string& file) {
  return (std::filesystem::path(NNREF_SOURCE_DIR) / "examples" / name / file).string();
}

inline void write_text(const std::filesystem::path& p, const std::string& text) { std::ofstream(p) << text; }

}  // namespace nnref::test
