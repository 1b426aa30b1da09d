// The ONNX ops that select elements by their position: Trilu, EyeLike, GatherElements, GatherND
// (of real or integer data), OneHot and ReverseSequence.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"
#include "formats/onnx/tensor_proto.hpp"

namespace nnref::onnx_format {

namespace {

// The column index minus the row index, j − i, over x's last two axes [N, M], as reals [N, M]:
// the integer ranges 0..M−1 and 0..N−1 of x's extents at run time (size programs, so that
// `check` proves the result's shape for every size), their difference under broadcasting, cast
// (exact: |j − i| < 2^53).
ValueRef column_minus_row(Ctx& c) {
  const size_t r = c.rank(0);
  if (r < 2)
    c.refuse("onnx.input-shape", "the input must have rank 2 or more (its last two axes are rows and columns)");
  const SizeTerms extents = c.extents_of(0, static_cast<int64_t>(r) - 2, static_cast<int64_t>(r));
  const ValueRef rows = c.emit("rows", ReshapeAttrs{{-1, 1}, ElemKind::Integer},
                               {integer_range(c, "row-range", {size_code::kConstant, 0}, extents.elements[0])});
  const ValueRef columns = integer_range(c, "columns", {size_code::kConstant, 0}, extents.elements[1]);
  const ValueRef offset =
      c.emit("offset", IntegerBinaryAttrs{IntegerOp::Sub, Broadcast::NumpyRight, {}}, {columns, rows});
  return c.emit("offset-real", CastAttrs{ElemKind::Integer, ElemKind::Real}, {offset});
}

// A 0-D zero of the given kind (false for a logical).
ValueRef zero_of(Ctx& c, ElemKind kind) {
  if (kind == ElemKind::Integer) return c.literal("zero", integer_tensor(Shape(), {0}));
  return c.literal("zero", HostTensor{kind == ElemKind::Logical ? DType::Bool : DType::F64, Shape(), {0.0}});
}

// Trilu: x where j − i ≥ k (upper, the default) or j − i ≤ k (lower), else 0, over the last two
// axes (ONNX's definition). k, input 1 (0 when absent), is a scalar integer of the graph: a
// constant or a value computed at run time. A comparison gives the mask, a select keeps x or 0.
void trilu(Ctx& c) {
  const bool upper = c.attr_int("upper", 1) != 0;
  if (c.is_empty(0) && c.rank(0) >= 2) return c.set_output_constant(0, *c.exact(0));  // no element to zero
  const ElemKind kind = c.kind(0);
  const ValueRef x = c.operand(0, kind);
  const ValueRef offset = column_minus_row(c);
  ValueRef k = c.literal("k", scalar_tensor(0.0));
  if (c.has_input(1)) {
    if (c.kind(1) != ElemKind::Integer) c.refuse("onnx.input-type", "k (input 1) must be an int64 scalar");
    if (c.known_shape(1) && !c.known_shape(1)->empty() && *c.known_shape(1) != std::vector<int64_t>{1})
      c.refuse("onnx.input-type", "k (input 1) must be a scalar");
    k = c.emit("k-real", CastAttrs{ElemKind::Integer, ElemKind::Real}, {c.operand(1, ElemKind::Integer)});
  }
  const ValueRef kept =
      c.emit("kept", CompareAttrs{upper ? CompareOp::Ge : CompareOp::Le, Broadcast::NumpyRight}, {offset, k});
  c.set_output(0, c.emit("", SelectAttrs{Broadcast::NumpyRight, kind}, {kept, x, zero_of(c, kind)}), kind, c.type(0));
}

// EyeLike: of x's 2-D shape, 1 where j − i = k, else 0, in the type `dtype` (x's when absent):
// the comparison's truth value cast to that type.
void eye_like(Ctx& c) {
  if (c.rank(0) != 2) c.refuse("onnx.input-shape", "the input must be 2-D");
  const int32_t type = static_cast<int32_t>(c.attr_int("dtype", c.type(0)));
  const std::optional<ElemKind> kind = type == 0 ? std::optional<ElemKind>(ElemKind::Real) : kind_of_type(type);
  if (!kind) c.refuse("onnx.type-unsupported", "dtype " + std::to_string(type) + " is not a type nnref holds");
  const ValueRef offset = column_minus_row(c);
  const ValueRef k = c.literal("k", scalar_tensor(static_cast<double>(c.attr_int("k", 0))));
  const ValueRef diagonal = c.emit("diagonal", CompareAttrs{CompareOp::Eq, Broadcast::NumpyRight}, {offset, k});
  if (*kind == ElemKind::Logical) return c.set_output(0, diagonal, ElemKind::Logical, type);
  c.set_output(0, c.emit("", CastAttrs{ElemKind::Logical, *kind}, {diagonal}), *kind,
               *kind == ElemKind::Real ? 0 : type);
}

// A gather of integer data, exact in every scalar: an int64 is four 16-bit digits v = Σ_k c_k·2^(16k)
// (c_0..c_2 in [0, 2^16) by Python's %, c_3 in [−2^15, 2^15) what is left), each a real exactly in
// every scalar (float32 holds integers below 2^24), gathered as reals by `gather` (a function of
// a suffix and a real tensor), cast back and recombined in integer arithmetic. An index out of
// range reads NaN, whose cast is the unknown integer: no value.
template <class Gather>
ValueRef gathered_integers(Ctx& c, ValueRef v, const Gather& gather) {
  const auto integer = [&](const std::string& n, int64_t k) { return c.literal(n, integer_tensor(Shape(), {k})); };
  const auto integer_op = [&](const std::string& n, IntegerOp op, ValueRef x, ValueRef y) {
    return c.emit(n, IntegerBinaryAttrs{op, Broadcast::NumpyRight, {}}, {x, y});
  };
  const ValueRef base = integer("digit-base", int64_t{1} << 16);
  std::vector<ValueRef> digits;
  ValueRef rest = v;
  for (int k = 0; k < 3; ++k) {
    const std::string n = "digit" + std::to_string(k);
    digits.push_back(integer_op(n, IntegerOp::Mod, rest, base));
    rest = integer_op(n + "-rest", IntegerOp::Div, integer_op(n + "-taken", IntegerOp::Sub, rest, digits.back()), base);
  }
  digits.push_back(rest);
  std::optional<ValueRef> result;
  for (size_t k = digits.size(); k-- > 0;) {
    const std::string n = "gathered-digit" + std::to_string(k);
    const ValueRef real = c.emit(n + "-real", CastAttrs{ElemKind::Integer, ElemKind::Real}, {digits[k]});
    const ValueRef back = c.emit(n, CastAttrs{ElemKind::Real, ElemKind::Integer}, {gather(n + "-gather", real)});
    result =
        result ? integer_op(n + "-sum", IntegerOp::Add, integer_op(n + "-shifted", IntegerOp::Mul, *result, base), back)
               : back;
  }
  return *result;
}

// GatherElements: y[i] = data[i with its `axis` entry replaced by idx[i]], for every position i of
// idx (ONNX's definition; y has idx's shape). As one IR gather from data flattened, at the flat
// index base[i] + j·stride, where base[i] = Σ i_a·stride_a over the other axes (a constant: the
// extents are read at load time, so they must be fixed), stride the axis's own, and j = idx[i]
// moved into [0, d) (j + d where j < 0). An index outside [−d, d) gets the flat index −1, which
// IR gather reads as NaN: never another element. In integer arithmetic, exact in every scalar.
void gather_elements(Ctx& c) {
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported",
             "GatherElements needs fixed extents (its flat indices are computed at load "
             "time), and the model's inputs have symbolic ones");
  const auto r = static_cast<int64_t>(c.rank(0));
  int64_t axis = c.attr_int("axis", 0);
  if (axis < -r || axis >= r)
    c.refuse("onnx.attribute-value", "axis " + std::to_string(axis) + " is outside data's axes");
  if (axis < 0) axis += r;
  c.set_output(0, gathered_elements(c, c.data(0), c.shape(0), c.operand(1, ElemKind::Integer), c.shape(1), axis, ""));
}

// GatherND: with b = batch_dims and q the indices' last extent, y[p] = data[p's first b entries,
// idx[p, 0..q−1], ...] for every position p of idx without its last axis (ONNX's definition; y is
// [s0..s(m−2)] + data's extents after b + q). As one IR gather along axis 0 of data reshaped to
// [B·P, rest] (B the batch's element count, P that of the q indexed axes), at the flat index
// batch·P + Σ_k j_k·stride_k, each j_k moved into [0, d) as Gather does; a j_k outside [−d, d)
// gives the flat index −1, which gather reads as NaN. Integer arithmetic; fixed extents.
void gather_nd(Ctx& c) {
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported",
             "GatherND needs fixed extents (its flat indices are computed at load time), and "
             "the model's inputs have symbolic ones");
  const std::vector<int64_t> d = c.shape(0), s = c.shape(1);
  const int64_t b = c.attr_int("batch_dims", 0);
  const ValueRef index = nd_row_index(c, d, c.operand(1, ElemKind::Integer), s, b);
  const auto indexed = static_cast<size_t>(b + s.back());
  std::vector<int64_t> rows{1};  // data as [B·P, rest]
  for (size_t a = 0; a < indexed; ++a) rows[0] *= d[a];
  rows.insert(rows.end(), d.begin() + static_cast<std::ptrdiff_t>(indexed), d.end());
  const auto gather = [&](const std::string& suffix, ValueRef data) {
    return c.emit(suffix, GatherAttrs{0}, {c.emit(suffix + "-rows", ReshapeAttrs{rows}, {data}), index});
  };
  if (c.kind(0) != ElemKind::Integer) return c.set_output(0, gather("", c.data(0)));
  c.set_output(0, gathered_integers(c, c.operand(0, ElemKind::Integer), gather), ElemKind::Integer, c.type(0));
}

// ReverseSequence: along the time axis, the first len[b] elements of batch b reversed, the rest kept
// (ONNX's definition): y[.., t, .., b, ..] = x[.., src, .., b, ..] with src = len[b] − 1 − t where
// t < len[b], t elsewhere. One IR gather from x flattened at src·stride_time + base, base the
// constant offset of the other axes; a src outside [0, T) (a length beyond T) reads NaN. Integer
// arithmetic; fixed extents.
void reverse_sequence(Ctx& c) {
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported",
             "ReverseSequence needs fixed extents (its flat indices are computed at load "
             "time), and the model's inputs have symbolic ones");
  const std::vector<int64_t> d = c.shape(0);
  const auto r = static_cast<int64_t>(d.size());
  const int64_t time = c.attr_int("time_axis", 0), batch = c.attr_int("batch_axis", 1);
  if (r < 2 || (time != 0 && time != 1) || (batch != 0 && batch != 1) || time == batch)
    c.refuse("onnx.attribute-value",
             "time_axis and batch_axis must be 0 and 1, one each, of an input of rank 2 or more");
  const auto tu = static_cast<size_t>(time), bu = static_cast<size_t>(batch);
  std::vector<int64_t> stride(d.size(), 1);
  for (size_t a = d.size() - 1; a-- > 0;) stride[a] = stride[a + 1] * d[a + 1];
  int64_t count = 1;
  for (int64_t e : d) count *= e;
  c.charge(count);
  std::vector<int64_t> base(static_cast<size_t>(count));  // Σ over the axes but time of i_a·stride_a
  for (int64_t i = 0; i < count; ++i) base[static_cast<size_t>(i)] = i - (i / stride[tu] % d[tu]) * stride[tu];
  const auto integer_op = [&](const std::string& suffix, IntegerOp op, ValueRef x, ValueRef y) {
    return c.emit(suffix, IntegerBinaryAttrs{op, Broadcast::NumpyRight, {}}, {x, y});
  };
  const auto integer = [&](const std::string& suffix, int64_t v) {
    return c.literal(suffix, integer_tensor(Shape(), {v}));
  };
  // t along the time axis and len along the batch axis, each of rank r ([T, 1, ...] / [1, B, ...]).
  std::vector<int64_t> along_time(d.size(), 1), along_batch(d.size(), 1);
  along_time[tu] = -1, along_batch[bu] = -1;
  const ValueRef t = c.emit("t", ReshapeAttrs{along_time, ElemKind::Integer},
                            {integer_range(c, "t-range", {size_code::kConstant, 0}, {size_code::kConstant, d[tu]})});
  const ValueRef len =
      c.emit("length", ReshapeAttrs{along_batch, ElemKind::Integer}, {c.operand(1, ElemKind::Integer)});
  const ValueRef reversed =
      integer_op("reversed", IntegerOp::Sub, integer_op("last", IntegerOp::Sub, len, integer("one", 1)), t);
  const auto real = [&](const std::string& suffix, ValueRef v) {
    return c.emit(suffix, CastAttrs{ElemKind::Integer, ElemKind::Real}, {v});
  };
  const ValueRef within = c.emit("within", CompareAttrs{CompareOp::Lt, Broadcast::NumpyRight},
                                 {real("t-real", t), real("length-real", len)});
  const ValueRef src = c.emit("source", SelectAttrs{Broadcast::NumpyRight, ElemKind::Integer}, {within, reversed, t});
  const ValueRef src_real = real("source-real", src);
  const auto bound = [&](const std::string& suffix, CompareOp op, double v) {
    return c.emit(suffix, CompareAttrs{op, Broadcast::NumpyRight},
                  {src_real, c.literal(suffix + "-bound", scalar_tensor(v))});
  };
  const ValueRef inside = c.emit(
      "source-in-range", LogicalAttrs{LogicalOp::And, Broadcast::NumpyRight},
      {bound("source-above", CompareOp::Ge, 0), bound("source-below", CompareOp::Lt, static_cast<double>(d[tu]))});
  const ValueRef flat =
      integer_op("flat", IntegerOp::Add, integer_op("along-time", IntegerOp::Mul, src, integer("stride", stride[tu])),
                 c.literal("base", integer_tensor(Shape::make(d).value(), std::move(base))));
  const ValueRef index = c.emit("flat-index", SelectAttrs{Broadcast::NumpyRight, ElemKind::Integer},
                                {inside, flat, integer("outside", -1)});
  const ValueRef x = c.emit("flattened", ReshapeAttrs{{-1}}, {c.data(0)});
  c.set_output(0, c.emit("", GatherAttrs{0}, {x, index}));
}

// OneHot: on_value where the position along the new axis equals the index, off_value elsewhere
// (ONNX's definition; values = [off_value, on_value], of any kind). A real index is truncated
// towards zero (ONNX casts it to int64); a negative one counts from depth, so it matches the
// position p where p − depth equals it; one outside [−depth, depth) matches none. depth is a
// constant, or an integer computed from extents or from data (a size: the ranges' length). The
// comparisons are of reals, exact for indices below 2^53.
void one_hot(Ctx& c) {
  for (size_t k = 0; k < 3; ++k)
    if (!c.has_input(k))
      c.refuse("onnx.input-missing",
               "OneHot takes indices, depth and values (input " + std::to_string(k) + " is missing)");
  const auto r = static_cast<int64_t>(c.rank(0));
  int64_t axis = c.attr_int("axis", -1);
  if (axis < -(r + 1) || axis > r) c.refuse("onnx.attribute-value", "axis is outside the output's axes");
  if (axis < 0) axis += r + 1;
  std::vector<int64_t> depth;  // a size term
  if (const HostTensor* t = c.constant(1)) {
    if (t->values.size() != 1 || !std::isfinite(t->values[0]))
      c.refuse("onnx.input-type", "depth must hold one finite number");
    depth = {size_code::kConstant, static_cast<int64_t>(std::trunc(t->values[0]))};
  } else {
    SizesPtr terms = c.kind(1) == ElemKind::Integer ? c.terms(1) : nullptr;
    if (!terms && c.kind(1) == ElemKind::Integer) terms = c.data_terms(1);
    if (!terms)
      c.refuse("onnx.input-not-constant",
               "depth (input 1, '" + c.proto().input(1) +
                   "') is a real given or computed at run time: a real depth must be a constant");
    if (terms->elements.size() != 1) c.refuse("onnx.input-type", "depth must hold one number");
    depth = terms->elements[0];
  }
  ValueRef index = c.kind(0) == ElemKind::Real
                       ? c.data(0)
                       : c.emit("index-real", CastAttrs{c.kind(0), ElemKind::Real}, {c.operand(0, c.kind(0))});
  if (c.kind(0) == ElemKind::Real) {
    const ValueRef negative = c.emit("index-negative", CompareAttrs{CompareOp::Lt, Broadcast::NumpyRight},
                                     {index, c.literal("zero", scalar_tensor(0.0))});
    index = c.emit("index-truncated", SelectAttrs{Broadcast::NumpyRight},
                   {negative, c.emit("index-ceil", UnaryAttrs{UnaryOp::Ceil}, {index}),
                    c.emit("index-floor", UnaryAttrs{UnaryOp::Floor}, {index})});
  }
  index = c.emit("index-along", UnsqueezeAttrs{{axis}}, {index});
  // The positions 0..depth−1 and p − depth, laid along the new axis.
  std::vector<int64_t> laid{-1};
  laid.resize(static_cast<size_t>(r - axis + 1), 1);
  std::vector<int64_t> minus_depth{size_code::kConstant, 0};
  minus_depth.insert(minus_depth.end(), depth.begin(), depth.end());
  minus_depth.push_back(size_code::kSub);
  const auto matches = [&](const std::string& suffix, const std::vector<int64_t>& start,
                           const std::vector<int64_t>& limit) {
    const ValueRef positions =
        c.emit(suffix + "-laid", ReshapeAttrs{laid, ElemKind::Integer}, {integer_range(c, suffix, start, limit)});
    const ValueRef real = c.emit(suffix + "-real", CastAttrs{ElemKind::Integer, ElemKind::Real}, {positions});
    return c.emit(suffix + "-match", CompareAttrs{CompareOp::Eq, Broadcast::NumpyRight}, {real, index});
  };
  const ValueRef hot = c.emit("hot", LogicalAttrs{LogicalOp::Or, Broadcast::NumpyRight},
                              {matches("positions", {size_code::kConstant, 0}, depth),
                               matches("from-end", minus_depth, {size_code::kConstant, 0})});
  const ElemKind kind = c.kind(2);
  const ValueRef values = c.operand(2, kind);
  const auto value = [&](const std::string& suffix, int64_t i) {
    return c.emit(suffix, SliceAttrs{{0}, {i}, {i + 1}, {}, kind}, {values});
  };
  c.set_output(0, c.emit("", SelectAttrs{Broadcast::NumpyRight, kind}, {hot, value("on", 1), value("off", 0)}), kind,
               c.type(2));
}

}  // namespace

ValueRef nd_row_index(Ctx& c, const std::vector<int64_t>& d, ValueRef idx, const std::vector<int64_t>& s, int64_t b) {
  const auto r = static_cast<int64_t>(d.size()), m = static_cast<int64_t>(s.size());
  if (m < 1 || b < 0 || b >= std::min(r, m)) c.refuse("onnx.attribute-value", "batch_dims must be below both ranks");
  const int64_t q = s.back();
  if (q < 1 || q > r - b)
    c.refuse("onnx.input-shape", "the indices' last extent must be in 1 .. rank(data) − batch_dims");
  for (int64_t a = 0; a < b; ++a)
    if (s[static_cast<size_t>(a)] != d[static_cast<size_t>(a)])
      c.refuse("onnx.input-shape", "the indices' batch extents must be data's");
  const auto extent = [&](int64_t a) { return d[static_cast<size_t>(a)]; };
  int64_t indexed = 1;
  for (int64_t a = b; a < b + q; ++a) indexed *= extent(a);
  const std::vector<int64_t> positions(s.begin(), s.end() - 1);
  int64_t count = 1;
  for (int64_t e : positions) count *= e;
  c.charge(count);
  // batch·P at each position: its first b entries counted row-major, times P.
  std::vector<int64_t> base(static_cast<size_t>(count));
  int64_t per_batch = 1;
  for (size_t a = static_cast<size_t>(b); a < positions.size(); ++a) per_batch *= positions[a];
  for (int64_t i = 0; i < count; ++i) base[static_cast<size_t>(i)] = i / per_batch * indexed;
  const auto integer_op = [&](const std::string& suffix, IntegerOp op, ValueRef x, ValueRef y) {
    return c.emit(suffix, IntegerBinaryAttrs{op, Broadcast::NumpyRight, {}}, {x, y});
  };
  ValueRef flat = c.literal("base", integer_tensor(Shape::make(positions).value(), std::move(base)));
  std::optional<ValueRef> in_range;
  int64_t stride = indexed;
  for (int64_t k = 0; k < q; ++k) {
    const std::string n = "index" + std::to_string(k);
    stride /= extent(b + k);
    const ValueRef j = c.emit(n, SqueezeAttrs{{m - 1}, ElemKind::Integer},
                              {c.emit(n + "-slice", SliceAttrs{{m - 1}, {k}, {k + 1}, {}, ElemKind::Integer}, {idx})});
    const ValueRef real = c.emit(n + "-as-real", CastAttrs{ElemKind::Integer, ElemKind::Real}, {j});
    const auto compare = [&](const std::string& what, CompareOp op, int64_t v) {
      return c.emit(n + what, CompareAttrs{op, Broadcast::NumpyRight},
                    {real, c.literal(n + what + "-bound", scalar_tensor(static_cast<double>(v)))});
    };
    const ValueRef inside =
        c.emit(n + "-in-range", LogicalAttrs{LogicalOp::And, Broadcast::NumpyRight},
               {compare("-above", CompareOp::Ge, -extent(b + k)), compare("-below", CompareOp::Lt, extent(b + k))});
    in_range =
        in_range ? c.emit(n + "-all-in-range", LogicalAttrs{LogicalOp::And, Broadcast::NumpyRight}, {*in_range, inside})
                 : inside;
    const ValueRef term = integer_op(n + "-term", IntegerOp::Mul, index_in_range(c, j, extent(b + k)),
                                     c.literal(n + "-stride", integer_tensor(Shape(), {stride})));
    flat = integer_op(n + "-flat", IntegerOp::Add, flat, term);
  }
  return c.emit("flat-index", SelectAttrs{Broadcast::NumpyRight, ElemKind::Integer},
                {*in_range, flat, c.literal("outside", integer_tensor(Shape(), {-1}))});
}

void add_indexing_ops(OpTable& table) {
  add_ops(table, {
                     {"EyeLike", eye_like},
                     {"GatherElements", gather_elements},
                     {"GatherND", gather_nd},
                     {"OneHot", one_hot},
                     {"ReverseSequence", reverse_sequence},
                     {"Trilu", trilu},
                 });
}

}  // namespace nnref::onnx_format
