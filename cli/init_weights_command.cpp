// nnref init-weights: deterministic random parameters of exactly the shapes the model implies,
// so that anyone can run a model without training it. Each tensor's stream is seeded from the
// seed and the parameter's name, so a tensor does not change when other layers are added.
#include <cmath>
#include <filesystem>
#include <ostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/model_stats.hpp"
#include "formats/tensor_files/npy.hpp"

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

}  // namespace

int init_weights_command(const InitWeightsOptions& o, std::ostream& out, std::ostream& err) {
  int exit = kExitOk;
  auto model = load_reporting(o.model, LoadOptions{false, kDefaultMaxMemory}, err, exit);
  if (!model) return exit;
  auto info = shapes_reporting(*model, sizeof(double), err, exit);
  if (!info) return exit;

  const DType dtype = model->precision == "float64" ? DType::F64 : DType::F32;
  NamedTensors tensors;
  for (const Node& node : model->graph.nodes) {
    if (std::holds_alternative<ConstAttrs>(node.op)) continue;  // constants come from the model, not weights
    for (const auto& p : info->nodes[static_cast<size_t>(node.id)].params) {
      auto key = model->param_keys.find({node.name, p.role});
      std::string name = key != model->param_keys.end() ? key->second : node.name + "." + p.role;
      SplitMix64 rng(o.seed ^ fnv1a(name));
      int64_t fan_in = weight_fan_in(node, p.shape);
      HostTensor t{dtype, p.shape, {}};
      t.values.reserve(static_cast<size_t>(p.shape.count()));
      for (int64_t i = 0; i < p.shape.count(); ++i) {
        double v = draw(rng, p.role, fan_in);
        t.values.push_back(dtype == DType::F32 ? double(float(v)) : v);
      }
      tensors.emplace_back(name, std::move(t));
    }
  }

  Status written;
  if (o.out.ends_with(".npz")) {
    written = write_npz(o.out, tensors);
  } else {
    std::error_code ec;
    std::filesystem::create_directories(o.out, ec);
    if (ec) written = make_error("io.write", "cannot create directory " + o.out + ": " + ec.message());
    for (const auto& [name, t] : tensors) {
      if (!written) break;
      written = write_npy((std::filesystem::path(o.out) / (name + ".npy")).string(), t);
    }
  }
  if (!written) {
    print_diagnostics(err, {written.error()});
    return kExitUsage;
  }
  out << "wrote " << tensors.size() << " parameter tensors (" << dtype_name(dtype) << ", seed " << o.seed << ") to "
      << o.out << "\n";
  return kExitOk;
}

}  // namespace nnref
