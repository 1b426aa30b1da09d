// The NNEF 1.0 writer (nnref convert --to nnef): a Model as a folder with graph.nnef in the flat
// syntax and one .dat file per parameter, each IR op as the standard operation(s) that
// lower_ops.cpp reads back into it (docs/nnef.md, "The writer").
#pragma once

#include <string>
#include <vector>

#include "formats/writers.hpp"

namespace nnref {

// Writes `model` into folder `out_dir` (created when absent). Every input extent must be concrete:
// a symbolic size needs --dim (usage.dim-required).
std::vector<Diagnostic> write_nnef(const Model& model, const std::string& out_dir, const WriteOptions& options);

}  // namespace nnref
