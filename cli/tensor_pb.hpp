// A HostTensor written as a serialized ONNX TensorProto (.pb, the layout of ONNX's backend tests:
// test_data_set_0/input_0.pb), for `nnref suite`. Hand-encoded (dims, data_type, name, raw_data in
// little-endian bytes) so that the CLI needs no protobuf library; the reader is
// formats/onnx/tensor_proto.hpp (read_tensor_file), through which the round trip is tested.
#pragma once

#include <string>

#include "spec/host_tensor.hpp"
#include "spec/result.hpp"

namespace nnref {

// The TensorProto bytes of `t` named `name` (io.write for a value its dtype cannot hold).
Result<std::string> encode_tensor_pb(const HostTensor& t, const std::string& name);

Status write_tensor_pb(const std::string& path, const HostTensor& t, const std::string& name);

}  // namespace nnref
