// NumPy .npy and .npz tensor files.
// .npy: magic "\x93NUMPY", versions 1.0 / 2.0 / 3.0, a Python-dict header (descr, fortran_order,
// shape), data from a 64-byte boundary. dtypes f2 f4 f8, i1..i8, u1..u8, b1, both endiannesses.
// Fortran-order arrays are transposed to row-major on read. Integers beyond ±2^53 are refused
// (HostTensor holds doubles). Every malformed file is a diagnostic naming the file and, where it
// helps, the byte offset; nothing is allocated before the data's size is checked against the
// bytes actually present.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "spec/host_tensor.hpp"
#include "spec/result.hpp"

namespace nnref {

Result<HostTensor> parse_npy(std::span<const uint8_t> bytes, const std::string& name);
Result<HostTensor> read_npy(const std::string& path);

// Writes little-endian, version 1.0 (2.0 if the header needs it), C order, in t.dtype
// (values are rounded to it: float32 rounds to nearest).
std::vector<uint8_t> encode_npy(const HostTensor& t);
Status write_npy(const std::string& path, const HostTensor& t);

// What write_npy checks before encoding: values.size() == shape.count() ("npy.bad-tensor"), and
// every value representable in t.dtype ("npy.value-not-representable"): integer dtypes need
// integral values in range (and |v| <= 2^53 for int64/uint64, so that the file reads back), bool
// needs 0 or 1, float16/float32 refuse finite values that would round to infinity.
// encode_npy assumes this holds (it saturates rather than misbehaves when it does not).
Status check_npy_encodable(const HostTensor& t, const std::string& name = "");

// IEEE 754 binary16 <-> double. half_to_double is exact; double_to_half rounds to nearest even.
double half_to_double(uint16_t h);
uint16_t double_to_half(double v);

// .npz: a zip archive (numpy.savez stored, savez_compressed deflated) of NAME.npy members.
// Returned names have the ".npy" suffix removed, in archive order.
using NamedTensors = std::vector<std::pair<std::string, HostTensor>>;
// max_bytes bounds the members' stated uncompressed sizes, summed, before any is inflated
// (a "size.budget" diagnostic past it), so a small archive cannot expand past a memory budget.
Result<NamedTensors> read_npz(const std::string& path, uint64_t max_bytes = UINT64_MAX);
// The same, from the archive's bytes in memory; name is used in diagnostics.
Result<NamedTensors> parse_npz(std::span<const uint8_t> bytes, const std::string& name,
                               uint64_t max_bytes = UINT64_MAX);
Status write_npz(const std::string& path, const NamedTensors& tensors);

}  // namespace nnref
