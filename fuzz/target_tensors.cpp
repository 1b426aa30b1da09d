// Harness bodies for the tensor files: .npy, .npz and the ONNX TensorProto .pb.
#include <cmath>
#include <cstring>

#include "formats/onnx/tensor_proto.hpp"
#include "formats/tensor_files/npy.hpp"
#include "fuzz/target_support.hpp"

namespace nnref::fuzz {

namespace {

// The memory a harness lets a reader take for values (libFuzzer's -rss_limit_mb is 2048).
constexpr int64_t kBudget = int64_t{1} << 26;

bool same_value(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::memcmp(&a, &b, sizeof a) == 0;
}

bool holds_its_shape(const HostTensor& t) { return t.values.size() == static_cast<size_t>(t.shape.count()); }

}  // namespace

// A tensor or a diagnostic naming the file; an accepted tensor survives encode_npy -> parse_npy
// unchanged.
Outcome run_npy(std::span<const uint8_t> input) {
  Outcome o;
  const Result<HostTensor> r = parse_npy(input, "fuzz.npy");
  if (!r) {
    add_error(o, r.error());
    require(o, r.error().loc.file == "fuzz.npy", "a .npy error names the file read");
    return o;
  }
  o.accepted = true;
  require(o, holds_its_shape(*r), "a tensor holds as many values as its shape");
  const Result<HostTensor> again = parse_npy(encode_npy(*r), "again.npy");
  require(o, again.ok(), "an accepted .npy re-encodes to one that reads");
  if (!again) return o;
  require(o, again->dtype == r->dtype && again->shape == r->shape, "a .npy round trip keeps dtype and shape");
  for (size_t i = 0; i < r->values.size() && i < again->values.size(); ++i)
    require(o, same_value(again->values[i], r->values[i]), "a .npy round trip keeps every value");
  return o;
}

// Named tensors, each holding its shape, or a diagnostic; the members' stated sizes are held to a
// budget before anything is inflated.
Outcome run_npz(std::span<const uint8_t> input) {
  Outcome o;
  const Result<NamedTensors> r = parse_npz(input, "fuzz.npz", kBudget);
  if (!r) {
    add_error(o, r.error());
    return o;
  }
  o.accepted = true;
  for (const auto& [name, t] : *r) require(o, holds_its_shape(t), "an .npz member holds as many values as its shape");
  return o;
}

// The reader of run's and conform's .pb arguments, on the file as given.
Outcome run_onnx_pb(std::span<const uint8_t> input) {
  Outcome o;
  const auto path = scratch_folder() / "fuzz.pb";
  write_bytes(path, input);
  const Result<HostTensor> r = onnx_format::read_tensor_file(path.string(), kBudget);
  if (!r) {
    add_error(o, r.error());
    const std::string& code = r.error().code;
    require(o, code.starts_with("pb.") || code.starts_with("size.") || code.starts_with("io."),
            "a .pb file's errors are pb.*, size.* or io.*");
    return o;
  }
  o.accepted = true;
  require(o, holds_its_shape(*r), "a tensor holds as many values as its shape");
  return o;
}

}  // namespace nnref::fuzz
