// Resize (opsets 10 to 19) and Upsample (opsets 7 and 9): nearest, linear and cubic interpolation, as a
// composition of IR integer ops, gathers, selects and real arithmetic (docs/onnx.md, "Resize").
//
// Per resized axis, with L_in and L_out its extents and s = p/q its scale (the float32 given, as a
// fraction, or L_out/L_in from sizes), an output position x reads the input coordinate x_orig(x)
// of the coordinate_transformation_mode (ONNX's formulas). x_orig is a rational N/D of integers:
// the IR computes N and D with integer ops from the range of positions and L_in (at run time, so
// the extents may be symbolic), and the neighbours' indices from them by floor division, exactly.
// The same x_orig is also computed with IR real ops, as a float32 runtime computes it: exact in
// the oracle, widened by the Envelope as the runtime's own computation rounds. Near a boundary
// where the runtime may pick another neighbour the formula holds for either:
//  * nearest: the index is a step function of x_orig; b is the step boundary nearest to x_orig
//    (integers for floor and ceil, half-integers for the round modes), lo and hi the indices just
//    below and above it, and y = select(x_orig ⋈ b, x[hi], x[lo]) with ⋈ the mode's tie rule
//    (≥ for floor and round_prefer_ceil, > for ceil and round_prefer_floor), x_orig the real one.
//    Exact in the oracle; where the Envelope's x_orig straddles b, the hull of both. Where every
//    runtime computes x_orig exactly (a power-of-two scale), the mode's index of N/D directly.
//  * linear: k = ⌊N/D⌋, r = x_orig − k (real ops), and, with neighbours clamped to [0, L_in − 1]
//    (ONNX's edge padding), with c = clamp(r, 0, 1), the taps x[k − 1] .. x[k + 2] weighing
//    −min(r, 0), (1 − c) + min(r, 0), c − max(r − 1, 0), max(r − 1, 0): the linear interpolation
//    exactly for any r in [−1, 2] (where the floor is k − 1 or k + 1 the outer taps take over), so a
//    runtime whose floor differs by one near an integer x_orig stays inside the envelope.
//  * cubic: Keys' kernel over five taps k − 2 .. k + 2, the weights read x_orig's real (cubic()).
// Linear and cubic sum over every resized axis's taps at once (the IR's interpolate), whose
// envelope holds every order of the products and sums: ONNX Runtime sums the 2^n corner terms
// flat, PyTorch nests the axes, and a nested envelope rejects the flat sum's correct answers.
// tf_crop_and_resize maps x through the roi (x_orig's N/D with the roi as fractions a/2^k) and
// gives extrapolation_value where the real x_orig is outside [0, L_in − 1] (extrapolated()).
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"
#include "formats/onnx/tensor_proto.hpp"

namespace nnref::onnx_format {

namespace {

enum class Coordinate {
  HalfPixel,
  HalfPixelSymmetric,
  PytorchHalfPixel,
  AlignCorners,
  Asymmetric,
  TfHalfPixelForNn,
  TfCropAndResize
};
enum class Rounding { RoundPreferFloor, RoundPreferCeil, Floor, Ceil };

struct ResizedAxis {
  int64_t axis = 0, in = 1, out = 1;
  double scale = 1;                   // the float32 scale given, or L_out / L_in when sizes are given
  bool from_sizes = false;            // the scale is L_out / L_in (computed by the IR as a division)
  double roi_start = 0, roi_end = 1;  // tf_crop_and_resize's region, in [0, 1] of the extent
  std::vector<int64_t> out_term{};    // from sizes: L_out as a size term (a number, or over extents)
};

// An axis resized to the size `term` (L_out at the default extents: out).
ResizedAxis sized(int64_t axis, int64_t in, int64_t out, std::vector<int64_t> term) {
  return {axis, in, out, static_cast<double>(out) / static_cast<double>(in), true, 0, 1, std::move(term)};
}

struct Resizing {
  bool linear = false, cubic = false;
  double cubic_a = -0.75;        // cubic_coeff_a
  bool exclude_outside = false;  // cubic: the taps outside the input weigh 0, the rest renormalised
  Coordinate coordinate = Coordinate::HalfPixel;
  Rounding rounding = Rounding::RoundPreferFloor;
  // Opset 10's Resize and Upsample name no nearest_mode: ONNX Runtime's "simple" rounding, ⌈x_orig⌉
  // on an axis it shrinks (scale < 1), ⌊x_orig⌋ on the others.
  bool simple = false;
  double extrapolation = 0;  // tf_crop_and_resize: the value of an x_orig outside [0, L_in − 1]
  std::vector<ResizedAxis> axes;
};

Coordinate coordinate_of(Ctx& c, const std::string& m) {
  if (m == "half_pixel") return Coordinate::HalfPixel;
  if (m == "half_pixel_symmetric" && c.opset() >= 19) return Coordinate::HalfPixelSymmetric;
  if (m == "pytorch_half_pixel") return Coordinate::PytorchHalfPixel;
  if (m == "align_corners") return Coordinate::AlignCorners;
  if (m == "asymmetric") return Coordinate::Asymmetric;
  if (m == "tf_half_pixel_for_nn") return Coordinate::TfHalfPixelForNn;
  if (m == "tf_crop_and_resize") return Coordinate::TfCropAndResize;
  c.refuse("onnx.attribute-value",
           "coordinate_transformation_mode '" + m + "' is not one of opset " + std::to_string(c.opset()) + "'s");
}

Rounding rounding_of(Ctx& c, const std::string& m) {
  if (m == "round_prefer_floor") return Rounding::RoundPreferFloor;
  if (m == "round_prefer_ceil") return Rounding::RoundPreferCeil;
  if (m == "floor") return Rounding::Floor;
  if (m == "ceil") return Rounding::Ceil;
  c.refuse("onnx.attribute-value", "nearest_mode '" + m + "' is not one of ONNX's");
}

// The scales (input k, or Upsample 7's attribute) or sizes, one per axis of `axes`.
std::vector<ResizedAxis> resized_axes(Ctx& c, const std::vector<int64_t>& shape, const std::vector<int64_t>& axes,
                                      std::optional<size_t> scales_input, std::optional<size_t> sizes_input) {
  std::vector<ResizedAxis> out;
  const auto counted = [&](size_t n, const std::string& what) {
    if (n != axes.size())
      c.refuse("onnx.input-shape",
               what + " holds " + std::to_string(n) + " numbers for " + std::to_string(axes.size()) + " axes");
  };
  const HostTensor* st =
      scales_input && c.has_input(*scales_input) ? &c.require_constant(*scales_input, "scales") : nullptr;
  if (st && !st->values.empty()) {
    counted(st->values.size(), "scales");
    for (size_t i = 0; i < axes.size(); ++i) {
      // The file holds float32 scales; a double is the same number.
      const double s = st->values[i];
      if (!(s > 0) || !std::isfinite(s)) c.refuse("onnx.attribute-value", "a scale must be positive and finite");
      const int64_t in = shape[static_cast<size_t>(axes[i])];
      const auto o = static_cast<int64_t>(std::floor(static_cast<double>(in) * s));
      // Over symbolic extents an empty output is the range's obligation (shape.range.empty), at run or check.
      if (o < 1 && c.extents_fixed()) c.refuse("onnx.attribute-value", "a scale makes an extent of 0");
      out.push_back({axes[i], in, o, s, false});
    }
    return out;
  }
  if (!sizes_input || !c.has_input(*sizes_input))
    c.refuse("onnx.input-missing", "Resize takes scales or sizes, and neither is given");
  std::vector<std::vector<int64_t>> sizes;  // terms: numbers, or computed from extents
  if (SizesPtr t = c.terms(*sizes_input)) {
    sizes = t->elements;
  } else {
    for (int64_t v : c.int_list(*sizes_input, "sizes")) sizes.push_back({size_code::kConstant, v});
  }
  counted(sizes.size(), "sizes");
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t in = shape[static_cast<size_t>(axes[i])];
    // PyTorch's F.interpolate(size=...) gives the axes it keeps as Shape(x)[axis]: scale 1 at every run.
    if (c.is_extent_of(sizes[i], 0, axes[i])) {
      out.push_back({axes[i], in, in, 1, false});
      continue;
    }
    const std::optional<int64_t> size = c.term_at_defaults(sizes[i]);
    if (!size) c.refuse("onnx.shape-unsupported", "sizes computed from data are not supported (give scales)");
    if (*size < 1) c.refuse("onnx.attribute-value", "sizes must be at least 1");
    out.push_back(sized(axes[i], in, *size, sizes[i]));
  }
  return out;
}

// tf_crop_and_resize's roi (input 1, [starts, ends] over the resized axes) into the axes; with
// scales, L_out = ⌊L_in·(end − start)·s⌋ (ONNX's). Fixed extents only.
void cropped(Ctx& c, std::vector<ResizedAxis>& axes) {
  if (!c.extents_fixed()) c.refuse("onnx.shape-unsupported", "tf_crop_and_resize needs fixed extents");
  const HostTensor& roi = c.require_constant(1, "roi");
  if (roi.values.size() != 2 * axes.size())
    c.refuse("onnx.input-shape", "roi must hold a start and an end per resized axis");
  for (size_t i = 0; i < axes.size(); ++i) {
    ResizedAxis& a = axes[i];
    a.roi_start = roi.values[i], a.roi_end = roi.values[i + axes.size()];
    if (!std::isfinite(a.roi_start) || !std::isfinite(a.roi_end))
      c.refuse("onnx.attribute-value", "roi must be finite");
    if (!a.from_sizes) {
      a.out = static_cast<int64_t>(std::floor(static_cast<double>(a.in) * (a.roi_end - a.roi_start) * a.scale));
      if (a.out < 1) c.refuse("onnx.attribute-value", "roi and scales make an extent of 0");
    }
  }
}

// Reads the node's attributes and inputs; its axes whose every output reads its own input
// position (scale 1, any mode but tf_half_pixel_for_nn) are left out.
Resizing resizing(Ctx& c, bool upsample) {
  Resizing z;
  const std::string mode = c.attr_string("mode", "nearest");
  if (mode == "linear" || mode == "bilinear")
    z.linear = true;
  else if (mode == "cubic" && !upsample)
    z.cubic = true;
  else if (mode != "nearest")
    c.refuse("onnx.attribute-value", "mode '" + mode + "' is not one of ONNX's");
  const std::vector<int64_t> shape = c.shape(0);
  const auto r = static_cast<int64_t>(shape.size());
  std::vector<int64_t> axes;
  if (c.has_attr("axes")) {
    for (int64_t a : c.attr_ints("axes")) {
      if (a < -r || a >= r) c.refuse("onnx.attribute-value", "axis " + std::to_string(a) + " is outside X's axes");
      axes.push_back(a < 0 ? a + r : a);
    }
  } else {
    for (int64_t a = 0; a < r; ++a) axes.push_back(a);
  }
  std::vector<ResizedAxis> all;
  if (upsample || c.opset() < 11) {
    z.coordinate = Coordinate::Asymmetric, z.rounding = Rounding::Floor, z.simple = true;
    if (upsample && c.opset() < 9) {
      const onnx::AttributeProto* a = c.attr("scales");
      if (!a || a->floats_size() != r) c.refuse("onnx.attribute-value", "scales must hold one number per axis");
      for (int64_t i = 0; i < r; ++i) {
        const double s = a->floats(static_cast<int>(i));
        const int64_t in = shape[static_cast<size_t>(i)];
        const auto o = static_cast<int64_t>(std::floor(static_cast<double>(in) * s));
        if (!(s > 0) || (o < 1 && c.extents_fixed()))
          c.refuse("onnx.attribute-value", "a scale must be positive and keep an extent");
        all.push_back({i, in, o, s, false});
      }
    } else {
      all = resized_axes(c, shape, axes, 1, std::nullopt);
    }
  } else {
    z.coordinate = coordinate_of(c, c.attr_string("coordinate_transformation_mode", "half_pixel"));
    z.rounding = rounding_of(c, c.attr_string("nearest_mode", "round_prefer_floor"));
    if (c.attr_int("antialias", 0) != 0) c.refuse("onnx.attribute-unsupported", "antialias is not supported by nnref");
    const std::string policy = c.attr_string("keep_aspect_ratio_policy", "stretch");
    if (policy != "stretch")
      c.refuse("onnx.attribute-unsupported", "keep_aspect_ratio_policy " + policy + " is not supported by nnref");
    z.cubic_a = c.attr_float("cubic_coeff_a", -0.75);
    z.exclude_outside = c.attr_int("exclude_outside", 0) != 0;
    z.extrapolation = c.attr_float("extrapolation_value", 0.0);
    all = resized_axes(c, shape, axes, 2, 3);
    if (z.coordinate == Coordinate::TfCropAndResize) cropped(c, all);
  }
  // A size over symbolic extents may equal L_in at the default extents only.
  for (const ResizedAxis& a : all)
    if (a.out != a.in || a.scale != 1 || (a.from_sizes && !c.extents_fixed()) ||
        z.coordinate == Coordinate::TfHalfPixelForNn || z.coordinate == Coordinate::TfCropAndResize)
      z.axes.push_back(a);
  return z;
}

// Emits one axis's resizing of x (of rank r). x_orig = N/D, an exact rational of integers the IR
// computes at run time from the output position x and the axis's extents (the scale s = p/q, the
// float32 given as a fraction, or L_out/L_in with both extents' values), so the extents may be
// symbolic; the same x_orig is also computed with IR real ops, as a float32 runtime does, for the
// choices near a boundary.
class AxisResizer {
 public:
  AxisResizer(Ctx& c, const Resizing& z, const ResizedAxis& a, size_t r, std::vector<int64_t> in_term)
      : c_(c),
        z_(z),
        a_(a),
        r_(r),
        n_("axis" + std::to_string(a.axis)),
        in_term_(std::move(in_term)),
        rounding_(z.simple && a.scale < 1 ? Rounding::Ceil : z.rounding) {
    if (a_.from_sizes) {
      p_ = a_.out, q_ = a_.in;
    } else {  // s = m·2^e exactly, m a 24-bit integer
      int e = 0;
      const double m = std::ldexp(std::frexp(a_.scale, &e), 53);
      auto mi = static_cast<int64_t>(m);
      e -= 53;
      while (mi % 2 == 0 && e < 0) mi /= 2, ++e;
      if (e > 20 || e < -60) c_.refuse("onnx.attribute-value", "a scale is beyond what nnref reads (2^±60)");
      p_ = e >= 0 ? mi << e : mi, q_ = e >= 0 ? 1 : int64_t{1} << -e;
    }
    const bool fixed = c_.extents_fixed();
    // x_orig is 0 where align_corners' length_resized ≤ 1, and where pytorch_half_pixel's L_out is 1
    // (PyTorch's and ONNX Runtime's reading; the ONNX reference reads L_in·s there too, which no
    // node test shows). Over symbolic extents that is known only for scales ≥ 1, where L_out = 1
    // means L_in = 1: there every tap is x[0], whatever x_orig.
    zero_ = (z_.coordinate == Coordinate::AlignCorners && resized_length() <= 1) ||
            (z_.coordinate == Coordinate::PytorchHalfPixel && a_.out <= 1);
    const bool zero_somewhere =
        z_.coordinate == Coordinate::AlignCorners || z_.coordinate == Coordinate::PytorchHalfPixel;
    if (zero_somewhere && !a_.from_sizes && !fixed && a_.scale < 1)
      c_.refuse("onnx.shape-unsupported",
                "a scale below 1 with align_corners or pytorch_half_pixel needs fixed "
                "extents (x_orig is 0 where L_in·s ≤ 1)");
    if (zero_somewhere && a_.from_sizes && a_.out_term.size() != 2)
      c_.refuse("onnx.shape-unsupported",
                "sizes computed from extents with align_corners or pytorch_half_pixel are not supported "
                "(x_orig is 0 where L_out ≤ 1)");
    // |N| and D below 2^62 at the model's extents (the IR's integers are int64).
    const long double bound = 4.0L * static_cast<long double>(std::max(a_.in, a_.out) + 2) *
                              static_cast<long double>(std::max(a_.in, a_.out) + 2) *
                              static_cast<long double>(std::max(p_, q_));
    if (bound >= 0x1p62L) c_.refuse("onnx.shape-unsupported", "the coordinates' fractions exceed 64 bits");
  }

  int64_t axis() const { return a_.axis; }

  // The axis's taps for interpolate: indices [L_out, T] and weights [L_out, T] (linear or cubic).
  std::pair<ValueRef, ValueRef> taps() { return z_.cubic ? cubic() : linear(); }

  // y with extrapolation_value where x_orig is outside [0, L_in − 1] (tf_crop_and_resize; else y).
  ValueRef extrapolated(ValueRef y) {
    if (z_.coordinate != Coordinate::TfCropAndResize) return y;
    const ValueRef xo = coordinate(laid("position", positions()));
    const ValueRef outside = c_.emit(
        name("outside"), LogicalAttrs{LogicalOp::Or, Broadcast::NumpyRight},
        {c_.emit(name("before-first"), CompareAttrs{CompareOp::Lt, Broadcast::NumpyRight}, {xo, scalar("first", 0)}),
         c_.emit(name("after-last"), CompareAttrs{CompareOp::Gt, Broadcast::NumpyRight},
                 {xo, scalar("last", static_cast<double>(a_.in - 1))})});
    return c_.emit(name("cropped"), SelectAttrs{Broadcast::NumpyRight},
                   {outside, scalar("extrapolation", z_.extrapolation), y});
  }

 private:
  std::string name(const std::string& s) const { return s.empty() ? n_ : n_ + "-" + s; }
  ValueRef scalar(const std::string& s, double v) { return c_.literal(name(s), scalar_tensor(v)); }
  ValueRef op(const std::string& s, BinaryOp o, ValueRef p, ValueRef q) { return binary(c_, name(s), o, p, q); }
  ValueRef integer(const std::string& s, int64_t v) { return c_.literal(name(s), integer_tensor(Shape(), {v})); }
  ValueRef iop(const std::string& s, IntegerOp o, ValueRef p, ValueRef q) {
    return c_.emit(name(s), IntegerBinaryAttrs{o, Broadcast::NumpyRight, {}}, {p, q});
  }
  // ⌊a/b⌋ for b ≥ 1: IR integer division truncates, floor mod has the divisor's sign.
  ValueRef floor_div(const std::string& s, ValueRef a, ValueRef b) {
    return iop(s, IntegerOp::Div, iop(s + "-exact", IntegerOp::Sub, a, iop(s + "-mod", IntegerOp::Mod, a, b)), b);
  }
  ValueRef real(const std::string& s, ValueRef v) {
    return c_.emit(name(s), CastAttrs{ElemKind::Integer, ElemKind::Real}, {v});
  }
  // A [L_out] integer laid along the axis as a real broadcasting against the resized x.
  ValueRef laid(const std::string& s, ValueRef v) {
    std::vector<int64_t> dims(r_ - static_cast<size_t>(a_.axis), 1);
    dims[0] = -1;
    return c_.emit(name(s), ReshapeAttrs{dims}, {real(s + "-real", v)});
  }
  // A [L_out] integer as a [L_out, 1] column (of reals, or of integers when `integral`).
  ValueRef column(const std::string& s, ValueRef v, bool integral = false) {
    if (integral) return c_.emit(name(s), ReshapeAttrs{{-1, 1}, ElemKind::Integer}, {v});
    return c_.emit(name(s), ReshapeAttrs{{-1, 1}}, {real(s + "-real", v)});
  }
  // The term t + d, and its value as a [1] integer tensor (a range of one element).
  static std::vector<int64_t> plus(std::vector<int64_t> t, int64_t d) {
    t.insert(t.end(), {size_code::kConstant, d, size_code::kAdd});
    return t;
  }
  ValueRef value_of(const std::string& s, const std::vector<int64_t>& t) {
    return integer_range(c_, name(s), t, plus(t, 1));
  }
  ValueRef in_extent() {
    if (!in_extent_) in_extent_ = value_of("in-extent", in_term_);
    return *in_extent_;
  }
  ValueRef out_extent() {
    if (!out_extent_) out_extent_ = value_of("out-extent", out_term());
    return *out_extent_;
  }
  // s = p/q: numbers for scales, L_out and L_in (values of the run) for sizes.
  ValueRef p() { return a_.from_sizes ? out_extent() : integer("p", p_); }
  ValueRef q() { return a_.from_sizes ? in_extent() : integer("q", q_); }
  std::vector<int64_t> out_term() const {
    if (a_.from_sizes) return a_.out_term;
    std::vector<int64_t> t = in_term_;
    t.insert(t.end(), {size_code::kConstant, p_, size_code::kMul, size_code::kConstant, q_, size_code::kDiv});
    return t;
  }
  // x gathered along the axis at the [L_out] indices i, clamped to [0, L_in − 1].
  ValueRef gathered(const std::string& s, ValueRef x, ValueRef i) {
    const ValueRef last = iop(s + "-last", IntegerOp::Sub, in_extent(), integer(s + "-one", 1));
    const ValueRef clamped =
        iop(s + "-index", IntegerOp::Min, iop(s + "-above-0", IntegerOp::Max, i, integer(s + "-zero", 0)), last);
    return c_.emit(name(s), GatherAttrs{a_.axis}, {x, clamped});
  }

  // The roi's start and end as a/2^k and b/2^k (float32s: dyadic), refused beyond what int64 holds.
  std::tuple<int64_t, int64_t, int> roi_fraction() const {
    int k = 0;
    const auto scaled = [&](double v) { return std::ldexp(v, k); };
    while (k < 40 && (scaled(a_.roi_start) != std::floor(scaled(a_.roi_start)) ||
                      scaled(a_.roi_end) != std::floor(scaled(a_.roi_end))))
      ++k;
    const double big = std::max({std::fabs(scaled(a_.roi_start)), std::fabs(scaled(a_.roi_end)), 1.0}) *
                       static_cast<double>(a_.in) * static_cast<double>(a_.out + 1) * 4;
    if (k >= 40 || big >= 0x1p62)
      c_.refuse("onnx.shape-unsupported", "the roi's fractions exceed 64 bits at these extents");
    return {static_cast<int64_t>(scaled(a_.roi_start)), static_cast<int64_t>(scaled(a_.roi_end)), k};
  }

  // ONNX's length_resized: L_out from sizes, L_in·s from scales (not floored: the ONNX reference's
  // reading, which its align_corners test's expected values follow).
  double resized_length() const {
    return a_.from_sizes ? static_cast<double>(a_.out) : static_cast<double>(a_.in) * a_.scale;
  }

  // Whether every runtime computes x_orig exactly in float32 (it divides or multiplies by a power
  // of two, at positions below 2^20, adding halves): its nearest neighbour is then the exact one,
  // ties included, and need not be hulled with the other. Only at fixed extents: a symbolic one may
  // be run at 2^20 or more, where the positions are no longer exact.
  bool exact_in_float32() const {
    if (!c_.extents_fixed()) return false;
    const auto power_of_two = [](double v) {
      int e = 0;
      return v > 0 && std::frexp(v, &e) == 0.5;
    };
    if (a_.out >= (int64_t{1} << 20) || a_.in >= (int64_t{1} << 20)) return false;
    if (zero_) return true;
    switch (z_.coordinate) {
      case Coordinate::HalfPixel:
      case Coordinate::Asymmetric:
      case Coordinate::PytorchHalfPixel:
      case Coordinate::TfHalfPixelForNn:
        return power_of_two(a_.scale);
      case Coordinate::AlignCorners:
        return power_of_two(resized_length() - 1);
      case Coordinate::HalfPixelSymmetric:
      case Coordinate::TfCropAndResize:
        return false;
    }
    return false;
  }

  // N and D of x_orig = N/D at the positions x ([L_out] integers), D ≥ 1 ([1] or a scalar).
  std::pair<ValueRef, ValueRef> fraction(ValueRef x) {
    const ValueRef zero = integer("n-zero", 0);
    const auto mul = [&](const std::string& s, ValueRef v, int64_t k) {
      return iop(s, IntegerOp::Mul, v, integer(s + "-by", k));
    };
    const auto add = [&](const std::string& s, ValueRef v, int64_t k) {
      return iop(s, IntegerOp::Add, v, integer(s + "-by", k));
    };
    if (zero_) return {iop("n", IntegerOp::Mul, x, zero), integer("d", 1)};
    const ValueRef odd = add("n-odd", mul("n-twice", x, 2), 1);  // 2x + 1
    const auto twice_p = [&] { return mul("d-twice", p(), 2); };
    switch (z_.coordinate) {
      case Coordinate::HalfPixel:
      case Coordinate::PytorchHalfPixel:  // ((2x + 1)q − p) / 2p
        return {iop("n", IntegerOp::Sub, iop("n-q", IntegerOp::Mul, odd, q()), p()), twice_p()};
      case Coordinate::TfHalfPixelForNn:
        return {iop("n", IntegerOp::Mul, odd, q()), twice_p()};  // (2x + 1)q / 2p
      case Coordinate::Asymmetric:
        return {iop("n", IntegerOp::Mul, x, q()), p()};  // xq / p
      case Coordinate::HalfPixelSymmetric: {
        // L_in/2·(1 − L_out/(s·L_in)) + (x + ½)/s − ½ = ((2x + 1)q − p + L_in·p − L_out·q) / 2p
        const ValueRef shift = iop("n-shift", IntegerOp::Sub, iop("n-in", IntegerOp::Mul, in_extent(), p()),
                                   iop("n-out", IntegerOp::Mul, out_extent(), q()));
        const ValueRef half = iop("n-half", IntegerOp::Sub, iop("n-q", IntegerOp::Mul, odd, q()), p());
        return {iop("n", IntegerOp::Add, half, shift), twice_p()};
      }
      case Coordinate::AlignCorners: {
        // x(L_in − 1) / (L_out − 1) from sizes; x(L_in − 1)q / (L_in·p − q) from scales
        const ValueRef span = iop("n-span", IntegerOp::Sub, in_extent(), integer("n-one", 1));
        const ValueRef n = iop("n", IntegerOp::Mul, x, a_.from_sizes ? span : mul("n-span-q", span, q_));
        return {n, a_.from_sizes ? add("d", out_extent(), -1) : add("d", mul("d-in", in_extent(), p_), -q_)};
      }
      case Coordinate::TfCropAndResize: {
        // start·R + x·(end − start)·R/(L_out − 1), R = L_in − 1, with start = a/2^k, end = b/2^k:
        // (a·R·(L_out − 1) + x·(b − a)·R) / (2^k·(L_out − 1)); for L_out = 1, (a + b)·R / 2^(k+1).
        const auto [a, b, k] = roi_fraction();
        const int64_t r = a_.in - 1;
        if (a_.out == 1) return {add("n", mul("n-x", x, 0), (a + b) * r), integer("d", int64_t{1} << (k + 1))};
        return {add("n", mul("n-x", x, (b - a) * r), a * r * (a_.out - 1)),
                integer("d", (int64_t{1} << k) * (a_.out - 1))};
      }
    }
    return {x, integer("d", 1)};
  }

  // x_orig at the output positions x (reals, laid out as the caller needs them) with IR real ops,
  // in the order ONNX Runtime computes it.
  ValueRef coordinate(ValueRef x) {
    if (zero_) return op("zero", BinaryOp::Mul, x, scalar("zero-by", 0));
    const ValueRef s = a_.from_sizes
                           ? op("scale", BinaryOp::Div, real("scale-out", out_extent()), real("scale-in", in_extent()))
                           : scalar("scale", a_.scale);
    const auto half_pixel = [&] {
      return op("shifted", BinaryOp::Sub,
                op("scaled", BinaryOp::Div, op("centre", BinaryOp::Add, x, scalar("half", 0.5)), s),
                scalar("half-back", 0.5));
    };
    const auto in = [&] { return real("in-real", in_extent()); };
    switch (z_.coordinate) {
      case Coordinate::HalfPixel:
      case Coordinate::PytorchHalfPixel:
        return half_pixel();
      case Coordinate::HalfPixelSymmetric: {
        // L_in/2 · (1 − L_out / (s·L_in)) + half_pixel(x)
        const ValueRef out = real("out-real", out_extent());
        const ValueRef adjust = op("adjust", BinaryOp::Div, out, op("span", BinaryOp::Mul, s, in()));
        const ValueRef offset = op("offset", BinaryOp::Mul, op("centre-in", BinaryOp::Mul, in(), scalar("halve", 0.5)),
                                   op("one-minus-adjust", BinaryOp::Sub, scalar("one-adjust", 1), adjust));
        return op("symmetric", BinaryOp::Add, offset, half_pixel());
      }
      case Coordinate::AlignCorners: {
        const ValueRef last = op("in-last", BinaryOp::Sub, in(), scalar("one-in", 1));
        const ValueRef out_last =
            a_.from_sizes
                ? op("out-last", BinaryOp::Sub, real("out-real", out_extent()), scalar("one-out-last", 1))
                : op("out-last", BinaryOp::Sub, op("out-length", BinaryOp::Mul, in(), s), scalar("one-out", 1));
        return op("aligned", BinaryOp::Div, op("stretched", BinaryOp::Mul, x, last), out_last);
      }
      case Coordinate::Asymmetric:
        return op("scaled", BinaryOp::Div, x, s);
      case Coordinate::TfHalfPixelForNn:
        return op("scaled", BinaryOp::Div, op("centre", BinaryOp::Add, x, scalar("half", 0.5)), s);
      case Coordinate::TfCropAndResize: {
        // ONNX Runtime's: start·(L_in − 1) + x·(end − start)·(L_in − 1)/(L_out − 1); for L_out = 1,
        // ½·(start + end)·(L_in − 1)
        const ValueRef start = scalar("roi-start", a_.roi_start), end = scalar("roi-end", a_.roi_end);
        const ValueRef last = scalar("in-last", static_cast<double>(a_.in - 1));
        if (a_.out == 1)
          return op("crop-centre", BinaryOp::Mul,
                    op("crop-mid", BinaryOp::Mul, scalar("crop-half", 0.5), op("crop-sum", BinaryOp::Add, start, end)),
                    op("crop-x0", BinaryOp::Add, last, op("crop-nothing", BinaryOp::Mul, x, scalar("crop-zero", 0))));
        const ValueRef span = op("crop-span", BinaryOp::Sub, end, start);
        return op("crop", BinaryOp::Add, op("crop-start", BinaryOp::Mul, start, last),
                  op("crop-step", BinaryOp::Div,
                     op("crop-stretch", BinaryOp::Mul, op("crop-x", BinaryOp::Mul, x, span), last),
                     scalar("out-last", static_cast<double>(a_.out - 1))));
      }
    }
    return x;
  }

  ValueRef positions() { return integer_range(c_, name("positions"), {size_code::kConstant, 0}, out_term()); }

 public:
  ValueRef nearest(ValueRef x) {
    const ValueRef at = positions();
    const auto [n, d] = fraction(at);
    const auto twice = [&](const std::string& s, ValueRef v) {
      return iop(s, IntegerOp::Mul, v, integer(s + "-by", 2));
    };
    const auto neg = [&](const std::string& s, ValueRef v) {
      return iop(s, IntegerOp::Sub, integer(s + "-zero", 0), v);
    };
    const auto plus_one = [&](const std::string& s, ValueRef v) {
      return iop(s, IntegerOp::Add, v, integer(s + "-one", 1));
    };
    if (exact_in_float32()) {
      // The mode's index of N/D: floor ⌊N/D⌋, ceil −⌊−N/D⌋, round_prefer_ceil ⌊(2N + D)/2D⌋,
      // round_prefer_floor ⌈(2N − D)/2D⌉ = −⌊(D − 2N)/2D⌋.
      ValueRef index = n;
      switch (rounding_) {
        case Rounding::Floor:
          index = floor_div("index", n, d);
          break;
        case Rounding::Ceil:
          index = neg("index", floor_div("index-neg", neg("n-neg", n), d));
          break;
        case Rounding::RoundPreferCeil:
          index = floor_div("index", iop("n-rounded", IntegerOp::Add, twice("n2", n), d), twice("d2", d));
          break;
        case Rounding::RoundPreferFloor:
          index =
              neg("index", floor_div("index-neg", iop("n-rounded", IntegerOp::Sub, d, twice("n2", n)), twice("d2", d)));
          break;
      }
      return gathered("", x, index);
    }
    // b, the boundary nearest to x_orig, and the indices on its two sides.
    const bool at_integers = rounding_ == Rounding::Floor || rounding_ == Rounding::Ceil;
    const bool tie_up = rounding_ == Rounding::Floor || rounding_ == Rounding::RoundPreferCeil;
    ValueRef below = n, boundary = n;
    if (at_integers) {  // b = ⌊(2N + D)/2D⌋
      const ValueRef b = floor_div("boundary", iop("n-rounded", IntegerOp::Add, twice("n2", n), d), twice("d2", d));
      below = rounding_ == Rounding::Floor ? iop("below", IntegerOp::Sub, b, integer("below-one", 1)) : b;
      boundary = laid("boundary-laid", b);
    } else {  // b = ⌊N/D⌋ + ½
      below = floor_div("below", n, d);
      boundary = op("boundary", BinaryOp::Add, laid("below-laid", below), scalar("boundary-half", 0.5));
    }
    const ValueRef above =
        c_.emit(name("above"), CompareAttrs{tie_up ? CompareOp::Ge : CompareOp::Gt, Broadcast::NumpyRight},
                {coordinate(laid("position", at)), boundary});
    return c_.emit(n_, SelectAttrs{Broadcast::NumpyRight},
                   {above, gathered("hi", x, plus_one("above-index", below)), gathered("lo", x, below)});
  }

 private:
  // The tap indices k + j (j = first .. first + count − 1, k = ⌊N/D⌋), clamped to [0, L_in − 1]
  // (ONNX's edge padding), as an [L_out, count] integer matrix; and k.
  std::pair<ValueRef, ValueRef> tap_indices(ValueRef n, ValueRef d, int64_t first, int64_t count) {
    const ValueRef k = floor_div("floor", n, d);
    std::vector<int64_t> offsets;
    for (int64_t j = 0; j < count; ++j) offsets.push_back(first + j);
    const ValueRef at = iop("taps", IntegerOp::Add, column("floor-column", k, true),
                            c_.literal(name("tap-offsets"), integer_tensor(Shape::of({1, count}), offsets)));
    const ValueRef last = iop("taps-last", IntegerOp::Sub, in_extent(), integer("taps-one", 1));
    return {iop("tap-index", IntegerOp::Min, iop("taps-above-0", IntegerOp::Max, at, integer("taps-zero", 0)), last),
            k};
  }
  // The [L_out, 1] weights side by side: an [L_out, T] matrix.
  ValueRef weights(const std::vector<ValueRef>& columns) { return c_.emit(name("weights"), ConcatAttrs{1}, columns); }

  // Taps k − 1 .. k + 2 with r = x_orig − k, c = clamp(r, 0, 1), below = min(r, 0) and
  // above = max(r − 1, 0) weighing −below, (1 − c) + below, c − above, above: (1 − r, r) on x[k],
  // x[k + 1] for r in [0, 1], and where a runtime's floor is k − 1 (r < 0) or k + 1 (r > 1), its own
  // (1 − r', r') on the neighbours it reads.
  std::pair<ValueRef, ValueRef> linear() {
    const ValueRef at = positions();
    const auto [n, d] = fraction(at);
    const auto [indices, k] = tap_indices(n, d, -1, 4);
    const ValueRef ratio = op("ratio", BinaryOp::Sub, coordinate(column("position", at)), column("floor-real", k));
    const ValueRef c =
        op("weight", BinaryOp::Min, op("ratio-above-0", BinaryOp::Max, ratio, scalar("zero", 0)), scalar("one", 1));
    const ValueRef below = op("below", BinaryOp::Min, ratio, scalar("zero-below", 0));
    const ValueRef above = op("above", BinaryOp::Max, op("ratio-minus-1", BinaryOp::Sub, ratio, scalar("one-more", 1)),
                              scalar("zero-above", 0));
    return {indices,
            weights({op("before-weight", BinaryOp::Sub, scalar("none", 0), below),
                     op("left-weight", BinaryOp::Add, op("one-minus", BinaryOp::Sub, scalar("whole", 1), c), below),
                     op("right-weight", BinaryOp::Sub, c, above), above})};
  }

  // Keys' cubic kernel W(t) at t = |x_orig − m| ≥ 0 (ONNX's, a = cubic_coeff_a):
  // ((a + 2)t − (a + 3))t² + 1 for t ≤ 1, ((at − 5a)t + 8a)t − 4a for 1 < t < 2, 0 beyond
  // (continuous: both pieces are 0 at 1, the second at 2).
  ValueRef kernel(const std::string& s, ValueRef t) {
    const double a = z_.cubic_a;
    const ValueRef near =
        op(s + "-near", BinaryOp::Add,
           op(s + "-near-t2", BinaryOp::Mul,
              op(s + "-near-t", BinaryOp::Mul,
                 op(s + "-near-lin", BinaryOp::Sub, op(s + "-near-at", BinaryOp::Mul, t, scalar(s + "-a2", a + 2)),
                    scalar(s + "-a3", a + 3)),
                 t),
              t),
           scalar(s + "-near-one", 1));
    const ValueRef far =
        op(s + "-far", BinaryOp::Sub,
           op(s + "-far-t", BinaryOp::Mul,
              op(s + "-far-quad", BinaryOp::Add,
                 op(s + "-far-lin", BinaryOp::Mul,
                    op(s + "-far-at", BinaryOp::Sub, op(s + "-far-a", BinaryOp::Mul, t, scalar(s + "-a", a)),
                       scalar(s + "-5a", 5 * a)),
                    t),
                 scalar(s + "-8a", 8 * a)),
              t),
           scalar(s + "-4a", 4 * a));
    const auto below = [&](const std::string& w, CompareOp o, double v) {
      return c_.emit(name(s + w), CompareAttrs{o, Broadcast::NumpyRight}, {t, scalar(s + w + "-bound", v)});
    };
    const ValueRef outer = c_.emit(name(s + "-outer"), SelectAttrs{Broadcast::NumpyRight},
                                   {below("-within-2", CompareOp::Lt, 2), far, scalar(s + "-outside", 0)});
    return c_.emit(name(s + "-weight"), SelectAttrs{Broadcast::NumpyRight},
                   {below("-within-1", CompareOp::Le, 1), near, outer});
  }

  // Taps m = k − 2 .. k + 2 weighing W(|x_orig − m|): the taps k − 1 .. k + 2 of ONNX's formula,
  // and k − 2, whose weight is 0 (t ≥ 2) unless a runtime's floor is one below k; the weights read
  // x_orig's real, so the sum is the formula whichever floor a runtime takes. exclude_outside: the
  // taps outside [0, L_in − 1] weigh 0 and the others are divided by their sum (ONNX Runtime
  // normalises the weights first).
  std::pair<ValueRef, ValueRef> cubic() {
    const ValueRef at = positions();
    const auto [n, d] = fraction(at);
    const auto [indices, k] = tap_indices(n, d, -2, 5);
    const ValueRef xo = coordinate(column("position", at));
    std::vector<ValueRef> ws;
    std::optional<ValueRef> total;
    for (int64_t j = -2; j <= 2; ++j) {
      const std::string t = "tap" + std::to_string(j + 2);
      const ValueRef m = column(t + "-at", iop(t + "-index", IntegerOp::Add, k, integer(t + "-by", j)));
      const ValueRef distance =
          c_.emit(name(t + "-distance"), UnaryAttrs{UnaryOp::Abs}, {op(t + "-offset", BinaryOp::Sub, xo, m)});
      ValueRef w = kernel(t, distance);
      if (z_.exclude_outside) {
        const ValueRef inside =
            c_.emit(name(t + "-inside"), LogicalAttrs{LogicalOp::And, Broadcast::NumpyRight},
                    {c_.emit(name(t + "-from-0"), CompareAttrs{CompareOp::Ge, Broadcast::NumpyRight},
                             {m, scalar(t + "-zero", 0)}),
                     c_.emit(name(t + "-to-last"), CompareAttrs{CompareOp::Lt, Broadcast::NumpyRight},
                             {m, real(t + "-extent", in_extent())})});
        w = c_.emit(name(t + "-kept"), SelectAttrs{Broadcast::NumpyRight}, {inside, w, scalar(t + "-excluded", 0)});
        total = total ? op(t + "-total", BinaryOp::Add, *total, w) : w;
      }
      ws.push_back(w);
    }
    if (z_.exclude_outside)
      for (size_t j = 0; j < ws.size(); ++j)
        ws[j] = op("tap" + std::to_string(j) + "-normalised", BinaryOp::Div, ws[j], *total);
    return {indices, weights(ws)};
  }

  Ctx& c_;
  const Resizing& z_;
  const ResizedAxis& a_;
  size_t r_;
  std::string n_;
  std::vector<int64_t> in_term_;  // L_in as a size term
  int64_t p_ = 1, q_ = 1;         // s = p/q
  bool zero_ = false;             // x_orig is 0 everywhere
  Rounding rounding_;             // nearest's, on this axis
  std::optional<ValueRef> in_extent_, out_extent_;
};

void resize_with(Ctx& c, bool upsample) {
  const Resizing z = resizing(c, upsample);
  ValueRef y = c.data(0);
  if (z.axes.empty()) return c.set_output(0, c.emit("", UnaryAttrs{UnaryOp::Copy}, {y}));
  // Over fixed extents L_in is a number, so the indices and weights fold to constants at load (and
  // the writers can express the result: they do not write a range computed from extents).
  std::vector<AxisResizer> resizers;
  for (const ResizedAxis& a : z.axes)
    resizers.emplace_back(c, z, a, c.rank(0),
                          c.extents_fixed() ? std::vector<int64_t>{size_code::kConstant, a.in}
                                            : c.extents_of(0, a.axis, a.axis + 1).elements[0]);
  if (z.linear || z.cubic) {
    // One sum over every axis's taps, in any order (docs/onnx.md, "Resize"): ONNX Runtime sums the
    // corners' terms flat, PyTorch nests the axes.
    InterpolateAttrs attrs;
    std::vector<ValueRef> operands{y};
    for (AxisResizer& r : resizers) {
      const auto [indices, weights] = r.taps();
      attrs.axes.push_back(r.axis());
      operands.insert(operands.end(), {indices, weights});
    }
    y = c.emit("", attrs, operands);
  } else {
    for (AxisResizer& r : resizers) y = r.nearest(y);
  }
  // An output outside on any axis is extrapolation_value, as ONNX's per-element rule says.
  for (AxisResizer& r : resizers) y = r.extrapolated(y);
  c.set_output(0, y);
}

void resize(Ctx& c) { resize_with(c, false); }
void upsample(Ctx& c) { resize_with(c, true); }

}  // namespace

void add_resize_ops(OpTable& table) {
  add_ops(table, {
                     {"Resize", resize},
                     {"Upsample", upsample},
                 });
}

}  // namespace nnref::onnx_format
