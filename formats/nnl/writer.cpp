// Each NNL layer is the IR node(s) that lower.cpp emits for it: an Input (and its preprocessing
// nodes), a Dense's linear (and its activation node "<id>/<act>"), one node for every other layer.
// The printer groups the graph's nodes into such layers, refusing any node no layer lowers into,
// then prints them with the config that the preprocessing and the input extents imply.
#include "formats/nnl/writer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include "formats/nnl/layers.hpp"
#include "formats/tensor_files/npy.hpp"
#include "formats/write_support.hpp"

namespace nnref {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kFormat = "NNL";

[[noreturn]] void refuse(const Node& n, const std::string& why) { convert::unexpressible(kFormat, n, why); }

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// An NNL identifier for a node or output name: letters, digits and '_', not starting with a digit.
std::string identifier_for(const std::string& name) {
  std::string id;
  for (char c : name) id += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0]))) id = "l_" + id;
  return id;
}

// An NNL integer or number literal (formats/nnl/lexer.cpp) that reads as a finite double.
bool number_literal(const std::string& s) {
  double v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return convert::decimal_literal(s) && r.ec == std::errc() && std::isfinite(v);
}

// The exact decimal value of a finite double, as short as it can be written: the shortest decimal
// that reads back as it when that one is exact (0.5, 255), else every digit of its binary value
// (0.1f is 0.100000001490116119384765625), so that a reading in mp or Interval sees this value.
std::string exact_decimal(double v) {
  char exact[1024];
  std::snprintf(exact, sizeof exact, "%.767e", v);  // glibc prints the exact binary value
  std::string s(exact);
  const size_t e = s.find('e');
  size_t last = e - 1;
  while (s[last] == '0') --last;
  if (s[last] == '.') --last;
  s = s.substr(0, last + 1) + s.substr(e);
  char shortest[64];
  const auto sci = std::to_chars(shortest, shortest + sizeof shortest, v, std::chars_format::scientific).ptr;
  if (std::string(shortest, sci) != s) return s;
  const auto plain = std::to_chars(shortest, shortest + sizeof shortest, v).ptr;
  return std::string(shortest, plain);
}

// A Real as an NNL literal: the decimal the model stated, or the exact value of its double.
std::optional<std::string> literal(const Real& r) {
  if (!std::isfinite(r.value)) return std::nullopt;
  if (number_literal(r.decimal)) return r.decimal;
  return exact_decimal(r.value);
}

// 255 exactly: its double, and the decimal it states (if any) "255" or "255.0…0" (a decimal such as
// 255.000000000000000001 is not, though its double is).
bool exactly_255(const ParamEntry& e) {
  if (e.tensor.values.size() != 1 || e.tensor.values[0] != 255.0) return false;
  const std::string d = e.decimals.empty() ? "" : e.decimals[0];
  if (d.empty() || d == "255") return true;
  return d.starts_with("255.") && d.size() > 4 && d.find_first_not_of('0', 4) == std::string::npos;
}

std::string list(const std::vector<std::string>& items) {
  std::string s = "[";
  for (size_t k = 0; k < items.size(); ++k) s += (k ? ", " : "") + items[k];
  return s + "]";
}
std::string list(const std::vector<int64_t>& v) {
  std::vector<std::string> items;
  for (int64_t x : v) items.push_back(std::to_string(x));
  return list(items);
}
// kernel and stride: k for [k, k].
std::string window_value(const std::vector<int64_t>& v) {
  return v.size() == 2 && v[0] == v[1] ? std::to_string(v[0]) : list(v);
}

// The config's preprocessing, as the nodes after an Input state it.
struct Preprocess {
  std::string mode = "none";
  std::vector<std::string> mean, std;
  bool operator==(const Preprocess&) const = default;
};

struct Layer {
  std::string type;                 // "Dense"
  std::vector<std::string> params;  // "units: 3"
  const Node* head = nullptr;       // its main node (the weights' key), whose position it takes
  std::vector<ValueRef> inputs;     // the values of the layers it reads
  ValueRef value;                   // what it outputs: its last node
  bool transposed_weight = false;   // a Dense weight stored [units, in] (NNL's is [in, units])
  std::string id;
};

class Printer {
 public:
  Printer(const Model& m, const convert::Prepared& p) : m_(m), g_(p.graph), info_(p.info), owner_(g_.nodes.size(), -1) {
    readers_.resize(g_.nodes.size());
    for (const Node& n : g_.nodes)
      for (const ValueRef& r : n.inputs) readers_[static_cast<size_t>(r.node)].push_back(n.id);
    for (const GraphOutput& o : g_.outputs) ++output_uses_[{o.value.node, o.value.output}];
  }

  NnlFiles run(const std::string& model_name) {
    // Inputs first: their preprocessing constants may come anywhere before them.
    for (int64_t id : g_.input_ids()) input_layer(g_.nodes[static_cast<size_t>(id)]);
    for (const Node& n : g_.nodes) convert::require_stored_params(kFormat, g_, n);
    for (const Node& n : g_.nodes)
      if (owner_[static_cast<size_t>(n.id)] < 0) std::visit([&](const auto& a) { layer(n, a); }, n.op);
    for (Layer& L : layers_) connect(L);
    order_by_outputs();
    name_layers();
    return {text(model_name), weights()};
  }

 private:
  // ---- the graph around a node ----

  const std::vector<int64_t>& shape(ValueRef r) const {
    return info_.nodes[static_cast<size_t>(r.node)].outputs[static_cast<size_t>(r.output)].dims();
  }
  int output_uses(ValueRef r) const {
    const auto it = output_uses_.find({r.node, r.output});
    return it == output_uses_.end() ? 0 : it->second;
  }
  // The one node that reads value r, when exactly one reads it, once, and it is no model output.
  const Node* sole_reader(ValueRef r) const {
    const std::vector<int64_t>& readers = readers_[static_cast<size_t>(r.node)];
    if (readers.size() != 1 || output_uses(r) != 0) return nullptr;
    const Node& n = g_.nodes[static_cast<size_t>(readers[0])];
    return std::count(n.inputs.begin(), n.inputs.end(), r) == 1 ? &n : nullptr;
  }
  // Input k of n, when it is a constant read by n alone.
  const Node* own_constant(const Node& n, size_t k) const {
    const Node& c = g_.nodes[static_cast<size_t>(n.inputs[k].node)];
    return std::holds_alternative<ConstAttrs>(c.op) && sole_reader(ValueRef{c.id, 0}) == &n ? &c : nullptr;
  }
  // n is BinaryAttrs{op, NumpyRight} reading `from` then a [dims] constant of its own.
  const Node* binary_with_constant(const Node* n, BinaryOp op, ValueRef from, const std::vector<int64_t>& dims) const {
    const auto* b = n ? std::get_if<BinaryAttrs>(&n->op) : nullptr;
    if (!b || b->op != op || b->broadcast != Broadcast::NumpyRight || n->inputs[0] != from) return nullptr;
    const Node* c = own_constant(*n, 1);
    return c && std::get<ConstAttrs>(c->op).dims == dims ? c : nullptr;
  }
  std::vector<std::string> constant_literals(const Node& c) const {
    const ParamEntry* e = m_.payload.find(c.name, "value");
    if (!e) refuse(c, "its value is not loaded");
    std::vector<std::string> out;
    for (size_t k = 0; k < e->tensor.values.size(); ++k) {
      const Real r = k < e->decimals.size() ? Real(e->tensor.values[k], e->decimals[k]) : Real(e->tensor.values[k]);
      const auto s = literal(r);
      if (!s) refuse(c, "its value " + std::to_string(r.value) + " is not finite, and NNL's literals are");
      out.push_back(*s);
    }
    return out;
  }

  // ---- layers ----

  Layer& add(const std::string& type, const Node& head, std::vector<std::string> params = {}) {
    layers_.push_back(Layer{type, std::move(params), &head, {}, ValueRef{head.id, 0}, false, ""});
    claim(head);
    return layers_.back();
  }
  void claim(const Node& n) { owner_[static_cast<size_t>(n.id)] = static_cast<int>(layers_.size() - 1); }
  void extend(Layer& L, const Node& n) {
    claim(n);
    L.value = ValueRef{n.id, 0};
  }

  void input_layer(const Node& n) {
    const auto& a = std::get<InputAttrs>(n.op);
    if (a.kind != ElemKind::Real) refuse(n, "NNL's inputs hold real numbers");
    if (a.dims.size() < 2)
      refuse(n, "NNL's inputs are [batch, extents...]: rank 2 or more, and this one has rank " +
                    std::to_string(a.dims.size()));
    if (!batch_) batch_ = {a.dims[0], n.name};
    if (a.dims[0] != batch_->first)
      refuse(n, "its batch extent " + std::to_string(a.dims[0]) + " differs from input '" + batch_->second + "''s (" +
                    std::to_string(batch_->first) + "): NNL's config states one batch for every input");
    Layer& L = add("Input", n, {"shape: " + list(std::vector<int64_t>(a.dims.begin() + 1, a.dims.end()))});
    const Preprocess p = preprocessing(L, n);
    if (!preprocess_) preprocess_ = {p, n.name};
    if (p != preprocess_->first)
      refuse(n, "its preprocessing (" + p.mode + ") differs from input '" + preprocess_->second + "''s (" +
                    preprocess_->first.mode + "): NNL's config states one preprocessing for every input");
  }

  // normalize_0_1 is Div(input, [255]); standardize is Div(Sub(input, mean[C]), std[C]), each
  // constant read by its node alone (lower.cpp, emit_input).
  Preprocess preprocessing(Layer& L, const Node& in) {
    Preprocess p;
    const ValueRef x{in.id, 0};
    const Node* reader = sole_reader(x);
    if (const Node* scale = binary_with_constant(reader, BinaryOp::Div, x, {1})) {
      const ParamEntry* e = m_.payload.find(scale->name, "value");
      if (!e) refuse(*scale, "its value is not loaded");
      if (!exactly_255(*e)) return p;  // another divisor: the Div is refused as a node of its own
      claim(*scale);
      extend(L, *reader);
      p.mode = "normalize_0_1";
      return p;
    }
    const std::vector<int64_t> channels{shape(x).back()};
    const Node* mean = binary_with_constant(reader, BinaryOp::Sub, x, channels);
    if (!mean) return p;
    const Node* divide = sole_reader(ValueRef{reader->id, 0});
    const Node* deviation = binary_with_constant(divide, BinaryOp::Div, ValueRef{reader->id, 0}, channels);
    if (!deviation) return p;
    const std::vector<std::string> deviations = constant_literals(*deviation);
    const std::vector<double>& values = m_.payload.find(deviation->name, "value")->tensor.values;
    if (!std::all_of(values.begin(), values.end(), [](double v) { return v > 0; })) return p;  // NNL's std is positive
    p = {"standardize", constant_literals(*mean), deviations};
    for (const Node* n : {mean, reader, deviation, divide}) claim(*n);
    L.value = ValueRef{divide->id, 0};
    return p;
  }

  void layer(const Node& n, const LinearAttrs& a) {
    if (!a.has_bias) refuse(n, "NNL's Dense always adds a bias, and this one has none");
    Layer& L = add("Dense", n, {"units: " + std::to_string(a.units)});
    L.transposed_weight = a.layout == WeightLayout::OutIn;
    // Dense's activation is the node "<id>/<activation>" right after it (layers.cpp).
    const Node* act = sole_reader(ValueRef{n.id, 0});
    if (!act) return;
    const auto* u = std::get_if<UnaryAttrs>(&act->op);
    const auto* s = std::get_if<SoftmaxAttrs>(&act->op);
    std::string name;
    if (u && u->op == UnaryOp::Relu) name = "relu";
    if (u && u->op == UnaryOp::Sigmoid) name = "sigmoid";
    if (s && s->axes == std::vector<int64_t>{-1} && s->batch_axes == 1 && !s->log) name = "softmax";
    if (name.empty() || act->name != n.name + "/" + name) return;  // a layer of its own
    L.params.push_back("activation: \"" + name + "\"");
    extend(L, *act);
  }

  // The (before, after) padding a window op applies at its input extents, per spatial axis.
  template <class A>
  std::vector<std::pair<int64_t, int64_t>> pads(const Node& n, const A& a) const {
    const std::vector<int64_t>& in = shape(n.inputs[0]);
    return convert::explicit_padding(a, std::vector<int64_t>(in.begin() + 1, in.end() - 1));
  }
  template <class A>
  bool pads_nothing(const Node& n, const A& a) const {
    const auto p = pads(n, a);
    return std::all_of(p.begin(), p.end(), [](const auto& x) { return x.first == 0 && x.second == 0; });
  }
  // A conv's padding as NNL states it: "valid" (none), "same" (SameUpper's), or nullopt (another).
  // NNL's own modes are kept as stated (SameUpper may pad nothing at these extents).
  std::optional<std::string> padding(const Node& n, const ConvAttrs& a) const {
    if (a.pad_mode == PadMode::Valid) return "valid";
    if (a.pad_mode == PadMode::SameUpper) return "same";
    if (pads_nothing(n, a)) return "valid";
    ConvAttrs same = a;
    same.pad_mode = PadMode::SameUpper;
    if (pads(n, a) == pads(n, same)) return "same";
    return std::nullopt;
  }
  // The conditions both window layers share: 2 spatial axes, channels last, no dilation.
  template <class A>
  void check_window(const Node& n, const A& a) const {
    if (a.layout != Layout::ChannelsLast) refuse(n, "NNL's windows are channels last (HWC), and this one is channels first");
    if (a.kernel.size() != 2)
      refuse(n, "NNL's windows are 2-D, and this one has " + std::to_string(a.kernel.size()) + " spatial axes");
    if (std::any_of(a.dilation.begin(), a.dilation.end(), [](int64_t d) { return d != 1; }))
      refuse(n, "NNL's windows have no dilation, and this one has " + list(a.dilation));
  }

  void layer(const Node& n, const ConvAttrs& a) {
    check_window(n, a);
    if (a.groups != 1) refuse(n, "NNL's Conv2D has no groups, and this one has " + std::to_string(a.groups));
    if (!a.has_bias) refuse(n, "NNL's Conv2D always adds a bias, and this one has none");
    const auto pad = padding(n, a);
    if (!pad) refuse(n, "NNL's Conv2D pads \"valid\" (none) or \"same\" (the odd one after), and this padding is neither");
    std::vector<std::string> params{"filters: " + std::to_string(a.out_channels), "kernel: " + window_value(a.kernel)};
    const std::vector<int64_t> stride = convert::or_ones(a.stride, 2);
    if (stride != std::vector<int64_t>{1, 1}) params.push_back("stride: " + window_value(stride));
    if (*pad == "same") params.emplace_back("padding: \"same\"");
    add("Conv2D", n, std::move(params));
  }

  void layer(const Node& n, const PoolAttrs& a) {
    check_window(n, a);
    if (a.pad_mode != PadMode::Valid && !pads_nothing(n, a)) refuse(n, "NNL's pools have no padding, and this one pads");
    std::vector<std::string> params{"kernel: " + window_value(a.kernel)};
    const std::vector<int64_t> stride = convert::or_ones(a.stride, 2);
    if (stride != a.kernel) params.push_back("stride: " + window_value(stride));
    add(a.op == PoolOp::Max ? "MaxPool2D" : "AvgPool2D", n, std::move(params));
  }

  void layer(const Node& n, const FlattenAttrs& a) {
    if (a.axis != 1)
      refuse(n, "NNL's Flatten keeps the batch axis alone (axis 1), and this one keeps " + std::to_string(a.axis));
    add("Flatten", n);
  }

  void layer(const Node& n, const BatchNormAttrs& a) {
    const size_t rank = shape(n.inputs[0]).size();
    if (convert::tensor_axis(a.channel_axis, rank) != static_cast<int64_t>(rank) - 1)
      refuse(n, "NNL's BatchNorm normalizes the last axis (channels last), and this one normalizes axis " +
                    std::to_string(a.channel_axis));
    const auto eps = literal(a.epsilon);
    if (!eps || !(a.epsilon.value > 0))
      refuse(n, "NNL's epsilon is a positive number, and this one is " + std::to_string(a.epsilon.value));
    const bool default_eps = a.epsilon.value == 1e-5 && a.epsilon.decimal == "1e-5";  // layers.cpp's default
    add("BatchNorm", n, default_eps ? std::vector<std::string>{} : std::vector<std::string>{"epsilon: " + *eps});
  }

  void layer(const Node& n, const UnaryAttrs& a) {
    if (a.op == UnaryOp::Copy) add("Dropout", n);  // NNL's identity: Dropout ignores its rate
    else if (a.op == UnaryOp::Relu) add("ReLU", n);
    else if (a.op == UnaryOp::Sigmoid) add("Sigmoid", n);
    else refuse(n, "NNL v0.2's only activations are relu, sigmoid and softmax");
  }

  void layer(const Node& n, const AddNAttrs&) {
    if (n.inputs.size() < 2) refuse(n, "NNL's Add sums two or more inputs, and this one has 1");
    add("Add", n);
  }

  // NNL's axes count the per-sample axes (batch_axes 1); an IR axis that counts every axis is
  // rewritten so: the same tensor axis, never the batch axis.
  int64_t per_sample_axis(const Node& n, int64_t axis, size_t batch_axes) const {
    if (batch_axes == 1) return axis;
    const size_t rank = shape(n.inputs[0]).size();
    const int64_t t = convert::tensor_axis(axis, rank, batch_axes);
    if (t < 1) refuse(n, "its axis is the batch axis, which NNL's axes do not count");
    return axis < 0 ? axis : t - 1;
  }
  static std::vector<std::string> axis_params(int64_t axis) {
    return axis == -1 ? std::vector<std::string>{} : std::vector<std::string>{"axis: " + std::to_string(axis)};
  }

  void layer(const Node& n, const ConcatAttrs& a) {
    if (n.inputs.size() < 2) refuse(n, "NNL's Concat joins two or more inputs, and this one has 1");
    if (a.kind != ElemKind::Real) refuse(n, "NNL's layers hold real numbers");
    add("Concat", n, axis_params(per_sample_axis(n, a.axis, a.batch_axes)));
  }

  void layer(const Node& n, const SoftmaxAttrs& a) {
    if (a.log) refuse(n, "NNL v0.2 has no log-softmax");
    if (a.axes.size() != 1) refuse(n, "NNL's Softmax normalizes one axis, and this one " + std::to_string(a.axes.size()));
    add("Softmax", n, axis_params(per_sample_axis(n, a.axes[0], a.batch_axes)));
  }

  void layer(const Node& n, const ConstAttrs&) {
    refuse(n, "NNL states no constants but its preprocessing (normalize_0_1's 255, standardize's per-channel mean "
              "and std), read right after an Input");
  }
  void layer(const Node& n, const BinaryAttrs&) {
    refuse(n, "NNL's only elementwise arithmetic is its preprocessing right after an Input (and Add, which sums "
              "inputs of one shape)");
  }
  // Unreachable: run() makes every input a layer first.
  void layer(const Node& n, const InputAttrs&) { refuse(n, "an input is its own layer"); }
  template <class A>
  void layer(const Node& n, const A&) {
    refuse(n, "NNL v0.2 has no such layer (its layers: Input, Dense, Conv2D, MaxPool2D, AvgPool2D, Flatten, "
              "BatchNorm, Dropout, Add, Concat, ReLU, Sigmoid, Softmax)");
  }

  // ---- connections, outputs, names ----

  int layer_of(ValueRef r) const {
    const int l = owner_[static_cast<size_t>(r.node)];
    return l >= 0 && layers_[static_cast<size_t>(l)].value == r ? l : -1;
  }

  void connect(Layer& L) {
    for (const ValueRef& r : L.head->inputs) {
      if (layer_of(r) < 0) {
        const Node& inner = g_.nodes[static_cast<size_t>(r.node)];
        refuse(*L.head, "it reads node '" + inner.name + "', which is inside NNL layer '" +
                            layers_[static_cast<size_t>(owner_[static_cast<size_t>(r.node)])].head->name +
                            "': NNL's layers read whole layers");
      }
      L.inputs.push_back(r);
    }
  }

  // NNL's outputs are the layers no layer reads, in declaration order (lower.cpp): every model
  // output must be such a layer, every such layer an output, and the declaration order has them
  // in the model's output order.
  void order_by_outputs() {
    std::vector<bool> read(layers_.size(), false);
    for (const Layer& L : layers_)
      for (const ValueRef& r : L.inputs) read[static_cast<size_t>(layer_of(r))] = true;
    std::vector<int> outputs;
    for (const GraphOutput& o : g_.outputs) {
      const Node& n = g_.nodes[static_cast<size_t>(o.value.node)];
      const int l = layer_of(o.value);
      if (l < 0) refuse(n, "it is model output '" + o.name + "' inside an NNL layer: NNL's outputs are whole layers");
      if (read[static_cast<size_t>(l)])
        refuse(n, "it is model output '" + o.name + "' and other layers read it: NNL's outputs are exactly the layers "
                  "no layer reads");
      if (std::find(outputs.begin(), outputs.end(), l) != outputs.end())
        refuse(n, "it is two model outputs, and an NNL layer is one");
      outputs.push_back(l);
      output_names_[l] = o.name;
    }
    for (size_t l = 0; l < layers_.size(); ++l)
      if (!read[l] && !output_names_.count(static_cast<int>(l)))
        refuse(*layers_[l].head, "no node reads it and it is no model output: NNL would make it one (its outputs are "
                                 "exactly the layers no layer reads)");
    // The IR's order (topological) when it already lists the outputs in order; else each output
    // after its ancestors, in turn.
    std::vector<int> order(layers_.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int>(k);
    const auto head = [&](int l) { return layers_[static_cast<size_t>(l)].head->id; };
    std::sort(order.begin(), order.end(), [&](int a, int b) { return head(a) < head(b); });
    const auto pos = [&](int l) { return std::find(order.begin(), order.end(), l) - order.begin(); };
    bool in_order = true;
    for (size_t k = 1; k < outputs.size(); ++k) in_order = in_order && pos(outputs[k - 1]) < pos(outputs[k]);
    order_ = in_order ? order : ancestors_first(outputs, order);
  }
  // Every output with its ancestors not yet placed before it, in the IR's order.
  std::vector<int> ancestors_first(const std::vector<int>& outputs, const std::vector<int>& ir_order) const {
    std::vector<bool> placed(layers_.size(), false), needed(layers_.size(), false);
    std::vector<int> order;
    for (int out : outputs) {
      needed[static_cast<size_t>(out)] = true;
      for (auto it = ir_order.rbegin(); it != ir_order.rend(); ++it)  // readers before what they read
        if (needed[static_cast<size_t>(*it)])
          for (const ValueRef& r : layers_[static_cast<size_t>(*it)].inputs) needed[static_cast<size_t>(layer_of(r))] = true;
      for (int l : ir_order)
        if (needed[static_cast<size_t>(l)] && !placed[static_cast<size_t>(l)]) {
          order.push_back(l);
          placed[static_cast<size_t>(l)] = true;
        }
    }
    return order;
  }

  // Layer ids: an output layer takes its output's name where that is a free identifier (NNL names
  // an output by its layer); every other layer its main node's name, made an identifier.
  void name_layers() {
    std::set<std::string> used;
    for (const auto& [l, name] : output_names_)
      if (is_identifier(name) && used.insert(name).second) layers_[static_cast<size_t>(l)].id = name;
    for (int l : order_) {
      Layer& L = layers_[static_cast<size_t>(l)];
      if (!L.id.empty()) continue;
      const std::string base = identifier_for(L.head->name);
      L.id = base;
      for (int k = 2; !used.insert(L.id).second; ++k) L.id = base + "_" + std::to_string(k);
    }
  }

  const std::string& id_of(ValueRef r) const { return layers_[static_cast<size_t>(layer_of(r))].id; }

  // A chain from one Input, each layer reading the one before: NNL's implicit connections.
  bool sequential() const {
    for (size_t k = 0; k < order_.size(); ++k) {
      const Layer& L = layers_[static_cast<size_t>(order_[k])];
      if ((k == 0) != (L.type == "Input")) return false;
      if (k > 0 && (L.inputs.size() != 1 || layer_of(L.inputs[0]) != order_[k - 1])) return false;
    }
    return true;
  }

  std::string text(const std::string& model_name) const {
    std::string s = "version 0.2;\n\nmodel " + model_name + " {\n  config {\n";
    s += "    precision: \"" + m_.precision + "\";\n";
    s += "    weights: \"./" + std::string(kNnlWeightsFile) + "\";\n";
    s += "    batch: " + std::to_string(batch_->first) + ";\n";
    const Preprocess& p = preprocess_->first;
    if (p.mode != "none") s += "    preprocess: \"" + p.mode + "\";\n";
    if (p.mode == "standardize") s += "    preprocess_mean: " + list(p.mean) + ";\n    preprocess_std: " + list(p.std) + ";\n";
    s += "  }\n\n";
    for (int l : order_) {
      const Layer& L = layers_[static_cast<size_t>(l)];
      std::string params;
      for (const std::string& q : L.params) params += (params.empty() ? "" : ", ") + q;
      s += "  layer " + L.id + " = " + L.type + "(" + params + ");\n";
    }
    if (sequential()) return s + "}\n";
    s += "\n  connections {\n";
    for (int l : order_) {
      const Layer& L = layers_[static_cast<size_t>(l)];
      if (L.inputs.empty()) continue;
      std::vector<std::string> from;
      for (const ValueRef& r : L.inputs) from.push_back(id_of(r));
      s += "    " + (from.size() == 1 ? from[0] : list(from)) + " -> " + L.id + ";\n";
    }
    return s + "  }\n}\n";
  }

  // Each layer's weight files (layers.cpp's table), "<id>.<file>", the parameter's tensor as it is
  // (a Dense weight stored [units, in] is written [in, units], NNL's layout).
  std::vector<std::pair<std::string, HostTensor>> weights() const {
    std::vector<std::pair<std::string, HostTensor>> out;
    for (int l : order_) {
      const Layer& L = layers_[static_cast<size_t>(l)];
      for (const nnl::WeightFile& w : nnl::find_layer_spec(L.type)->weights) {
        const ParamEntry* e = m_.payload.find(L.head->name, w.role);
        if (!e)
          refuse(*L.head, std::string("its parameter '") + w.role + "' has no value (the model was loaded without weights)");
        HostTensor t = e->tensor;
        if (L.transposed_weight && std::string_view(w.role) == "weight") t = transpose_2d(t);
        out.emplace_back(L.id + "." + w.file, std::move(t));
      }
    }
    return out;
  }
  static HostTensor transpose_2d(const HostTensor& t) {
    const int64_t rows = t.shape.dims()[0], cols = t.shape.dims()[1];
    HostTensor out{t.dtype, Shape::of({cols, rows}), std::vector<double>(t.values.size())};
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        out.values[static_cast<size_t>(c * rows + r)] = t.values[static_cast<size_t>(r * cols + c)];
    return out;
  }

  const Model& m_;
  const Graph& g_;
  const GraphInfo& info_;
  std::vector<int> owner_;                    // per node: the index of its layer, -1 before one claims it
  std::vector<std::vector<int64_t>> readers_; // per node: the nodes that read one of its outputs
  std::map<std::pair<int64_t, int>, int> output_uses_;
  std::vector<Layer> layers_;
  std::map<int, std::string> output_names_;   // per layer index: the model output it is
  std::vector<int> order_;                    // the layers' indices in declaration order
  std::optional<std::pair<int64_t, std::string>> batch_;      // the batch extent, and the input that set it
  std::optional<std::pair<Preprocess, std::string>> preprocess_;
};

// The model's name: its file's stem, or its folder's name for a model.nnl or a folder.
std::string model_name(const std::string& model_path) {
  fs::path p = fs::path(model_path).lexically_normal();
  if (p.filename().empty() || p.filename() == kNnlModelFile || p.filename() == "graph.nnef") p = p.parent_path();
  const std::string stem = p.stem().string();
  return identifier_for(stem.empty() ? "model" : stem);
}

}  // namespace

Result<NnlFiles> print_nnl(const Model& model, const WriteOptions& options) {
  Result<convert::Prepared> p = convert::prepare(model, options, kFormat, true);
  if (!p) return std::move(p).error();
  if (p->graph.input_ids().empty())
    return make_error("convert.unexpressible",
                      "NNL cannot express a model without inputs: every NNL model reads an Input layer");
  try {
    return Printer(model, *p).run(model_name(model.path));
  } catch (const convert::Unexpressible& u) {
    return u.d;
  }
}

std::vector<Diagnostic> write_nnl(const Model& model, const std::string& out_dir, const WriteOptions& options) {
  Result<NnlFiles> files = print_nnl(model, options);
  if (!files) return {std::move(files).error()};
  if (auto d = convert::make_folder(out_dir)) return {*d};
  const fs::path dir(out_dir);
  if (auto d = convert::write_file(dir / kNnlModelFile, files->text)) return {*d};
  if (Status s = write_npz((dir / kNnlWeightsFile).string(), files->weights); !s) return {std::move(s).error()};
  return {};
}

}  // namespace nnref
