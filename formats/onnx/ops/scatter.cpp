// The ONNX ops that write updates at positions their indices name: ScatterElements, Scatter (its
// name up to opset 10) and ScatterND, every reduction of opsets 11–18; MaxUnpool (windows.cpp) is
// a scatter too.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"
#include "formats/onnx/tensor_proto.hpp"

namespace nnref::onnx_format {

namespace {

// The composition compares every row with every update's target: P·K comparisons, and P·K·Π rest
// selected elements. Past this many, refused by name (an IR scatter op would be the linear form).
constexpr int64_t kScatterBound = int64_t{1} << 24;

ValueRef real_literal(Ctx& c, const std::string& suffix, double v) { return c.literal(suffix, scalar_tensor(v)); }

// Whether some element of the logical x is true over `axes` (kept at extent 1): the max of its 0s
// and 1s as reals, above 0. Exact; a real reduce, which every writer writes (ONNX has no reduction
// of bools).
ValueRef any_over(Ctx& c, const std::string& suffix, ValueRef x, std::vector<int64_t> axes) {
  const ValueRef ones = c.emit(suffix + "-real", CastAttrs{ElemKind::Logical, ElemKind::Real}, {x});
  const ValueRef most = c.emit(suffix + "-max", ReduceAttrs{ReduceOp::Max, std::move(axes), true}, {ones});
  return c.emit(suffix, CompareAttrs{CompareOp::Gt, Broadcast::NumpyRight},
                {most, real_literal(c, suffix + "-zero", 0)});
}

ValueRef reshaped_to(Ctx& c, const std::string& suffix, ValueRef x, std::vector<int64_t> shape, ElemKind kind) {
  return c.emit(suffix, ReshapeAttrs{std::move(shape), kind}, {x});
}

}  // namespace

// With m[p, k] = (rows[k] = p), the updates that land on row p, u[k] for m[p, k]:
//   none: their common value where every one is the same (max = min), NaN where they differ (the
//         spec leaves duplicate indices under none undefined: no value, never a pick among them);
//   add:  data[p] + Σ_k u[k];  mul: data[p]·Π_k u[k];  max / min: max(data[p], max_k u[k]), ...
// and data[p] where none lands. Each reduction is IR reduce over k of select(m, u, its identity)
// (0, 1, −∞, +∞), so the element a runtime adds or multiplies in a loop is the same sum or
// product (in another order: the conform bound is of the exact result). An index out of range
// (rows −1) makes every element NaN: ONNX gives such a scatter no result.
ValueRef scattered(Ctx& c, ValueRef data, ValueRef updates, ValueRef rows, int64_t P, int64_t K,
                   const std::vector<int64_t>& rest, ScatterReduction how) {
  int64_t per_row = 1;
  for (int64_t e : rest) per_row *= e;
  if (P == 0 || K == 0 || per_row == 0)
    c.refuse("onnx.shape-unsupported", "a scatter of no rows or no updates is not supported");
  if (P > kScatterBound / K || P * K > kScatterBound / per_row)  // P·K·Π rest > 2^24, without overflow
    c.refuse("onnx.shape-unsupported", "the scatter compares each of " + std::to_string(P) + " rows with each of " +
                                           std::to_string(K) + " updates, beyond nnref's bound of 2^24");
  const auto laid = [&](int64_t first, int64_t second) {  // [first, second, 1 per axis of rest]
    std::vector<int64_t> shape{first, second};
    shape.resize(2 + rest.size(), 1);
    return shape;
  };
  const ValueRef positions =
      c.emit("positions", CastAttrs{ElemKind::Integer, ElemKind::Real},
             {reshaped_to(c, "positions-laid",
                          integer_range(c, "positions", {size_code::kConstant, 0}, {size_code::kConstant, P}), {P, 1},
                          ElemKind::Integer)});
  const ValueRef targets = c.emit("targets", CastAttrs{ElemKind::Integer, ElemKind::Real},
                                  {reshaped_to(c, "targets-laid", rows, {1, K}, ElemKind::Integer)});
  const ValueRef match = reshaped_to(
      c, "match", c.emit("match-grid", CompareAttrs{CompareOp::Eq, Broadcast::NumpyRight}, {positions, targets}),
      laid(P, K), ElemKind::Logical);
  std::vector<int64_t> row_shape{P};  // [P, 1 per axis of rest]
  row_shape.resize(1 + rest.size(), 1);
  const ValueRef hit = reshaped_to(c, "hit", any_over(c, "hit-any", match, {1}), row_shape, ElemKind::Logical);
  std::vector<int64_t> update_shape{1, K};
  update_shape.insert(update_shape.end(), rest.begin(), rest.end());
  const ValueRef u = reshaped_to(c, "updates-laid", updates, update_shape, ElemKind::Real);
  const auto reduced = [&](const std::string& n, ReduceOp op, double identity) {
    const ValueRef chosen = c.emit(n + "-chosen", SelectAttrs{Broadcast::NumpyRight},
                                   {match, u, real_literal(c, n + "-identity", identity)});
    return c.emit(n, ReduceAttrs{op, {1}, false}, {chosen});
  };
  const double inf = std::numeric_limits<double>::infinity();
  ValueRef written;
  switch (how) {
    case ScatterReduction::None: {
      const ValueRef high = reduced("highest", ReduceOp::Max, -inf), low = reduced("lowest", ReduceOp::Min, inf);
      const ValueRef same = c.emit("same", CompareAttrs{CompareOp::Eq, Broadcast::NumpyRight}, {high, low});
      written = c.emit("written", SelectAttrs{Broadcast::NumpyRight},
                       {same, high, real_literal(c, "differing", std::numeric_limits<double>::quiet_NaN())});
      break;
    }
    case ScatterReduction::Add:
      written = binary(c, "written", BinaryOp::Add, data, reduced("sum", ReduceOp::Sum, 0));
      break;
    case ScatterReduction::Mul:
      written = binary(c, "written", BinaryOp::Mul, data, reduced("product", ReduceOp::Prod, 1));
      break;
    case ScatterReduction::Max:
      written = binary(c, "written", BinaryOp::Max, data, reduced("highest", ReduceOp::Max, -inf));
      break;
    case ScatterReduction::Min:
      written = binary(c, "written", BinaryOp::Min, data, reduced("lowest", ReduceOp::Min, inf));
      break;
  }
  const ValueRef result = c.emit("result", SelectAttrs{Broadcast::NumpyRight}, {hit, written, data});
  const ValueRef outside =
      c.emit("outside", CompareAttrs{CompareOp::Lt, Broadcast::NumpyRight}, {targets, real_literal(c, "zero", 0.0)});
  const ValueRef any_outside = reshaped_to(c, "any-outside", any_over(c, "any-outside-of-all", outside, {0, 1}),
                                           std::vector<int64_t>(1 + rest.size(), 1), ElemKind::Logical);
  return c.emit("", SelectAttrs{Broadcast::NumpyRight},
                {any_outside, real_literal(c, "no-result", std::numeric_limits<double>::quiet_NaN()), result});
}

namespace {

ScatterReduction reduction_of(Ctx& c) {
  const std::string r = c.attr_string("reduction", "none");
  if (r == "none") return ScatterReduction::None;
  if (r == "add") return ScatterReduction::Add;
  if (r == "mul") return ScatterReduction::Mul;
  if (r == "max") return ScatterReduction::Max;
  if (r == "min") return ScatterReduction::Min;
  c.refuse("onnx.attribute-value", "reduction '" + r + "' is not one of none, add, mul, max, min");
}

int64_t count_of(const std::vector<int64_t>& shape, size_t from = 0, size_t to = SIZE_MAX) {
  int64_t n = 1;
  for (size_t a = from; a < std::min(to, shape.size()); ++a) n *= shape[a];
  return n;
}

void require_fixed_scatter(Ctx& c) { require_fixed_extents(c, "its flat indices are computed at load time"); }

// ScatterElements: y = data, then y[i with its `axis` entry replaced by idx[i]] ∘= u[i] for every
// position i of idx (ONNX's definition). Each target is GatherElements' flat index into data
// (element_flat_index: negative indices wrap, one out of range is −1), data flattened to rows of
// one element, then scattered.
void scatter_elements_as(Ctx& c, ScatterReduction how) {
  require_fixed_scatter(c);
  const std::vector<int64_t> d = c.shape(0), s = c.shape(1);
  if (c.shape(2) != s) c.refuse("onnx.input-shape", "updates must have the indices' shape");
  const auto r = static_cast<int64_t>(d.size());
  int64_t axis = c.attr_int("axis", 0);
  if (axis < -r || axis >= r)
    c.refuse("onnx.attribute-value", "axis " + std::to_string(axis) + " is outside data's axes");
  if (axis < 0) axis += r;
  const int64_t P = count_of(d), K = count_of(s);
  const ValueRef target = c.emit("targets-flat", ReshapeAttrs{{K}, ElemKind::Integer},
                                 {element_flat_index(c, d, c.operand(1, ElemKind::Integer), s, axis, "")});
  const ValueRef data = c.emit("data-flat", ReshapeAttrs{{P}}, {c.data(0)});
  const ValueRef updates = c.emit("updates-flat", ReshapeAttrs{{K}}, {c.data(2)});
  const ValueRef y = scattered(c, data, updates, target, P, K, {}, how);
  c.set_output(0, c.emit("shaped", ReshapeAttrs{d}, {y}));
}
void scatter_elements(Ctx& c) { scatter_elements_as(c, reduction_of(c)); }
void scatter(Ctx& c) { scatter_elements_as(c, ScatterReduction::None); }  // opset ≤ 10: no reduction

// ScatterND: y = data, then y[idx[p, 0..q−1], ...] ∘= u[p, ...] for every position p of idx
// without its last axis (ONNX's definition). Each target is GatherND's row (nd_row_index with no
// batch axes) of data as rows [P, rest], rest data's extents after the q indexed ones.
void scatter_nd(Ctx& c) {
  require_fixed_scatter(c);
  const std::vector<int64_t> d = c.shape(0), s = c.shape(1);
  const ValueRef target = nd_row_index(c, d, c.operand(1, ElemKind::Integer), s, 0);
  const auto q = static_cast<size_t>(s.back());
  const std::vector<int64_t> rest(d.begin() + static_cast<std::ptrdiff_t>(q), d.end());
  std::vector<int64_t> expected(s.begin(), s.end() - 1);
  expected.insert(expected.end(), rest.begin(), rest.end());
  if (c.shape(2) != expected)
    c.refuse("onnx.input-shape", "updates must have the shape indices.shape[:-1] + data.shape[q:]");
  const int64_t P = count_of(d, 0, q), K = count_of(s, 0, s.size() - 1);
  std::vector<int64_t> rows{P}, updates_rows{K};
  rows.insert(rows.end(), rest.begin(), rest.end());
  updates_rows.insert(updates_rows.end(), rest.begin(), rest.end());
  const ValueRef flat_target = c.emit("targets-flat", ReshapeAttrs{{K}, ElemKind::Integer}, {target});
  const ValueRef data = c.emit("data-rows", ReshapeAttrs{rows}, {c.data(0)});
  const ValueRef updates = c.emit("updates-rows", ReshapeAttrs{updates_rows}, {c.data(2)});
  const ValueRef y = scattered(c, data, updates, flat_target, P, K, rest, reduction_of(c));
  c.set_output(0, c.emit("shaped", ReshapeAttrs{d}, {y}));
}

}  // namespace

void add_scatter_ops(OpTable& table) {
  add_ops(table, {
                     {"Scatter", scatter},
                     {"ScatterElements", scatter_elements},
                     {"ScatterND", scatter_nd},
                 });
}

}  // namespace nnref::onnx_format
