// nnref run: the oracle on a model and its inputs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>

#include "cli/app.hpp"
#include "checker/size_symbols.hpp"
#include "cli/commands.hpp"
#include "formats/tensor_files/npy.hpp"
#include "semantics/evaluate.hpp"
#include "semantics/size_names.hpp"

namespace nnref {

namespace {

constexpr int64_t kPrintedValues = 32;  // outputs up to this many elements are printed in full

struct NamedInput {
  std::string name;  // empty: positional
  std::string path;
};

NamedInput split_input(const std::string& arg) {
  auto eq = arg.find('=');
  if (eq == std::string::npos) return {"", arg};
  return {arg.substr(0, eq), arg.substr(eq + 1)};
}

// A per-sample tensor given for a model declared with batch 1 gets the batch axis.
HostTensor with_batch_axis(HostTensor t, const std::vector<int64_t>& declared) {
  if (declared.size() == t.shape.rank() + 1 && declared[0] == 1 &&
      std::equal(t.shape.dims().begin(), t.shape.dims().end(), declared.begin() + 1)) {
    t.shape = Shape::make(declared).value();
  }
  return t;
}

// Matches --input arguments to the model's Input nodes: by name, then the unnamed ones in order.
Result<std::vector<HostTensor>> read_inputs(const Graph& g, const std::vector<std::string>& args) {
  auto ids = g.input_ids();
  std::vector<std::optional<HostTensor>> bound(ids.size());
  std::vector<NamedInput> positional;
  for (const auto& a : args) {
    NamedInput in = split_input(a);
    if (in.name.empty()) {
      positional.push_back(in);
      continue;
    }
    size_t k = 0;
    while (k < ids.size() && g.nodes[static_cast<size_t>(ids[k])].name != in.name) ++k;
    if (k == ids.size()) return make_error("io.input-unknown", "the model has no input named '" + in.name + "'");
    if (bound[k]) return make_error("io.input-repeated", "input '" + in.name + "' is given twice");
    auto t = read_npy(in.path);
    if (!t) return std::move(t).error();
    bound[k] = std::move(t).value();
  }
  size_t next = 0;
  for (const auto& in : positional) {
    while (next < ids.size() && bound[next]) ++next;
    if (next == ids.size())
      return make_error("io.input-count", "more inputs given than the model's " + std::to_string(ids.size()));
    auto t = read_npy(in.path);
    if (!t) return std::move(t).error();
    bound[next] = std::move(t).value();
  }
  std::vector<HostTensor> out;
  for (size_t k = 0; k < ids.size(); ++k) {
    const Node& node = g.nodes[static_cast<size_t>(ids[k])];
    if (!bound[k]) return make_error("io.input-missing", "no --input given for model input '" + node.name + "'");
    out.push_back(with_batch_axis(std::move(*bound[k]), std::get<InputAttrs>(node.op).dims));
  }
  return out;
}

template <Scalar T>
Result<NamedTensors> evaluate_as(const Model& m, const std::vector<HostTensor>& inputs, int64_t max_memory,
                                 DType out_type) {
  auto r = evaluate<T>(m.graph, m.payload, inputs, EvalOptions{max_memory, m.param_keys});
  if (!r) return std::move(r).error();
  NamedTensors named;
  for (size_t k = 0; k < r->size(); ++k) {
    const Tensor<T>& t = (*r)[k];
    HostTensor h{out_type, t.shape(), {}};
    h.values.reserve(static_cast<size_t>(t.size()));
    for (const T& x : t.data()) h.values.push_back(out_type == DType::F32 ? double(float(sc::to_double(x)))
                                                                          : sc::to_double(x));
    named.emplace_back(m.graph.outputs[k].name, std::move(h));
  }
  return named;
}

// For an input whose shape differs from the declared one only in extents that have size names:
// the --dim options that run the model at the given shape ("--dim batch=2").
std::optional<std::string> dim_hint(const Model& m, const std::vector<HostTensor>& inputs, const std::string& node) {
  const auto ids = m.graph.input_ids();
  for (size_t k = 0; k < ids.size() && k < inputs.size(); ++k) {
    const Node& n = m.graph.nodes[static_cast<size_t>(ids[k])];
    const auto& declared = std::get<InputAttrs>(n.op).dims;
    const auto& given = inputs[k].shape.dims();
    if (n.name != node || given.size() != declared.size()) continue;
    std::string hint;
    for (size_t axis = 0; axis < given.size(); ++axis) {
      if (given[axis] == declared[axis]) continue;
      const auto name = std::find_if(m.size_names.begin(), m.size_names.end(),
                                     [&](const SizeName& s) { return s.node == n.id && s.axis == axis; });
      if (name == m.size_names.end()) return std::nullopt;
      hint += " --dim " + name->name + "=" + std::to_string(given[axis]);
    }
    if (!hint.empty()) return "to run the model at the given size, add" + hint;
  }
  return std::nullopt;
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

}  // namespace

int run_command(const RunOptions& o, std::ostream& out, std::ostream& err) {
  int exit = kExitOk;
  auto model = load_reporting(o.model, LoadOptions{WeightsPolicy::Required, o.max_memory}, err, exit);
  if (!model) return exit;
  // Other sizes replace the declared ones; the plan checks the model at them before it runs.
  std::vector<std::pair<std::string, int64_t>> sizes;
  for (const auto& text : o.dims) {
    auto d = parse_dim_value(text);
    if (!d) {
      print_diagnostics(err, {d.error()});
      return kExitUsage;
    }
    sizes.emplace_back(d->name, d->lo);
  }
  if (Status set = set_input_extents(model->graph, model->size_names, sizes); !set) {
    print_diagnostics(err, {set.error()});
    return kExitUsage;
  }
  auto inputs = read_inputs(model->graph, o.inputs);
  if (!inputs) {
    print_diagnostics(err, {inputs.error()});
    return exit_code_for(inputs.error());
  }

  auto start = std::chrono::steady_clock::now();
  Result<NamedTensors> outputs =
      o.precision == "f32"  ? evaluate_as<float>(*model, *inputs, o.max_memory, DType::F32)
      : o.precision == "mp" ? evaluate_as<mp50>(*model, *inputs, o.max_memory, DType::F64)
                            : evaluate_as<double>(*model, *inputs, o.max_memory, DType::F64);
  auto elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!outputs) {
    Diagnostic d = std::move(outputs).error();
    if (d.code == "input.shape-mismatch")
      if (auto hint = dim_hint(*model, *inputs, d.node)) d.notes.push_back(*hint);
    print_diagnostics(err, {d});
    return exit_code_for(d);
  }
  if (!o.output.empty()) {
    Status written = make_error("io.output-format", "--output must end in .npy or .npz: " + o.output);
    if (o.output.ends_with(".npz")) {
      written = write_npz(o.output, *outputs);
    } else if (o.output.ends_with(".npy")) {
      written = outputs->size() == 1
                    ? write_npy(o.output, outputs->front().second)
                    : Status(make_error("io.output-format", "the model has " + std::to_string(outputs->size()) +
                                                                " outputs; write them to an .npz file"));
    }
    if (!written) {
      print_diagnostics(err, {written.error()});
      return kExitUsage;
    }
  }
  if (!o.quiet) {
    for (const auto& [name, t] : *outputs) print_output(out, name, t);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f ms", elapsed);
    out << "time: " << buf << " (" << o.precision << ", " << model->graph.nodes.size() << " nodes)\n";
  }
  return kExitOk;
}

}  // namespace nnref
