// The ONNX ops that select elements by comparing data, their results' extents computed from data:
// TopK, NonZero, Compress, Unique and NonMaxSuppression. Each is an exact composition of IR ops;
// its comment says why it is ONNX's formula and what it costs. A position chosen by comparing
// reals stays undetermined where an enclosure (Interval, Envelope) leaves the comparison unknown:
// integers carry kUnknownInteger through integer arithmetic, casts and sums (spec/truth.hpp),
// never a guessed index, and a count of true elements that is unknown is run.size-undetermined at
// the node that reads it.
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"
#include "formats/onnx/tensor_proto.hpp"
#include "spec/size_program.hpp"

namespace nnref::onnx_format {

namespace {

// The most elements a composition's pairwise tensor may hold (N² per row for TopK's ranks, L·C
// for the positions of C true elements among L): 2^24 per IR op (the memory budget bounds their
// bytes, at most 8 each). Past it the op is refused by name (onnx.shape-unsupported).
constexpr int64_t kMaxPairs = int64_t{1} << 24;

void bound_pairs(Ctx& c, int64_t pairs, const std::string& what) {
  if (pairs > kMaxPairs)
    c.refuse("onnx.shape-unsupported", what + " compares " + std::to_string(pairs) +
                                           " pairs of elements, more than nnref's bound of 2^24 for this composition");
}

ValueRef integer_op(Ctx& c, const std::string& suffix, IntegerOp op, ValueRef a, ValueRef b) {
  return c.emit(suffix, IntegerBinaryAttrs{op, Broadcast::NumpyRight, {}}, {a, b});
}

// a = b for integers, as a truth value: ¬(a − b ≠ 0) (the cast of an integer to a logical). An
// unknown integer (kUnknownInteger) makes it unknown, where a comparison of reals would read NaN
// as false.
ValueRef integers_equal(Ctx& c, const std::string& suffix, ValueRef a, ValueRef b) {
  const ValueRef differs = c.emit(suffix + "-differs", CastAttrs{ElemKind::Integer, ElemKind::Logical},
                                  {integer_op(c, suffix + "-difference", IntegerOp::Sub, a, b)});
  return c.emit(suffix, LogicalAttrs{LogicalOp::Not}, {differs});
}

// The integers 0 .. n − 1 laid along the first of `rank` axes ([n, 1, ..., 1]), a constant.
ValueRef laid_indices(Ctx& c, const std::string& suffix, int64_t n, size_t rank) {
  std::vector<int64_t> dims(rank, 1), v(static_cast<size_t>(n));
  dims[0] = n;
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = i;
  c.charge(n);
  return c.literal(suffix, integer_tensor(Shape::make(dims).value(), std::move(v)));
}

// x is NaN: ¬(x ≤ +∞), which every number satisfies. Not x ≠ x: an enclosure compared with
// itself holds pairs of distinct values, so that test is undecided for every non-point enclosure.
ValueRef is_nan(Ctx& c, const std::string& suffix, ValueRef x) {
  const ValueRef number =
      c.emit(suffix + "-number", CompareAttrs{CompareOp::Le, Broadcast::NumpyRight},
             {x, c.literal(suffix + "-infinity", scalar_tensor(std::numeric_limits<double>::infinity()))});
  return c.emit(suffix, LogicalAttrs{LogicalOp::Not}, {number});
}

ValueRef zero_integer(Ctx& c, const std::string& suffix) { return c.literal(suffix, integer_tensor(Shape(), {0})); }

// The positions 0 .. count − 1 of an output axis whose length is the size term `count`, laid along
// the first of `rank` axes ([count, 1, ..., 1]; integers).
ValueRef output_positions(Ctx& c, const std::string& suffix, const std::vector<int64_t>& count, size_t rank) {
  std::vector<int64_t> laid(rank, 1);
  laid[0] = -1;
  return c.emit(suffix, ReshapeAttrs{laid, ElemKind::Integer},
                {integer_range(c, suffix + "-range", {size_code::kConstant, 0}, count)});
}

// Where j stands to i over the pairs [N(j), N(i)] (laid on `dims`), a constant truth value. The
// compositions read a pair's comparison only off the diagonal: an enclosure compared with itself
// holds distinct values, so x_i < x_i, x_i = x_i may be undecided where the answer is plain.
enum class PairPlace { Earlier, Later, Same };
ValueRef pair_places(Ctx& c, const std::string& suffix, int64_t n, const std::vector<int64_t>& dims, PairPlace place) {
  std::vector<double> holds(static_cast<size_t>(n * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      const bool h = place == PairPlace::Earlier ? j < i : place == PairPlace::Later ? j > i : j == i;
      holds[static_cast<size_t>(j * n + i)] = h ? 1.0 : 0.0;
    }
  c.charge(n * n);
  return c.literal(suffix, HostTensor{DType::Bool, Shape::make(dims).value(), std::move(holds)});
}

// Σ_i [cond[.., i, ..]]·v[i] over the axis `axis` of an integer select: the one v whose condition
// holds, where one does (0 where none does).
ValueRef sum_where(Ctx& c, const std::string& suffix, ValueRef cond, ValueRef v, int64_t axis) {
  const ValueRef picked = c.emit(suffix + "-picked", SelectAttrs{Broadcast::NumpyRight, ElemKind::Integer},
                                 {cond, v, zero_integer(c, suffix + "-zero")});
  return c.emit(suffix, ReduceAttrs{ReduceOp::Sum, {axis}, false, ElemKind::Integer}, {picked});
}

// The positions of the true elements of the 1-D logical `mask` (L elements), in increasing order:
// an integer vector of C elements, C = Σ mask a size computed from data (its elements read at run
// time; a constant where the mask is one). The true element at position i is the p-th, p its
// exclusive CumSum; output p holds Σ_i [mask_i ∧ cumsum_i = p]·i, one term of which is i and the
// others 0. Cost O(L·C) ≤ O(L²) (bound_pairs).
ValueRef true_positions(Ctx& c, const std::string& suffix, ValueRef mask, int64_t length, const std::string& what) {
  bound_pairs(c, length * length, what);
  const ValueRef ones = c.emit(suffix + "-ones", CastAttrs{ElemKind::Logical, ElemKind::Integer}, {mask});
  const ValueRef count = c.emit(suffix + "-count", ReduceAttrs{ReduceOp::Sum, {0}, false, ElemKind::Integer}, {ones});
  const ValueRef place =
      c.emit(suffix + "-place", CumsumAttrs{0, true, false, ElemKind::Integer}, {ones});  // true elements before i
  const SizesPtr count_terms = c.element_terms(count, Shape());
  const ValueRef p_row =
      c.emit(suffix + "-position-row", ReshapeAttrs{{1, -1}, ElemKind::Integer},
             {integer_range(c, suffix + "-positions", {size_code::kConstant, 0}, count_terms->elements[0])});  // [1, C]
  const ValueRef mask_column = c.emit(suffix + "-mask-column", ReshapeAttrs{{length, 1}, ElemKind::Logical}, {mask});
  const ValueRef place_column = c.emit(suffix + "-place-column", ReshapeAttrs{{length, 1}, ElemKind::Integer}, {place});
  const ValueRef at = c.emit(suffix + "-at", LogicalAttrs{LogicalOp::And, Broadcast::NumpyRight},
                             {mask_column, integers_equal(c, suffix + "-is-p", place_column, p_row)});  // [L, C]
  return sum_where(c, suffix, at, laid_indices(c, suffix + "-index", length, 2), 0);
}

// ---- Compress ----

// Compress(input, condition, axis): the slices of input along `axis` at the positions where the
// 1-D condition is true, in order (without axis: of input flattened). A condition shorter than the
// axis selects among its first positions (ONNX); a longer one, which ONNX does not define, is refused.
// One IR gather along the axis at true_positions(condition); cost O(L²) for a condition of L.
void compress(Ctx& c) {
  const ValueRef x = c.data(0);
  const ValueRef condition = c.operand(1, ElemKind::Logical);
  const std::vector<int64_t> length = c.shape(1);
  if (length.size() != 1) c.refuse("onnx.input-shape", "condition (input 1) must be 1-D");
  const auto r = static_cast<int64_t>(c.rank(0));
  const bool flat = !c.has_attr("axis");
  int64_t axis = flat ? 0 : c.attr_int("axis", 0);
  if (axis < -r || axis >= r)
    c.refuse("onnx.attribute-value", "axis " + std::to_string(axis) + " is outside the input's axes");
  if (axis < 0) axis += r;
  if (c.extents_fixed()) {
    const std::vector<int64_t> d = c.shape(0);
    int64_t extent = 1;
    for (size_t a = 0; a < d.size(); ++a)
      if (flat || a == static_cast<size_t>(axis)) extent *= d[a];
    if (length[0] > extent)
      c.refuse("onnx.input-shape", "condition holds " + std::to_string(length[0]) + " elements, more than the " +
                                       std::to_string(extent) + " it selects among");
  }
  const ValueRef from = flat ? c.emit("flattened", ReshapeAttrs{{-1}}, {x}) : x;
  const ValueRef at = true_positions(c, "selected", condition, length[0], "Compress");
  c.set_output(0, c.emit("", GatherAttrs{axis}, {from, at}));
}

// ---- NonZero ----

// NonZero(X): the indices of X's nonzero elements (NaN is nonzero, as NumPy's), [rank, C] in
// row-major order (ONNX; numpy.nonzero stacked). The flat positions f of the true elements of
// X ≠ 0 flattened (true_positions), then coordinate a of each = (f div stride_a) mod extent_a,
// integer arithmetic; the extents read at load, so they must be fixed. Cost O(L²) for L elements.
void non_zero(Ctx& c) {
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported",
             "NonZero needs fixed extents (its coordinates are computed with strides "
             "read at load time), and the model's inputs have symbolic ones");
  const std::vector<int64_t> d = c.shape(0);
  if (d.empty()) c.refuse("onnx.input-shape", "NonZero of a 0-D tensor is not supported (its result has no axis)");
  const ElemKind kind = c.kind(0);
  const ValueRef x = c.operand(0, kind);
  ValueRef nonzero = x;
  if (kind == ElemKind::Real)
    nonzero = c.emit("nonzero", CompareAttrs{CompareOp::Ne, Broadcast::NumpyRight},
                     {x, c.literal("zero", scalar_tensor(0.0))});
  else if (kind == ElemKind::Integer)
    nonzero = c.emit("nonzero", CastAttrs{ElemKind::Integer, ElemKind::Logical}, {x});
  int64_t count = 1;
  for (int64_t e : d) count *= e;
  const ValueRef mask = c.emit("flattened", ReshapeAttrs{{-1}, ElemKind::Logical}, {nonzero});
  const ValueRef f =
      c.emit("flat-row", ReshapeAttrs{{1, -1}, ElemKind::Integer}, {true_positions(c, "flat", mask, count, "NonZero")});
  const auto rank = static_cast<int64_t>(d.size());
  std::vector<int64_t> stride(d.size(), 1);
  for (size_t a = d.size() - 1; a-- > 0;) stride[a] = stride[a + 1] * d[a + 1];
  const Shape column = Shape::make({rank, 1}).value();
  const ValueRef along =
      integer_op(c, "along", IntegerOp::Div, f, c.literal("strides", integer_tensor(column, stride)));
  c.set_output(0, integer_op(c, "", IntegerOp::Mod, along, c.literal("extents", integer_tensor(column, d))),
               ElemKind::Integer, onnx::TensorProto::INT64);
}

// ---- TopK ----

// The number of elements TopK keeps as a size term: K, a constant (an initializer; the attribute
// k before opset 10), or an int64 input of one element computed or given at run time, read then
// (kElement); the latter at most the axis's extent (a larger one is an error in ONNX: nnref keeps N).
std::vector<int64_t> kept_count(Ctx& c, int64_t extent) {
  std::vector<int64_t> k;
  if (c.opset() < 10) {
    k = {size_code::kConstant, c.attr_int("k", 0)};
  } else if (const ExactTensor* t = c.exact(1)) {
    if (t->ints.size() != 1 || dtype_is_float(t->tensor.dtype)) c.refuse("onnx.input-type", "K must hold one int64");
    k = {size_code::kConstant, t->ints[0]};
  } else {
    const SizesPtr terms = c.data_terms(1);
    if (!terms || terms->elements.size() != 1)
      c.refuse("onnx.input-type", "K (input 1) must be an int64 tensor of one element");
    k = terms->elements[0];
    k.insert(k.end(), {size_code::kConstant, extent, size_code::kMin});
    return k;
  }
  if (k[1] < 1 || k[1] > extent)
    c.refuse("onnx.attribute-value", "K is " + std::to_string(k[1]) + ": nnref reads 1 .. " + std::to_string(extent) +
                                         " (the axis's extent; nnref holds no empty tensors)");
  return k;
}

// TopK(X, K, axis, largest, sorted): along the axis, the K largest (smallest) elements in order
// and their indices, equal values by lower index first (ONNX). Element i's place in that order is
// its rank, the number of elements j before it: j ≺ i ⇔ x_j is beyond x_i, or x_j = x_i and j < i
// (ranks are then a permutation of 0 .. N − 1); "beyond" treats NaN as above every number, as
// NumPy's sort (first when largest, last when smallest; ONNX says nothing). As IR ops over the
// pairs [.., j, i, ..]: j ≺ i = (j < i) ? ¬(i beyond j) : (j > i) ∧ (j beyond i), no pair (i, i)
// compared (pair_places); rank = Σ_j [j ≺ i]. Then
// output p holds the i whose rank is p: index Σ_i [rank_i = p]·i, value max_i of x_i where
// rank_i = p and −∞ elsewhere (one term holds). sorted 0 leaves the order to the runtime, which
// nnref does not judge: refused. Cost O(M·N²) for M rows of N (bound_pairs); fixed extents.
void top_k(Ctx& c) {
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported",
             "TopK needs fixed extents (its tie order is a constant of the axis's extent), "
             "and the model's inputs have symbolic ones");
  const bool largest = c.opset() < 11 || c.attr_int("largest", 1) != 0;
  if (c.opset() >= 11 && c.attr_int("sorted", 1) == 0)
    c.refuse("onnx.attribute-unsupported", "sorted 0 (an order the runtime chooses) is not supported");
  const std::vector<int64_t> d = c.shape(0);
  const auto r = static_cast<int64_t>(d.size());
  int64_t axis = c.attr_int("axis", -1);
  if (axis < -r || axis >= r)
    c.refuse("onnx.attribute-value", "axis " + std::to_string(axis) + " is outside the input's axes");
  if (axis < 0) axis += r;
  const int64_t n = d[static_cast<size_t>(axis)];
  int64_t count = 1;
  for (int64_t e : d) count *= e;
  bound_pairs(c, count * n, "TopK");
  const std::vector<int64_t> k = kept_count(c, n);
  const ValueRef x = c.data(0);
  const auto trailing = static_cast<size_t>(r - axis);  // the axis and those after it, on the pairs' [j, i, ..]
  const ValueRef xj = c.emit("x-j", UnsqueezeAttrs{{axis + 1}}, {x});  // [.., N, 1, ..]
  const ValueRef xi = c.emit("x-i", UnsqueezeAttrs{{axis}}, {x});      // [.., 1, N, ..]
  const ValueRef nan = is_nan(c, "nan", x);
  const ValueRef nan_j = c.emit("nan-j", UnsqueezeAttrs{{axis + 1}, ElemKind::Logical}, {nan});
  const ValueRef nan_i = c.emit("nan-i", UnsqueezeAttrs{{axis}, ElemKind::Logical}, {nan});
  // a beyond b: a > b (a < b when smallest), or a NaN and b not (largest), b NaN and a not (smallest).
  const auto beyond = [&](const std::string& s, ValueRef a, ValueRef nan_a, ValueRef b, ValueRef nan_b) {
    const ValueRef cmp =
        c.emit(s + "-compare", CompareAttrs{largest ? CompareOp::Gt : CompareOp::Lt, Broadcast::NumpyRight}, {a, b});
    const ValueRef high = largest ? nan_a : nan_b, low = largest ? nan_b : nan_a;
    const ValueRef nan_order = c.emit(s + "-nan", LogicalAttrs{LogicalOp::And, Broadcast::NumpyRight},
                                      {high, c.emit(s + "-not-nan", LogicalAttrs{LogicalOp::Not}, {low})});
    return c.emit(s, LogicalAttrs{LogicalOp::Or, Broadcast::NumpyRight}, {cmp, nan_order});
  };
  const ValueRef j_beyond_i = beyond("j-beyond-i", xj, nan_j, xi, nan_i);
  const ValueRef i_not_beyond_j =
      c.emit("i-not-beyond-j", LogicalAttrs{LogicalOp::Not}, {beyond("i-beyond-j", xi, nan_i, xj, nan_j)});
  std::vector<int64_t> earlier_dims(trailing + 1, 1);
  earlier_dims[0] = n, earlier_dims[1] = n;
  const ValueRef j_earlier = pair_places(c, "j-earlier", n, earlier_dims, PairPlace::Earlier);
  const ValueRef j_later = pair_places(c, "j-later", n, earlier_dims, PairPlace::Later);
  const ValueRef before =
      c.emit("before", SelectAttrs{Broadcast::NumpyRight, ElemKind::Logical},
             {j_earlier, i_not_beyond_j,
              c.emit("later-beyond", LogicalAttrs{LogicalOp::And, Broadcast::NumpyRight}, {j_later, j_beyond_i})});
  const ValueRef rank = c.emit("rank", ReduceAttrs{ReduceOp::Sum, {axis}, false, ElemKind::Integer},
                               {c.emit("before-count", CastAttrs{ElemKind::Logical, ElemKind::Integer}, {before})});
  // [.., i, p, ..]: rank_i = p.
  const ValueRef rank_i = c.emit("rank-i", UnsqueezeAttrs{{axis + 1}, ElemKind::Integer}, {rank});
  const ValueRef at = integers_equal(c, "at", rank_i, output_positions(c, "p", k, trailing));
  const ValueRef indices = sum_where(c, "indices", at, laid_indices(c, "i", n, trailing + 1), axis);
  const ValueRef held =
      c.emit("held", SelectAttrs{Broadcast::NumpyRight},
             {at, xj, c.literal("below-all", scalar_tensor(-std::numeric_limits<double>::infinity()))});
  c.set_output(0, c.emit("", ReduceAttrs{ReduceOp::Max, {axis}, false}, {held}));
  c.set_output(1, indices, ElemKind::Integer, onnx::TensorProto::INT64);
}

// ---- Unique ----

// Unique(X, axis, sorted): the distinct elements of X flattened, or the distinct slices along
// `axis`; with sorted 1 (the default) in ascending order (slices compared lexicographically, as
// numpy.unique with the slices flattened in row-major order), with sorted 0 in the order of their
// first occurrence; indices (each one's first occurrence), inverse_indices (each element's or
// slice's place in Y) and counts (ONNX). NaN equals NaN and sorts above every number (NumPy ≥ 1.24's
// equal_nan). As IR ops over the slices as rows [N, R] and their pairs [N(j), N(i), R]:
//   same(j, i) = ∀k x_jk ≐ x_ik;  below(j, i) = ∃k x_jk < x_ik ∧ ∀k' < k x_jk' ≐ x_ik';
//   first_i = ¬∃ j < i same(j, i);  U = Σ first, a size computed from data;
//   place_i = Σ_j [first_j ∧ order(j, i)], order = below when sorted, j < i when not: a first
//   occurrence's position in Y; indices[p] = the first i with place_i = p; Y = X gathered there;
//   inverse_i = place_j of the first j with same(j, i); counts[p] = Σ_i [inverse_i = p].
// Cost O(N²·R) (bound_pairs); fixed extents.
void unique(Ctx& c) {
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported",
             "Unique needs fixed extents (its pairs of slices are laid out at load time), "
             "and the model's inputs have symbolic ones");
  const bool sorted = c.attr_int("sorted", 1) != 0;
  const std::vector<int64_t> d = c.shape(0);
  const auto r = static_cast<int64_t>(d.size());
  const bool flat = !c.has_attr("axis");
  int64_t axis = flat ? 0 : c.attr_int("axis", 0);
  if (axis < -r || axis >= r)
    c.refuse("onnx.attribute-value", "axis " + std::to_string(axis) + " is outside the input's axes");
  if (axis < 0) axis += r;
  int64_t count = 1;
  for (int64_t e : d) count *= e;
  const int64_t n = flat ? count : d[static_cast<size_t>(axis)];
  const int64_t row = count / n;
  bound_pairs(c, n * n * row, "Unique");
  const ValueRef x = c.data(0);
  std::vector<int64_t> perm{axis};
  for (int64_t a = 0; a < r; ++a)
    if (a != axis) perm.push_back(a);
  const ValueRef slices = flat ? x : c.emit("axis-first", TransposeAttrs{perm}, {x});
  const ValueRef xj = c.emit("x-j", ReshapeAttrs{{n, 1, row}}, {slices});
  const ValueRef xi = c.emit("x-i", ReshapeAttrs{{1, n, row}}, {slices});
  const ValueRef nan_j = is_nan(c, "nan-j", xj), nan_i = is_nan(c, "nan-i", xi);
  const auto logical = [&](const std::string& s, LogicalOp op, ValueRef a, ValueRef b) {
    return c.emit(s, LogicalAttrs{op, Broadcast::NumpyRight}, {a, b});
  };
  const auto negation = [&](const std::string& s, ValueRef a) { return c.emit(s, LogicalAttrs{LogicalOp::Not}, {a}); };
  const ValueRef equal = logical("equal", LogicalOp::Or,
                                 c.emit("equal-numbers", CompareAttrs{CompareOp::Eq, Broadcast::NumpyRight}, {xj, xi}),
                                 logical("both-nan", LogicalOp::And, nan_j, nan_i));  // [N, N, R]
  const ValueRef diagonal = pair_places(c, "j-is-i", n, {n, n}, PairPlace::Same);
  const ValueRef same = logical("same", LogicalOp::Or, diagonal,
                                c.emit("same-slices", ReshapeAttrs{{n, n}, ElemKind::Logical},
                                       {c.emit("all-equal", LogicalReduceAttrs{LogicalReduceOp::All, {2}}, {equal})}));
  const ValueRef earlier = pair_places(c, "j-earlier", n, {n, n}, PairPlace::Earlier);
  const ValueRef repeated = c.emit("repeated", ReshapeAttrs{{n}, ElemKind::Logical},
                                   {c.emit("repeated-any", LogicalReduceAttrs{LogicalReduceOp::Any, {0}},
                                           {logical("same-earlier", LogicalOp::And, same, earlier)})});
  const ValueRef first = negation("first", repeated);  // [N]
  ValueRef order = earlier;
  if (sorted) {
    const ValueRef lower = logical(
        "lower", LogicalOp::Or, c.emit("lower-numbers", CompareAttrs{CompareOp::Lt, Broadcast::NumpyRight}, {xj, xi}),
        logical("lower-nan", LogicalOp::And, nan_i, negation("number-j", nan_j)));
    const ValueRef unequal =
        c.emit("unequal", CastAttrs{ElemKind::Logical, ElemKind::Integer}, {negation("not-equal", equal)});
    const ValueRef differ_before =
        c.emit("differ-before", CastAttrs{ElemKind::Integer, ElemKind::Logical},
               {c.emit("unequal-before", CumsumAttrs{2, true, false, ElemKind::Integer}, {unequal})});
    const ValueRef decides = logical("decides", LogicalOp::And, lower, negation("equal-before", differ_before));
    const ValueRef below = c.emit("below-slices", ReshapeAttrs{{n, n}, ElemKind::Logical},
                                  {c.emit("below-any", LogicalReduceAttrs{LogicalReduceOp::Any, {2}}, {decides})});
    order = logical("below", LogicalOp::And, negation("j-is-not-i", diagonal), below);
  }
  const ValueRef first_j = c.emit("first-j", ReshapeAttrs{{n, 1}, ElemKind::Logical}, {first});
  const ValueRef first_i = c.emit("first-i", ReshapeAttrs{{n, 1}, ElemKind::Logical}, {first});
  const ValueRef ones = c.emit("first-ones", CastAttrs{ElemKind::Logical, ElemKind::Integer},
                               {logical("first-order", LogicalOp::And, first_j, order)});
  const ValueRef place = c.emit("place", ReduceAttrs{ReduceOp::Sum, {0}, false, ElemKind::Integer}, {ones});  // [N]
  const ValueRef distinct = c.emit("distinct", ReduceAttrs{ReduceOp::Sum, {0}, false, ElemKind::Integer},
                                   {c.emit("first-count", CastAttrs{ElemKind::Logical, ElemKind::Integer}, {first})});
  const ValueRef p = c.emit("p", ReshapeAttrs{{1, -1}, ElemKind::Integer},
                            {integer_range(c, "p-range", {size_code::kConstant, 0},
                                           c.element_terms(distinct, Shape())->elements[0])});  // [1, U]
  const ValueRef place_i = c.emit("place-i", ReshapeAttrs{{n, 1}, ElemKind::Integer}, {place});
  const ValueRef at = logical("at", LogicalOp::And, first_i, integers_equal(c, "at-p", place_i, p));  // [N, U]
  const ValueRef indices = sum_where(c, "indices", at, laid_indices(c, "i", n, 2), 0);
  const ValueRef from = flat ? c.emit("flattened", ReshapeAttrs{{-1}}, {x}) : x;
  const ValueRef place_j = c.emit("place-j", ReshapeAttrs{{n, 1}, ElemKind::Integer}, {place});
  const ValueRef inverse =
      sum_where(c, "inverse", logical("first-same", LogicalOp::And, first_j, same), place_j, 0);  // [N]
  const ValueRef inverse_i = c.emit("inverse-i", ReshapeAttrs{{n, 1}, ElemKind::Integer}, {inverse});
  const ValueRef counts = c.emit(
      "counts", ReduceAttrs{ReduceOp::Sum, {0}, false, ElemKind::Integer},
      {c.emit("counted", CastAttrs{ElemKind::Logical, ElemKind::Integer}, {integers_equal(c, "of-p", inverse_i, p)})});
  c.set_output(0, c.emit("", GatherAttrs{axis}, {from, indices}));
  c.set_output(1, indices, ElemKind::Integer, onnx::TensorProto::INT64);
  c.set_output(2, inverse, ElemKind::Integer, onnx::TensorProto::INT64);
  c.set_output(3, counts, ElemKind::Integer, onnx::TensorProto::INT64);
}

// ---- NonMaxSuppression ----

// d < 0 for an integer d, as a truth value that an unknown d (kUnknownInteger, read as the real
// NaN) leaves unknown rather than false: where d is NaN as a real, the cast of d to a logical,
// which is unknown there.
ValueRef integer_negative(Ctx& c, const std::string& suffix, ValueRef d) {
  const ValueRef real = c.emit(suffix + "-real", CastAttrs{ElemKind::Integer, ElemKind::Real}, {d});
  const ValueRef below = c.emit(suffix + "-below", CompareAttrs{CompareOp::Lt, Broadcast::NumpyRight},
                                {real, c.literal(suffix + "-zero", scalar_tensor(0.0))});
  const ValueRef unknown = c.emit(suffix + "-unknown", CastAttrs{ElemKind::Integer, ElemKind::Logical}, {d});
  return c.emit(suffix, SelectAttrs{Broadcast::NumpyRight, ElemKind::Logical},
                {is_nan(c, suffix + "-undetermined", real), unknown, below});
}

// A box's extent along one axis, [lo, hi], of boxes [B, N, 4] as [B, N, 1] each: with
// center_point_box 0 the corners a, b ([y1, x1, y2, x2]) in either order, min and max; with 1 the
// centre m and size w ([x_c, y_c, w, h]), m ∓ w/2.
std::pair<ValueRef, ValueRef> box_extent(Ctx& c, const std::string& s, ValueRef boxes, bool centre, int64_t a,
                                         int64_t b) {
  const auto coordinate = [&](int64_t k) {
    return c.emit(s + "-" + std::to_string(k), SliceAttrs{{2}, {k}, {k + 1}, {}}, {boxes});
  };
  const ValueRef u = coordinate(a), v = coordinate(b);
  if (!centre) return {binary(c, s + "-lo", BinaryOp::Min, u, v), binary(c, s + "-hi", BinaryOp::Max, u, v)};
  const ValueRef half = binary(c, s + "-half", BinaryOp::Mul, v, c.literal(s + "-one-half", scalar_tensor(0.5)));
  return {binary(c, s + "-lo", BinaryOp::Sub, u, half), binary(c, s + "-hi", BinaryOp::Add, u, half)};
}

// NonMaxSuppression(boxes [B, N, 4], scores [B, C, N], max_output_boxes_per_class, iou_threshold,
// score_threshold): per batch b and class c, the boxes in descending score order (equal scores by
// lower index, as ONNX Runtime's queue), each kept when its score is above score_threshold and no
// kept box before it overlaps it with IoU above iou_threshold, the first max_output of them; the
// rows (b, c, box) class by class, each class's in that order. ONNX Runtime's test of a pair: the
// intersection's width and height positive, both areas positive, and IoU = inter / union above the
// threshold, read as inter > threshold·union (union ≥ the larger area > 0). The greedy choice as N − 1
// rounds of keep_k = candidate_k ∧ ¬∃ j ≺ k: keep_j ∧ suppresses(j, k), starting from the
// candidates: the box at place r in the score order is final after r rounds. A kept box's place
// among the kept, pos_k = Σ_{j ≺ k} keep_j, must be below max_output; its row is the box's
// offset (the kept boxes of earlier classes, a CumSum) plus pos_k, and row p is read as
// TopK's indices are. The number of rows is a size computed from data. Cost O(B·C·N³)
// (bound_pairs); fixed extents.
void non_max_suppression(Ctx& c) {
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported",
             "NonMaxSuppression needs fixed extents (its rounds are as many as the "
             "boxes), and the model's inputs have symbolic ones");
  const int64_t centre_attr = c.attr_int("center_point_box", 0);
  if (centre_attr != 0 && centre_attr != 1) c.refuse("onnx.attribute-value", "center_point_box must be 0 or 1");
  const bool centre = centre_attr == 1;
  const std::vector<int64_t> bs = c.shape(0), ss = c.shape(1);
  if (bs.size() != 3 || bs[2] != 4 || ss.size() != 3 || ss[0] != bs[0] || ss[2] != bs[1])
    c.refuse("onnx.input-shape", "boxes must be [B, N, 4] and scores [B, C, N]");
  const int64_t b = bs[0], n = bs[1], classes = ss[1];
  bound_pairs(c, b * classes * n * n * n, "NonMaxSuppression");
  const ValueRef boxes = c.data(0), scores = c.data(1);
  const auto lay = [&](const std::string& s, ValueRef v, std::vector<int64_t> dims, ElemKind kind = ElemKind::Real) {
    return c.emit(s, ReshapeAttrs{std::move(dims), kind}, {v});
  };
  const auto logical = [&](const std::string& s, LogicalOp op, ValueRef x, ValueRef y) {
    return c.emit(s, LogicalAttrs{op, Broadcast::NumpyRight}, {x, y});
  };
  const auto negation = [&](const std::string& s, ValueRef x) { return c.emit(s, LogicalAttrs{LogicalOp::Not}, {x}); };
  const auto compare = [&](const std::string& s, CompareOp op, ValueRef x, ValueRef y) {
    return c.emit(s, CompareAttrs{op, Broadcast::NumpyRight}, {x, y});
  };
  const ValueRef zero = c.literal("zero", scalar_tensor(0.0));
  // suppresses(j, k) over [B, 1, N(j), N(k)].
  const auto [y_lo, y_hi] = box_extent(c, "y", boxes, centre, centre ? 1 : 0, centre ? 3 : 2);
  const auto [x_lo, x_hi] = box_extent(c, "x", boxes, centre, centre ? 0 : 1, centre ? 2 : 3);
  const auto overlap = [&](const std::string& s, ValueRef lo, ValueRef hi) {
    const ValueRef top =
        binary(c, s + "-lo", BinaryOp::Max, lay(s + "-lo-j", lo, {b, 1, n, 1}), lay(s + "-lo-k", lo, {b, 1, 1, n}));
    const ValueRef bottom =
        binary(c, s + "-hi", BinaryOp::Min, lay(s + "-hi-j", hi, {b, 1, n, 1}), lay(s + "-hi-k", hi, {b, 1, 1, n}));
    return binary(c, s, BinaryOp::Sub, bottom, top);
  };
  const ValueRef width = overlap("overlap-x", x_lo, x_hi), height = overlap("overlap-y", y_lo, y_hi);
  const ValueRef intersection = binary(c, "intersection", BinaryOp::Mul, width, height);
  const ValueRef area = binary(c, "area", BinaryOp::Mul, binary(c, "area-x", BinaryOp::Sub, x_hi, x_lo),
                               binary(c, "area-y", BinaryOp::Sub, y_hi, y_lo));  // [B, N, 1]
  const ValueRef area_j = lay("area-j", area, {b, 1, n, 1}), area_k = lay("area-k", area, {b, 1, 1, n});
  const ValueRef union_area =
      binary(c, "union", BinaryOp::Sub, binary(c, "areas", BinaryOp::Add, area_j, area_k), intersection);
  const ValueRef iou_threshold = c.has_input(3) ? c.data(3) : c.literal("iou-threshold", scalar_tensor(0.0));
  ValueRef suppresses =
      logical("positive-overlap", LogicalOp::And, compare("width-positive", CompareOp::Gt, width, zero),
              compare("height-positive", CompareOp::Gt, height, zero));
  suppresses =
      logical("positive-areas", LogicalOp::And, suppresses,
              logical("areas-positive", LogicalOp::And, compare("area-j-positive", CompareOp::Gt, area_j, zero),
                      compare("area-k-positive", CompareOp::Gt, area_k, zero)));
  suppresses = logical("suppresses", LogicalOp::And, suppresses,
                       compare("iou-above", CompareOp::Gt, intersection,
                               binary(c, "threshold-union", BinaryOp::Mul, iou_threshold, union_area)));
  // j ≺ k over [B, C, N(j), N(k)]: a higher score, or an equal one and j < k; no pair (k, k).
  const ValueRef sj = lay("score-j", scores, {b, classes, n, 1}), sk = lay("score-k", scores, {b, classes, 1, n});
  const ValueRef j_earlier = pair_places(c, "j-earlier", n, {n, n}, PairPlace::Earlier);
  const ValueRef j_later = pair_places(c, "j-later", n, {n, n}, PairPlace::Later);
  const ValueRef precedes =
      c.emit("precedes", SelectAttrs{Broadcast::NumpyRight, ElemKind::Logical},
             {j_earlier, negation("k-not-higher", compare("k-higher", CompareOp::Gt, sk, sj)),
              logical("later-higher", LogicalOp::And, j_later, compare("j-higher", CompareOp::Gt, sj, sk))});
  const ValueRef blocks = logical("blocks", LogicalOp::And, precedes, suppresses);  // [B, C, N, N]
  // The candidates: a score above score_threshold; every box when there is none.
  ValueRef candidate;
  if (c.has_input(4)) {
    candidate = compare("candidate", CompareOp::Gt, lay("candidate-scores", scores, {b, classes, n}), c.data(4));
  } else {
    c.charge(b * classes * n);
    candidate = c.literal("candidate", HostTensor{DType::Bool, Shape::make({b, classes, n}).value(),
                                                  std::vector<double>(static_cast<size_t>(b * classes * n), 1.0)});
  }
  ValueRef keep = candidate;
  for (int64_t round = 1; round < n; ++round) {
    const std::string r = "round" + std::to_string(round);
    const ValueRef kept_j = lay(r + "-kept-j", keep, {b, classes, n, 1}, ElemKind::Logical);
    const ValueRef blocked = lay(r + "-blocked",
                                 c.emit(r + "-blocked-any", LogicalReduceAttrs{LogicalReduceOp::Any, {2}},
                                        {logical(r + "-blocking", LogicalOp::And, kept_j, blocks)}),
                                 {b, classes, n}, ElemKind::Logical);
    keep = logical(r, LogicalOp::And, candidate, negation(r + "-free", blocked));
  }
  // pos_k among the kept of its class, below max_output_boxes_per_class.
  const ValueRef kept_j = lay("kept-j", keep, {b, classes, n, 1}, ElemKind::Logical);
  const ValueRef before = c.emit("kept-before", CastAttrs{ElemKind::Logical, ElemKind::Integer},
                                 {logical("kept-preceding", LogicalOp::And, kept_j, precedes)});
  const ValueRef pos =
      c.emit("place", ReduceAttrs{ReduceOp::Sum, {2}, false, ElemKind::Integer}, {before});  // [B, C, N]
  const ValueRef limit =
      c.has_input(2) ? c.operand(2, ElemKind::Integer) : c.literal("no-output", integer_tensor(Shape(), {0}));
  const ValueRef selected =
      logical("selected", LogicalOp::And, keep,
              integer_negative(c, "within-limit", integer_op(c, "beyond-limit", IntegerOp::Sub, pos, limit)));
  // Row of each selected box: the selected boxes of the classes before it, plus pos.
  const ValueRef ones = c.emit("selected-ones", CastAttrs{ElemKind::Logical, ElemKind::Integer}, {selected});
  const ValueRef per_class =
      lay("per-class", c.emit("class-count", ReduceAttrs{ReduceOp::Sum, {2}, false, ElemKind::Integer}, {ones}),
          {b * classes}, ElemKind::Integer);
  const ValueRef offset =
      lay("offset", c.emit("offset-flat", CumsumAttrs{0, true, false, ElemKind::Integer}, {per_class}), {b, classes, 1},
          ElemKind::Integer);
  const int64_t length = b * classes * n;
  bound_pairs(c, length * length, "NonMaxSuppression");
  const ValueRef row = lay("row", integer_op(c, "row-of", IntegerOp::Add, offset, pos), {length, 1}, ElemKind::Integer);
  const ValueRef total = c.emit("total", ReduceAttrs{ReduceOp::Sum, {0}, false, ElemKind::Integer}, {per_class});
  const ValueRef p =
      lay("p", integer_range(c, "p-range", {size_code::kConstant, 0}, c.element_terms(total, Shape())->elements[0]),
          {1, -1}, ElemKind::Integer);
  const ValueRef at = logical("at", LogicalOp::And, lay("selected-column", selected, {length, 1}, ElemKind::Logical),
                              integers_equal(c, "at-p", row, p));  // [L, rows]
  std::vector<int64_t> triples;
  for (int64_t i = 0; i < length; ++i) triples.insert(triples.end(), {i / (classes * n), i / n % classes, i % n});
  c.charge(3 * length);
  const ValueRef triple = c.literal("triples", integer_tensor(Shape::make({length, 1, 3}).value(), std::move(triples)));
  const ValueRef at3 = lay("at-triple", at, {length, -1, 1}, ElemKind::Logical);
  c.set_output(0, sum_where(c, "", at3, triple, 0), ElemKind::Integer, onnx::TensorProto::INT64);
}

}  // namespace

void add_selection_ops(OpTable& table) {
  add_ops(table, {
                     {"Compress", compress},
                     {"NonMaxSuppression", non_max_suppression},
                     {"NonZero", non_zero},
                     {"TopK", top_k},
                     {"Unique", unique},
                 });
}

}  // namespace nnref::onnx_format
