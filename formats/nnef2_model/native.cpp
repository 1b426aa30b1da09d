// The standard operators that are an nnref IR op (or a few), with their
// attributes translated from the bound invocation: what the composition worked
// out (shape symbols, paddings, offsets) is read from its symbols, so the IR op
// gets the definition's own values. docs/nnef2.md has the table.
#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>
#include <tuple>

#include "formats/nnef2_model/native_common.hpp"
#include "spec/size_program.hpp"

namespace nnref::nnef2 {

namespace native {
namespace {

void require_null(const BoundInvocation& b, const std::string& op, const std::vector<std::string>& attributes) {
  for (const std::string& a : attributes)
    if (!sym(b, a).is_null())
      refuse("nnef2.native.attribute", op + " with attribute '" + a + "' has no native mapping yet");
}
void require_string(const BoundInvocation& b, const std::string& op, const std::string& attribute,
                    const std::string& value) {
  if (sym(b, attribute).s != value)
    refuse("nnef2.native.attribute", op + " with " + attribute + " = " + show(sym(b, attribute)) +
                                         " has no native mapping yet (only '" + value + "')");
}

Build unary(UnaryOp op) {
  return [op](Builder& c, const BoundInvocation& b, const std::string& node) {
    return one(c.add_node1(node, UnaryAttrs{op, Real(0.0)}, {sym(b, "x")}));
  };
}

// The arithmetic operators of reals.
Build binary(BinaryOp op) { return elementwise(BinaryAttrs{op, Broadcast::NumpyRight}); }

std::vector<Val> relu(Builder& c, const BoundInvocation& b, const std::string& node) {
  require_null(b, "nn.relu", {"max"});
  const Val& alpha = sym(b, "alpha");
  // max(x, alpha·x) is leaky_relu for the alphas in [0, 1] that relu's @assert
  // allows.
  if (alpha.is_null()) return one(c.add_node1(node, UnaryAttrs{UnaryOp::Relu, Real(0.0)}, {sym(b, "x")}));
  return one(c.add_node1(node, UnaryAttrs{UnaryOp::LeakyRelu, Real(alpha.r)}, {sym(b, "x")}));
}

// prelu's slope alpha[s[axis]] viewed at the input's rank, its extent on the axis.
std::vector<Val> prelu(Builder& c, const BoundInvocation& b, const std::string& node) {
  const Val& x = sym(b, "x");
  const int64_t d = integer(b, "d"), axis = integer(b, "axis") < 0 ? integer(b, "axis") + d : integer(b, "axis");
  std::vector<int64_t> extents(static_cast<size_t>(d), 1);
  extents[static_cast<size_t>(axis)] = x.shape[static_cast<size_t>(axis)];
  const Val alpha = reshaped(c, sym(b, "alpha"), extents, node);
  return one(c.add_node1(node, PreluAttrs{Broadcast::NumpyRight}, {x, alpha}));
}

std::vector<Val> elu(Builder& c, const BoundInvocation& b, const std::string& node) {
  return one(c.add_node1(node, UnaryAttrs{UnaryOp::Elu, Real(sym(b, "alpha").r)}, {sym(b, "x")}));
}

std::vector<Val> softmax(Builder& c, const BoundInvocation& b, const std::string& node) {
  return one(c.add_node1(node, SoftmaxAttrs{ints(b, "axes"), 0, false}, {sym(b, "input")}));
}

// reshape, flatten, unflatten, squeeze and unsqueeze move no element in row-major order.
std::vector<Val> view(Builder& c, const BoundInvocation& b, const std::string& node) {
  return one(as_output_shape(c, b, sym(b, b.env.symbols.count("input") ? "input" : "x"), node));
}

std::vector<Val> transpose(Builder& c, const BoundInvocation& b, const std::string& node) {
  TransposeAttrs t;
  t.kind = kind_of(sym(b, "input").elem);
  for (int64_t k = 0; k < integer(b, "_axis"); ++k) t.perm.push_back(k);
  for (int64_t p : ints(b, "_perm")) t.perm.push_back(p);
  return one(c.add_node1(node, t, {sym(b, "input")}));
}

std::vector<Val> concat(Builder& c, const BoundInvocation& b, const std::string& node) {
  ConcatAttrs a;
  a.axis = integer(b, "axis");
  a.kind = kind_of(sym(b, "inputs").items.at(0).elem);
  return one(c.add_node1(node, a, sym(b, "inputs").items));
}

// split along `axis` into the parts of `sizes` (the definition's, from `count` if given): nnref's split by
// ratios, the sizes themselves (their sum is the extent: each part is its size). A part of size 0
// has no IR form.
std::vector<Val> split(Builder& c, const BoundInvocation& b, const std::string& node) {
  const Val& input = sym(b, "input");
  SplitAttrs a;
  a.axis = integer(b, "axis");
  a.ratios = ints(b, "sizes");
  a.kind = kind_of(input.elem);
  if (std::any_of(a.ratios.begin(), a.ratios.end(), [](int64_t s) { return s <= 0; }))
    refuse("nnef2.native.attribute",
           "layout.split into a part of size 0 has no native mapping (nnref's split "
           "gives every part one index at least)");
  return c.add_node(node, a, {input});
}

// unstack along `axis`: nnref's split into parts of 1, each viewed at its output's extents (the axis
// dropped when `squeeze`).
std::vector<Val> unstack(Builder& c, const BoundInvocation& b, const std::string& node) {
  const Val& input = sym(b, "input");
  SplitAttrs a;
  a.axis = integer(b, "axis");
  a.ratios.assign(b.output_shapes.size(), 1);
  a.kind = kind_of(input.elem);
  std::vector<Val> parts = c.add_node(node, a, {input});
  for (size_t k = 0; k < parts.size(); ++k)
    parts[k] = reshaped(c, parts[k], b.output_shapes[k], node + "_" + std::to_string(k));
  return parts;
}

std::vector<Val> matmul(Builder& c, const BoundInvocation& b, const std::string& node) {
  if (!sym(b, "C").is_null())
    refuse("nnef2.native.attribute", "linalg.matmul with its input C has no native mapping yet");
  MatMulAttrs m{sym(b, "transA").b, sym(b, "transB").b};
  // nnref's matmul takes operands of one rank: the lower-rank one gets 1s before its batch
  // extents, as the definition's ea and eb align them.
  const Val &matrix_a = sym(b, "A"), &matrix_b = sym(b, "B");
  const size_t rank = std::max(matrix_a.shape.size(), matrix_b.shape.size());
  const auto at_rank = [&](const Val& v) {
    std::vector<int64_t> extents(rank - v.shape.size(), 1);
    extents.insert(extents.end(), v.shape.begin(), v.shape.end());
    return reshaped(c, v, extents, node);
  };
  return one(c.add_node1(node, m, {at_rank(matrix_a), at_rank(matrix_b)}));
}

// A filter (and bias) that are variables become the IR node's parameters;
// nnref's conv and linear take them as data.
void bind_filter_and_bias(Builder& c, const BoundInvocation& b) {
  c.bind_param(sym(b, "filter"), "weight");
  if (!sym(b, "bias").is_null()) c.bind_param(sym(b, "bias"), "bias");
}
void require_variables(Builder& c, const BoundInvocation& b, const std::string& op) {
  for (const char* role : {"filter", "bias"}) {
    const Val& v = sym(b, role);
    if (!v.is_null() && !c.is_variable(v))
      refuse("nnef2.native.computed-parameter",
             op + " with a computed " + role + ": nnref's op takes its " + role + " as data (a @variable)");
  }
}

std::vector<Val> linear(Builder& c, const BoundInvocation& b, const std::string& node) {
  require_variables(c, b, "nn.linear");
  LinearAttrs l;
  l.units = integer(b, "n");
  l.layout = WeightLayout::OutIn;
  l.has_bias = !sym(b, "bias").is_null();
  const Val y = c.add_node1(node, l, {sym(b, "input")});
  bind_filter_and_bias(c, b);
  return one(y);
}

// The window of conv and the pools as the IR takes it: before = the
// definition's offset, after = its total padding minus the offset, so the IR's
// extent formula is the definition's (⌊⌋ or ⌈⌉). The draft's automatic padding
// can be negative (it crops when the stride does not divide the input); the IR
// pads by at least 0, so that case is refused. The padding before each spatial
// axis: the definition's offset; avg_pool, composed of sum_pools, has none of
// its own, and gets sum_pool's (the given padding, or half the total, aligned).
std::vector<int64_t> offsets(const BoundInvocation& b, const std::vector<int64_t>& total) {
  if (const Val* offset = find_sym(b, "offset")) return as_ints(*offset);
  const Val& padding = sym(b, "padding");
  if (!padding.is_null()) {
    const std::vector<int64_t> p = as_ints(padding);
    return std::vector<int64_t>(p.begin(), p.begin() + static_cast<long>(p.size() / 2));
  }
  std::vector<int64_t> out;
  const bool upper = sym(b, "padding_align").s == "UPPER";
  for (int64_t t : total) {
    const int64_t floor_half = t >= 0 ? t / 2 : -((1 - t) / 2);  // paddings / 2, floored
    out.push_back(upper ? floor_half : t - floor_half);          // paddings \ 2 = t - ⌊t/2⌋
  }
  return out;
}

int64_t ceil_div(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -(-a / b); }

// In ceil mode the definition's extent is ⌈(in + total − window)/s⌉ + 1; the IR's also drops a last
// window that starts in the padding after (ONNX's and PyTorch's rule). Where they differ, refused.
void check_ceil_extents(const BoundInvocation& b, const std::string& op, const std::vector<int64_t>& in,
                        const std::vector<std::pair<int64_t, int64_t>>& padding) {
  const std::vector<int64_t> stride = ints(b, "stride"), window = ints(b, "fd");
  for (size_t k = 0; k < in.size(); ++k) {
    const int64_t span = in[k] + padding[k].first + padding[k].second - window[k];
    const int64_t definition = ceil_div(span, stride[k]) + 1;
    if (std::min(definition, ceil_div(in[k] + padding[k].first, stride[k])) != definition)
      refuse("nnef2.native.ceil-window", op + ": in ceil mode, the last window of spatial axis " + std::to_string(k) +
                                             " starts in the padding after the input, which nnref's windowed ops drop");
  }
}

template <class A>
void set_window(A& a, const BoundInvocation& b, const std::string& op, const std::vector<int64_t>& size,
                const std::vector<int64_t>& in) {
  a.kernel = size;
  a.stride = ints(b, "stride");
  a.dilation = ints(b, "dilation");
  const std::vector<int64_t> total = ints(b, "paddings"), before = offsets(b, total);
  for (size_t k = 0; k < total.size(); ++k) {
    if (before[k] < 0 || total[k] - before[k] < 0)
      refuse("nnef2.native.cropping", op + ": the padding of spatial axis " + std::to_string(k) + " is (" +
                                          std::to_string(before[k]) + ", " + std::to_string(total[k] - before[k]) +
                                          "), which crops the input; nnref's "
                                          "windowed ops pad by at least 0");
    a.padding.emplace_back(before[k], total[k] - before[k]);
  }
  a.pad_mode = sym(b, "ceil_mode").b ? PadMode::ExplicitCeil : PadMode::Explicit;
  if (a.pad_mode == PadMode::ExplicitCeil) check_ceil_extents(b, op, in, a.padding);
}

// conv and deconv: NCX layouts, the filter and bias @variables (bound as the node's parameters),
// the groups; `a` holds the rest of the op's attributes.
template <class A>
std::vector<Val> filtered(Builder& c, const BoundInvocation& b, const std::string& op, A a, const std::string& node) {
  require_string(b, op, "data_format", "NCX");
  require_string(b, op, "filter_format", "NCX");
  require_variables(c, b, op);
  a.groups = integer(b, "g");
  a.has_bias = !sym(b, "bias").is_null();
  const Val y = c.add_node1(node, a, {sym(b, "input")});
  bind_filter_and_bias(c, b);
  return one(y);
}

std::vector<Val> conv(Builder& c, const BoundInvocation& b, const std::string& node) {
  ConvAttrs a;
  a.out_channels = integer(b, "n");
  set_window(a, b, "nn.conv", ints(b, "fx"), ints(b, "ix"));
  return filtered(c, b, "nn.conv", a, node);
}

// deconv's window in the output: output position o = stride·i + dilation·j − offset, the IR's
// (o + p − j·d) = k·s with p = offset; the padding after is what makes the IR's extent
// (ix − 1)·s + fd − p − q the definition's ox (output_size too). Both may be negative: the
// definition's guarded writes skip what falls outside the output, as the IR's do.
std::vector<Val> deconv(Builder& c, const BoundInvocation& b, const std::string& node) {
  DeconvAttrs a;
  a.out_channels = integer(b, "oc");
  a.kernel = ints(b, "fx");
  a.stride = ints(b, "stride");
  a.dilation = ints(b, "dilation");
  const std::vector<int64_t> in = ints(b, "ix"), fd = ints(b, "fd"), offset = ints(b, "offset"), out = ints(b, "ox");
  for (size_t k = 0; k < in.size(); ++k)
    a.padding.emplace_back(offset[k], (in[k] - 1) * a.stride[k] + fd[k] - offset[k] - out[k]);
  return filtered(c, b, "nn.deconv", a, node);
}

// cumsum's @compose adds the items along the axis one by one onto 0.0 (in reverse when `reverse`),
// each output the sum after (or, when `exclusive`, before) its item: the IR's cumsum, whose sum is
// accumulated from 0 in the same order.
std::vector<Val> cumsum(Builder& c, const BoundInvocation& b, const std::string& node) {
  CumsumAttrs a;
  a.axis = integer(b, "axis");
  a.exclusive = sym(b, "exclusive").b;
  a.reverse = sym(b, "reverse").b;
  return one(c.add_node1(node, a, {sym(b, "input")}));
}

// The pools over the spatial axes [2, d) (their default): the IR's pool over
// [N, C, spatial...].
Build pool(PoolOp op, const std::string& name) {
  return [op, name](Builder& c, const BoundInvocation& b, const std::string& node) {
    const int64_t d = integer(b, "d");
    std::vector<int64_t> spatial;
    for (int64_t k = 2; k < d; ++k) spatial.push_back(k);
    std::vector<int64_t> axes = ints(b, "axes");
    for (int64_t& a : axes) a = a < 0 ? a + d : a;
    if (axes != spatial || spatial.empty())
      refuse("nnef2.native.attribute", name + " over axes " + show(sym(b, "axes")) +
                                           " has no native mapping yet (only the spatial axes [2, rank))");
    PoolAttrs p;
    p.op = op;
    // A guarded index that leaves the input is omitted: max and sum read only
    // real elements; avg_pool's ignore_border counts only them, otherwise it
    // divides by the whole window.
    const Val* ignore = find_sym(b, "ignore_border");
    p.border = ignore && !ignore->b ? PoolBorder::Constant : PoolBorder::Ignore;
    set_window(p, b, name, ints(b, "size"), ints(b, "sa"));
    return one(c.add_node1(node, p, {sym(b, "input")}));
  };
}

// The reductions over their axes (counted from 0), keeping them as extents 1 unless squeezed.
Build reduce(ReduceOp op) {
  return [op](Builder& c, const BoundInvocation& b, const std::string& node) {
    ReduceAttrs r;
    r.op = op;
    const int64_t d = integer(b, "d");
    for (int64_t a : ints(b, "axes")) r.axes.push_back(a < 0 ? a + d : a);
    r.keep_dims = !sym(b, "squeeze").b;
    if (r.axes.empty()) return one(c.add_node1(node, UnaryAttrs{UnaryOp::Copy, Real(0.0)}, {sym(b, "input")}));
    return one(c.add_node1(node, r, {sym(b, "input")}));
  };
}

// nnref's batch_normalization takes mean, variance, scale and offset as data: the definition's
// missing scale is 1 and its missing bias 0 (its @compose skips them).
std::vector<Val> batch_norm(Builder& c, const BoundInvocation& b, const std::string& node) {
  for (const char* role : {"mean", "variance", "scale", "bias"})
    if (!sym(b, role).is_null() && !c.is_variable(sym(b, role)))
      refuse("nnef2.native.computed-parameter",
             std::string("nn.batch_norm with a computed ") + role + ": nnref's op takes it as data (a @variable)");
  BatchNormAttrs a;
  a.epsilon = Real(sym(b, "epsilon").r);
  a.channel_axis = integer(b, "align");
  const Val y = c.add_node1(node, a, {sym(b, "input")});
  const int64_t channels = integer(b, "c");
  c.bind_param(sym(b, "mean"), "mean");
  c.bind_param(sym(b, "variance"), "variance");
  for (const auto& [role, param, fill] : {std::tuple{"scale", "scale", 1.0}, std::tuple{"bias", "offset", 0.0}}) {
    if (!sym(b, role).is_null()) {
      c.bind_param(sym(b, role), param);
    } else {
      c.bind_constant(param, std::vector<double>(static_cast<size_t>(channels), fill));
    }
  }
  return one(y);
}

const std::map<std::string, Build>& table() {
  static const std::map<std::string, Build> all = [] {
    std::map<std::string, Build> t;
    const std::map<std::string, UnaryOp> unaries = {
        {"math.iden", UnaryOp::Copy},       {"math.neg", UnaryOp::Neg},     {"math.rcp", UnaryOp::Rcp},
        {"math.sqr", UnaryOp::Sqr},         {"math.sqrt", UnaryOp::Sqrt},   {"math.rsqr", UnaryOp::Rsqr},
        {"math.rsqrt", UnaryOp::Rsqrt},     {"math.exp", UnaryOp::Exp},     {"math.log", UnaryOp::Log},
        {"math.log2", UnaryOp::Log2},       {"math.sin", UnaryOp::Sin},     {"math.cos", UnaryOp::Cos},
        {"math.tan", UnaryOp::Tan},         {"math.sinh", UnaryOp::Sinh},   {"math.cosh", UnaryOp::Cosh},
        {"math.tanh", UnaryOp::Tanh},       {"math.asin", UnaryOp::Asin},   {"math.acos", UnaryOp::Acos},
        {"math.atan", UnaryOp::Atan},       {"math.asinh", UnaryOp::Asinh}, {"math.acosh", UnaryOp::Acosh},
        {"math.atanh", UnaryOp::Atanh},     {"math.abs", UnaryOp::Abs},     {"math.sign", UnaryOp::Sign},
        {"math.floor", UnaryOp::Floor},     {"math.ceil", UnaryOp::Ceil},   {"nn.sigmoid", UnaryOp::Sigmoid},
        {"nn.softplus", UnaryOp::Softplus}, {"nn.erf", UnaryOp::Erf}};
    for (const auto& [name, op] : unaries) t[name] = unary_by_type(name, unary(op));
    t["math.iden"] = identity(unary(UnaryOp::Copy));
    const std::map<std::string, BinaryOp> binaries = {{"math.add", BinaryOp::Add}, {"math.sub", BinaryOp::Sub},
                                                      {"math.mul", BinaryOp::Mul}, {"math.div", BinaryOp::Div},
                                                      {"math.pow", BinaryOp::Pow}, {"math.min", BinaryOp::Min},
                                                      {"math.max", BinaryOp::Max}};
    for (const auto& [name, op] : binaries) t[name] = by_type(name, reals(name, binary(op)));
    add_kind_operators(t);
    const std::map<std::string, Build> real_ops = {{"nn.relu", relu},
                                                   {"nn.elu", elu},
                                                   {"nn.prelu", prelu},
                                                   {"nn.softmax", softmax},
                                                   {"nn.linear", linear},
                                                   {"nn.conv", conv},
                                                   {"nn.deconv", deconv},
                                                   {"nn.max_pool", pool(PoolOp::Max, "nn.max_pool")},
                                                   {"nn.avg_pool", pool(PoolOp::Avg, "nn.avg_pool")},
                                                   {"nn.sum_pool", pool(PoolOp::Sum, "nn.sum_pool")},
                                                   {"linalg.matmul", matmul},
                                                   {"nn.batch_norm", batch_norm},
                                                   {"math.cumsum", cumsum}};
    for (const auto& [name, build] : real_ops) t[name] = reals(name, build);
    const std::map<std::string, ReduceOp> reductions = {{"math.sum_reduce", ReduceOp::Sum},
                                                        {"math.mean_reduce", ReduceOp::Mean},
                                                        {"math.max_reduce", ReduceOp::Max},
                                                        {"math.min_reduce", ReduceOp::Min},
                                                        {"math.prod_reduce", ReduceOp::Prod}};
    for (const auto& [name, op] : reductions) t[name] = reals(name, reduce(op));
    for (const char* v : {"layout.reshape", "layout.flatten", "layout.unflatten", "layout.squeeze", "layout.unsqueeze"})
      t[v] = view;
    t["layout.transpose"] = transpose;
    t["layout.concat"] = concat;
    t["layout.split"] = split;
    t["layout.unstack"] = unstack;
    return t;
  }();
  return all;
}

}  // namespace
}  // namespace native

std::optional<std::vector<Val>> build_native(Builder& b, const std::string& name, const BoundInvocation& bound,
                                             const std::string& node_name) {
  const auto it = native::table().find(name);
  if (it == native::table().end() || !native::mapped_for(name, bound)) return std::nullopt;
  std::vector<Val> out;
  try {
    out = it->second(b, bound, node_name);
  } catch (const std::out_of_range&) {
    refuse("nnef2.internal", name + ": the native mapping reads a symbol the definition does not bind");
  }
  for (size_t k = 0; k < out.size() && k < bound.output_types.size(); ++k)
    if (out[k].elem != bound.output_types[k])
      refuse("nnef2.internal", name + ": nnref's IR op gives a " + type_name(out[k].elem) + " tensor where the " +
                                   "definition gives " + type_name(bound.output_types[k]) +
                                   " (a defect of the native mapping)");
  for (size_t k = 0; k < out.size() && k < bound.output_shapes.size(); ++k)
    if (out[k].shape != bound.output_shapes[k])
      refuse("nnef2.internal", name + ": nnref's IR op gives the shape " + show(Val::ints(out[k].shape)) +
                                   " where the definition gives " + show(Val::ints(bound.output_shapes[k])) +
                                   " (a defect of the native mapping)");
  return out;
}

std::vector<std::string> native_operators() {
  std::vector<std::string> out;
  for (const auto& [name, build] : native::table()) out.push_back(name);
  return out;
}

}  // namespace nnref::nnef2
