#include "formats/tensor_file.hpp"

#include "formats/onnx/tensor_proto.hpp"
#include "formats/tensor_files/npy.hpp"

namespace nnref {

Result<HostTensor> read_tensor_arg(const std::string& path) {
  if (path.ends_with(".pb")) return onnx_format::read_tensor_file(path);
  return read_npy(path);
}

}  // namespace nnref
