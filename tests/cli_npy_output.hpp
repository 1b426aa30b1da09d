// `nnref ARGS --output OUT -q`, which must succeed, and the .npy it writes (the CLI tests that
// read one output array back).
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "formats/tensor_files/npy.hpp"

namespace nnref::test {

struct Npy {
  std::vector<int64_t> shape;
  std::vector<double> values;
};

inline Npy run_npy(const std::vector<std::string>& args, const std::filesystem::path& out) {
  std::vector<std::string> all = args;
  all.insert(all.end(), {"--output", out.string(), "-q"});
  Run r = nnref_cli(all);
  INFO(r.err);
  REQUIRE(r.code == 0);
  auto y = read_npy(out.string());
  REQUIRE(y.ok());
  return {y->shape.dims(), y->values};
}

}  // namespace nnref::test
