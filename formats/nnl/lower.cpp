#include "formats/nnl/lower.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "formats/nnl/layers.hpp"
#include "formats/nnl/topology.hpp"

namespace nnref::nnl {

namespace {

void check_version(const Program& p, Diags& d) {
  if (!p.has_version) {
    // Without a model there is nothing to assume a version for (the parser reported the error).
    if (p.has_model) d.warning("nnl.version.missing", "no 'version 0.2;' line: assuming NNL 0.2", p.model_loc);
    return;
  }
  if (!p.version.empty() && p.version != "0.2")
    d.error("nnl.version.unsupported", "NNL version " + p.version + " is not supported (this reader knows 0.2)",
            p.version_loc);
}

// Config literals as a parameter: the nearest doubles and the decimals the file writes, which
// each interpretation reads in its own scalar (f32 rounds the decimal to float, the interval
// encloses it exactly), rather than every reading seeing a float32 value.
ParamEntry constant(const std::vector<Real>& values) {
  ParamEntry e{HostTensor{DType::F64, Shape::of({static_cast<int64_t>(values.size())}), {}}, "<preprocess>"};
  for (const Real& v : values) {
    e.tensor.values.push_back(v.value);
    e.decimals.push_back(v.decimal);
  }
  return e;
}

// The Input node and the preprocessing nodes after it; returns the value its consumers read.
ValueRef emit_input(Model& m, const LayerDecl& L, const LayerOps& ops, const Config& c, Diags& d) {
  std::vector<int64_t> dims{c.batch};
  dims.insert(dims.end(), ops.input_shape.begin(), ops.input_shape.end());
  if (checked_element_count(dims) < 0)
    d.error("nnl.input.too-large", "input '" + L.id + "' of shape " + dims_str(dims) + " has too many elements",
            L.loc, L.id);
  Graph& g = m.graph;
  int64_t in = g.add(L.id, InputAttrs{dims, ElemKind::Real}, {}, L.loc);
  if (c.preprocess == "normalize_0_1") {
    int64_t scale = g.add(L.id + "/scale", ConstAttrs{{1}}, {}, L.loc);
    m.payload.set(L.id + "/scale", "value", constant({Real(255.0)}));
    int64_t div = g.add(L.id + "/normalize", BinaryAttrs{BinaryOp::Div, Broadcast::NumpyRight},
                        {ValueRef{in, 0}, ValueRef{scale, 0}}, L.loc);
    return ValueRef{div, 0};
  }
  if (c.preprocess == "standardize") {
    int64_t channels = ops.input_shape.back();
    bool ok = true;
    auto check = [&](const std::vector<Real>& v, const char* key, const SourceLoc& loc) {
      if (static_cast<int64_t>(v.size()) != channels) {
        d.error("nnl.config.preprocess-shape",
                std::string(key) + " has " + std::to_string(v.size()) + " entries, but input '" + L.id + "' has " +
                    std::to_string(channels) + " channels (the last axis of " + dims_str(ops.input_shape) + ")",
                loc, L.id);
        ok = false;
      }
    };
    check(c.mean, "preprocess_mean", c.mean_loc);
    check(c.std, "preprocess_std", c.std_loc);
    if (!ok) return ValueRef{in, 0};
    int64_t mean = g.add(L.id + "/mean", ConstAttrs{{channels}}, {}, L.loc);
    m.payload.set(L.id + "/mean", "value", constant(c.mean));
    int64_t std = g.add(L.id + "/std", ConstAttrs{{channels}}, {}, L.loc);
    m.payload.set(L.id + "/std", "value", constant(c.std));
    int64_t sub = g.add(L.id + "/center", BinaryAttrs{BinaryOp::Sub, Broadcast::NumpyRight},
                        {ValueRef{in, 0}, ValueRef{mean, 0}}, L.loc);
    int64_t div = g.add(L.id + "/standardize", BinaryAttrs{BinaryOp::Div, Broadcast::NumpyRight},
                        {ValueRef{sub, 0}, ValueRef{std, 0}}, L.loc);
    return ValueRef{div, 0};
  }
  return ValueRef{in, 0};
}

// The model's output is its last declared layer that feeds no other (NNL v0.2 has no output
// declaration; its examples end with the output layer). Any other layer that feeds none is left
// out of the connections by mistake, most likely: it stays an output, with a warning.
void warn_extra_outputs(const Program& p, const std::vector<GraphOutput>& outputs, Diags& d) {
  if (outputs.size() < 2) return;
  const std::string& main = outputs.back().name;
  for (size_t k = 0; k + 1 < outputs.size(); ++k) {
    const auto L = std::find_if(p.layers.begin(), p.layers.end(),
                                [&](const LayerDecl& x) { return x.id == outputs[k].name; });
    Diagnostic w = make_warning("nnl.graph.extra-output",
                                "layer '" + L->id + "' is not connected to anything: no layer reads it, so it becomes "
                                "a model output besides '" + main + "'",
                                L->loc);
    w.node = L->id;
    w.notes.push_back("the model's output is its last declared layer that no layer reads ('" + main +
                      "'); connect '" + L->id + "' (" + L->id + " -> ...;) or remove it");
    d.add(std::move(w));
  }
}

}  // namespace

std::optional<Lowered> lower(const Program& p, Diags& d) {
  check_version(p, d);
  if (!p.has_model) return std::nullopt;  // the parser reported why

  Lowered out;
  out.config = check_config(p, d);
  const Config& c = out.config;

  if (p.layers.empty())
    d.error("nnl.model.no-layers", "model '" + p.model_name + "' declares no layers", p.model_loc);

  std::map<std::string, size_t> first;
  std::vector<std::optional<LayerOps>> ops(p.layers.size());
  bool has_input = false;
  for (size_t i = 0; i < p.layers.size(); ++i) {
    const LayerDecl& L = p.layers[i];
    auto [it, fresh] = first.emplace(L.id, i);
    if (!fresh) {
      d.error("nnl.layer.duplicate-id",
              "layer id '" + L.id + "' is already declared at line " + std::to_string(p.layers[it->second].loc.line),
              L.loc, L.id);
    }
    if (!L.complete) continue;  // a syntax error, already reported
    if (L.type == "Input") has_input = true;
    ops[i] = check_layer(L, d);
  }
  if (!p.layers.empty() && !has_input &&
      std::all_of(p.layers.begin(), p.layers.end(), [](const LayerDecl& L) { return L.complete; }))
    d.error("nnl.model.no-input", "model '" + p.model_name + "' has no Input layer", p.model_loc);

  Topology t = connect(p, d);
  if (d.has_errors()) return std::nullopt;

  Model& m = out.model;
  m.format = "nnl";
  m.precision = c.precision;
  std::vector<ValueRef> value(p.layers.size());
  for (size_t i : t.order) {
    const LayerDecl& L = p.layers[i];
    const LayerOps& o = *ops[i];
    if (std::holds_alternative<InputAttrs>(o.main)) {
      value[i] = emit_input(m, L, o, c, d);
      continue;
    }
    std::vector<ValueRef> inputs;
    for (size_t j : t.inputs[i]) inputs.push_back(value[j]);
    int64_t main = m.graph.add(L.id, o.main, std::move(inputs), L.loc);
    value[i] = ValueRef{main, 0};
    if (o.activation) {
      int64_t act = m.graph.add(L.id + "/" + o.activation->first, o.activation->second, {value[i]}, L.loc);
      value[i] = ValueRef{act, 0};
    }
    for (const WeightFile& w : find_layer_spec(L.type)->weights) m.param_keys[{L.id, w.role}] = L.id + "." + w.file;
  }
  for (size_t i = 0; i < p.layers.size(); ++i)
    if (!t.feeds_other[i]) m.graph.outputs.push_back(GraphOutput{p.layers[i].id, value[i]});
  warn_extra_outputs(p, m.graph.outputs, d);
  m.size_names = batched_size_names(m.graph);
  if (d.has_errors()) return std::nullopt;
  return out;
}

}  // namespace nnref::nnl
