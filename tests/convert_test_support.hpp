// What the parts of convert_test share: a file's bytes, and a one-operation NNEF model to refuse.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "cli_test_support.hpp"

namespace nnref::test {

inline std::string file_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The folder `dir / "m"` holding an NNEF model whose one operation, `y = OP(x)` on x of shape
// [1, 4], stands on line 6 of graph.nnef.
inline std::filesystem::path one_op_nnef_model(const std::filesystem::path& dir, const std::string& op) {
  std::filesystem::create_directories(dir / "m");
  write_text(dir / "m" / "graph.nnef", "version 1.0;\n\ngraph G( x ) -> ( y )\n{\n    x = external(shape = [1, 4]);\n"
                                       "    y = " + op + "(x);\n}\n");
  return dir / "m";
}

}  // namespace nnref::test
