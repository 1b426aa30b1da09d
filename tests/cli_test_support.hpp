// Running the nnref command in-process, as the cli tests do: its exit code and what it printed.
#pragma once

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

// A file of one of the bundled examples: example("mlp", "model.nnl").
inline std::string example(const std::string& name, const std::string& file) {
  return (std::filesystem::path(NNREF_SOURCE_DIR) / "examples" / name / file).string();
}

inline void write_text(const std::filesystem::path& p, const std::string& text) { std::ofstream(p) << text; }

}  // namespace nnref::test
