// The ONNX writer (nnref convert --to onnx): a Model as a ModelProto of opset 17, each IR op as the
// ONNX op(s) that formats/onnx/ops/ reads back into it (docs/onnx.md, "The writer").
#pragma once

#include <string>
#include <vector>

#include "formats/writers.hpp"

namespace nnref {

// Writes `model` to the file `out` (.onnx). Symbolic sizes stay symbolic (dim_param) unless
// --dim fixes them. A float attribute that float32 does not hold exactly (ONNX attributes are
// float32) is written rounded, with a convert.float-attribute warning.
std::vector<Diagnostic> write_onnx(const Model& model, const std::string& out, const WriteOptions& options);

}  // namespace nnref
