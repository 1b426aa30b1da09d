// One tensor from a file named on the command line (run's --input, conform's --actual): a NumPy
// .npy file, or a serialized ONNX TensorProto (.pb, as the ONNX backend tests store them).
#pragma once

#include <string>

#include "spec/host_tensor.hpp"
#include "spec/result.hpp"

namespace nnref {

Result<HostTensor> read_tensor_arg(const std::string& path);

}  // namespace nnref
