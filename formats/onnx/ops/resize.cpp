// Resize (opsets 10 to 19) and Upsample (opsets 7 and 9): nearest and linear interpolation, as a
// composition of IR gathers, selects and real arithmetic (docs/onnx.md, "Resize and Upsample").
//
// Per resized axis, with L_in and L_out its extents and s its scale, an output position x reads
// the input coordinate x_orig(x) of the coordinate_transformation_mode (ONNX's formulas). Its
// value is a rational: nnref computes it with IR real ops from exact constants (x, s or
// L_out/L_in), so the exact oracle reads it exactly, and the Envelope widens each op as a float32
// runtime's own computation of x_orig rounds. The neighbours are gathered at indices fixed at
// load time (the extents must be fixed), chosen so that the formula holds whichever neighbour
// the exact value or a runtime's rounded x_orig picks:
//  * nearest: the index is a step function of x_orig; b is the step boundary nearest to x_orig
//    (integers for floor and ceil, half-integers for the round modes), lo and hi the indices just
//    below and above it, and y = select(x_orig ⋈ b, x[hi], x[lo]) with ⋈ the mode's tie rule
//    (≥ for floor and round_prefer_ceil, > for ceil and round_prefer_floor). Exact in the oracle;
//    where the Envelope's x_orig straddles b (a runtime may round to either side), the hull of both.
//  * linear: k = ⌊x_orig⌋ as computed in double at load time (within 1 of the exact floor), r =
//    x_orig − k with IR ops, and, with neighbours clamped to [0, L_in − 1] (ONNX's edge padding),
//    y = (1 − c)·x[k] + c·x[k+1] + min(r, 0)·(x[k] − x[k−1]) + max(r − 1, 0)·(x[k+2] − x[k+1]),
//    c = clamp(r, 0, 1): the linear interpolation exactly for any r in [−1, 2] (where the exact
//    floor is k − 1 or k + 1 the last terms take over), so a runtime whose floor differs by one
//    near an integer x_orig stays inside. The axes are interpolated one after the other, the last
//    first (as PyTorch and ONNX Runtime nest bilinear), which is the n-linear formula exactly.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"
#include "formats/onnx/tensor_proto.hpp"

namespace nnref::onnx_format {

namespace {

enum class Coordinate { HalfPixel, HalfPixelSymmetric, PytorchHalfPixel, AlignCorners, Asymmetric, TfHalfPixelForNn };
enum class Rounding { RoundPreferFloor, RoundPreferCeil, Floor, Ceil };

struct ResizedAxis {
  int64_t axis = 0, in = 1, out = 1;
  double scale = 1;         // the float32 scale given, or L_out / L_in when sizes are given
  bool from_sizes = false;  // the scale is L_out / L_in (computed by the IR as a division)
};

struct Resizing {
  bool linear = false;
  Coordinate coordinate = Coordinate::HalfPixel;
  Rounding rounding = Rounding::RoundPreferFloor;
  std::vector<ResizedAxis> axes;
};

Coordinate coordinate_of(Ctx& c, const std::string& m) {
  if (m == "half_pixel") return Coordinate::HalfPixel;
  if (m == "half_pixel_symmetric" && c.opset() >= 19) return Coordinate::HalfPixelSymmetric;
  if (m == "pytorch_half_pixel") return Coordinate::PytorchHalfPixel;
  if (m == "align_corners") return Coordinate::AlignCorners;
  if (m == "asymmetric") return Coordinate::Asymmetric;
  if (m == "tf_half_pixel_for_nn") return Coordinate::TfHalfPixelForNn;
  if (m == "tf_crop_and_resize")
    c.refuse("onnx.attribute-unsupported", "coordinate_transformation_mode tf_crop_and_resize (its roi and "
                                           "extrapolation_value) is not supported by nnref");
  c.refuse("onnx.attribute-value", "coordinate_transformation_mode '" + m + "' is not one of opset " +
                                       std::to_string(c.opset()) + "'s");
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
      c.refuse("onnx.input-shape", what + " holds " + std::to_string(n) + " numbers for " +
                                       std::to_string(axes.size()) + " axes");
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
      if (o < 1) c.refuse("onnx.attribute-value", "a scale makes an extent of 0");
      out.push_back({axes[i], in, o, s, false});
    }
    return out;
  }
  if (!sizes_input || !c.has_input(*sizes_input))
    c.refuse("onnx.input-missing", "Resize takes scales or sizes, and neither is given");
  std::vector<int64_t> sizes;
  if (SizesPtr t = c.terms(*sizes_input)) {  // a constant, or computed from the (fixed) extents
    for (const std::vector<int64_t>& e : t->elements) {
      if (e.size() != 2 || e[0] != size_code::kConstant)
        c.refuse("onnx.shape-unsupported", "sizes must be fixed numbers (the model's extents are fixed)");
      sizes.push_back(e[1]);
    }
  } else {
    sizes = c.int_list(*sizes_input, "sizes");
  }
  counted(sizes.size(), "sizes");
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t in = shape[static_cast<size_t>(axes[i])];
    if (sizes[i] < 1) c.refuse("onnx.attribute-value", "sizes must be at least 1");
    out.push_back({axes[i], in, sizes[i], static_cast<double>(sizes[i]) / static_cast<double>(in), true});
  }
  return out;
}

// Reads the node's attributes and inputs; its axes whose every output reads its own input
// position (scale 1, any mode but tf_half_pixel_for_nn) are left out.
Resizing resizing(Ctx& c, bool upsample) {
  Resizing z;
  const std::string mode = c.attr_string("mode", "nearest");
  if (mode == "linear" || mode == "bilinear") z.linear = true;
  else if (mode == "cubic") c.refuse("onnx.attribute-unsupported", "mode cubic is not supported by nnref");
  else if (mode != "nearest") c.refuse("onnx.attribute-value", "mode '" + mode + "' is not one of ONNX's");
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
    z.coordinate = Coordinate::Asymmetric, z.rounding = Rounding::Floor;
    if (upsample && c.opset() < 9) {
      const onnx::AttributeProto* a = c.attr("scales");
      if (!a || a->floats_size() != r) c.refuse("onnx.attribute-value", "scales must hold one number per axis");
      for (int64_t i = 0; i < r; ++i) {
        const double s = a->floats(static_cast<int>(i));
        const int64_t in = shape[static_cast<size_t>(i)];
        const auto o = static_cast<int64_t>(std::floor(static_cast<double>(in) * s));
        if (!(s > 0) || o < 1) c.refuse("onnx.attribute-value", "a scale must be positive and keep an extent");
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
    c.attr_float("cubic_coeff_a", -0.75);         // cubic only
    c.attr_int("exclude_outside", 0);             // cubic only
    c.attr_float("extrapolation_value", 0.0);     // tf_crop_and_resize only
    all = resized_axes(c, shape, axes, 2, 3);
  }
  for (const ResizedAxis& a : all)
    if (a.out != a.in || a.scale != 1 || z.coordinate == Coordinate::TfHalfPixelForNn) z.axes.push_back(a);
  return z;
}

// Emits one axis's resizing of x (of rank r).
class AxisResizer {
 public:
  AxisResizer(Ctx& c, const Resizing& z, const ResizedAxis& a, size_t r)
      : c_(c), z_(z), a_(a), r_(r), n_("axis" + std::to_string(a.axis)) {}

  ValueRef operator()(ValueRef x) { return z_.linear ? linear(x) : nearest(x); }

 private:
  // A real constant laid along the axis, broadcasting against the resized x.
  ValueRef along(const std::string& s, const std::vector<double>& v) {
    std::vector<int64_t> dims(r_ - static_cast<size_t>(a_.axis), 1);
    dims[0] = static_cast<int64_t>(v.size());
    return c_.literal(n_ + "-" + s, HostTensor{DType::F64, Shape::make(dims).value(), v});
  }
  ValueRef scalar(const std::string& s, double v) { return c_.literal(n_ + "-" + s, scalar_tensor(v)); }
  ValueRef op(const std::string& s, BinaryOp o, ValueRef p, ValueRef q) {
    return binary(c_, s.empty() ? n_ : n_ + "-" + s, o, p, q);
  }
  // x gathered along the axis at the given indices, each clamped to [0, L_in − 1].
  ValueRef gathered(const std::string& s, ValueRef x, std::vector<int64_t> idx) {
    for (int64_t& i : idx) i = std::clamp<int64_t>(i, 0, a_.in - 1);
    const auto n = static_cast<int64_t>(idx.size());
    const ValueRef at = c_.literal(n_ + "-" + s + "-index", integer_tensor(Shape::make({n}).value(), std::move(idx)));
    return c_.emit(s.empty() ? n_ : n_ + "-" + s, GatherAttrs{a_.axis}, {x, at});
  }

  // ONNX's length_resized: L_out from sizes, L_in·s from scales (not floored: the ONNX reference's
  // reading, which its align_corners test's expected values follow).
  double resized_length() const {
    return a_.from_sizes ? static_cast<double>(a_.out) : static_cast<double>(a_.in) * a_.scale;
  }
  ValueRef resized_length_minus_one() {
    if (a_.from_sizes) return scalar("out-last", static_cast<double>(a_.out - 1));
    return op("out-last", BinaryOp::Sub, op("out-length", BinaryOp::Mul, scalar("in", static_cast<double>(a_.in)),
                                               scalar("scale", a_.scale)),
              scalar("one-less", 1));
  }

  // Whether every runtime computes x_orig exactly in float32 (it divides or multiplies by a power
  // of two, at positions below 2^20, adding halves): its nearest neighbour is then the exact one,
  // ties included, and need not be hulled with the other.
  bool exact_in_float32() const {
    const auto power_of_two = [](double v) {
      int e = 0;
      return v > 0 && std::frexp(v, &e) == 0.5;
    };
    if (a_.out >= (int64_t{1} << 20) || a_.in >= (int64_t{1} << 20)) return false;
    switch (z_.coordinate) {
      case Coordinate::HalfPixel:
      case Coordinate::Asymmetric:
      case Coordinate::TfHalfPixelForNn: return power_of_two(a_.scale);
      case Coordinate::PytorchHalfPixel: return resized_length() <= 1 || power_of_two(a_.scale);
      case Coordinate::AlignCorners: return resized_length() <= 1 || power_of_two(resized_length() - 1);
      case Coordinate::HalfPixelSymmetric: return false;
    }
    return false;
  }

  // x_orig at every output position, in double: where the load-time choices are made.
  double approx(int64_t x) const {
    const double s = a_.scale, xd = static_cast<double>(x);
    switch (z_.coordinate) {
      case Coordinate::HalfPixel: return (xd + 0.5) / s - 0.5;
      case Coordinate::HalfPixelSymmetric: {
        const double adjust = static_cast<double>(a_.out) / (s * static_cast<double>(a_.in));
        return static_cast<double>(a_.in) / 2 * (1 - adjust) + (xd + 0.5) / s - 0.5;
      }
      case Coordinate::PytorchHalfPixel: return resized_length() > 1 ? (xd + 0.5) / s - 0.5 : 0.0;
      case Coordinate::AlignCorners:
        return resized_length() > 1 ? xd * static_cast<double>(a_.in - 1) / (resized_length() - 1) : 0.0;
      case Coordinate::Asymmetric: return xd / s;
      case Coordinate::TfHalfPixelForNn: return (xd + 0.5) / s;
    }
    return 0;
  }

  // x_orig at every output position with IR real ops, in the order ONNX Runtime computes it.
  ValueRef coordinate() {
    std::vector<double> positions(static_cast<size_t>(a_.out));
    for (size_t i = 0; i < positions.size(); ++i) positions[i] = static_cast<double>(i);
    const ValueRef x = along("position", positions);
    const ValueRef s = a_.from_sizes ? op("scale", BinaryOp::Div, scalar("out", static_cast<double>(a_.out)),
                                          scalar("in", static_cast<double>(a_.in)))
                                     : scalar("scale", a_.scale);
    const auto half_pixel = [&] {
      return op("shifted", BinaryOp::Sub, op("scaled", BinaryOp::Div, op("centre", BinaryOp::Add, x, scalar("half", 0.5)), s),
                scalar("half-back", 0.5));
    };
    switch (z_.coordinate) {
      case Coordinate::HalfPixel: return half_pixel();
      case Coordinate::HalfPixelSymmetric: {
        // L_in/2 · (1 − L_out / (s·L_in)) + half_pixel(x)
        const ValueRef in = scalar("in-extent", static_cast<double>(a_.in));
        const ValueRef adjust =
            op("adjust", BinaryOp::Div, scalar("out-extent", static_cast<double>(a_.out)), op("span", BinaryOp::Mul, s, in));
        const ValueRef offset = op("offset", BinaryOp::Mul, scalar("centre-in", static_cast<double>(a_.in) / 2),
                                   op("one-minus-adjust", BinaryOp::Sub, scalar("one-adjust", 1), adjust));
        return op("symmetric", BinaryOp::Add, offset, half_pixel());
      }
      case Coordinate::PytorchHalfPixel: return resized_length() > 1 ? half_pixel() : along("zero", {0.0});
      case Coordinate::AlignCorners:
        if (resized_length() <= 1) return along("zero", {0.0});
        return op("aligned", BinaryOp::Div,
                  op("stretched", BinaryOp::Mul, x, scalar("in-last", static_cast<double>(a_.in - 1))),
                  resized_length_minus_one());
      case Coordinate::Asymmetric: return op("scaled", BinaryOp::Div, x, s);
      case Coordinate::TfHalfPixelForNn:
        return op("scaled", BinaryOp::Div, op("centre", BinaryOp::Add, x, scalar("half", 0.5)), s);
    }
    return x;
  }

  ValueRef nearest(ValueRef x) {
    const bool at_integers = z_.rounding == Rounding::Floor || z_.rounding == Rounding::Ceil;
    const bool tie_up = z_.rounding == Rounding::Floor || z_.rounding == Rounding::RoundPreferCeil;
    if (exact_in_float32()) {
      // x_orig is exact in double too: the mode's index directly.
      std::vector<int64_t> index;
      for (int64_t i = 0; i < a_.out; ++i) {
        const double xo = approx(i);
        const double k = z_.rounding == Rounding::Floor             ? std::floor(xo)
                         : z_.rounding == Rounding::Ceil            ? std::ceil(xo)
                         : z_.rounding == Rounding::RoundPreferCeil ? std::floor(xo + 0.5)
                                                                    : std::ceil(xo - 0.5);
        index.push_back(static_cast<int64_t>(k));
      }
      return gathered("", x, std::move(index));
    }
    std::vector<double> boundary;
    std::vector<int64_t> lo, hi;
    for (int64_t i = 0; i < a_.out; ++i) {
      const double xo = approx(i);
      // b: the boundary nearest to x_orig; lo and hi the indices on its two sides.
      const double b = at_integers ? std::round(xo) : std::floor(xo) + 0.5;
      const auto below = static_cast<int64_t>(at_integers ? (z_.rounding == Rounding::Floor ? b - 1 : b) : b - 0.5);
      boundary.push_back(b), lo.push_back(below), hi.push_back(below + 1);
    }
    const ValueRef above = c_.emit(n_ + "-above", CompareAttrs{tie_up ? CompareOp::Ge : CompareOp::Gt, Broadcast::NumpyRight},
                                   {coordinate(), along("boundary", boundary)});
    return c_.emit(n_, SelectAttrs{Broadcast::NumpyRight}, {above, gathered("hi", x, hi), gathered("lo", x, lo)});
  }

  ValueRef linear(ValueRef x) {
    std::vector<double> floor;
    std::vector<int64_t> k;
    for (int64_t i = 0; i < a_.out; ++i) {
      floor.push_back(std::floor(approx(i)));
      k.push_back(static_cast<int64_t>(floor.back()));
    }
    const auto shifted = [&](int64_t d) {
      std::vector<int64_t> v = k;
      for (int64_t& e : v) e += d;
      return v;
    };
    const ValueRef before = gathered("before", x, shifted(-1)), left = gathered("left", x, k),
                   right = gathered("right", x, shifted(1)), after = gathered("after", x, shifted(2));
    const ValueRef ratio = op("ratio", BinaryOp::Sub, coordinate(), along("floor", floor));
    const ValueRef weight = op("weight", BinaryOp::Min, op("ratio-above-0", BinaryOp::Max, ratio, scalar("zero", 0)),
                               scalar("one", 1));
    const ValueRef inside = op("inside", BinaryOp::Add, op("left-term", BinaryOp::Mul, op("left-weight", BinaryOp::Sub, scalar("whole", 1), weight), left),
                               op("right-term", BinaryOp::Mul, weight, right));
    const ValueRef under = op("under", BinaryOp::Mul, op("ratio-below-0", BinaryOp::Min, ratio, scalar("zero-below", 0)),
                              op("left-step", BinaryOp::Sub, left, before));
    const ValueRef over = op("over", BinaryOp::Mul, op("ratio-above-1", BinaryOp::Max, op("ratio-minus-1", BinaryOp::Sub, ratio, scalar("one-more", 1)), scalar("zero-above", 0)),
                             op("right-step", BinaryOp::Sub, after, right));
    return op("", BinaryOp::Add, op("with-under", BinaryOp::Add, inside, under), over);
  }

  Ctx& c_;
  const Resizing& z_;
  const ResizedAxis& a_;
  size_t r_;
  std::string n_;
};

void resize_with(Ctx& c, bool upsample) {
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported",
             std::string(upsample ? "Upsample" : "Resize") +
                 " needs fixed extents (its neighbours' indices are computed at load time), and the model's "
                 "inputs have symbolic ones");
  const Resizing z = resizing(c, upsample);
  ValueRef y = c.data(0);
  if (z.axes.empty()) return c.set_output(0, c.emit("", UnaryAttrs{UnaryOp::Copy}, {y}));
  // The last axis first: the nesting of PyTorch's and ONNX Runtime's bilinear kernels.
  for (auto a = z.axes.rbegin(); a != z.axes.rend(); ++a) y = AxisResizer(c, z, *a, c.rank(0))(y);
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
