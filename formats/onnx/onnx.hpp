// The ONNX front-end: a `.onnx` ModelProto (protobuf, read with the onnx package's generated
// classes) → Graph + Payload. docs/onnx.md lists the supported ops, the compositions and the codes.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>

#include "formats/front_ends.hpp"
#include "formats/model.hpp"
#include "formats/tensor_files/npy.hpp"

namespace nnref {

// The codes the ONNX front-end and the TensorProto file reader print (docs/onnx.md).
std::span<const CodeInfo> onnx_codes();

LoadResult load_onnx_file(const std::string& path, const LoadOptions& options);
// The same from the file's bytes (the fuzz harness); `path` locates external data and messages.
LoadResult load_onnx_bytes(const std::string& bytes, const std::string& path, const LoadOptions& options);

// The opsets an `.onnx` file imports, by domain ("ai.onnx" for the default domain, which a file
// without that import, IR version 2 and earlier, reads at 1), as the file states them; the front-end
// refuses an ai.onnx opset it does not read when it loads the model.
Result<std::map<std::string, int64_t>> read_onnx_opsets(const std::string& path, int64_t max_memory);

// The initializers of an `.onnx` file by name, in file order (NNL's `weights: "m.onnx"`); their
// values summed at 8 bytes per element stay within max_bytes.
Result<NamedTensors> read_onnx_initializers(const std::string& path, int64_t max_bytes);

}  // namespace nnref
