// From a decoded NAC program to nnref's IR: each instruction becomes a node (or, for a parameter
// load, the parameter of the nodes that read it), through the standard ids and the canonical names
// of docs/nac.md. An operation with no IR counterpart is an error naming it.
#pragma once

#include <string>

#include "formats/model.hpp"
#include "formats/nac/program.hpp"
#include "formats/nac/weights.hpp"

namespace nnref::nac {

// The model, or the first error (its code, message and the byte offset of the instruction).
std::variant<Model, FormatError> lower(const Program& p, const WeightStore& weights, const std::string& path,
                                       const LoadOptions& options);

}  // namespace nnref::nac
