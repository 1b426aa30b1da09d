// nnref init-weights: deterministic random parameters of exactly the shapes the model implies,
// so that anyone can run a model without training it. Each tensor's stream is seeded from the
// seed and the parameter's name, so a tensor does not change when other layers are added.
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/model_stats.hpp"
#include "formats/nnef/dat.hpp"
#include "formats/tensor_files/npy.hpp"
#include "semantics/memory.hpp"

namespace nnref {

namespace {

// SplitMix64 (Steele, Lea, Flood 2014): small, fast, and the same on every platform.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  double normal() {  // Box–Muller
    double u1 = 1.0 - uniform(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
  }

 private:
  uint64_t state_;
};

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

// He-style weights N(0, 2/fan_in); batch-norm statistics near the identity; small biases.
double draw(SplitMix64& rng, const std::string& role, int64_t fan_in) {
  if (role == "weight") return rng.normal() * std::sqrt(2.0 / static_cast<double>(fan_in));
  if (role == "scale") return 1.0 + 0.1 * rng.normal();
  if (role == "variance") return 0.5 + rng.uniform();
  return 0.1 * rng.normal();  // bias, offset, mean
}

// Where the weights go: --out, else where the model's config says (resolved as the front-end
// resolves it, against the model file's folder). A directory gets one file per parameter (.npy,
// or .dat for NNEF: write_one), a path ending .npz one archive; a path naming another tensor file is refused, since it would become a
// directory of that name.
Result<std::string> destination(const InitWeightsOptions& o, const Model& m) {
  const std::string dest = o.out.empty() ? m.weights_path : o.out;
  const std::string from = o.out.empty() ? "the model's config names weights '" + dest + "'" : "--out '" + dest + "'";
  if (dest.empty()) return make_error("usage.out", "the model names no weights location: give --out DIR or --out FILE.npz");
  std::string ext = std::filesystem::path(dest).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* tensor : {".npy", ".onnx", ".pt", ".pth", ".safetensors", ".h5", ".pb", ".bin"})
    if (ext == tensor)
      return make_error("usage.out", from + ", a " + ext + " file: init-weights writes a directory of .npy files "
                                         "(one per parameter) or one .npz archive");
  return dest;
}

// NNEF 2.0 reads each variable from <label>.dat in the model's folder, at the shape its parameter
// has: the weights go there as float32 (float64 for a float64 model) items. Other formats take one
// .npy per parameter (NNEF 1.0's variables may be declared at another shape than their parameter's,
// a bias [1, C] for [C], which the model does not keep).
bool reads_dat_files(const Model& m) { return m.format == "nnef2"; }

// One parameter's file in the directory `dir`: <name>.dat or <name>.npy; a name that leads
// outside `dir` is refused, as the readers refuse such a label.
Status write_one(const std::filesystem::path& dir, const std::string& name, const HostTensor& t, bool dat) {
  const std::filesystem::path rel = std::filesystem::path(name + (dat ? ".dat" : ".npy")).lexically_normal();
  if (rel.is_absolute() || rel.empty() || *rel.begin() == "..")
    return make_error("io.write", "parameter '" + name + "' would be written outside " + dir.string());
  const std::filesystem::path path = dir / rel;
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) return make_error("io.write", "cannot create directory " + path.parent_path().string() + ": " + ec.message());
  if (!dat) return write_npy(path.string(), t);
  const std::string bytes = nnef::write_dat(t.shape.dims(), t.values, nnef::ItemType::Float, t.dtype == DType::F64 ? 64 : 32);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) return make_error("io.write", "cannot write " + path.string());
  return {};
}

// A parameter to write: its name in the model's format, its shape, and what draws its values.
struct Param {
  std::string name;
  Shape shape;
  const Node* node;
  std::string role;
};

// The parameters init-weights will hold, 8 bytes per element (values are doubles until written),
// against --max-memory; the error names the largest.
Status within_budget(const std::vector<Param>& params, int64_t budget) {
  CDim total(0);
  const Param* largest = nullptr;
  for (const Param& p : params) {
    total = total + tensor_bytes(CDim(p.shape.count()), sizeof(double));
    if (!largest || p.shape.count() > largest->shape.count()) largest = &p;
  }
  if (total.v <= budget) return {};
  Diagnostic d = make_error("size.budget", "the weights need " + std::to_string(total.v) +
                                               " bytes, over the budget of " + std::to_string(budget) +
                                               " bytes (--max-memory)");
  d.notes.push_back("the largest is " + largest->name + " " + largest->shape.str() + ", " +
                    std::to_string(tensor_bytes(CDim(largest->shape.count()), sizeof(double)).v) + " bytes");
  return d;
}

}  // namespace

int init_weights_command(const InitWeightsOptions& o, std::ostream& out, std::ostream& err) {
  int exit = kExitOk;
  auto model = load_reporting(o.model, LoadOptions{WeightsPolicy::Skip, kDefaultMaxMemory}, err, exit);
  if (!model) return exit;
  auto dest = destination(o, *model);
  if (!dest) {
    print_diagnostics(err, {dest.error()});
    return kExitUsage;
  }
  auto info = shapes_reporting(*model, 0, err, exit);  // no evaluation: its memory is not at stake
  if (!info) return exit;

  // Each parameter by the name the model's format gives it; constants the model states, and
  // parameters the graph computes from them, come from the model (a constant whose value is a
  // variable's, as an NNEF variable read as an operand is, comes from the weights).
  std::vector<Param> params;
  for (const Node& node : model->graph.nodes) {
    const bool constant = std::holds_alternative<ConstAttrs>(node.op);
    for (const auto& p : info->nodes[static_cast<size_t>(node.id)].params) {
      if (node.param_value(p.role) || (constant && model->payload.find(node.name, p.role))) continue;
      auto key = model->param_keys.find({node.name, p.role});
      params.push_back({key != model->param_keys.end() ? key->second : node.name + "." + p.role, p.shape, &node, p.role});
    }
  }
  if (Status fits = within_budget(params, o.max_memory); !fits) {
    print_diagnostics(err, {fits.error()});
    return kExitInvalid;
  }

  const DType dtype = model->precision == "float64" ? DType::F64 : DType::F32;
  NamedTensors tensors;
  for (const Param& p : params) {
    SplitMix64 rng(o.seed ^ fnv1a(p.name));
    const int64_t fan_in = weight_fan_in(*p.node, p.shape);
    HostTensor t{dtype, p.shape, {}};
    t.values.reserve(static_cast<size_t>(p.shape.count()));
    for (int64_t i = 0; i < p.shape.count(); ++i) {
      double v = draw(rng, p.role, fan_in);
      t.values.push_back(dtype == DType::F32 ? double(float(v)) : v);
    }
    tensors.emplace_back(p.name, std::move(t));
  }

  Status written;
  if (dest->ends_with(".npz")) {
    written = write_npz(*dest, tensors);
  } else {
    for (const auto& [name, t] : tensors) {
      written = write_one(*dest, name, t, reads_dat_files(*model));
      if (!written) break;
    }
  }
  if (!written) {
    print_diagnostics(err, {written.error()});
    return kExitUsage;
  }
  out << "wrote " << tensors.size() << " parameter tensors (" << dtype_name(dtype) << ", seed " << o.seed << ") to "
      << *dest << "\n";
  return kExitOk;
}

}  // namespace nnref
