// ONNX TensorProto: one tensor of a model (an initializer, a Constant's value) or a `.pb` file
// (the backend tests' inputs and outputs), read into a HostTensor. Data may sit in raw_data
// (little-endian), in the typed repeated fields, or in an external file next to the model.
#pragma once

#include <cstdint>
#include <string>

#include "spec/host_tensor.hpp"
#include "spec/result.hpp"

namespace onnx {
class TensorProto;
}

namespace nnref::onnx_format {

// Where external data may come from, and how much may be read.
struct TensorSource {
  std::string name;      // for messages: "model.onnx:conv1.weight"
  std::string base_dir;  // the model's folder: an external location must stay inside it ("" : none allowed)
  int64_t max_bytes = INT64_MAX;  // budget for this tensor's values (8 bytes per element once read)
};

// Float (float16/32/64, bfloat16 refused), signed and unsigned integer and bool tensors. Codes:
// onnx.tensor-type-unsupported, onnx.tensor-shape, onnx.tensor-data-size, onnx.tensor-integer-range,
// onnx.external-data (location, escape, offset, length), size.budget.
Result<HostTensor> read_tensor(const onnx::TensorProto& t, const TensorSource& source);

// A serialized TensorProto file (`.pb`); nothing external is allowed. Codes as above with the
// prefix pb. instead of onnx. (pb.tensor-shape, ...), plus io.open-failed and pb.parse.
Result<HostTensor> read_tensor_file(const std::string& path, int64_t max_bytes = INT64_MAX);

}  // namespace nnref::onnx_format
