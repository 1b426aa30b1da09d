#include "cli/outputs.hpp"

#include <cstdio>

namespace nnref {

namespace {
constexpr int64_t kPrintedValues = 32;  // outputs up to this many elements are printed in full
}

void print_output(std::ostream& out, const std::string& name, const HostTensor& t) {
  out << "output " << name << ": shape " << t.shape.str() << " " << dtype_name(t.dtype) << "\n";
  if (t.shape.count() > kPrintedValues) return;
  const char* fmt = t.dtype == DType::F32 ? "%.9g" : "%.17g";
  out << " ";
  for (double v : t.values) {
    char buf[40];
    std::snprintf(buf, sizeof buf, fmt, v);
    out << " " << buf;
  }
  out << "\n";
}

Status write_tensors(const std::string& path, const NamedTensors& tensors) {
  if (path.ends_with(".npz")) return write_npz(path, tensors);
  if (!path.ends_with(".npy")) return make_error("io.output-format", "an output file must end in .npy or .npz: " + path);
  if (tensors.size() != 1)
    return make_error("io.output-format",
                      "the model has " + std::to_string(tensors.size()) + " outputs; write them to an .npz file");
  return write_npy(path, tensors.front().second);
}

}  // namespace nnref
