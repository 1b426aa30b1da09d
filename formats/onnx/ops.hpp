// The ONNX ops nnref reads, each a handler that emits IR nodes through a NodeCtx (importer.hpp).
#pragma once

#include <string>
#include <vector>

#include "formats/onnx/importer.hpp"

namespace nnref::onnx_format {

using OpHandler = void (*)(NodeCtx&);

// The handler of an op of the default domain, or nullptr when nnref does not read it.
OpHandler find_op(const std::string& op_type);

}  // namespace nnref::onnx_format
