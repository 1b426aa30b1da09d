// The ONNX ops nnref reads, each a handler that emits IR nodes through a NodeCtx (importer.hpp).
// The handlers live by family in formats/onnx/ops/ (handlers.hpp lists the families).
#pragma once

#include <string>

#include "formats/onnx/importer.hpp"

namespace nnref::onnx_format {

using OpHandler = void (*)(NodeCtx&);

// The handler of an op of the default domain, or nullptr when nnref does not read it.
OpHandler find_op(const std::string& op_type);

}  // namespace nnref::onnx_format
