// Every op of the op list, in every variant its prototypes name, over the enclosure scalars
// (Interval, Envelope) on the edges of the reals: enclosures that straddle 0 or end at it, 0,
// subnormals, values past float32's largest, ±inf, [−inf, inf] and NaN (issue 28). No exception
// may leave an op (a Boost or MPFR error would end `nnref run` in std::terminate), every real
// element is NaN or ordered, and results are sound where that is easy to say: two enclosures of
// the same exact result meet. That holds between Interval and Envelope on the same operands, and
// between operands and narrower ones (a point of [−1, 2] gives a result inside [−1, 2]'s).
//
// The operands of one case are small tensors whose real elements alternate between two edges
// (operand k, element j: the first edge when j + k is even), for every ordered pair of edges;
// parameters are filled the same way. An op without a table of cases below does not compile.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "semantics/op.hpp"
#include "spec/contract_program.hpp"
#include "spec/orderings.hpp"

using namespace nnref;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Edge {
  const char* name;
  double lo, hi;
};

// The enclosures, and the points of them the soundness check narrows to.
const std::vector<Edge> kEdges = {
    {"[-1, 2]", -1, 2},   {"[0, 3]", 0, 3}, {"[-3, 0]", -3, 0}, {"0", 0, 0},
    {"-1", -1, -1},       {"2", 2, 2},      {"3", 3, 3},        {"-3", -3, -3},
    {"1e-40", 1e-40, 1e-40},                // a float32 subnormal
    {"-1e-310", -1e-310, -1e-310},          // a double subnormal
    {"[-1e-310, 1e-40]", -1e-310, 1e-40},   // subnormals on both sides of 0
    {"1e300", 1e300, 1e300},                // past float32's largest, and its square past double's
    {"-1e39", -1e39, -1e39},                // past float32's largest
    {"inf", kInf, kInf},  {"-inf", -kInf, -kInf}, {"[0, inf]", 0, kInf}, {"[-inf, inf]", -kInf, kInf},
    {"NaN", kNaN, kNaN}};

// Whether every value of `inner` is a value of `outer`.
bool within(const Edge& inner, const Edge& outer) {
  return !std::isnan(inner.lo) && !std::isnan(outer.lo) && outer.lo <= inner.lo && inner.hi <= outer.hi;
}

template <class T>
T enclose(const Edge& e);
template <>
Interval enclose<Interval>(const Edge& e) {
  if (std::isnan(e.lo)) return Interval(kNaN);
  Interval r;
  mpfi_interv_d(r.backend().data(), e.lo, e.hi);
  return r;
}
template <>
Envelope enclose<Envelope>(const Edge& e) {
  return Envelope(e.lo, e.hi);
}

// One operand of a case; integer operands hold 0 .. bound − 1 and kUnknownInteger in turn,
// logical ones false, true and unknown.
struct Operand {
  std::vector<int64_t> dims;
  ElemKind kind = ElemKind::Real;
  int64_t bound = 1;
};
Operand real(std::vector<int64_t> dims) { return {std::move(dims)}; }

constexpr ElemKind kKinds[] = {ElemKind::Real, ElemKind::Integer, ElemKind::Logical};

template <class A>
struct Case {
  A attrs;
  std::vector<Operand> inputs;
};

// ---- One table of cases per op: attributes the op's rule accepts, and small operands. ----

std::vector<Case<InputAttrs>> cases(const InputAttrs&) { return {{InputAttrs({2}), {}}}; }

std::vector<Case<ConstAttrs>> cases(const ConstAttrs&) {
  std::vector<Case<ConstAttrs>> out;
  for (ElemKind k : {ElemKind::Real, ElemKind::Integer, ElemKind::Logical}) out.push_back({ConstAttrs{{2}, k}, {}});
  return out;
}

std::vector<Case<UnaryAttrs>> cases(UnaryAttrs a) {
  a.alpha = Real(0.25);
  return {{a, {real({2})}}};
}

std::vector<Case<BinaryAttrs>> cases(const BinaryAttrs& a) { return {{a, {real({2}), real({2})}}}; }

std::vector<Case<AddNAttrs>> cases(const AddNAttrs& a) { return {{a, {real({2}), real({2}), real({2})}}}; }

std::vector<Case<BroadcastToAttrs>> cases(BroadcastToAttrs a) {
  a.dims = {3, 2};
  BroadcastToAttrs integer = a;
  integer.kind = ElemKind::Integer;
  return {{a, {real({2})}}, {integer, {{{2}, ElemKind::Integer, 3}}}};
}

std::vector<Case<ClampAttrs>> cases(const ClampAttrs& a) { return {{a, {real({2}), real({2}), real({2})}}}; }

std::vector<Case<PreluAttrs>> cases(const PreluAttrs& a) { return {{a, {real({2}), real({2})}}}; }

// Values of every kind, chosen under conditions that are true, false and unknown.
std::vector<Case<SelectAttrs>> cases(const SelectAttrs& a) {
  std::vector<Case<SelectAttrs>> out;
  for (ElemKind k : kKinds)
    out.push_back({SelectAttrs{a.broadcast, k}, {{{3}, ElemKind::Logical}, {{3}, k, 2}, {{3}, k, 2}}});
  return out;
}

std::vector<Case<CompareAttrs>> cases(const CompareAttrs& a) { return {{a, {real({2}), real({2})}}}; }

std::vector<Case<LogicalAttrs>> cases(const LogicalAttrs& a) {
  const Operand x{{9}, ElemKind::Logical};
  if (a.op == LogicalOp::Not) return {{a, {x}}};
  return {{a, {x, x}}};
}

std::vector<Case<LinearAttrs>> cases(const LinearAttrs&) {
  return {{LinearAttrs{2, WeightLayout::InOut, true}, {real({2, 2})}},
          {LinearAttrs{2, WeightLayout::OutIn, false}, {real({2, 2})}}};
}

std::vector<Case<MatMulAttrs>> cases(const MatMulAttrs&) {
  return {{MatMulAttrs{false, false}, {real({2, 2}), real({2, 2})}},
          {MatMulAttrs{true, true}, {real({1, 2, 2}), real({1, 2, 2})}}};
}

std::vector<Case<ConvAttrs>> cases(const ConvAttrs&) {
  ConvAttrs first;  // [N, C, W], two channels, padded
  first.out_channels = 2;
  first.kernel = {2};
  first.padding = {{1, 0}};
  ConvAttrs last;  // channels last, grouped, same padding, strided, 2-D
  last.out_channels = 2;
  last.groups = 2;
  last.kernel = {2, 2};
  last.stride = {2, 1};
  last.pad_mode = PadMode::SameUpper;
  last.layout = Layout::ChannelsLast;
  last.has_bias = false;
  return {{first, {real({1, 2, 3})}}, {last, {real({1, 2, 2, 2})}}};
}

std::vector<Case<DeconvAttrs>> cases(const DeconvAttrs&) {
  DeconvAttrs a;
  a.out_channels = 2;
  a.kernel = {2};
  a.stride = {2};
  DeconvAttrs grouped = a;
  grouped.groups = 2;
  grouped.padding = {{1, 0}};
  grouped.has_bias = false;
  return {{a, {real({1, 2, 2})}}, {grouped, {real({1, 2, 2})}}};
}

std::vector<Case<PoolAttrs>> cases(const PoolAttrs& proto) {
  PoolAttrs padded = proto;  // a window reaching into the padding, counted as 0
  padded.kernel = {2};
  padded.padding = {{1, 0}};
  padded.border = PoolBorder::Constant;
  PoolAttrs same = proto;  // the padding ignored, channels last
  same.kernel = {2};
  same.stride = {2};
  same.pad_mode = PadMode::SameUpper;
  same.layout = Layout::ChannelsLast;
  return {{padded, {real({1, 1, 3})}}, {same, {real({1, 3, 1})}}};
}

std::vector<Case<ArgmaxPoolAttrs>> cases(const ArgmaxPoolAttrs&) {
  std::vector<Case<ArgmaxPoolAttrs>> out;
  for (PoolBorder border : {PoolBorder::Constant, PoolBorder::Ignore}) {
    ArgmaxPoolAttrs a;
    a.kernel = {2};
    a.padding = {{1, 0}};
    a.border = border;
    out.push_back({a, {real({1, 1, 3})}});
  }
  return out;
}

// sample reads [1, 1, 4] through an index of the down-scaled [1, 1, 2]; desample writes it.
std::vector<Case<SampleAttrs>> cases(SampleAttrs a) {
  a.kernel = {2};
  a.stride = {2};
  const Operand index{{1, 1, 2}, ElemKind::Integer, 2};
  if (a.op == SampleOp::Sample) return {{a, {real({1, 1, 4}), index}}};
  a.output_shape = {1, 1, 4};
  return {{a, {real({1, 1, 2}), index}}};
}

std::vector<Case<BatchNormAttrs>> cases(const BatchNormAttrs& a) { return {{a, {real({2, 2})}}}; }

std::vector<Case<LayerNormAttrs>> cases(LayerNormAttrs a) {
  a.axes = {1};
  LayerNormAttrs affine = a;
  affine.affine = true;
  return {{a, {real({2, 2})}}, {affine, {real({2, 2})}}};
}

std::vector<Case<SoftmaxAttrs>> cases(SoftmaxAttrs a) {
  a.axes = {1};
  return {{a, {real({2, 2})}}};
}

std::vector<Case<ReduceAttrs>> cases(ReduceAttrs a) {
  a.axes = {1};
  if (a.op == ReduceOp::Mean) return {{a, {real({2, 3})}}};
  ReduceAttrs integer = a;  // integers 0, 1, 2 and unknown: an unknown element in a group
  integer.kind = ElemKind::Integer;
  return {{a, {real({2, 3})}}, {integer, {{{2, 3}, ElemKind::Integer, 3}}}};
}

std::vector<Case<ArgReduceAttrs>> cases(ArgReduceAttrs a) {
  a.axes = {1};
  ArgReduceAttrs last = a;
  last.last = true;
  return {{a, {real({2, 3})}}, {last, {real({2, 3})}}};
}

// Each direction, inclusive and exclusive, along the last axis: reals, and integers 0, 1, 2 and
// unknown in turn (an unknown term in a prefix).
std::vector<Case<CumsumAttrs>> cases(const CumsumAttrs&) {
  std::vector<Case<CumsumAttrs>> out;
  for (bool exclusive : {false, true})
    for (bool reverse : {false, true}) {
      out.push_back({CumsumAttrs{1, exclusive, reverse, ElemKind::Real}, {real({2, 3})}});
      out.push_back({CumsumAttrs{-1, exclusive, reverse, ElemKind::Integer}, {{{2, 3}, ElemKind::Integer, 3}}});
    }
  return out;
}

std::vector<Case<LogicalReduceAttrs>> cases(LogicalReduceAttrs a) {
  a.axes = {1};
  return {{a, {{{3, 3}, ElemKind::Logical}}}};
}

std::vector<Case<ReshapeAttrs>> cases(const ReshapeAttrs&) {
  std::vector<Case<ReshapeAttrs>> out;
  for (ElemKind k : kKinds) out.push_back({ReshapeAttrs{{4}, k}, {{{2, 2}, k, 2}}});
  return out;
}

// A contraction program over x [2, 3]: y[i] = x[i, 0] < 0 ? -x[i, 0] : x[i, 0], then y[i] += x[i, j]·x[i, j]
// over j (a select under an undecided comparison, and a whole sum).
std::vector<Case<ContractAttrs>> cases(const ContractAttrs&) {
  using namespace contract;
  Program p;
  p.inputs = {{2, 3}};
  p.outputs = {{2}};
  Statement set;
  set.targets = {0, 1};
  set.reads = {{{0}, {0, 3}}};
  set.tables = {{0.0}};
  set.nodes = {{NodeKind::Read, -1, -1, -1, 0},
               {NodeKind::Number, -1, -1, -1, 0},
               {NodeKind::Compare, 0, 1, -1, static_cast<int64_t>(CompareOp::Lt)},
               {NodeKind::Unary, 0, -1, -1, static_cast<int64_t>(UnaryOp::Neg)},
               {NodeKind::Select, 2, 3, 0, 0}};
  set.root = 4;
  Statement add;
  add.op = Assign::Add;
  add.targets = {0, 0, 0, 1, 1, 1};
  add.reads = {{{0}, {0, 1, 2, 3, 4, 5}}};
  add.nodes = {{NodeKind::Read, -1, -1, -1, 0}, {NodeKind::Mul, 0, 0, -1, 0}};
  add.root = 1;
  p.statements = {set, add};
  return {{ContractAttrs{1, encode(p)}, {real({2, 3})}}};
}

// The extents of a [2, 3] operand, their product and its half.
std::vector<Case<SizesAttrs>> cases(const SizesAttrs&) {
  using namespace size_code;
  return {{SizesAttrs{{kExtent, 0, 0, kExtent, 0, 1, kExtent, 0, 0, kExtent, 0, 1, kMul, kConstant, 2, kDiv},
                      {ElemKind::Real}},
           {real({2, 3})}}};
}

// A real range (3, 10 by 2.5: no operand) and an integer one over an operand's extent.
std::vector<Case<RangeAttrs>> cases(const RangeAttrs&) {
  using namespace size_code;
  RangeAttrs r;
  r.start = 3.0, r.limit = 10.0, r.delta = 2.5;
  RangeAttrs i;
  i.kind = ElemKind::Integer, i.idelta = -1, i.computed = {kExtent, 0, 1, kConstant, -1}, i.sources = {ElemKind::Real};
  return {{r, {}}, {i, {real({2, 3})}}};
}

std::vector<Case<FlattenAttrs>> cases(const FlattenAttrs&) { return {{FlattenAttrs{1}, {real({2, 1, 2})}}}; }

std::vector<Case<TransposeAttrs>> cases(const TransposeAttrs&) {
  std::vector<Case<TransposeAttrs>> out;
  for (ElemKind k : kKinds) out.push_back({TransposeAttrs{{1, 0}, k}, {{{2, 2}, k, 2}}});
  return out;
}

std::vector<Case<ConcatAttrs>> cases(const ConcatAttrs&) {
  std::vector<Case<ConcatAttrs>> out;
  for (ElemKind k : kKinds) out.push_back({ConcatAttrs{0, 0, k}, {{{2}, k, 2}, {{1}, k, 2}}});
  return out;
}

std::vector<Case<SplitAttrs>> cases(const SplitAttrs&) {
  std::vector<Case<SplitAttrs>> out;
  for (ElemKind k : kKinds) out.push_back({SplitAttrs{0, {1, 1}, k}, {{{4}, k, 2}}});
  return out;
}

std::vector<Case<SliceAttrs>> cases(const SliceAttrs&) {
  std::vector<Case<SliceAttrs>> out;
  for (ElemKind k : kKinds) {
    out.push_back({SliceAttrs{{0}, {1}, {3}, {}, k}, {{{4}, k, 2}}});
    out.push_back({SliceAttrs{{0}, {3}, {0}, {-1}, k}, {{{4}, k, 2}}});
  }
  return out;
}

std::vector<Case<GatherAttrs>> cases(const GatherAttrs&) {
  return {{GatherAttrs{0}, {real({3}), {{4}, ElemKind::Integer, 3}}}};
}

// Two axes of a [2, 3] input, two positions of two taps each (indices in range).
std::vector<Case<InterpolateAttrs>> cases(const InterpolateAttrs&) {
  return {{InterpolateAttrs{{0, -1}},
           {real({2, 3}), {{2, 2}, ElemKind::Integer, 2}, real({2, 2}), {{2, 2}, ElemKind::Integer, 3}, real({2, 2})}}};
}

// Two regions of a [1, 1, 4, 4] image; their coordinates are edges too, their batch index 0 or unknown.
std::vector<Case<RoiAttrs>> cases(const RoiAttrs& proto) {
  std::vector<Case<RoiAttrs>> out;
  for (RoiMethod m : {RoiMethod::Symmetric, RoiMethod::Asymmetric, RoiMethod::Aligned}) {
    RoiAttrs a = proto;
    a.output_size = {2, 2};
    a.method = m;
    out.push_back({a, {real({1, 1, 4, 4}), real({2, 4}), {{2}, ElemKind::Integer, 1}}});
    if (a.op != RoiOp::Resample) break;  // the method is roi_resample's only
  }
  return out;
}

std::vector<Case<CastAttrs>> cases(const CastAttrs&) {
  std::vector<Case<CastAttrs>> out;
  for (ElemKind from : kKinds)
    for (ElemKind to : kKinds) out.push_back({CastAttrs{from, to}, {{{3}, from, 2}}});
  return out;
}

// Integer operands 0, 1, 2 and unknown in turn: a zero divisor and an unknown operand in every op.
std::vector<Case<IntegerBinaryAttrs>> cases(const IntegerBinaryAttrs& a) {
  return {{a, {{{4}, ElemKind::Integer, 3}, {{3, 1}, ElemKind::Integer, 3}}}};
}

std::vector<Case<PadAttrs>> cases(const PadAttrs&) {
  std::vector<Case<PadAttrs>> out;
  for (PadBorder b : {PadBorder::Constant, PadBorder::Reflect, PadBorder::Replicate, PadBorder::ReflectEven}) {
    out.push_back({PadAttrs{{{1, 1}}, b, Real(0.5)}, {real({3})}});
    out.push_back({PadAttrs{{{1, 1}}, b, Real(1.0), ElemKind::Integer}, {{{3}, ElemKind::Integer, 2}}});
    out.push_back({PadAttrs{{{1, 1}}, b, Real(1.0), ElemKind::Logical}, {{{3}, ElemKind::Logical, 2}}});
  }
  return out;
}

std::vector<Case<SqueezeAttrs>> cases(const SqueezeAttrs&) {
  std::vector<Case<SqueezeAttrs>> out;
  for (ElemKind k : kKinds) out.push_back({SqueezeAttrs{{0}, k}, {{{1, 2}, k, 2}}});
  return out;
}

std::vector<Case<UnsqueezeAttrs>> cases(const UnsqueezeAttrs&) {
  std::vector<Case<UnsqueezeAttrs>> out;
  for (ElemKind k : kKinds) out.push_back({UnsqueezeAttrs{{0}, k}, {{{2}, k, 2}}});
  return out;
}

// ---- Running a case ----

// An output element as a set of values: a real's enclosure, a known integer or truth value as a
// point (unknown: `any`), NaN as `any` too (it bounds nothing).
struct Cell {
  bool any = false;
  double lo = 0, hi = 0;
};

bool meet(const Cell& a, const Cell& b) { return a.any || b.any || (a.lo <= b.hi && b.lo <= a.hi); }

std::string show(const Cell& c) {
  std::ostringstream s;
  s.precision(17);
  if (c.any) return "any";
  s << "[" << c.lo << ", " << c.hi << "]";
  return s.str();
}

// What one run found: its output cells, or the exception an op let out.
struct Run {
  std::vector<Cell> cells;
  std::string error;
  std::vector<std::string> disorder;  // real elements with lo > hi
};

template <class T>
void fill(Value<T>& v, const Operand& o, size_t k, const Edge& first, const Edge& second) {
  std::visit(
      [&]<class E>(Tensor<E>& t) {
        for (int64_t j = 0; j < t.size(); ++j) {
          const int64_t turn = j % (o.bound + 1);
          if constexpr (std::is_same_v<E, int64_t>) t[j] = turn == o.bound ? kUnknownInteger : turn;
          else if constexpr (std::is_same_v<E, uint8_t>) t[j] = static_cast<uint8_t>((j / (k % 2 ? 3 : 1)) % 3);
          else t[j] = enclose<T>((j + static_cast<int64_t>(k)) % 2 ? second : first);
        }
      },
      v);
}

template <class T, class A>
Run run_case(const Checked<A>& c, const std::vector<Operand>& operands, const Edge& first, const Edge& second) {
  std::vector<Value<T>> ins;
  for (size_t k = 0; k < operands.size(); ++k) {
    ins.push_back(zeros<T>(operands[k].kind, c.inputs()[k]));
    fill(ins.back(), operands[k], k, first, second);
  }
  std::vector<Tensor<T>> ps;
  for (size_t p = 0; p < c.params().size(); ++p) {
    Value<T> v = Tensor<T>(c.params()[p].shape);
    fill(v, Operand{}, operands.size() + p, first, second);
    ps.push_back(std::get<Tensor<T>>(std::move(v)));
  }
  std::vector<Value<T>> outs;
  for (const Shape& s : c.outputs()) outs.push_back(zeros<T>(c.output_kind(), s));
  OpIO<T> io;
  for (const auto& v : ins) io.inputs.push_back(&v);
  for (const auto& p : ps) io.params.push_back(&p);
  for (auto& v : outs) io.outputs.push_back(&v);
  Run run;
  try {
    run_kernel<A, T>(c, io);
  } catch (const std::exception& e) {
    run.error = e.what();
    return run;
  } catch (...) {
    run.error = "an exception not derived from std::exception";
    return run;
  }
  for (const auto& v : outs)
    std::visit(
        [&]<class E>(const Tensor<E>& t) {
          for (int64_t j = 0; j < t.size(); ++j) {
            if constexpr (std::is_same_v<E, int64_t>) {
              const bool unknown = t[j] == kUnknownInteger;
              run.cells.push_back({unknown, double(t[j]), double(t[j])});
            } else if constexpr (std::is_same_v<E, uint8_t>) {
              run.cells.push_back({false, t[j] == kTrue ? 1.0 : 0.0, t[j] == kFalse ? 0.0 : 1.0});
            } else {
              const Enclosure e = sc::enclosure(t[j]);
              const bool nan = sc::isnan(t[j]) || std::isnan(e.lo) || std::isnan(e.hi);
              if (!nan && !(e.lo <= e.hi))
                run.disorder.push_back("element " + std::to_string(j) + " " + show({false, e.lo, e.hi}));
              run.cells.push_back({nan, e.lo, e.hi});
            }
          }
        },
        v);
  return run;
}

// Failures of one op, one line per kind of failure (its first occurrence and how often).
struct Findings {
  std::map<std::string, std::pair<std::string, int>> lines;
  void add(const std::string& kind, const std::string& example) {
    auto [it, added] = lines.try_emplace(kind, example, 0);
    ++it->second.second;
  }
  std::string report() const {
    std::string out;
    for (const auto& [kind, first] : lines)
      out += kind + " (" + std::to_string(first.second) + " times; first: " + first.first + ")\n";
    return out;
  }
};

std::string fill_name(const Edge& a, const Edge& b) { return std::string("(") + a.name + ", " + b.name + ")"; }

// Every fill of one case through the scalars: exceptions, disorder, and enclosures of the same
// exact results that do not meet.
template <class A>
void check_case(const std::string& name, const Case<A>& k, Findings& found) {
  std::vector<Shape> shapes;
  std::vector<ElemKind> kinds;
  for (const Operand& o : k.inputs) {
    shapes.push_back(Shape::make(o.dims).value());
    kinds.push_back(o.kind);
  }
  auto c = Checked<A>::check(k.attrs, shapes, kinds);
  INFO(name << ": " << (c ? std::string() : c.error().code + ": " + c.error().message));
  REQUIRE(c.ok());
  const size_t n = kEdges.size();
  std::vector<std::pair<std::string, std::vector<Run>>> runs;  // per scalar, per fill (a, b) at a·n + b
  runs.emplace_back("Interval", std::vector<Run>(n * n));
  runs.emplace_back("Envelope", std::vector<Run>(n * n));
  for (auto& [scalar, fills] : runs)
    for (size_t a = 0; a < n; ++a)
      for (size_t b = 0; b < n; ++b) {
        Run& r = fills[a * n + b];
        r = scalar == "Interval" ? run_case<Interval>(*c, k.inputs, kEdges[a], kEdges[b])
                                 : run_case<Envelope>(*c, k.inputs, kEdges[a], kEdges[b]);
        const std::string at = fill_name(kEdges[a], kEdges[b]);
        if (!r.error.empty()) found.add(name + " over " + scalar + " threw \"" + r.error + "\"", at);
        for (const std::string& d : r.disorder) found.add(name + " over " + scalar + " gave lo > hi", at + ": " + d);
      }
  const auto compare = [&](const Run& wide, const Run& narrow, const std::string& what, const std::string& at) {
    if (!wide.error.empty() || !narrow.error.empty()) return;
    for (size_t j = 0; j < wide.cells.size(); ++j)
      if (!meet(wide.cells[j], narrow.cells[j]))
        found.add(name + ": " + what + " do not meet",
                  at + " element " + std::to_string(j) + ": " + show(wide.cells[j]) + " and " + show(narrow.cells[j]));
  };
  if (runs.size() == 2)
    for (size_t f = 0; f < n * n; ++f)
      compare(runs[0].second[f], runs[1].second[f], "Interval and Envelope", fill_name(kEdges[f / n], kEdges[f % n]));
  // Fill (a, b) and a narrower fill (p, q) share the exact results of (p, q)'s operands. Not for
  // an integer or logical constant: its values are whole numbers a file states, points, which it
  // reads at their midpoint (an Envelope widens one that float32 does not hold).
  if constexpr (std::is_same_v<A, ConstAttrs>)
    if (k.attrs.kind != ElemKind::Real) return;
  for (const auto& [scalar, fills] : runs)
    for (size_t a = 0; a < n; ++a)
      for (size_t b = 0; b < n; ++b)
        for (size_t p = 0; p < n; ++p)
          for (size_t q = 0; q < n; ++q) {
            if ((p == a && q == b) || !within(kEdges[p], kEdges[a]) || !within(kEdges[q], kEdges[b])) continue;
            const std::string at = fill_name(kEdges[a], kEdges[b]) + " narrowed to " + fill_name(kEdges[p], kEdges[q]);
            compare(fills[a * n + b], fills[p * n + q], scalar + " over operands and narrower ones", at);
          }
}

// Every case of every prototype named `name`; an op without a table of cases does not compile.
Findings check_op(const std::string& name) {
  const std::optional<OpAttrs> proto = op_by_name(name);
  REQUIRE(proto);
  Findings found;
  std::visit(
      [&](const auto& a) {
        const auto table = cases(a);
        INFO(name << " has no case");
        CHECK_FALSE(table.empty());
        for (const auto& k : table) check_case(name, k, found);
      },
      *proto);
  return found;
}

}  // namespace

TEST_CASE("every op over Interval and Envelope on the edges of the reals: no exception, sound enclosures") {
  const std::string name = GENERATE(from_range(all_op_names()));
  const Findings found = check_op(name);
  INFO(found.report());
  CHECK(found.lines.empty());
}
