// libFuzzer harness for the .npy (and .npz) readers: any input must give a tensor or a
// diagnostic, never a crash, a hang or an out-of-bounds read. Accepted inputs must also survive
// encode_npy -> parse_npy unchanged.
//
//   cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DNNREF_FUZZ=ON
//   cmake --build build-fuzz --target npy_fuzz
//   ./build-fuzz/fuzz/npy_fuzz -max_total_time=60 fuzz/corpus/npy
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "formats/tensor_files/npy.hpp"

namespace {

bool same_value(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::memcmp(&a, &b, sizeof a) == 0;
}

void check(bool ok) {
  if (!ok) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  auto r = nnref::parse_npy(bytes, "fuzz.npy");
  if (r.ok()) {
    check(r->values.size() == static_cast<size_t>(r->shape.count()));
    const auto encoded = nnref::encode_npy(*r);
    auto again = nnref::parse_npy(encoded, "again.npy");
    check(again.ok());
    check(again->dtype == r->dtype && again->shape == r->shape);
    for (size_t i = 0; i < r->values.size(); ++i) check(same_value(again->values[i], r->values[i]));
  } else {
    check(!r.error().code.empty() && r.error().loc.file == "fuzz.npy");
  }
  // Inputs that look like a zip also go through the .npz reader.
  if (size >= 2 && data[0] == 'P' && data[1] == 'K') {
    auto z = nnref::parse_npz(bytes, "fuzz.npz");
    if (!z.ok()) check(!z.error().code.empty());
  }
  return 0;
}
