// `nnref convert --to nnef2`: a model as an NNEF 2.0 (SkriptND) folder that nnref's own reader reads
// back: main.sknd, whose graph invokes one standard operator per IR op (the inverse of native.cpp's
// table), and one .dat file per variable under its scoped name. docs/nnef2.md, "Writing NNEF 2.0",
// lists what is written and what is refused.
#pragma once

#include <string>
#include <vector>

#include "formats/writers.hpp"

namespace nnref {

std::vector<Diagnostic> write_nnef2(const Model& model, const std::string& out_dir, const WriteOptions& options);

}  // namespace nnref
