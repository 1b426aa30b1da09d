// ONNX TensorProto: one tensor of a model (an initializer, a Constant's value) or a `.pb` file
// (the backend tests' inputs and outputs), read into a HostTensor. Data may sit in raw_data
// (little-endian), in the typed repeated fields, or in an external file next to the model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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
  // Budget for reading this tensor: what it holds once read (held_bytes) and, while it is read, its
  // external bytes, and an integer tensor's values before they are checked.
  int64_t max_bytes = INT64_MAX;
};

// A tensor read exactly: a float tensor's values in `tensor`; an integer or bool tensor's as int64
// in `ints` (every value, ONNX's Slice end INT64_MAX among them) and in `tensor` as doubles where
// exact (magnitude at most 2^53; NaN beyond).
struct ExactTensor {
  HostTensor tensor;
  std::vector<int64_t> ints;
};

// The bytes an ExactTensor holds: its doubles, and its integers.
int64_t held_bytes(const ExactTensor& t);

// The DType of an ONNX element type, or nullopt (string, complex).
std::optional<DType> dtype_of(int32_t onnx_type);

// An integer as a double where that is exact (magnitude at most 2^53), NaN beyond.
double exact_double(int64_t v);
// A tensor given as doubles (an integer or bool one's values whole numbers) as an ExactTensor.
ExactTensor exact_of(HostTensor t);
// An integer tensor of int64 values.
ExactTensor integer_tensor(const Shape& shape, std::vector<int64_t> values);

// Frees a parsed TensorProto's contents once read: the bytes it held.
int64_t release(onnx::TensorProto& t);

// Float (float16/32/64, bfloat16 refused), signed and unsigned integer and bool tensors. Codes:
// onnx.tensor-type-unsupported, onnx.tensor-shape, onnx.tensor-data-size, onnx.tensor-integer-range,
// onnx.external-data (location, escape, offset, length), size.budget.
Result<ExactTensor> read_exact_tensor(const onnx::TensorProto& t, const TensorSource& source);
// The same as a HostTensor: an integer beyond 2^53 is onnx.tensor-integer-range.
Result<HostTensor> read_tensor(const onnx::TensorProto& t, const TensorSource& source);

// A serialized TensorProto file (`.pb`); nothing external is allowed. Codes as above with the
// prefix pb. instead of onnx. (pb.tensor-shape, ...), plus io.open-failed and pb.parse.
Result<HostTensor> read_tensor_file(const std::string& path, int64_t max_bytes = INT64_MAX);

}  // namespace nnref::onnx_format
