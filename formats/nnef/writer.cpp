// Each IR op as the NNEF standard operation that lower_ops.cpp lowers into it, with the same
// attributes; where NNEF's op has a narrower form (channels first only, left-aligned broadcasting,
// axes that count every axis) the writer adds the data movement that makes the formula the same:
// transposes around a channels-last conv or pool, unsqueezes before a NumPy-broadcast operand.
#include "formats/nnef/writer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "formats/nnef/dat.hpp"
#include "formats/nnef/lower_ops.hpp"
#include "formats/nnef/parser.hpp"
#include "formats/write_support.hpp"

namespace nnref {

namespace {

namespace fs = std::filesystem;
using convert::axis_to_1;
using convert::inverse;
using convert::iota;
using convert::unexpressible;

constexpr std::string_view kFormat = "NNEF";

// An NNEF identifier for a node or output name: letters, digits and '_', not starting with a
// digit, not a keyword.
std::string identifier_for(const std::string& name) { return convert::identifier(name, nnef::is_keyword); }

// A label (§5.1): letters, digits, '_', '-' and '/' (no '.', so no component is "..").
std::string label_for(const std::string& name) {
  std::string label;
  for (char c : name) label += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '/' ? c : '_';
  while (!label.empty() && label[0] == '/') label.erase(0, 1);
  return label.empty() ? "t" : label;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A decimal the NNEF lexer reads as a scalar literal: one with a '.' or an exponent.
bool scalar_literal(const std::string& s) {
  bool real = false;
  return convert::decimal_literal(s, &real) && real;
}

// A Real as a scalar literal: the decimal the model stated, or the shortest decimal that reads back
// as the same double.
std::optional<std::string> scalar_text(const Real& r) {
  if (!std::isfinite(r.value)) return std::nullopt;
  if (scalar_literal(r.decimal)) return r.decimal;
  char buf[64];
  const auto end = std::to_chars(buf, buf + sizeof buf, r.value).ptr;
  std::string s(buf, end);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string list(const std::vector<int64_t>& v) { return convert::int_list(v); }

std::string pair_list(const std::vector<std::pair<int64_t, int64_t>>& v) {
  std::string s = "[";
  for (size_t k = 0; k < v.size(); ++k)
    s += (k ? ", (" : "(") + std::to_string(v[k].first) + ", " + std::to_string(v[k].second) + ")";
  return s + "]";
}

std::string logical(bool b) { return b ? "true" : "false"; }

template <class Map, class V>
std::string name_of(const Map& m, V v) {
  for (const auto& [name, op] : m)
    if (op == v) return name;
  return "";
}

struct DatFile {
  std::string label;
  HostTensor tensor;
};

class Emitter {
 public:
  Emitter(const Model& m, const convert::Prepared& p) : m_(m), g_(p.graph), info_(p.info) {
    for (const GraphOutput& o : g_.outputs) {
      const std::string id = identifier_for(o.name);
      if (!reserved_.insert(id).second) continue;
      // The value takes the output's name unless it is an input's (then a copy is the output).
      if (!std::holds_alternative<InputAttrs>(g_.nodes[static_cast<size_t>(o.value.node)].op) &&
          !output_names_.count({o.value.node, o.value.output}))
        output_names_[{o.value.node, o.value.output}] = id;
    }
  }

  void run() {
    names_.resize(g_.nodes.size());
    for (const Node& n : g_.nodes) {
      // A variable's identifier is chosen with its label (node() below).
      if (std::holds_alternative<ConstAttrs>(n.op)) names_[static_cast<size_t>(n.id)].emplace_back();
      for (size_t k = names_[static_cast<size_t>(n.id)].size(); k < info_.nodes[static_cast<size_t>(n.id)].outputs.size(); ++k) {
        const auto it = output_names_.find({n.id, static_cast<int>(k)});
        names_[static_cast<size_t>(n.id)].push_back(it != output_names_.end() ? it->second
                                                                                : fresh(identifier_for(n.name)));
      }
      convert::require_stored_params(kFormat, g_, n);
      std::visit([&](const auto& a) { node(n, a); }, n.op);
    }
    for (const GraphOutput& o : g_.outputs) {
      const std::string id = identifier_for(o.name);
      if (std::find(outputs_.begin(), outputs_.end(), id) != outputs_.end()) continue;
      if (value(o.value) != id) line(id, "copy(" + value(o.value) + ")");
      outputs_.push_back(id);
    }
  }

  std::string document(const std::string& graph_name) const {
    std::string inputs;
    for (int64_t id : g_.input_ids()) inputs += (inputs.empty() ? "" : ", ") + names_[static_cast<size_t>(id)][0];
    std::string outputs;
    for (const std::string& o : outputs_) outputs += (outputs.empty() ? "" : ", ") + o;
    return "version 1.0;\n\ngraph " + graph_name + "( " + inputs + " ) -> ( " + outputs + " )\n{\n" + body_.str() + "}\n";
  }
  const std::vector<DatFile>& files() const { return files_; }

 private:
  // ---- names and statements ----

  std::string fresh(const std::string& base) {
    std::string id = base;
    for (int k = 2; reserved_.count(id) || !used_.insert(id).second; ++k) id = base + "_" + std::to_string(k);
    return id;
  }
  void line(const std::string& lhs, const std::string& rhs) { body_ << "    " << lhs << " = " << rhs << ";\n"; }
  // A helper tensor of node n: "<n>_<what> = rhs;".
  std::string helper(const Node& n, const std::string& what, const std::string& rhs) {
    const std::string id = fresh(identifier_for(n.name) + "_" + what);
    line(id, rhs);
    return id;
  }
  void result(const Node& n, const std::string& rhs) { line(names_[static_cast<size_t>(n.id)][0], rhs); }

  std::string value(ValueRef r) const { return names_[static_cast<size_t>(r.node)][static_cast<size_t>(r.output)]; }
  const std::vector<int64_t>& shape(ValueRef r) const {
    return info_.nodes[static_cast<size_t>(r.node)].outputs[static_cast<size_t>(r.output)].dims();
  }
  const std::vector<int64_t>& out_shape(const Node& n) const { return info_.nodes[static_cast<size_t>(n.id)].outputs[0].dims(); }

  std::string scalar(const Node& n, const Real& r, const char* what) {
    const auto s = scalar_text(r);
    if (!s) unexpressible(kFormat, n, std::string(what) + " is not finite, and NNEF literals are");
    return *s;
  }

  // A variable holding this tensor (shape `shape`, the same values) in its own .dat file.
  std::string variable(const Node& n, const std::string& role, HostTensor t, const std::vector<int64_t>& shape) {
    std::string label = label_for(n.name) + (role.empty() ? "" : "/" + role);
    for (int k = 2; !labels_.insert(lower(label)).second; ++k) label = label_for(n.name) + "_" + std::to_string(k) + (role.empty() ? "" : "/" + role);
    const std::string id = fresh(identifier_for(n.name) + (role.empty() ? "" : "_" + role));
    line(id, "variable(shape = " + list(shape) + ", label = '" + label + "')");
    t.shape = Shape::make(shape).value();
    files_.push_back({label, std::move(t)});
    return id;
  }
  std::string param(const Node& n, const std::string& role, const std::vector<int64_t>& shape) {
    const ParamEntry* e = m_.payload.find(n.name, role);
    if (!e) unexpressible(kFormat, n, "its parameter '" + role + "' has no value (the model was loaded without weights)");
    return variable(n, role, e->tensor, shape);
  }

  // Operand k of n as NNEF's left-aligned broadcasting reads it: under NumPy's rule a shorter
  // operand first gains leading axes of extent 1 (unsqueeze<?>: data movement only, of any kind).
  std::string aligned(const Node& n, size_t k, Broadcast b) {
    const size_t rank = out_shape(n).size(), r = shape(n.inputs[k]).size();
    if (b != Broadcast::NumpyRight || r == rank) return value(n.inputs[k]);
    return helper(n, "operand" + std::to_string(k),
                  "unsqueeze(" + value(n.inputs[k]) + ", axes = " + list(iota(0, static_cast<int64_t>(rank - r))) + ")");
  }
  std::string operands(const Node& n, Broadcast b) {
    std::string s;
    for (size_t k = 0; k < n.inputs.size(); ++k) s += (k ? ", " : "") + aligned(n, k, b);
    return s;
  }

  std::string transposed(const Node& n, const std::string& x, const std::vector<int64_t>& perm, const std::string& what) {
    return helper(n, what, "transpose(" + x + ", axes = " + list(perm) + ")");
  }

  // ---- one function per op ----

  void node(const Node& n, const InputAttrs& a) {
    // scalar is the generic type's default (§4.1): written only for the others.
    const char* type = a.kind == ElemKind::Real ? "" : a.kind == ElemKind::Integer ? "<integer>" : "<logical>";
    result(n, std::string("external") + type + "(shape = " + list(a.dims) + ")");
  }

  // A constant the model states in decimal is an NNEF literal of the same decimals (each reading
  // rounds them as the original does); any other is a variable with its own .dat file.
  void node(const Node& n, const ConstAttrs& a) {
    const ParamEntry* e = m_.payload.find(n.name, "value");
    if (!e) unexpressible(kFormat, n, "its value is not loaded");
    if (a.kind != ElemKind::Real) return typed_constant(n, a, e->tensor);
    const bool decimal = !e->decimals.empty() && std::all_of(e->decimals.begin(), e->decimals.end(), scalar_literal);
    if (!decimal) {
      names_[static_cast<size_t>(n.id)][0] = variable(n, "", e->tensor, a.dims);
      return;
    }
    std::string values;
    for (const std::string& d : e->decimals) values += (values.empty() ? "" : ", ") + d;
    name_constant(n);
    result(n, "constant(shape = " + list(a.dims) + ", value = [" + values + "])");
  }

  // A literal constant takes the output's name, or a fresh one from the node's.
  void name_constant(const Node& n) {
    const auto out = output_names_.find({n.id, 0});
    names_[static_cast<size_t>(n.id)][0] = out != output_names_.end() ? out->second : fresh(identifier_for(n.name));
  }
  // An integer or logical constant: its items as NNEF literals (the IR holds them as doubles,
  // exact integers up to 2^53).
  void typed_constant(const Node& n, const ConstAttrs& a, const HostTensor& t) {
    const bool integer = a.kind == ElemKind::Integer;
    std::string values;
    for (double v : t.values)
      values += (values.empty() ? "" : ", ") + (integer ? std::to_string(static_cast<int64_t>(v)) : logical(v != 0));
    name_constant(n);
    result(n, std::string(integer ? "constant<integer>" : "constant<logical>") + "(shape = " + list(a.dims) +
                  ", value = [" + values + "])");
  }

  void node(const Node& n, const UnaryAttrs& a) {
    const std::string x = value(n.inputs[0]);
    if (a.op == UnaryOp::Elu || a.op == UnaryOp::LeakyRelu)
      return result(n, std::string(a.op == UnaryOp::Elu ? "elu" : "leaky_relu") + "(" + x + ", alpha = " +
                           scalar(n, a.alpha, "alpha") + ")");
    const std::string name = name_of(nnef::unary_ops(), a.op);
    if (name.empty())
      unexpressible(kFormat, n, "NNEF 1.0 has no " + op_name(a) +
                                    " (round is floor(x + 0.5); erf and the roundings to float16 and bfloat16 are not among "
                                    "its operations)");
    result(n, name + "(" + x + ")");
  }

  void node(const Node& n, const BinaryAttrs& a) {
    const std::string name = name_of(nnef::binary_ops(), a.op);
    if (name.empty()) unexpressible(kFormat, n, "NNEF 1.0 has no " + op_name(a) + " (no remainder among its operations)");
    result(n, name + "(" + operands(n, a.broadcast) + ")");
  }
  void node(const Node& n, const CompareAttrs& a) {
    result(n, name_of(nnef::compare_ops(), a.op) + "(" + operands(n, a.broadcast) + ")");
  }
  void node(const Node& n, const LogicalAttrs& a) {
    result(n, name_of(nnef::logical_ops(), a.op) + "(" + operands(n, a.broadcast) + ")");
  }
  void node(const Node& n, const AddNAttrs&) {
    if (n.inputs.size() == 1) return result(n, "copy(" + value(n.inputs[0]) + ")");
    result(n, "add_n([" + operands(n, Broadcast::Equal) + "])");
  }
  void node(const Node& n, const ClampAttrs& a) { result(n, "clamp(" + operands(n, a.broadcast) + ")"); }
  void node(const Node& n, const PreluAttrs& a) { result(n, "prelu(" + operands(n, a.broadcast) + ")"); }
  void node(const Node& n, const SelectAttrs& a) { result(n, "select(" + operands(n, a.broadcast) + ")"); }

  // broadcast_to: the input with its axes aligned, then tiled along the axes of extent 1 (copies).
  void node(const Node& n, const BroadcastToAttrs& a) {
    if (!a.computed.empty()) unexpressible(kFormat, n, "its dims are computed from extents, and NNEF 1.0's are numbers");
    const std::vector<int64_t>& in = shape(n.inputs[0]);
    std::string x = value(n.inputs[0]);
    const auto missing = static_cast<int64_t>(a.dims.size() - in.size());
    std::vector<int64_t> aligned = in;
    if (missing > 0 && a.broadcast != Broadcast::Equal) {
      const bool leading = a.broadcast == Broadcast::NumpyRight;
      const auto first = static_cast<int64_t>(leading ? 0 : in.size());
      x = helper(n, "aligned", "unsqueeze(" + x + ", axes = " + list(iota(first, first + missing)) + ")");
      aligned.insert(leading ? aligned.begin() : aligned.end(), static_cast<size_t>(missing), 1);
    }
    std::vector<int64_t> repeats;
    for (size_t k = 0; k < a.dims.size(); ++k) repeats.push_back(aligned[k] == a.dims[k] ? 1 : a.dims[k]);
    if (std::all_of(repeats.begin(), repeats.end(), [](int64_t r) { return r == 1; })) return result(n, "copy(" + x + ")");
    result(n, "tile(" + x + ", repeats = " + list(repeats) + ")");
  }

  // linear's filter is [units, in]: an IR weight [in, units] is written transposed.
  void node(const Node& n, const LinearAttrs& a) {
    const ParamEntry* w = m_.payload.find(n.name, "weight");
    if (!w) unexpressible(kFormat, n, "its weight is not loaded");
    const int64_t in = shape(n.inputs[0])[1];
    HostTensor t = w->tensor;
    if (a.layout == WeightLayout::InOut)
      for (int64_t u = 0; u < a.units; ++u)
        for (int64_t i = 0; i < in; ++i) t.values[static_cast<size_t>(u * in + i)] = w->tensor.values[static_cast<size_t>(i * a.units + u)];
    const std::string f = variable(n, "weight", std::move(t), {a.units, in});
    const std::string b = a.has_bias ? param(n, "bias", {1, a.units}) : "0.0";
    result(n, "linear(" + value(n.inputs[0]) + ", " + f + ", " + b + ")");
  }

  void node(const Node& n, const MatMulAttrs& a) {
    result(n, "matmul(" + value(n.inputs[0]) + ", " + value(n.inputs[1]) + ", transposeA = " + logical(a.transpose_a) +
                  ", transposeB = " + logical(a.transpose_b) + ")");
  }

  // NNEF's windows are channels first: a channels-last input is transposed there and back.
  template <class A>
  void windowed(const Node& n, const A& a, const std::string& op, const std::string& args) {
    const std::vector<int64_t>& in = shape(n.inputs[0]);
    std::string x = value(n.inputs[0]);
    const bool last = a.layout == Layout::ChannelsLast;
    if (last) x = transposed(n, x, convert::to_channels_first(in.size()), "channels_first");
    const std::string call = op + "(" + x + args + ")";
    if (!last) return result(n, call);
    result(n, "transpose(" + helper(n, op, call) + ", axes = " + list(convert::to_channels_last(in.size())) + ")");
  }
  template <class A>
  std::vector<int64_t> spatial_in(const Node& n, const A& a) const {
    const std::vector<int64_t>& in = shape(n.inputs[0]);
    const size_t first = window::first_spatial_axis(a.layout);
    return {in.begin() + static_cast<ptrdiff_t>(first), in.begin() + static_cast<ptrdiff_t>(first + a.kernel.size())};
  }
  // [] for NNEF's automatic padding, which is SameUpper's; the (before, after) pairs otherwise.
  template <class A>
  std::vector<std::pair<int64_t, int64_t>> padding(const Node& n, const A& a) const {
    if (a.pad_mode == PadMode::SameUpper) return {};
    return convert::explicit_padding(a, spatial_in(n, a));
  }

  void node(const Node& n, const ConvAttrs& a) {
    const ParamEntry* w = m_.payload.find(n.name, "weight");
    if (!w) unexpressible(kFormat, n, "its weight is not loaded");
    const std::string f = variable(n, "weight", w->tensor, w->tensor.shape.dims());
    const std::string b = a.has_bias ? param(n, "bias", {1, a.out_channels}) : "0.0";
    // An empty stride or dilation is all 1s in both the IR and NNEF (§4.3.1).
    windowed(n, a, "conv",
             ", " + f + ", " + b + ", border = 'constant', padding = " + pair_list(padding(n, a)) + ", stride = " +
                 list(a.stride) + ", dilation = " + list(a.dilation) + ", groups = " + std::to_string(a.groups));
  }

  // deconv's padding is explicit in the IR (empty: zeros); NNEF's empty padding is automatic.
  void node(const Node& n, const DeconvAttrs& a) {
    const ParamEntry* w = m_.payload.find(n.name, "weight");
    if (!w) unexpressible(kFormat, n, "its weight is not loaded");
    const std::string f = variable(n, "weight", w->tensor, w->tensor.shape.dims());
    const std::string b = a.has_bias ? param(n, "bias", {1, a.out_channels}) : "0.0";
    std::vector<std::pair<int64_t, int64_t>> pad = a.padding;
    if (pad.empty()) pad.assign(a.kernel.size(), {0, 0});
    result(n, "deconv(" + value(n.inputs[0]) + ", " + f + ", " + b + ", border = 'constant', padding = " + pair_list(pad) +
                  ", stride = " + list(a.stride) + ", dilation = " + list(a.dilation) + ", groups = " +
                  std::to_string(a.groups) + ")");
  }

  // NNEF's windows (the pools, argmax_pool, sample, desample) cover every axis: 1 on batch and
  // channel (an empty stride or dilation stays empty: all 1s).
  static std::vector<int64_t> whole(std::vector<int64_t> v) {
    if (!v.empty()) v.insert(v.begin(), {1, 1});
    return v;
  }
  // The padding is that of the up-scaled tensor, whose spatial extents are `up` ([] for NNEF's
  // automatic padding, SameUpper's).
  template <class A>
  static std::string whole_window(const A& a, const std::string& border, const std::vector<int64_t>& up) {
    std::vector<std::pair<int64_t, int64_t>> pad;
    if (a.pad_mode != PadMode::SameUpper) pad = convert::explicit_padding(a, up);
    if (!pad.empty()) pad.insert(pad.begin(), {{0, 0}, {0, 0}});
    return ", size = " + list(whole(a.kernel)) + ", border = '" + border + "', padding = " + pair_list(pad) +
           ", stride = " + list(whole(a.stride)) + ", dilation = " + list(whole(a.dilation));
  }

  // A sum pool is box without normalization (§4.3.2).
  void node(const Node& n, const PoolAttrs& a) {
    const bool sum = a.op == PoolOp::Sum;
    windowed(n, a, a.op == PoolOp::Max ? "max_pool" : sum ? "box" : "avg_pool",
             whole_window(a, a.border == PoolBorder::Ignore ? "ignore" : "constant", spatial_in(n, a)) +
                 (sum ? ", normalize = false" : ""));
  }

  void node(const Node& n, const ArgmaxPoolAttrs& a) {
    windowed(n, a, "argmax_pool", whole_window(a, a.border == PoolBorder::Ignore ? "ignore" : "constant", spatial_in(n, a)));
  }
  // desample's output_shape is stated, so that NNEF's reader needs no default for it.
  void node(const Node& n, const SampleAttrs& a) {
    const bool sample = a.op == SampleOp::Sample;
    const std::vector<int64_t> up = sample ? spatial_in(n, a) : std::vector<int64_t>(a.output_shape.begin() + 2, a.output_shape.end());
    const std::string args = ", " + value(n.inputs[1]) + whole_window(a, "constant", up);
    if (sample) return result(n, "sample(" + value(n.inputs[0]) + args + ")");
    result(n, "desample(" + value(n.inputs[0]) + args + ", output_shape = " + list(a.output_shape) + ")");
  }

  // batch_normalization normalises axis 1: another channel axis is moved there and back.
  void node(const Node& n, const BatchNormAttrs& a) {
    const std::vector<int64_t>& in = shape(n.inputs[0]);
    const int64_t axis = convert::tensor_axis(a.channel_axis, in.size());
    const int64_t c = in[static_cast<size_t>(axis)];
    const std::vector<int64_t> perm = axis_to_1(in.size(), axis);
    const bool moved = axis != 1;
    std::string x = value(n.inputs[0]);
    if (moved) x = transposed(n, x, perm, "channels_first");
    std::string args = x;
    for (const char* role : {"mean", "variance", "offset", "scale"}) args += ", " + param(n, role, {1, c});
    const std::string call = "batch_normalization(" + args + ", epsilon = " + scalar(n, a.epsilon, "epsilon") + ")";
    if (!moved) return result(n, call);
    result(n, "transpose(" + helper(n, "normalized", call) + ", axes = " + list(inverse(perm)) + ")");
  }

  void node(const Node& n, const LayerNormAttrs&) {
    unexpressible(kFormat, n, "NNEF 1.0 has no layer normalization (its moments-based fragments compute another formula)");
  }

  void node(const Node& n, const SoftmaxAttrs& a) {
    if (a.log) unexpressible(kFormat, n, "NNEF 1.0 has no log_softmax (log of softmax is another formula where softmax underflows)");
    const size_t rank = shape(n.inputs[0]).size();
    result(n, "softmax(" + value(n.inputs[0]) + ", axes = " + list(convert::tensor_axes(a.axes, rank, a.batch_axes)) + ")");
  }

  // The NNEF reductions keep the reduced axes; the IR's keep_dims false squeezes them after.
  void node(const Node& n, const ReduceAttrs& a) {
    static const std::map<ReduceOp, const char*> names = {
        {ReduceOp::Sum, "sum_reduce"}, {ReduceOp::Mean, "mean_reduce"}, {ReduceOp::Max, "max_reduce"}, {ReduceOp::Min, "min_reduce"}};
    if (!names.count(a.op)) unexpressible(kFormat, n, "NNEF 1.0 has no " + op_name(a));
    if (a.kind != ElemKind::Real) unexpressible(kFormat, n, "NNEF 1.0's " + op_name(a) + " takes scalar tensors, not integer ones");
    const std::vector<int64_t> axes = convert::tensor_axes(a.axes, shape(n.inputs[0]).size());
    const std::string call = std::string(names.at(a.op)) + "(" + value(n.inputs[0]) + ", axes = " + list(axes) + ")";
    if (a.keep_dims) return result(n, call);
    result(n, "squeeze(" + helper(n, "kept", call) + ", axes = " + list(axes) + ")");
  }

  // NNEF's argmax/argmin and all/any reductions keep the reduced axes, as the IR's do. NNEF's ties
  // go to the first index (its reading in nnref): the last has no NNEF form.
  void node(const Node& n, const ArgReduceAttrs& a) {
    if (a.last) unexpressible(kFormat, n, op_name(a) + " with ties to the last index: NNEF's goes to the first");
    result(n, std::string(a.op == ArgReduceOp::Max ? "argmax_reduce" : "argmin_reduce") + "(" + value(n.inputs[0]) +
                  ", axes = " + list(convert::tensor_axes(a.axes, shape(n.inputs[0]).size())) + ")");
  }
  void node(const Node& n, const LogicalReduceAttrs& a) {
    result(n, std::string(a.op == LogicalReduceOp::All ? "all_reduce" : "any_reduce") + "(" + value(n.inputs[0]) +
                  ", axes = " + list(convert::tensor_axes(a.axes, shape(n.inputs[0]).size())) + ")");
  }
  // Unreachable: convert::prepare spells interpolate out (formats/interpolate_expansion.hpp).
  void node(const Node& n, const InterpolateAttrs&) { unexpressible(kFormat, n, "interpolate is written as its composition"); }
  void node(const Node& n, const GatherAttrs& a) {
    result(n, "gather(" + value(n.inputs[0]) + ", " + value(n.inputs[1]) + ", axis = " +
                  std::to_string(convert::tensor_axis(a.axis, shape(n.inputs[0]).size())) + ")");
  }
  void node(const Node& n, const RoiAttrs& a) {
    std::string call = op_name(a) + "(" + value(n.inputs[0]) + ", " + value(n.inputs[1]) + ", " + value(n.inputs[2]) +
                       ", output_size = " + list(a.output_size);
    if (a.op == RoiOp::Resample) call += std::string(", method = '") + roi_method_name(a.method) + "'";
    result(n, call + ")");
  }
  void node(const Node& n, const CastAttrs& a) {
    const char* type = a.to == ElemKind::Real ? "scalar" : a.to == ElemKind::Integer ? "integer" : "logical";
    result(n, std::string("cast<") + type + ">(" + value(n.inputs[0]) + ")");
  }

  void node(const Node& n, const ReshapeAttrs& a) {
    if (!a.computed.empty()) unexpressible(kFormat, n, "its dims are computed from extents, and NNEF 1.0's are numbers");
    result(n, "reshape(" + value(n.inputs[0]) + ", shape = " + list(a.dims) + ")");
  }
  void node(const Node& n, const SizesAttrs&) { unexpressible(kFormat, n, "NNEF 1.0 has no sizes computed from extents"); }
  void node(const Node& n, const CumsumAttrs&) { unexpressible(kFormat, n, "NNEF 1.0 has no cumulative sum"); }
  void node(const Node& n, const ContractAttrs&) {
    unexpressible(kFormat, n, "an NNEF 2.0 @lower body run as a contraction program is not written as NNEF 1.0");
  }
  void node(const Node& n, const RangeAttrs&) {
    unexpressible(kFormat, n, "NNEF 1.0 has no range (start + i·delta: ONNX's Range)");
  }
  void node(const Node& n, const IntegerBinaryAttrs& a) {
    unexpressible(kFormat, n, "NNEF 1.0 has no " + op_name(a) + " (its arithmetic takes scalar tensors, not integer ones)");
  }
  // flatten keeps the first `axis` extents (reshape's 0 copies one) and collapses the rest (-1).
  void node(const Node& n, const FlattenAttrs& a) {
    std::vector<int64_t> dims(static_cast<size_t>(a.axis), 0);
    dims.push_back(-1);
    result(n, "reshape(" + value(n.inputs[0]) + ", shape = " + list(dims) + ")");
  }
  void node(const Node& n, const TransposeAttrs& a) {
    result(n, "transpose(" + value(n.inputs[0]) + ", axes = " + list(a.perm) + ")");
  }
  void node(const Node& n, const ConcatAttrs& a) {
    const int64_t axis = convert::tensor_axis(a.axis, shape(n.inputs[0]).size(), a.batch_axes);
    result(n, "concat([" + operands(n, Broadcast::Equal) + "], axis = " + std::to_string(axis) + ")");
  }
  void node(const Node& n, const SplitAttrs& a) {
    const int64_t axis = convert::tensor_axis(a.axis, shape(n.inputs[0]).size());
    std::string lhs = "[";
    for (const std::string& part : names_[static_cast<size_t>(n.id)]) lhs += (lhs.size() > 1 ? ", " : "") + part;
    line(lhs + "]", "split(" + value(n.inputs[0]) + ", axis = " + std::to_string(axis) + ", ratios = " + list(a.ratios) + ")");
  }
  void node(const Node& n, const SliceAttrs& a) {
    if (!a.computed.empty()) unexpressible(kFormat, n, "its bounds are computed from extents, and NNEF 1.0's are numbers");
    result(n, "slice(" + value(n.inputs[0]) + ", axes = " + list(convert::tensor_axes(a.axes, shape(n.inputs[0]).size())) +
                  ", begin = " + list(a.begin) + ", end = " + list(a.end) +
                  (a.stride.empty() ? "" : ", stride = " + list(a.stride)) + ")");
  }
  void node(const Node& n, const PadAttrs& a) {
    if (a.kind != ElemKind::Real) unexpressible(kFormat, n, "NNEF 1.0's pad takes a scalar tensor, and this one is " + std::string(elem_kind_name(a.kind)));
    if (!a.computed.code.empty()) unexpressible(kFormat, n, "its padding is computed from extents, and NNEF 1.0's are numbers");
    static const std::map<PadBorder, const char*> borders = {
        {PadBorder::Constant, "constant"}, {PadBorder::Reflect, "reflect"}, {PadBorder::Replicate, "replicate"}, {PadBorder::ReflectEven, "reflect-even"}};
    result(n, "pad(" + value(n.inputs[0]) + ", padding = " + pair_list(a.padding) + ", border = '" + borders.at(a.border) +
                  "', value = " + scalar(n, a.value, "the padding value") + ")");
  }
  void node(const Node& n, const SqueezeAttrs& a) {
    result(n, "squeeze(" + value(n.inputs[0]) + ", axes = " + list(convert::tensor_axes(a.axes, shape(n.inputs[0]).size())) + ")");
  }
  void node(const Node& n, const UnsqueezeAttrs& a) {
    result(n, "unsqueeze(" + value(n.inputs[0]) + ", axes = " + list(convert::tensor_axes(a.axes, out_shape(n).size())) + ")");
  }

  const Model& m_;
  const Graph& g_;
  const GraphInfo& info_;
  std::map<std::pair<int64_t, int>, std::string> output_names_;
  std::set<std::string> reserved_, used_, labels_;
  std::vector<std::vector<std::string>> names_;  // per node, per output: its identifier
  std::vector<std::string> outputs_;
  std::ostringstream body_;
  std::vector<DatFile> files_;
};

}  // namespace

std::vector<Diagnostic> write_nnef(const Model& model, const std::string& out_dir, const WriteOptions& options) {
  return convert::emit<Emitter>(model, options, kFormat, [&](const Emitter& e) -> std::vector<Diagnostic> {
    if (auto d = convert::make_folder(out_dir)) return {*d};
    const fs::path dir(out_dir);
    if (auto d = convert::write_file(dir / "graph.nnef", e.document(identifier_for(convert::model_name(model.path)))))
      return {*d};
    for (const DatFile& f : e.files())
      if (auto d = convert::write_file(dir / (f.label + ".dat"), nnef::write_dat(f.tensor))) return {*d};
    return {};
  });
}

}  // namespace nnref
