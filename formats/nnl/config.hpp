// The NNL config block: every key with its type, default and allowed values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/nnl/ast.hpp"
#include "formats/nnl/diags.hpp"
#include "spec/real.hpp"

namespace nnref::nnl {

struct Config {
  std::string precision = "float32";
  std::string weights;  // as written; "" when missing (reported)
  SourceLoc weights_loc;
  std::string target = "generic";
  int64_t align = 64;
  int64_t batch = 1;
  std::string preprocess = "none";
  SourceLoc preprocess_loc;
  std::vector<Real> mean, std;  // each with the decimal the file writes
  bool has_mean = false, has_std = false;
  SourceLoc mean_loc, std_loc;
  std::string io = "stdio";
};

// Reports missing/duplicate config blocks, unknown and duplicate keys, wrong types and values.
Config check_config(const Program& program, Diags& diags);

}  // namespace nnref::nnl
