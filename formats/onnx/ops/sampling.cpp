// GridSample and RoiAlign, which read a tensor at positions computed from data, and Det: compositions of IR
// gathers, selects, integer and real arithmetic (docs/onnx.md, "Compositions").
#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"
#include "formats/onnx/tensor_proto.hpp"

namespace nnref::onnx_format {

namespace {

// ---- Det ----

// The largest n whose n×n determinants Det reads: Leibniz's formula has n! terms of n factors.
constexpr int64_t kMaxDetOrder = 5;

// Det of x [..., n, n]: Leibniz's formula det A = Σ over the permutations σ of sgn(σ)·Π_i A[i, σ(i)],
// the definition itself, so exact in reals for every matrix (no pivot, no division: sound over
// Interval and Envelope). The rows of x flattened to [..., n·n]; per row i one gather of the entries
// i·n + σ(i) of every σ, [..., n!]; their product; times the signs; summed over the permutations.
// n ≤ kMaxDetOrder (n·n! gathered entries per matrix); a larger n is refused by name.
void det(Ctx& c) {
  const std::vector<int64_t> shape = c.shape(0);
  const size_t r = shape.size();
  if (r < 2 || shape[r - 1] != shape[r - 2])
    c.refuse("onnx.input-shape", "the input must be [..., n, n]: square matrices over its last two axes");
  const int64_t n = shape[r - 1];
  if (n < 1 || n > kMaxDetOrder)
    c.refuse("onnx.shape-unsupported", "Det reads matrices of order 1 to " + std::to_string(kMaxDetOrder) +
                                           " (Leibniz's formula, n! terms), not " + std::to_string(n));
  std::vector<int64_t> sigma(static_cast<size_t>(n));
  std::iota(sigma.begin(), sigma.end(), 0);
  std::vector<std::vector<int64_t>> entries(static_cast<size_t>(n));  // per row i, i·n + σ(i) of every σ
  std::vector<double> signs;
  do {
    int64_t inversions = 0;
    for (int64_t i = 0; i < n; ++i) {
      entries[static_cast<size_t>(i)].push_back(i * n + sigma[static_cast<size_t>(i)]);
      for (int64_t j = i + 1; j < n; ++j) inversions += sigma[static_cast<size_t>(j)] < sigma[static_cast<size_t>(i)];
    }
    signs.push_back(inversions % 2 == 0 ? 1.0 : -1.0);
  } while (std::next_permutation(sigma.begin(), sigma.end()));
  const auto terms = static_cast<int64_t>(signs.size());
  std::vector<int64_t> flat(r - 2, 0);
  flat.push_back(n * n);
  const ValueRef rows = c.emit("rows", ReshapeAttrs{flat}, {c.data(0)});
  std::optional<ValueRef> product;
  for (int64_t i = 0; i < n; ++i) {
    const std::string s = "row" + std::to_string(i);
    const ValueRef picked = c.emit(
        s, GatherAttrs{-1},
        {rows, c.literal(s + "-entries",
                         integer_tensor(Shape::make({terms}).value(), std::move(entries[static_cast<size_t>(i)])))});
    product = product ? binary(c, s + "-product", BinaryOp::Mul, *product, picked) : picked;
  }
  const ValueRef signed_terms =
      binary(c, "signed", BinaryOp::Mul, *product,
             c.literal("signs", HostTensor{DType::F64, Shape::make({terms}).value(), std::move(signs)}));
  c.set_output(0, c.emit("", ReduceAttrs{ReduceOp::Sum, {-1}, false}, {signed_terms}));
}

// ---- GridSample ----

enum class Interpolation { Nearest, Linear, Cubic };
enum class Padding { Zeros, Border, Reflection };

// The shift s of the floors k = ⌊x + s⌋ that choose the taps: k is ⌊x⌋ or ⌊x⌋ + 1, and the taps
// around k cover both readings, so the result is the formula's whichever a runtime's rounding of x
// picks. s = 2 − φ (below ½, as nearest's two candidates need): the floor's boundaries x ≡ 1 − s
// (mod 1) lie far from the short dyadic and decimal coordinates grids hold, where a float32
// runtime's x is near an integer or a half. Only there would the enclosure of x + s straddle an
// integer; then the taps' index is unknown and the result the hull of what it may be: still sound.
constexpr double kFloorShift = 0.3819660112501051;

struct GridSampling {
  Interpolation mode = Interpolation::Linear;
  Padding padding = Padding::Zeros;
  bool align_corners = false;
  int64_t n = 1, channels = 1, height = 1, width = 1;
};

// One spatial axis of X: its extent and the grid's component that addresses it (0 for the width,
// 1 for the height).
struct SampledAxis {
  std::string name;
  int64_t extent = 1;
  int64_t component = 0;
};
// Per tap m of an axis, at every output position ([N, H_out, W_out]): its index into X, its weight
// and the offset x − m (linear and cubic) or whether it is inside X (nearest with zeros); nearest's
// choice of its upper candidate.
struct Taps {
  std::vector<ValueRef> index;
  std::vector<ValueRef> weight;
  std::vector<ValueRef> offset;
  std::vector<std::optional<ValueRef>> inside;
  std::optional<ValueRef> above;
};

GridSampling grid_sampling(Ctx& c) {
  GridSampling g;
  const bool new_names = c.opset() >= 20;
  const std::string mode = c.attr_string("mode", new_names ? "linear" : "bilinear");
  if (mode == "nearest")
    g.mode = Interpolation::Nearest;
  else if (mode == (new_names ? "linear" : "bilinear"))
    g.mode = Interpolation::Linear;
  else if (mode == (new_names ? "cubic" : "bicubic"))
    g.mode = Interpolation::Cubic;
  else
    c.refuse("onnx.attribute-value", "mode '" + mode + "' is not one of opset " + std::to_string(c.opset()) + "'s");
  const std::string padding = c.attr_string("padding_mode", "zeros");
  if (padding == "zeros")
    g.padding = Padding::Zeros;
  else if (padding == "border")
    g.padding = Padding::Border;
  else if (padding == "reflection")
    g.padding = Padding::Reflection;
  else
    c.refuse("onnx.attribute-value", "padding_mode '" + padding + "' is not one of ONNX's");
  g.align_corners = c.attr_int("align_corners", 0) != 0;
  if (!c.extents_fixed()) c.refuse("onnx.shape-unsupported", "GridSample needs fixed extents");
  const std::vector<int64_t> x = c.shape(0), grid = c.shape(1);
  if (x.size() != 4) c.refuse("onnx.shape-unsupported", "GridSample reads 4-D inputs [N, C, H, W] only");
  if (grid.size() != 4 || grid[0] != x[0] || grid[3] != 2)
    c.refuse("onnx.input-shape", "grid must be [N, H_out, W_out, 2] with X's N");
  if (x[2] < 1 || x[3] < 1) c.refuse("onnx.input-shape", "X's height and width must be at least 1");
  g.n = x[0], g.channels = x[1], g.height = x[2], g.width = x[3];
  return g;
}

// GridSample (opsets 16 and 20, 4-D X): y[n, c, h, w] reads X[n, c] at the grid's point
// (grid[n, h, w, 1], grid[n, h, w, 0]) unnormalised to the height's and the width's index
// coordinates, by the ONNX reference's formulas. Per axis of extent L:
//  * x = ((g + 1)·L − 1)/2, or (g + 1)/2·(L − 1) with align_corners, with IR real ops as a runtime
//    computes it;
//  * linear and cubic, border and reflection: where x is outside [x_min, x_max] ([−½, L − ½], or
//    [0, L − 1] with align_corners), x becomes clamp(x, 0, L − 1) (border) or its reflection,
//    x_min + R·tri((x − x_min)/R) with R = x_max − x_min and tri(u) = |u − 2q| over the even 2q
//    nearest u (ONNX's repeated reflection, continuous in x);
//  * the taps m around k = ⌊x + s⌋ (kFloorShift): linear's weights max(0, 1 − |x − m|) over
//    m = k − 1 .. k + 1, cubic's Keys kernel W(|x − m|) with A = −0.75 over m = k − 2 .. k + 2:
//    the reference's 2 or 4 taps around ⌊x⌋ and taps of weight 0, so the sum is the formula
//    whichever floor a runtime takes; nearest's index rint(x) (halves to even) is k or k + 1,
//    chosen by a select on x against k + ½, so that where a runtime's x may round either way the
//    envelope is the hull of both (as Resize's nearest);
//  * a tap's index m into X: zeros reads 0 outside [0, L − 1] (its weight, or nearest's value, 0),
//    border clamps m, reflection reflects it (m mod 2L mirrored about L − ½, or m mod 2(L − 1)
//    about L − 1 with align_corners), in integer arithmetic;
//  * y = Σ over the taps of both axes of w_h·w_w·X[n, c, m_h, m_w] (the reference's nesting, the
//    product of the per-axis weights), each X[n, :, m_h, m_w] one IR gather of X laid out as
//    [N·H·W, C].
class GridSampler {
 public:
  GridSampler(Ctx& c, const GridSampling& g) : c_(c), g_(g) {}

  ValueRef operator()() {
    const SampledAxis height{"height", g_.height, 1}, width{"width", g_.width, 0};
    const Taps h = taps(height, prepared(height)), w = taps(width, prepared(width));
    pixels_ = c_.emit("pixels", ReshapeAttrs{{g_.n * g_.height * g_.width, g_.channels}},
                      {c_.emit("channels-last", TransposeAttrs{{0, 2, 3, 1}}, {c_.data(0)})});
    std::vector<int64_t> bases(static_cast<size_t>(g_.n));  // the first pixel of each image n
    for (int64_t b = 0; b < g_.n; ++b) bases[static_cast<size_t>(b)] = b * g_.height * g_.width;
    c_.charge(g_.n);
    bases_ = c_.literal("bases", integer_tensor(Shape::make({g_.n, 1, 1}).value(), std::move(bases)));
    const ValueRef y = g_.mode == Interpolation::Nearest ? nearest(h, w) : interpolated(h, w);
    return c_.emit("", TransposeAttrs{{0, 3, 1, 2}}, {y});
  }

 private:
  ValueRef real(const std::string& s, double v) { return c_.literal(s, scalar_tensor(v)); }
  ValueRef integer(const std::string& s, int64_t v) { return c_.literal(s, integer_tensor(Shape(), {v})); }
  ValueRef op(const std::string& s, BinaryOp o, ValueRef a, ValueRef b) { return binary(c_, s, o, a, b); }
  ValueRef iop(const std::string& s, IntegerOp o, ValueRef a, ValueRef b) {
    return c_.emit(s, IntegerBinaryAttrs{o, Broadcast::NumpyRight, {}}, {a, b});
  }
  ValueRef compare(const std::string& s, CompareOp o, ValueRef a, ValueRef b) {
    return c_.emit(s, CompareAttrs{o, Broadcast::NumpyRight}, {a, b});
  }
  ValueRef logical(const std::string& s, LogicalOp o, ValueRef a, ValueRef b) {
    return c_.emit(s, LogicalAttrs{o, Broadcast::NumpyRight}, {a, b});
  }
  ValueRef select(const std::string& s, ValueRef cond, ValueRef t, ValueRef f) {
    return c_.emit(s, SelectAttrs{Broadcast::NumpyRight}, {cond, t, f});
  }
  ValueRef as_real(const std::string& s, ValueRef i) {
    return c_.emit(s, CastAttrs{ElemKind::Integer, ElemKind::Real}, {i});
  }
  // [N, H_out, W_out] laid as [N, H_out, W_out, 1], to broadcast against the channels.
  ValueRef laid(const std::string& s, ValueRef v, ElemKind kind = ElemKind::Real) {
    return c_.emit(s, ReshapeAttrs{{0, 0, 0, 1}, kind}, {v});
  }

  // The axis's unnormalised coordinate x at every output position, [N, H_out, W_out].
  ValueRef coordinate(const SampledAxis& a) {
    const std::string s = a.name;
    const ValueRef g = c_.emit(s + "-grid", GatherAttrs{-1},
                               {c_.data(1), c_.literal(s + "-component", integer_tensor(Shape(), {a.component}))});
    const ValueRef shifted = op(s + "-shifted", BinaryOp::Add, g, real(s + "-one", 1));
    const auto length = static_cast<double>(a.extent);
    if (g_.align_corners)
      return op(s + "-x", BinaryOp::Mul, op(s + "-halved", BinaryOp::Div, shifted, real(s + "-two", 2)),
                real(s + "-span", length - 1));
    const ValueRef stretched = op(s + "-stretched", BinaryOp::Mul, shifted, real(s + "-length", length));
    return op(s + "-x", BinaryOp::Div, op(s + "-x-twice", BinaryOp::Sub, stretched, real(s + "-half-pixel", 1)),
              real(s + "-two", 2));
  }

  // x moved into [x_min, x_max] by border's clamp or reflection's mirror where it is outside.
  ValueRef padded(const SampledAxis& a, ValueRef x) {
    const std::string s = a.name + "-padded";
    const double lo = g_.align_corners ? 0 : -0.5;
    const double hi = static_cast<double>(a.extent) - (g_.align_corners ? 1 : 0.5);
    if (g_.padding == Padding::Zeros || hi == lo) return x;  // L = 1 with align_corners: x is 0
    const ValueRef outside =
        logical(s + "-outside", LogicalOp::Or, compare(s + "-below", CompareOp::Lt, x, real(s + "-min", lo)),
                compare(s + "-above", CompareOp::Gt, x, real(s + "-max", hi)));
    if (g_.padding == Padding::Border) {
      const ValueRef clamped =
          op(s + "-clamped", BinaryOp::Min, op(s + "-from-0", BinaryOp::Max, x, real(s + "-zero", 0)),
             real(s + "-last", static_cast<double>(a.extent - 1)));
      return select(s, outside, clamped, x);
    }
    const double range = hi - lo;
    const ValueRef u = op(s + "-u", BinaryOp::Div, op(s + "-offset", BinaryOp::Sub, x, real(s + "-origin", lo)),
                          real(s + "-range", range));
    // q = ⌊u/2 + s⌋ is ⌊u/2⌋ or ⌊u/2⌋ + 1: the even number nearest u is among 2(q − 1), 2q, 2(q + 1).
    const ValueRef q =
        c_.emit(s + "-q", UnaryAttrs{UnaryOp::Floor},
                {op(s + "-half-u", BinaryOp::Add, op(s + "-u-halved", BinaryOp::Div, u, real(s + "-two", 2)),
                    real(s + "-shift", kFloorShift))});
    std::optional<ValueRef> tri;
    for (int j = -1; j <= 1; ++j) {
      const std::string t = s + "-even" + std::to_string(j + 1);
      const ValueRef even =
          op(t, BinaryOp::Mul, op(t + "-q", BinaryOp::Add, q, real(t + "-by", j)), real(t + "-two", 2));
      const ValueRef d =
          c_.emit(t + "-distance", UnaryAttrs{UnaryOp::Abs}, {op(t + "-offset", BinaryOp::Sub, u, even)});
      tri = tri ? op(t + "-nearest", BinaryOp::Min, *tri, d) : d;
    }
    const ValueRef reflected = op(s + "-reflected", BinaryOp::Add, real(s + "-base", lo),
                                  op(s + "-mirrored", BinaryOp::Mul, *tri, real(s + "-extent", range)));
    return select(s, outside, reflected, x);
  }

  // The tap m (an integer) as an index into X along the axis, and for zeros whether it is inside.
  std::pair<ValueRef, std::optional<ValueRef>> placed(const SampledAxis& a, const std::string& s, ValueRef m) {
    const int64_t last = a.extent - 1;
    const auto clamped = [&] {
      return iop(s + "-clamped", IntegerOp::Min, iop(s + "-from-0", IntegerOp::Max, m, integer(s + "-zero", 0)),
                 integer(s + "-last", last));
    };
    if (g_.padding == Padding::Zeros) {
      const ValueRef mr = as_real(s + "-real", m);
      const ValueRef inside =
          logical(s + "-inside", LogicalOp::And, compare(s + "-from-first", CompareOp::Ge, mr, real(s + "-first", 0)),
                  compare(s + "-to-last", CompareOp::Le, mr, real(s + "-last-real", static_cast<double>(last))));
      return {clamped(), inside};
    }
    if (g_.padding == Padding::Border || (g_.align_corners && a.extent == 1)) return {clamped(), std::nullopt};
    // Reflection: period P = 2L (mirror between L − 1 and L) or 2(L − 1) (mirror at L − 1); m mod P
    // in [0, P) (IR Mod has the divisor's sign), then its mirror image where it is past the middle.
    const int64_t period = g_.align_corners ? 2 * last : 2 * a.extent;
    const ValueRef r = iop(s + "-mod", IntegerOp::Mod, m, integer(s + "-period", period));
    const ValueRef mirror =
        iop(s + "-mirror", IntegerOp::Sub, integer(s + "-mirror-base", g_.align_corners ? period : period - 1), r);
    return {iop(s + "-reflected", IntegerOp::Min, r, mirror), std::nullopt};
  }

  // Keys' cubic kernel W(t) at t = |x − m| ≥ 0, A = −0.75 (resize.cpp's): ((A + 2)t − (A + 3))t² + 1
  // for t ≤ 1, ((At − 5A)t + 8A)t − 4A for 1 < t < 2, 0 beyond.
  ValueRef cubic_weight(const std::string& s, ValueRef t) {
    constexpr double a = -0.75;
    const ValueRef near_linear =
        op(s + "-near-lin", BinaryOp::Sub, op(s + "-near-at", BinaryOp::Mul, t, real(s + "-a2", a + 2)),
           real(s + "-a3", a + 3));
    const ValueRef near = op(s + "-near", BinaryOp::Add,
                             op(s + "-near-t2", BinaryOp::Mul, op(s + "-near-t", BinaryOp::Mul, near_linear, t), t),
                             real(s + "-near-one", 1));
    const ValueRef far_linear =
        op(s + "-far-at", BinaryOp::Sub, op(s + "-far-a", BinaryOp::Mul, t, real(s + "-a", a)), real(s + "-5a", 5 * a));
    const ValueRef far_quadratic =
        op(s + "-far-quad", BinaryOp::Add, op(s + "-far-lin", BinaryOp::Mul, far_linear, t), real(s + "-8a", 8 * a));
    const ValueRef far =
        op(s + "-far", BinaryOp::Sub, op(s + "-far-t", BinaryOp::Mul, far_quadratic, t), real(s + "-4a", 4 * a));
    const ValueRef outer = select(s + "-outer", compare(s + "-within-2", CompareOp::Lt, t, real(s + "-two", 2)), far,
                                  real(s + "-outside", 0));
    return select(s + "-weight", compare(s + "-within-1", CompareOp::Le, t, real(s + "-one", 1)), near, outer);
  }

  // The axis's coordinate x as the taps read it: unnormalised, then padded (but for nearest).
  ValueRef prepared(const SampledAxis& a) {
    const ValueRef x = coordinate(a);
    return g_.mode == Interpolation::Nearest ? x : padded(a, x);
  }

 public:
  // The taps of the axis around the coordinate x (of any shape), by the mode and the padding.
  Taps taps(const SampledAxis& a, ValueRef x) {
    const std::string s = a.name;
    const ValueRef floor_real = c_.emit(s + "-floor", UnaryAttrs{UnaryOp::Floor},
                                        {op(s + "-nudged", BinaryOp::Add, x, real(s + "-shift", kFloorShift))});
    const ValueRef k = c_.emit(s + "-k", CastAttrs{ElemKind::Real, ElemKind::Integer}, {floor_real});
    Taps t;
    const auto add_tap = [&](int64_t j, std::optional<ValueRef> weight) {
      const std::string n = s + "-tap" + std::to_string(t.index.size());
      auto [index, inside] = placed(a, n, iop(n + "-m", IntegerOp::Add, k, integer(n + "-by", j)));
      t.index.push_back(index);
      if (!weight) return t.inside.push_back(inside);
      t.weight.push_back(inside ? select(n + "-kept", *inside, *weight, real(n + "-outside", 0)) : *weight);
    };
    if (g_.mode == Interpolation::Nearest) {
      // rint(x) is k or k + 1 (x ≥ k − s > k − ½): k + 1 where x > k + ½, or x = k + ½ and k is odd.
      const ValueRef middle = op(s + "-middle", BinaryOp::Add, floor_real, real(s + "-half", 0.5));
      const ValueRef parity = as_real(s + "-parity", iop(s + "-mod-2", IntegerOp::Mod, k, integer(s + "-two", 2)));
      const ValueRef tie_up =
          logical(s + "-tie-to-even", LogicalOp::And, compare(s + "-at-middle", CompareOp::Eq, x, middle),
                  compare(s + "-odd", CompareOp::Eq, parity, real(s + "-one", 1)));
      t.above = logical(s + "-above", LogicalOp::Or, compare(s + "-past-middle", CompareOp::Gt, x, middle), tie_up);
      add_tap(0, std::nullopt);
      add_tap(1, std::nullopt);
      return t;
    }
    const int64_t reach = g_.mode == Interpolation::Linear ? 1 : 2;
    for (int64_t j = -reach; j <= reach; ++j) {
      const std::string n = s + "-weight" + std::to_string(j + reach);
      const ValueRef m = op(n + "-m", BinaryOp::Add, floor_real, real(n + "-by", static_cast<double>(j)));
      t.offset.push_back(op(n + "-offset", BinaryOp::Sub, x, m));
      const ValueRef distance = c_.emit(n + "-distance", UnaryAttrs{UnaryOp::Abs}, {t.offset.back()});
      add_tap(j, g_.mode == Interpolation::Linear
                     ? op(n, BinaryOp::Max, op(n + "-hat", BinaryOp::Sub, real(n + "-one", 1), distance),
                          real(n + "-zero", 0))
                     : cubic_weight(n, distance));
    }
    return t;
  }

 private:
  // X[n, :, i, j] at the indices i, j ([N, H_out, W_out] each): [N, H_out, W_out, C].
  ValueRef pixel(const std::string& s, ValueRef i, ValueRef j) {
    const ValueRef row = iop(s + "-row", IntegerOp::Mul, i, integer(s + "-width", g_.width));
    const ValueRef flat = iop(s + "-flat", IntegerOp::Add, bases_, iop(s + "-in-image", IntegerOp::Add, row, j));
    return c_.emit(s, GatherAttrs{0}, {pixels_, flat});
  }

  ValueRef interpolated(const Taps& h, const Taps& w) {
    std::optional<ValueRef> y;
    for (size_t a = 0; a < h.index.size(); ++a)
      for (size_t b = 0; b < w.index.size(); ++b) {
        const std::string s = "tap" + std::to_string(a) + "-" + std::to_string(b);
        const ValueRef weight = laid(s + "-weight-laid", op(s + "-weight", BinaryOp::Mul, h.weight[a], w.weight[b]));
        const ValueRef term = op(s, BinaryOp::Mul, weight, pixel(s + "-pixel", h.index[a], w.index[b]));
        y = y ? op(s + "-sum", BinaryOp::Add, *y, term) : term;
      }
    return *y;
  }

  ValueRef nearest(const Taps& h, const Taps& w) {
    const auto candidate = [&](size_t a, size_t b) {
      const std::string s = "candidate" + std::to_string(a) + "-" + std::to_string(b);
      const ValueRef v = pixel(s, h.index[a], w.index[b]);
      if (!h.inside[a]) return v;
      const ValueRef inside = logical(s + "-inside", LogicalOp::And, *h.inside[a], *w.inside[b]);
      return select(s + "-kept", laid(s + "-inside-laid", inside, ElemKind::Logical), v, real(s + "-outside", 0));
    };
    const ValueRef right = laid("right-laid", *w.above, ElemKind::Logical);
    const ValueRef lower = laid("lower-laid", *h.above, ElemKind::Logical);
    return select("nearest", lower, select("lower-row", right, candidate(1, 1), candidate(1, 0)),
                  select("upper-row", right, candidate(0, 1), candidate(0, 0)));
  }

  Ctx& c_;
  const GridSampling& g_;
  ValueRef pixels_{}, bases_{};
};

void grid_sample(Ctx& c) { c.set_output(0, GridSampler(c, grid_sampling(c))()); }

// ---- RoiAlign ----

// RoiAlign (opsets 10 and 16, 4-D X, modes avg and max, sampling_ratio ≥ 1), by ONNX's reference (ONNX
// Runtime's kernel). Per region r (rois[r] = (x1, y1, x2, y2) on the image batch_indices[r]) and
// axis of extent L (the height reads y1, y2 and output_height, the width x1, x2 and output_width),
// with o = ½ for half_pixel and 0 for output_half_pixel (opset 10's only mode):
//  * start = a1·spatial_scale − o and E = (a2·spatial_scale − o) − start, at least 1 with
//    output_half_pixel; the bin size b = E/P; sample i of bin p at start + p·b + (i + ½)·b/S,
//    S = sampling_ratio;
//  * a sample outside [−1, L] on either axis adds 0; any other is the bilinear interpolation at
//    clamp(y, 0, L − 1) (the reference's y ≤ 0 read at 0 and y ≥ L − 1 at L − 1): GridSample's
//    linear taps with border padding (continuous, so any runtime's floor is inside);
//  * avg: y[r, c, p_h, p_w] = the sum over the bin's S×S samples divided by S² (the reference's
//    count); max: the maximum over the samples of the maximum of the four weighted corners
//    w_h·w_w·X (ONNX Runtime's, which the reference follows; a sample outside reads 0). The taps
//    that are not corners (−1 ≤ x − m < 1 fails) count as −∞, so where a runtime's x may fall on
//    either side of an integer the envelope holds both corner sets' maxima.
// A batch index outside [0, N) reads NaN (IR gather), never another image. sampling_ratio 0 (⌈E/P⌉
// samples per bin: a count computed from the data) is refused by name.
class RoiAligner {
 public:
  explicit RoiAligner(Ctx& c) : c_(c) {
    const std::string mode = c.attr_string("mode", "avg");
    if (mode != "avg" && mode != "max") c.refuse("onnx.attribute-value", "mode '" + mode + "' is not one of ONNX's");
    max_ = mode == "max";
    const std::string transform = c.opset() >= 16 ? c.attr_string("coordinate_transformation_mode", "half_pixel")
                                                  : std::string("output_half_pixel");
    if (transform != "half_pixel" && transform != "output_half_pixel")
      c.refuse("onnx.attribute-value", "coordinate_transformation_mode '" + transform + "' is not one of ONNX's");
    half_pixel_ = transform == "half_pixel";
    out_height_ = c.attr_int("output_height", 1), out_width_ = c.attr_int("output_width", 1);
    if (out_height_ < 1 || out_width_ < 1)
      c.refuse("onnx.attribute-value", "output_height and output_width must be at least 1");
    samples_ = c.attr_int("sampling_ratio", 0);
    if (samples_ < 0) c.refuse("onnx.attribute-value", "sampling_ratio must not be negative");
    if (samples_ == 0)
      c.refuse("onnx.attribute-unsupported",
               "sampling_ratio 0 (⌈roi/output⌉ samples per bin, a count computed from the rois) is not supported by "
               "nnref: give a sampling_ratio");
    scale_ = c.attr_float("spatial_scale", 1.0);
    if (!c.extents_fixed()) c.refuse("onnx.shape-unsupported", "RoiAlign needs fixed extents");
    const std::vector<int64_t> x = c.shape(0), rois = c.shape(1), batch = c.shape(2);
    if (x.size() != 4) c.refuse("onnx.input-shape", "X must be [N, C, H, W]");
    if (rois.size() != 2 || rois[1] != 4) c.refuse("onnx.input-shape", "rois must be [R, 4]");
    if (batch != std::vector<int64_t>{rois[0]}) c.refuse("onnx.input-shape", "batch_indices must be [R]");
    if (c.kind(2) != ElemKind::Integer) c.refuse("onnx.input-type", "batch_indices (input 2) must be integers");
    if (x[2] < 1 || x[3] < 1) c.refuse("onnx.input-shape", "X's height and width must be at least 1");
    g_ = GridSampling{Interpolation::Linear, Padding::Border, false, x[0], x[1], x[2], x[3]};
  }

  ValueRef operator()() {
    GridSampler sampler(c_, g_);
    const SampledAxis height{"height", g_.height, 1}, width{"width", g_.width, 0};
    const ValueRef y = positions(height, 1, 3, out_height_), x = positions(width, 0, 2, out_width_);
    const Taps h = sampler.taps(height, clamped(height, y)), w = sampler.taps(width, clamped(width, x));
    // [R, P_h, S] laid as [R, P_h, S, 1, 1], [R, P_w, S] as [R, 1, 1, P_w, S].
    const auto rows = [&](const std::string& s, ValueRef v, ElemKind kind = ElemKind::Real) {
      return c_.emit(s, ReshapeAttrs{{0, 0, 0, 1, 1}, kind}, {v});
    };
    const auto columns = [&](const std::string& s, ValueRef v, ElemKind kind = ElemKind::Real) {
      return c_.emit(s, ReshapeAttrs{{0, 1, 1, out_width_, samples_}, kind}, {v});
    };
    const ValueRef inside = c_.emit("inside", LogicalAttrs{LogicalOp::And, Broadcast::NumpyRight},
                                    {rows("height-inside-laid", inside_of(height, y), ElemKind::Logical),
                                     columns("width-inside-laid", inside_of(width, x), ElemKind::Logical)});
    const ValueRef pixels = c_.emit("pixels", ReshapeAttrs{{g_.n * g_.height * g_.width, g_.channels}},
                                    {c_.emit("channels-last", TransposeAttrs{{0, 2, 3, 1}}, {c_.data(0)})});
    const ValueRef base = c_.emit(
        "base", IntegerBinaryAttrs{IntegerOp::Mul, Broadcast::NumpyRight, {}},
        {c_.emit("batch-laid", ReshapeAttrs{{-1, 1, 1, 1, 1}, ElemKind::Integer}, {c_.operand(2, ElemKind::Integer)}),
         integer("image-size", g_.height * g_.width)});
    std::optional<ValueRef> folded;  // avg: the sum of the terms; max: their maximum
    for (size_t a = 0; a < h.index.size(); ++a)
      for (size_t b = 0; b < w.index.size(); ++b) {
        const std::string s = "tap" + std::to_string(a) + "-" + std::to_string(b);
        const ValueRef row = iop(s + "-row", IntegerOp::Mul, rows(s + "-row-laid", h.index[a], ElemKind::Integer),
                                 integer(s + "-width", g_.width));
        const ValueRef flat =
            iop(s + "-flat", IntegerOp::Add, base,
                iop(s + "-in-image", IntegerOp::Add, row, columns(s + "-column-laid", w.index[b], ElemKind::Integer)));
        ValueRef weight = binary(c_, s + "-product", BinaryOp::Mul, rows(s + "-height-laid", h.weight[a]),
                                 columns(s + "-width-laid", w.weight[b]));
        if (!max_) weight = select(s + "-weight", inside, weight, real(s + "-outside", 0));
        ValueRef term =
            binary(c_, s, BinaryOp::Mul, c_.emit(s + "-weight-laid", ReshapeAttrs{{0, 0, 0, 0, 0, 1}}, {weight}),
                   c_.emit(s + "-pixel", GatherAttrs{0}, {pixels, flat}));
        if (max_) {
          const ValueRef corner =
              c_.emit(s + "-corner", LogicalAttrs{LogicalOp::And, Broadcast::NumpyRight},
                      {rows(s + "-height-corner", corner_of(s + "-height", h.offset[a]), ElemKind::Logical),
                       columns(s + "-width-corner", corner_of(s + "-width", w.offset[b]), ElemKind::Logical)});
          term = select(s + "-kept", laid6(s + "-corner-laid", corner), term,
                        real(s + "-not-a-corner", -std::numeric_limits<double>::infinity()));
        }
        folded = folded ? binary(c_, s + "-folded", max_ ? BinaryOp::Max : BinaryOp::Add, *folded, term) : term;
      }
    if (max_) {
      // A sample outside reads 0 (the reference's zero weights); the bin's maximum over its samples.
      const ValueRef sample = select("sample", laid6("inside-laid", inside), *folded, real("outside", 0));
      return c_.emit("", TransposeAttrs{{0, 3, 1, 2}},
                     {c_.emit("bin-max", ReduceAttrs{ReduceOp::Max, {2, 4}, false}, {sample})});
    }
    const ValueRef total = c_.emit("bin-total", ReduceAttrs{ReduceOp::Sum, {2, 4}, false}, {*folded});
    const ValueRef mean = binary(c_, "bin-mean", BinaryOp::Div, total,
                                 c_.literal("count", scalar_tensor(static_cast<double>(samples_ * samples_))));
    return c_.emit("", TransposeAttrs{{0, 3, 1, 2}}, {mean});
  }

 private:
  ValueRef real(const std::string& s, double v) { return c_.literal(s, scalar_tensor(v)); }
  ValueRef integer(const std::string& s, int64_t v) { return c_.literal(s, integer_tensor(Shape(), {v})); }
  ValueRef iop(const std::string& s, IntegerOp o, ValueRef a, ValueRef b) {
    return c_.emit(s, IntegerBinaryAttrs{o, Broadcast::NumpyRight, {}}, {a, b});
  }
  ValueRef select(const std::string& s, ValueRef cond, ValueRef t, ValueRef f) {
    return c_.emit(s, SelectAttrs{Broadcast::NumpyRight}, {cond, t, f});
  }
  // A logical [R, P_h, S, P_w, S] laid as [R, P_h, S, P_w, S, 1], against the channels.
  ValueRef laid6(const std::string& s, ValueRef v) {
    return c_.emit(s, ReshapeAttrs{{0, 0, 0, 0, 0, 1}, ElemKind::Logical}, {v});
  }
  // Whether the tap at offset x − m is one of the reference's two corners ⌊x⌋ and ⌊x⌋ + 1 (x
  // clamped to [0, L − 1]; at L − 1 the second corner is L − 1 again, weight 0): −1 ≤ x − m < 1.
  ValueRef corner_of(const std::string& s, ValueRef offset) {
    const auto test = [&](const std::string& n, CompareOp o, double v) {
      return c_.emit(s + "-" + n, CompareAttrs{o, Broadcast::NumpyRight}, {offset, real(s + "-" + n + "-bound", v)});
    };
    return c_.emit(s + "-corner", LogicalAttrs{LogicalOp::And, Broadcast::NumpyRight},
                   {test("from", CompareOp::Ge, -1), test("below", CompareOp::Lt, 1)});
  }

  // The samples' coordinates on the axis, [R, P, S]: column k1 of rois the start, k2 the end.
  ValueRef positions(const SampledAxis& a, int64_t k1, int64_t k2, int64_t bins) {
    const std::string s = a.name;
    const auto corner = [&](const std::string& n, int64_t k) {
      const ValueRef v = c_.emit(s + "-" + n, GatherAttrs{1},
                                 {c_.data(1), c_.literal(s + "-" + n + "-column", integer_tensor(Shape(), {k}))});
      const ValueRef scaled = binary(c_, s + "-" + n + "-scaled", BinaryOp::Mul, v, real(s + "-scale", scale_));
      const ValueRef shifted =
          half_pixel_ ? binary(c_, s + "-" + n + "-shifted", BinaryOp::Sub, scaled, real(s + "-" + n + "-offset", 0.5))
                      : scaled;
      return c_.emit(s + "-" + n + "-laid", ReshapeAttrs{{-1, 1, 1}}, {shifted});
    };
    const ValueRef start = corner("start", k1);
    ValueRef extent = binary(c_, s + "-extent", BinaryOp::Sub, corner("end", k2), start);
    if (!half_pixel_) extent = binary(c_, s + "-extent-at-least-1", BinaryOp::Max, extent, real(s + "-one", 1));
    const ValueRef bin = binary(c_, s + "-bin", BinaryOp::Div, extent, real(s + "-bins", static_cast<double>(bins)));
    std::vector<double> p(static_cast<size_t>(bins)), i(static_cast<size_t>(samples_));
    for (size_t k = 0; k < p.size(); ++k) p[k] = static_cast<double>(k);
    for (size_t k = 0; k < i.size(); ++k) i[k] = static_cast<double>(k) + 0.5;
    c_.charge(bins + samples_);
    const ValueRef bin_start = binary(
        c_, s + "-bin-start", BinaryOp::Mul,
        c_.literal(s + "-bin-numbers", HostTensor{DType::F64, Shape::make({bins, 1}).value(), std::move(p)}), bin);
    const ValueRef offset = binary(
        c_, s + "-sample-offset", BinaryOp::Div,
        binary(c_, s + "-sample-stretch", BinaryOp::Mul,
               c_.literal(s + "-sample-centres", HostTensor{DType::F64, Shape::make({samples_}).value(), std::move(i)}),
               bin),
        real(s + "-samples", static_cast<double>(samples_)));
    return binary(c_, s + "-sample", BinaryOp::Add, binary(c_, s + "-bin-first", BinaryOp::Add, start, bin_start),
                  offset);
  }

  // Whether each sample is inside [−1, L] on the axis.
  ValueRef inside_of(const SampledAxis& a, ValueRef y) {
    const std::string s = a.name + "-inside";
    const auto test = [&](const std::string& n, CompareOp o, double v) {
      return c_.emit(s + "-" + n, CompareAttrs{o, Broadcast::NumpyRight}, {y, real(s + "-" + n + "-bound", v)});
    };
    return c_.emit(s, LogicalAttrs{LogicalOp::And, Broadcast::NumpyRight},
                   {test("from", CompareOp::Ge, -1), test("to", CompareOp::Le, static_cast<double>(a.extent))});
  }

  ValueRef clamped(const SampledAxis& a, ValueRef y) {
    const std::string s = a.name + "-clamped";
    return binary(c_, s, BinaryOp::Min, binary(c_, s + "-from-0", BinaryOp::Max, y, real(s + "-zero", 0)),
                  real(s + "-last", static_cast<double>(a.extent - 1)));
  }

  Ctx& c_;
  GridSampling g_;
  bool half_pixel_ = true, max_ = false;
  int64_t out_height_ = 1, out_width_ = 1, samples_ = 1;
  double scale_ = 1;
};

void roi_align(Ctx& c) { c.set_output(0, RoiAligner(c)()); }

}  // namespace

void add_sampling_ops(OpTable& table) {
  add_ops(table, {
                     {"Det", det},
                     {"GridSample", grid_sample},
                     {"RoiAlign", roi_align},
                 });
}

}  // namespace nnref::onnx_format
