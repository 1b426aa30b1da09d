// One maker per op of the op list: from the op's prototype (its attributes as op_prototypes gives
// them, one per name of a family) and the choices, a proposal of attributes and operands that is
// plausible but not checked here: the generator checks it through the op's own rule and rejects
// what fails. A maker never restates a shape rule; it only draws values that often satisfy it.
// Adding an op to the op list without a maker here does not compile (make_for below); the worked
// example is in docs/testing.md.
#include <algorithm>
#include <array>
#include <numeric>
#include <utility>

#include "properties/gen_context.hpp"
#include "spec/contract_program.hpp"

namespace nnref::properties {

namespace {

using Maker = std::optional<Candidate>;

// An element kind: cast's ends, and the kind of an op that moves elements (views, transpose,
// concat, split, slice). Real is choice 0, the simplest.
ElemKind draw_kind(GenContext& ctx) {
  static constexpr ElemKind kKinds[] = {ElemKind::Real, ElemKind::Integer, ElemKind::Logical};
  return kKinds[ctx.c.below(std::size(kKinds))];
}

Candidate unary_candidate(OpAttrs op, Operand x, Range domain = Range::Any) {
  return Candidate{std::move(op), {std::move(x)}, {domain}, {}};
}

Range unary_domain(UnaryOp op) {
  switch (op) {
    case UnaryOp::Log:
    case UnaryOp::Log2:
    case UnaryOp::Sqrt:
    case UnaryOp::Rsqrt: return Range::Positive;
    case UnaryOp::Rcp:
    case UnaryOp::Rsqr: return Range::NonZero;
    case UnaryOp::Asin:
    case UnaryOp::Acos:
    case UnaryOp::Atanh: return Range::Unit;
    case UnaryOp::Acosh: return Range::AboveOne;
    case UnaryOp::Exp:
    case UnaryOp::Sinh:
    case UnaryOp::Cosh:
    case UnaryOp::Softplus: return Range::Exponent;
    case UnaryOp::Tan: return Range::Angle;
    default: return Range::Any;
  }
}

// The tensor axis an axis attribute names (ctx.axis and ctx.axes give them in range).
size_t tensor_axis(int64_t axis, size_t rank) {
  return static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(rank) : axis);
}

// A small positive slope or alpha: 1/8 .. 1/2.
double small_fraction(GenContext& ctx) { return static_cast<double>(ctx.c.between(1, 4)) / 8.0; }

Maker make(const InputAttrs&, GenContext&) { return std::nullopt; }  // leaves: GenContext::leaf
Maker make(const ConstAttrs&, GenContext&) { return std::nullopt; }

Maker make(const UnaryAttrs& proto, GenContext& ctx) {
  UnaryAttrs a = proto;
  if (a.op == UnaryOp::Elu || a.op == UnaryOp::LeakyRelu) a.alpha = Real(small_fraction(ctx));
  const Range domain = unary_domain(a.op);
  return unary_candidate(a, ctx.operand(ElemKind::Real, 0, ctx.max_rank(), domain), domain);
}

// Two operands that broadcast under `b`, in either order.
std::vector<Operand> broadcast_pair(GenContext& ctx, Broadcast b, ElemKind kind, Range first, Range second) {
  Operand x = ctx.operand(kind, 0, ctx.max_rank(), first);
  Operand y = ctx.of_shape(ctx.broadcast_partner(ctx.shape(x), b), kind, second);
  return {std::move(x), std::move(y)};
}

// x^k with a whole exponent k in [-3, 4] held by a constant (one element, or x's shape under Equal
// broadcasting), as PyTorch exports x.pow(2): a base of any sign, which a negative k keeps away
// from 0 (Range::NonZero) so that the exact value is finite.
Maker whole_power(BinaryAttrs a, GenContext& ctx) {
  const double k = zigzag(ctx.c.below(8));  // 0, 1, -1, 2, -2, 3, -3, 4
  const Range base = k < 0 ? Range::NonZero : Range::Any;
  Operand x = ctx.operand(ElemKind::Real, 0, ctx.max_rank(), base);
  std::vector<int64_t> dims = ctx.broadcast_partner(ctx.shape(x), a.broadcast).dims();
  if (a.broadcast != Broadcast::Equal) std::fill(dims.begin(), dims.end(), 1);
  auto exponent = Shape::make(dims);
  if (!exponent) return std::nullopt;
  return Candidate{a, {std::move(x), GenContext::filled(*exponent, k)}, {base, Range::Any}, {}};
}

Maker make(const BinaryAttrs& proto, GenContext& ctx) {
  BinaryAttrs a = proto;
  a.broadcast = ctx.broadcast_mode();
  if (a.op == BinaryOp::Pow && ctx.c.flip(2)) return whole_power(a, ctx);
  Range first = Range::Any, second = Range::Any;
  if (a.op == BinaryOp::Div) second = Range::NonZero;
  if (a.op == BinaryOp::Pow) first = Range::Positive, second = Range::Exponent;
  auto xs = broadcast_pair(ctx, a.broadcast, ElemKind::Real, first, second);
  if (first == second && ctx.c.flip(2)) std::swap(xs[0], xs[1]);
  return Candidate{a, std::move(xs), {first, second}, {}};
}

Maker make(const CompareAttrs& proto, GenContext& ctx) {
  CompareAttrs a = proto;
  a.broadcast = ctx.broadcast_mode();
  return Candidate{a, broadcast_pair(ctx, a.broadcast, ElemKind::Real, Range::Any, Range::Any), {}, {}};
}

Maker make(const LogicalAttrs& proto, GenContext& ctx) {
  LogicalAttrs a = proto;
  a.broadcast = ctx.broadcast_mode();
  if (a.op == LogicalOp::Not)
    return unary_candidate(a, ctx.operand(ElemKind::Logical, 0, ctx.max_rank()));
  return Candidate{a, broadcast_pair(ctx, a.broadcast, ElemKind::Logical, Range::Any, Range::Any), {}, {}};
}

Maker make(const PreluAttrs& proto, GenContext& ctx) {
  PreluAttrs a = proto;
  a.broadcast = ctx.broadcast_mode();
  return Candidate{a, broadcast_pair(ctx, a.broadcast, ElemKind::Real, Range::Any, Range::Any), {}, {}};
}

// An operand of `kind` and two partners that broadcast against it under `b`, the first of kind
// `first`, the second of `kind`.
std::array<Operand, 3> with_two_partners(GenContext& ctx, Broadcast b, ElemKind first, ElemKind kind = ElemKind::Real) {
  Operand x = ctx.operand(kind, 0, ctx.max_rank());
  const Shape s = ctx.shape(x);
  Operand p = ctx.of_shape(ctx.broadcast_partner(s, b), first);
  Operand q = ctx.of_shape(ctx.broadcast_partner(s, b), kind);
  return {std::move(x), std::move(p), std::move(q)};
}

Maker make(const ClampAttrs& proto, GenContext& ctx) {
  ClampAttrs a = proto;
  a.broadcast = ctx.broadcast_mode();
  auto [x, lo, hi] = with_two_partners(ctx, a.broadcast, ElemKind::Real);
  return Candidate{a, {std::move(x), std::move(lo), std::move(hi)}, {}, {}};
}

Maker make(const SelectAttrs& proto, GenContext& ctx) {
  SelectAttrs a = proto;
  a.broadcast = ctx.broadcast_mode();
  a.kind = draw_kind(ctx);
  auto [x, cond, y] = with_two_partners(ctx, a.broadcast, ElemKind::Logical, a.kind);
  return Candidate{a, {std::move(cond), std::move(x), std::move(y)}, {}, {}};
}

Maker make(const AddNAttrs& proto, GenContext& ctx) {
  Operand x = ctx.operand(ElemKind::Real, 0, ctx.max_rank());
  Candidate cand{proto, {x}, {}, {}};
  const int64_t n = ctx.c.between(2, 4);
  for (int64_t k = 1; k < n; ++k) cand.operands.push_back(ctx.of_shape(ctx.shape(x), ElemKind::Real));
  return cand;
}

// Dims as a size program over the extents of one operand of shape s: each entry above 1 that is
// an extent of s reads that extent, the others are constants.
std::vector<int64_t> computed_dims(const std::vector<int64_t>& dims, const Shape& s) {
  using namespace size_code;
  std::vector<int64_t> code;
  for (int64_t d : dims) {
    const auto same = std::find(s.dims().begin(), s.dims().end(), d);
    if (same != s.dims().end() && d > 1) code.insert(code.end(), {kExtent, 0, same - s.dims().begin()});
    else code.insert(code.end(), {kConstant, d});
  }
  return code;
}

Maker make(const BroadcastToAttrs& proto, GenContext& ctx) {
  BroadcastToAttrs a = proto;
  a.broadcast = ctx.broadcast_mode();
  // The operand is a partner of the target: the target drawn first, the operand broadcasts to it.
  const Shape target = ctx.random_shape(0, ctx.max_rank());
  a.dims = target.dims();
  Operand x = ctx.of_shape(ctx.broadcast_partner(target, a.broadcast), ElemKind::Real);
  if (ctx.c.flip(4)) {  // the same dims computed from x's extents, x read again as their source
    a.computed = computed_dims(a.dims, ctx.shape(x));
    a.dims.clear();
    a.sources = {ElemKind::Real};
    return Candidate{a, {x, x}, {}, {}};
  }
  return unary_candidate(a, std::move(x));
}

Maker make(const LinearAttrs& proto, GenContext& ctx) {
  LinearAttrs a = proto;
  a.units = ctx.c.between(1, ctx.o.max_extent);
  a.layout = ctx.c.flip(2) ? WeightLayout::OutIn : WeightLayout::InOut;
  a.has_bias = !ctx.c.flip(3);
  return unary_candidate(a, ctx.operand(ElemKind::Real, 2, 2));
}

Maker make(const MatMulAttrs& proto, GenContext& ctx) {
  MatMulAttrs a = proto;
  a.transpose_a = ctx.c.flip(3);
  a.transpose_b = ctx.c.flip(3);
  Operand x = ctx.operand(ElemKind::Real, 2, ctx.max_rank());
  std::vector<int64_t> b = ctx.shape(x).dims();
  const size_t r = b.size();
  const int64_t k = a.transpose_a ? b[r - 2] : b[r - 1], n = ctx.c.between(1, ctx.o.max_extent);
  b[r - 2] = a.transpose_b ? n : k;
  b[r - 1] = a.transpose_b ? k : n;
  // Now and then a batch axis that broadcasts: B's extent 1 against A's, or B's wider against A's 1.
  for (size_t i = 0; i + 2 < r; ++i)
    if (ctx.c.flip(4)) b[i] = b[i] == 1 ? ctx.c.between(1, ctx.o.max_extent) : 1;
  auto shape = Shape::make(b);
  if (!shape) return std::nullopt;
  Operand y = ctx.of_shape(*shape, ElemKind::Real);
  return Candidate{a, {std::move(x), std::move(y)}, {}, {}};
}

// The window attributes of conv, deconv and pool over the spatial extents `spatial`.
template <class A>
void draw_window(A& a, const std::vector<int64_t>& spatial, GenContext& ctx, bool with_padding) {
  for (int64_t extent : spatial) {
    const int64_t k = ctx.c.between(1, std::min<int64_t>(extent, 3));
    a.kernel.push_back(k);
    a.stride.push_back(ctx.c.between(1, 2));
    a.dilation.push_back(ctx.c.flip(4) ? 2 : 1);
    if (with_padding) a.padding.emplace_back(ctx.c.between(0, k - 1), ctx.c.between(0, k - 1));
  }
}

int64_t divisor_of(int64_t n, GenContext& ctx) {
  std::vector<int64_t> ds;
  for (int64_t d = 1; d <= n; ++d)
    if (n % d == 0) ds.push_back(d);
  return ds[static_cast<size_t>(ctx.c.below(ds.size()))];
}

std::vector<int64_t> spatial_extents(const Shape& s, Layout layout) {
  const auto& d = s.dims();
  return layout == Layout::ChannelsFirst ? std::vector<int64_t>(d.begin() + 2, d.end())
                                         : std::vector<int64_t>(d.begin() + 1, d.end() - 1);
}

PadMode pad_mode(GenContext& ctx) {
  static constexpr PadMode kModes[] = {PadMode::Explicit, PadMode::Valid, PadMode::SameUpper, PadMode::SameLower};
  return kModes[ctx.c.below(4)];
}

Maker make(const ConvAttrs& proto, GenContext& ctx) {
  ConvAttrs a = proto;
  a.layout = ctx.c.flip(4) ? Layout::ChannelsLast : Layout::ChannelsFirst;
  a.pad_mode = pad_mode(ctx);
  a.has_bias = !ctx.c.flip(3);
  Operand x = ctx.operand(ElemKind::Real, 3, std::min<size_t>(5, ctx.max_rank()));
  const Shape& s = ctx.shape(x);
  const int64_t channels = a.layout == Layout::ChannelsFirst ? s[1] : s[s.rank() - 1];
  a.groups = divisor_of(channels, ctx);
  a.out_channels = a.groups * ctx.c.between(1, std::max<int64_t>(1, ctx.o.max_extent / a.groups));
  draw_window(a, spatial_extents(s, a.layout), ctx, a.pad_mode == PadMode::Explicit);
  return unary_candidate(a, std::move(x));
}

Maker make(const DeconvAttrs& proto, GenContext& ctx) {
  DeconvAttrs a = proto;
  a.has_bias = !ctx.c.flip(3);
  Operand x = ctx.operand(ElemKind::Real, 3, std::min<size_t>(5, ctx.max_rank()));
  const Shape& s = ctx.shape(x);
  a.groups = divisor_of(s[1], ctx);
  a.out_channels = a.groups * ctx.c.between(1, std::max<int64_t>(1, ctx.o.max_extent / a.groups));
  draw_window(a, spatial_extents(s, Layout::ChannelsFirst), ctx, true);
  return unary_candidate(a, std::move(x));
}

Maker make(const PoolAttrs& proto, GenContext& ctx) {
  PoolAttrs a = proto;
  a.layout = ctx.c.flip(4) ? Layout::ChannelsLast : Layout::ChannelsFirst;
  // The rounded-up extent (ONNX's and PyTorch's ceil_mode) is a pool's: one draw in five.
  a.pad_mode = ctx.c.flip(5) ? PadMode::ExplicitCeil : pad_mode(ctx);
  a.border = ctx.c.flip(3) ? PoolBorder::Constant : PoolBorder::Ignore;
  Operand x = ctx.operand(ElemKind::Real, 3, std::min<size_t>(5, ctx.max_rank()));
  draw_window(a, spatial_extents(ctx.shape(x), a.layout), ctx, window::is_explicit(a.pad_mode));
  return unary_candidate(a, std::move(x));
}

Maker make(const ArgmaxPoolAttrs& proto, GenContext& ctx) {
  ArgmaxPoolAttrs a = proto;
  a.pad_mode = pad_mode(ctx);
  a.border = ctx.c.flip(3) ? PoolBorder::Ignore : PoolBorder::Constant;
  Operand x = ctx.operand(ElemKind::Real, 3, std::min<size_t>(5, ctx.max_rank()));
  draw_window(a, spatial_extents(ctx.shape(x), Layout::ChannelsFirst), ctx, a.pad_mode == PadMode::Explicit);
  return unary_candidate(a, std::move(x));
}

// sample reads an up-scaled x through an index of the down-scaled shape; desample sums a
// down-scaled x into an output_shape that down-scales to it. The index is a leaf in [0, Π k), and
// for desample sometimes Π k too, an index that names no position (its element adds nothing).
Maker make(const SampleAttrs& proto, GenContext& ctx) {
  SampleAttrs a = proto;
  a.pad_mode = pad_mode(ctx);
  Operand x = ctx.operand(ElemKind::Real, 3, std::min<size_t>(5, ctx.max_rank()));
  const Shape s = ctx.shape(x);
  const std::vector<int64_t> spatial = spatial_extents(s, Layout::ChannelsFirst);
  draw_window(a, spatial, ctx, a.pad_mode == PadMode::Explicit);
  int64_t volume = 1;
  for (int64_t k : a.kernel) volume *= k;
  std::vector<int64_t> index_shape = s.dims();
  if (a.op == SampleOp::Sample) {
    ConcreteSink sink;
    const auto down = window::spatial_rule(op_name(a), a, Dims<CDim>(s.dims().begin(), s.dims().end()), sink);
    if (!down || !sink.ok()) return std::nullopt;
    for (size_t i = 0; i < down->size(); ++i) index_shape[2 + i] = (*down)[i].v;
  } else {
    a.output_shape = {s[0], s[1]};
    for (size_t i = 0; i < spatial.size(); ++i) {
      const window::Axis w = window::axis(a, i);
      const int64_t up = window::is_same(a.pad_mode)
                             ? (spatial[i] - 1) * w.s + ctx.c.between(1, w.s)
                             : (spatial[i] - 1) * w.s + window::extent(w) - w.before - w.after + ctx.c.between(0, w.s - 1);
      if (up < 1 || up + w.before + w.after < window::extent(w)) return std::nullopt;
      a.output_shape.push_back(up);
    }
  }
  const int64_t bound = a.op == SampleOp::Desample && ctx.c.flip(4) ? volume + 1 : volume;
  auto index_dims = Shape::make(index_shape);
  if (!index_dims) return std::nullopt;
  Operand index = ctx.leaf(index_dims.value(), ElemKind::Integer, Range::Any, bound);
  return Candidate{a, {std::move(x), std::move(index)}, {}, {}};
}

Maker make(const BatchNormAttrs& proto, GenContext& ctx) {
  BatchNormAttrs a = proto;
  Operand x = ctx.operand(ElemKind::Real, 2, ctx.max_rank());
  a.channel_axis = ctx.c.flip(4) ? -1 : 1;
  Candidate cand = unary_candidate(a, std::move(x));
  cand.param_ranges["variance"] = Range::Positive;
  return cand;
}

// An op over a nonempty set of axes of one operand: layer_norm, softmax, the reductions.
template <class A>
Candidate over_axes(A a, ElemKind kind, GenContext& ctx) {
  Operand x = ctx.operand(kind, 1, ctx.max_rank());
  a.axes = ctx.axes(ctx.shape(x).rank());
  return unary_candidate(a, std::move(x));
}

Maker make(const LayerNormAttrs& proto, GenContext& ctx) {
  LayerNormAttrs a = proto;
  a.affine = ctx.c.flip(2);
  return over_axes(a, ElemKind::Real, ctx);
}

Maker make(const SoftmaxAttrs& proto, GenContext& ctx) { return over_axes(proto, ElemKind::Real, ctx); }

Maker make(const ReduceAttrs& proto, GenContext& ctx) {
  ReduceAttrs a = proto;
  a.keep_dims = !ctx.c.flip(2);
  return over_axes(a, ElemKind::Real, ctx);
}

Maker make(const ArgReduceAttrs& proto, GenContext& ctx) {
  ArgReduceAttrs a = proto;
  a.last = ctx.c.flip(2);
  return over_axes(a, ElemKind::Real, ctx);
}

Maker make(const LogicalReduceAttrs& proto, GenContext& ctx) { return over_axes(proto, ElemKind::Logical, ctx); }

// The cumulative sum of a real or an integer operand (its result of any type, 8 to 64 bits, signed
// or not) along one of its axes, either way, inclusive or exclusive.
Maker make(const CumsumAttrs& proto, GenContext& ctx) {
  CumsumAttrs a = proto;
  a.kind = ctx.c.flip(3) ? ElemKind::Integer : ElemKind::Real;
  if (a.kind == ElemKind::Integer) a.type = {static_cast<IntegerWidth>(ctx.c.below(4)), !ctx.c.flip(2)};
  Operand x = ctx.operand(a.kind, 1, ctx.max_rank());
  a.axis = ctx.axis(ctx.shape(x).rank());
  a.exclusive = ctx.c.flip(2);
  a.reverse = ctx.c.flip(2);
  return unary_candidate(a, std::move(x));
}

// A shape of the same element count: the count's prime factors grouped at random.
Maker make(const ReshapeAttrs& proto, GenContext& ctx) {
  ReshapeAttrs a = proto;
  a.kind = draw_kind(ctx);
  Operand x = ctx.operand(a.kind, 0, ctx.max_rank());
  int64_t n = ctx.shape(x).count();
  std::vector<int64_t> factors;
  for (int64_t p = 2; p * p <= n; ++p)
    while (n % p == 0) factors.push_back(p), n /= p;
  if (n > 1) factors.push_back(n);
  const auto rank = static_cast<size_t>(ctx.c.between(1, ctx.o.max_rank));
  a.dims.assign(rank, 1);
  for (int64_t f : factors) a.dims[ctx.c.below(rank)] *= f;
  if (ctx.c.flip(3)) a.dims[ctx.c.below(rank)] = -1;
  if (ctx.c.flip(4)) {  // the same dims computed from x's extents, x read again as their source
    a.computed = computed_dims(a.dims, ctx.shape(x));
    a.dims.clear();
    a.sources = {a.kind};
    return Candidate{a, {x, x}, {}, {}};
  }
  return unary_candidate(a, std::move(x));
}

// sizes: the extents of one operand, each perhaps times or over a small constant.
// contract: the program of a @lower body `y[i] = x[i] · x[i]; y[i] += x[i]` (an assignment, then an
// accumulation of one term per element) over an operand of any shape.
Maker make(const ContractAttrs&, GenContext& ctx) {
  using namespace contract;
  Operand x = ctx.operand(ElemKind::Real, 0, ctx.max_rank());
  const std::vector<int64_t> shape = ctx.shape(x).dims();
  std::vector<int64_t> every(static_cast<size_t>(element_count(shape)));
  std::iota(every.begin(), every.end(), int64_t{0});
  Statement square{Assign::Set, 0, every, {{NodeKind::Read, -1, -1, -1, 0}, {NodeKind::Mul, 0, 0, -1, 0}}, 1,
                   {{{0}, every}}, {}};
  Statement add{Assign::Add, 0, every, {{NodeKind::Read, -1, -1, -1, 0}}, 0, {{{0}, every}}, {}};
  const Program p{{shape}, {shape}, {square, add}};
  return Candidate{ContractAttrs{1, encode(p)}, {std::move(x)}, {}, {}};
}

Maker make(const SizesAttrs&, GenContext& ctx) {
  using namespace size_code;
  SizesAttrs a;
  a.sources = {draw_kind(ctx)};
  Operand x = ctx.operand(a.sources[0], 1, ctx.max_rank());
  for (size_t k = 0; k < ctx.shape(x).rank(); ++k) {
    a.program.insert(a.program.end(), {kExtent, 0, static_cast<int64_t>(k)});
    if (ctx.c.flip(3)) a.program.insert(a.program.end(), {kConstant, ctx.c.between(1, 3), ctx.c.flip(2) ? kMul : kDiv});
  }
  return Candidate{a, {std::move(x)}, {}, {}};
}

// range: an integer arange over an operand's extent X (its start and limit computed from it):
// from 0 or −2 up to X or 2·X by 1 or 2, or from X down to −1 by −1 or −2: at least one element
// for every X ≥ 1. (A real range reads no operand, which the generator does not draw.)
Maker make(const RangeAttrs&, GenContext& ctx) {
  using namespace size_code;
  RangeAttrs a;
  a.kind = ElemKind::Integer;
  a.sources = {draw_kind(ctx)};
  Operand x = ctx.operand(a.sources[0], 1, ctx.max_rank());
  const int64_t k = ctx.c.between(0, static_cast<int64_t>(ctx.shape(x).rank()) - 1);
  if (ctx.c.flip(2)) {
    a.computed = {kConstant, ctx.c.flip(2) ? 0 : -2, kExtent, 0, k};
    if (ctx.c.flip(2)) a.computed.insert(a.computed.end(), {kConstant, 2, kMul});
    a.idelta = ctx.c.between(1, 2);
  } else {
    a.computed = {kExtent, 0, k, kConstant, -1};
    a.idelta = -ctx.c.between(1, 2);
  }
  return Candidate{a, {std::move(x)}, {}, {}};
}

Maker make(const FlattenAttrs& proto, GenContext& ctx) {
  FlattenAttrs a = proto;
  Operand x = ctx.operand(ElemKind::Real, 1, ctx.max_rank());
  a.axis = ctx.c.between(0, static_cast<int64_t>(ctx.shape(x).rank()));
  return unary_candidate(a, std::move(x));
}

Maker make(const TransposeAttrs& proto, GenContext& ctx) {
  TransposeAttrs a = proto;
  a.kind = draw_kind(ctx);
  Operand x = ctx.operand(a.kind, 1, ctx.max_rank());
  a.perm.resize(ctx.shape(x).rank());
  std::iota(a.perm.begin(), a.perm.end(), 0);
  for (size_t i = a.perm.size(); i > 1; --i) std::swap(a.perm[i - 1], a.perm[ctx.c.below(i)]);  // Fisher–Yates
  return unary_candidate(a, std::move(x));
}

Maker make(const ConcatAttrs& proto, GenContext& ctx) {
  ConcatAttrs a = proto;
  a.kind = draw_kind(ctx);
  Operand x = ctx.operand(a.kind, 1, ctx.max_rank());
  const Shape s = ctx.shape(x);
  a.axis = ctx.axis(s.rank());
  const size_t ax = tensor_axis(a.axis, s.rank());
  Candidate cand = unary_candidate(a, std::move(x));
  const int64_t parts = ctx.c.between(1, 3);
  for (int64_t k = 0; k < parts; ++k) {
    std::vector<int64_t> d = s.dims();
    if (!ctx.c.flip(3)) d[ax] = ctx.c.between(1, ctx.o.max_extent);
    auto part = Shape::make(d);
    if (!part) return std::nullopt;
    cand.operands.push_back(ctx.of_shape(*part, a.kind));
  }
  return cand;
}

Maker make(const SplitAttrs& proto, GenContext& ctx) {
  SplitAttrs a = proto;
  a.kind = draw_kind(ctx);
  Operand x = ctx.operand(a.kind, 1, ctx.max_rank());
  a.axis = ctx.axis(ctx.shape(x).rank());
  const int64_t parts = ctx.c.between(1, 3);
  for (int64_t k = 0; k < parts; ++k) a.ratios.push_back(ctx.c.between(1, 2));
  return unary_candidate(a, std::move(x));
}

Maker make(const SliceAttrs& proto, GenContext& ctx) {
  SliceAttrs a = proto;
  a.kind = draw_kind(ctx);
  Operand x = ctx.operand(a.kind, 1, ctx.max_rank());
  const Shape s = ctx.shape(x);
  a.axes = ctx.axes(s.rank());
  const bool strided = ctx.c.flip(3);
  for (int64_t axis : a.axes) {
    const int64_t extent = s[tensor_axis(axis, s.rank())];
    const int64_t stride = strided ? (ctx.c.flip(3) ? -1 : ctx.c.between(1, 2)) : 1;
    int64_t b = ctx.c.between(0, extent - 1), e = ctx.c.between(b + 1, extent);
    if (stride < 0) std::swap(b, e), b -= 1, e -= 1;  // from e - 1 down to b, exclusive: as many elements
    if (ctx.c.flip(4)) b -= extent;                  // the same position, counted from the end
    a.begin.push_back(b);
    a.end.push_back(e);
    if (strided) a.stride.push_back(stride);
  }
  return unary_candidate(a, std::move(x));
}

Maker make(const GatherAttrs& proto, GenContext& ctx) {
  GatherAttrs a = proto;
  Operand x = ctx.operand(ElemKind::Real, 1, ctx.max_rank());
  const Shape s = ctx.shape(x);
  a.axis = ctx.axis(s.rank());
  const int64_t extent = s[tensor_axis(a.axis, s.rank())];
  Operand indices = ctx.operand(ElemKind::Integer, 0, 2);
  if (indices.pool < 0 || ctx.c.flip(2))
    indices = ctx.leaf(ctx.random_shape(0, 2), ElemKind::Integer, Range::Any, extent);
  return Candidate{a, {std::move(x), std::move(indices)}, {}, {}};
}

// One or two axes, each with 1 to 3 output positions of 1 to 4 taps: indices in [0, extent), weights
// of any sign (a Resize's are in [0, 1], but the formula holds for any).
Maker make(const InterpolateAttrs& proto, GenContext& ctx) {
  InterpolateAttrs a = proto;
  Operand x = ctx.operand(ElemKind::Real, 1, ctx.max_rank());
  const Shape s = ctx.shape(x);
  a.axes = ctx.axes(s.rank());
  if (a.axes.size() > 2) a.axes.resize(2);
  std::vector<Operand> operands{std::move(x)};
  for (int64_t axis : a.axes) {
    const Shape taps = Shape::of({ctx.c.between(1, 3), ctx.c.between(1, 4)});
    operands.push_back(ctx.leaf(taps, ElemKind::Integer, Range::Any, s[tensor_axis(axis, s.rank())]));
    operands.push_back(ctx.leaf(taps, ElemKind::Real, Range::Any));
  }
  return Candidate{a, std::move(operands), {}, {}};
}

// Regions drawn in [1/4, 4] (Range::Positive, start and end alike: some inverted), so inside the
// image when its extents are 4 or more; batch indices always a new leaf, valid in [0, N).
Maker make(const RoiAttrs& proto, GenContext& ctx) {
  RoiAttrs a = proto;
  a.method = kRoiMethods[ctx.c.below(std::size(kRoiMethods))];
  Operand x = ctx.operand(ElemKind::Real, 3, std::min<size_t>(5, ctx.max_rank()));
  const Shape s = ctx.shape(x);
  for (size_t k = 2; k < s.rank(); ++k) a.output_size.push_back(ctx.c.between(1, 3));
  const auto m = static_cast<int64_t>(a.output_size.size()), regions = ctx.c.between(1, 3);
  Operand rois = ctx.leaf(Shape::of({regions, 2 * m}), ElemKind::Real, Range::Positive);
  Operand index = ctx.leaf(Shape::of({regions}), ElemKind::Integer, Range::Any, s[0]);
  return Candidate{a, {std::move(x), std::move(rois), std::move(index)}, {Range::Any, Range::Positive}, {}};
}

Maker make(const CastAttrs& proto, GenContext& ctx) {
  CastAttrs a = proto;
  a.from = draw_kind(ctx);
  a.to = draw_kind(ctx);
  return unary_candidate(a, ctx.operand(a.from, 0, ctx.max_rank()));
}

// Integer arithmetic: an integer operand and a partner that broadcasts against it, a new leaf drawn
// in [0, 7), the result of any type (8 to 64 bits, signed or not); the divisor of div, mod and
// fmod is a whole number of either sign, never 0 (a zero divisor gives an unknown result, which
// the generator would reject), filling its leaf.
Maker make(const IntegerBinaryAttrs& proto, GenContext& ctx) {
  IntegerBinaryAttrs a = proto;
  a.broadcast = ctx.broadcast_mode();
  a.type = {static_cast<IntegerWidth>(ctx.c.below(4)), !ctx.c.flip(2)};
  Operand x = ctx.operand(ElemKind::Integer, 0, ctx.max_rank());
  Operand y = ctx.leaf(ctx.broadcast_partner(ctx.shape(x), a.broadcast), ElemKind::Integer, Range::Any, 7);
  if (a.op == IntegerOp::Div || a.op == IntegerOp::Mod || a.op == IntegerOp::Fmod)
    y.leaf.fill = zigzag(ctx.c.below(6) + 1);  // 1, −1, 2, −2, 3, −3 (zigzag(0) = 0 is left out)
  return Candidate{a, {std::move(x), std::move(y)}, {}, {}};
}

// Pad of any kind, its constant value one of that kind.
Maker make(const PadAttrs& proto, GenContext& ctx) {
  static constexpr PadBorder kBorders[] = {PadBorder::Constant, PadBorder::Reflect, PadBorder::Replicate,
                                           PadBorder::ReflectEven};
  PadAttrs a = proto;
  a.kind = draw_kind(ctx);
  Operand x = ctx.operand(a.kind, 1, ctx.max_rank());
  a.border = kBorders[ctx.c.below(4)];
  const int64_t v = ctx.c.between(0, 8);  // a value of the kind: v / 4, v, or v's parity
  a.value = Real(a.kind == ElemKind::Real ? static_cast<double>(v) / 4.0
                                          : static_cast<double>(a.kind == ElemKind::Integer ? v : v % 2));
  // A negative padding crops (NNEF 1.0): drawn on axes of 3 or more, so that one element stays.
  for (size_t i = 0; i < ctx.shape(x).rank(); ++i) {
    const int64_t low = ctx.shape(x)[i] >= 3 ? -1 : 0;
    a.padding.emplace_back(ctx.c.between(low, 2), ctx.c.between(low, 2));
  }
  return unary_candidate(a, std::move(x));
}

Maker make(const SqueezeAttrs& proto, GenContext& ctx) {
  SqueezeAttrs a = proto;
  a.kind = draw_kind(ctx);
  Operand x = ctx.operand(a.kind, 1, ctx.max_rank());
  const Shape& s = ctx.shape(x);
  for (size_t i = 0; i < s.rank(); ++i)
    if (s[i] == 1 && (a.axes.empty() || ctx.c.flip(2))) a.axes.push_back(static_cast<int64_t>(i));
  if (a.axes.empty()) return std::nullopt;
  return unary_candidate(a, std::move(x));
}

Maker make(const UnsqueezeAttrs& proto, GenContext& ctx) {
  UnsqueezeAttrs a = proto;
  a.kind = draw_kind(ctx);
  Operand x = ctx.operand(a.kind, 0, static_cast<size_t>(std::max(0, ctx.o.max_rank - 1)));
  const auto added = static_cast<size_t>(ctx.c.between(1, 2));
  std::vector<int64_t> positions(ctx.shape(x).rank() + added);  // of the new axes in the output
  std::iota(positions.begin(), positions.end(), 0);
  for (size_t i = 0; i < added; ++i) std::swap(positions[i], positions[i + ctx.c.below(positions.size() - i)]);
  a.axes.assign(positions.begin(), positions.begin() + static_cast<ptrdiff_t>(added));
  std::sort(a.axes.begin(), a.axes.end());
  return unary_candidate(a, std::move(x));
}

// Every op of the op list needs an overload of make above: std::visit does not compile otherwise.
Maker make_for(const OpAttrs& proto, GenContext& ctx) {
  return std::visit([&](const auto& a) { return make(a, ctx); }, proto);
}

// Each generated op name with its prototype, in op list order; inputs and constants are leaves.
const std::vector<std::pair<std::string, OpAttrs>>& prototypes() {
  static const std::vector<std::pair<std::string, OpAttrs>> all = [] {
    std::vector<std::pair<std::string, OpAttrs>> v;
    for (const std::string& name : all_op_names()) {
      if (name == "input" || name == "const") continue;
      v.emplace_back(name, *op_by_name(name));
    }
    return v;
  }();
  return all;
}

// LayerNorm over the last axis as PyTorch exports it to ONNX before opset 17 (no
// LayerNormalization op): m = mean(x), d = x − m, v = mean(d^2), y = d / sqrt(v + ε), then
// optionally y·γ + β. Every op an IR node of its own; ε = 2^-10 or float32's 1e-5. The variance
// plus ε is at least ε exactly and in every float32 evaluation (a mean of squares is never
// negative), so sqrt and the division check only that it is positive (Range::Variance).
std::vector<Candidate> layer_norm_decomposed(GenContext& ctx) {
  Operand x = ctx.operand(ElemKind::Real, 1, ctx.max_rank());
  const Shape s = ctx.shape(x);
  const int64_t n = s[s.rank() - 1];
  const double epsilon = ctx.c.flip(2) ? static_cast<double>(1e-5f) : 0x1p-10;
  const auto step = [](int j, int operand = -1) {
    Operand o;
    o.step = j;
    o.step_operand = operand;
    return o;
  };
  const ReduceAttrs mean{ReduceOp::Mean, {-1}, true};
  const auto binary = [](BinaryOp op) { return BinaryAttrs{op, Broadcast::NumpyRight}; };
  std::vector<Candidate> seq;
  seq.push_back(Candidate{mean, {std::move(x)}, {}, {}});                                          // 0: m
  seq.push_back(Candidate{binary(BinaryOp::Sub), {step(0, 0), step(0)}, {}, {}});                  // 1: d
  seq.push_back(Candidate{binary(BinaryOp::Pow), {step(1), GenContext::filled(Shape(), 2.0)}, {}, {}});  // 2: d^2
  seq.push_back(Candidate{mean, {step(2)}, {}, {}});                                               // 3: v
  seq.push_back(Candidate{binary(BinaryOp::Add), {step(3), GenContext::filled(Shape(), epsilon)}, {}, {}});  // 4
  seq.push_back(Candidate{UnaryAttrs{UnaryOp::Sqrt}, {step(4)}, {Range::Variance}, {}});           // 5
  seq.push_back(Candidate{binary(BinaryOp::Div), {step(1), step(5)}, {Range::Any, Range::Variance}, {}});  // 6
  const int64_t affine = ctx.c.below(3);  // 0: none, 1: scale, 2: scale and bias
  for (int64_t k = 0; k < affine; ++k) {
    Operand p = ctx.leaf(Shape::of({n}), ElemKind::Real);
    p.leaf.constant = true;  // a weight: an initializer of the exported model
    seq.push_back(Candidate{binary(k == 0 ? BinaryOp::Mul : BinaryOp::Add), {step(static_cast<int>(seq.size()) - 1), std::move(p)}, {}, {}});
  }
  return seq;
}

}  // namespace

const std::vector<CompositeInfo>& composites() {
  static const std::vector<CompositeInfo> all = {
      {"layer_norm_decomposed", {"mean_reduce", "sub", "pow", "add", "sqrt", "div", "mul"}, 7},
  };
  return all;
}

std::optional<std::vector<Candidate>> make_sequence(const std::string& name, GenContext& ctx) {
  if (name == "layer_norm_decomposed") return layer_norm_decomposed(ctx);
  return std::nullopt;
}

std::vector<std::string> maker_op_names() {
  std::vector<std::string> names;
  for (const auto& [name, proto] : prototypes()) names.push_back(name);
  return names;
}

std::optional<Candidate> make_candidate(const std::string& name, GenContext& ctx) {
  for (const auto& [n, proto] : prototypes())
    if (n == name) return make_for(proto, ctx);
  return std::nullopt;
}

}  // namespace nnref::properties
