// The ONNX signal ops: the window functions HannWindow, HammingWindow and BlackmanWindow, the
// spectral ops DFT and STFT, and MelWeightMatrix.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"
#include "formats/onnx/tensor_proto.hpp"

namespace nnref::onnx_format {

namespace {

// w[n] = a0 − a1·cos(2πn/N) + a2·cos(4πn/N) for n = 0 .. size − 1, N = size (periodic, the default)
// or size − 1 (symmetric), ONNX's definitions. size is a scalar integer of the graph (a constant, or
// computed from extents or data: the length is a size). Each coefficient a_k = p_k/q_k is written as
// the quotient of two whole numbers and π as 4·atan(1), so that the exact value's enclosure holds
// the definition's real numbers (a literal π or 0.42 would be a double near them).
void cosine_window(Ctx& c, const std::vector<std::pair<int64_t, int64_t>>& a) {
  if (c.kind(0) != ElemKind::Integer) c.refuse("onnx.input-type", "size (input 0) must be an integer scalar");
  SizesPtr size = c.terms(0);
  if (!size) size = c.data_terms(0);
  if (!size || size->elements.size() != 1) c.refuse("onnx.input-type", "size (input 0) must hold one integer");
  const int64_t type = c.attr_int("output_datatype", 1);
  if (type != 1 && type != 11) c.refuse("onnx.type-unsupported", "output_datatype must be FLOAT or DOUBLE");
  const bool periodic = c.attr_int("periodic", 1) != 0;
  const auto real = [&](const std::string& n, double v) { return c.literal(n, scalar_tensor(v)); };
  const auto ratio = [&](const std::string& n, int64_t p, int64_t q) {
    return binary(c, n, BinaryOp::Div, real(n + "-numerator", static_cast<double>(p)),
                  real(n + "-denominator", static_cast<double>(q)));
  };
  const ValueRef n = c.emit("n", CastAttrs{ElemKind::Integer, ElemKind::Real},
                            {integer_range(c, "positions", {size_code::kConstant, 0}, size->elements[0])});
  ValueRef period =
      c.emit("size-real", CastAttrs{ElemKind::Integer, ElemKind::Real}, {c.operand(0, ElemKind::Integer)});
  if (!periodic) period = binary(c, "period", BinaryOp::Sub, period, real("one", 1));
  const ValueRef pi = binary(c, "pi", BinaryOp::Mul, real("four", 4),
                             c.emit("quarter-pi", UnaryAttrs{UnaryOp::Atan}, {real("unit", 1)}));
  const ValueRef step =
      binary(c, "step", BinaryOp::Div, binary(c, "two-pi", BinaryOp::Mul, real("two", 2), pi), period);
  const ValueRef angle = binary(c, "angle", BinaryOp::Mul, n, step);
  ValueRef w = ratio("a0", a[0].first, a[0].second);
  for (size_t k = 1; k < a.size(); ++k) {
    const std::string ks = std::to_string(k);
    const ValueRef kth =
        k == 1 ? angle : binary(c, "angle" + ks, BinaryOp::Mul, angle, real("k" + ks, static_cast<double>(k)));
    const ValueRef term = binary(c, "term" + ks, BinaryOp::Mul, ratio("a" + ks, a[k].first, a[k].second),
                                 c.emit("cos" + ks, UnaryAttrs{UnaryOp::Cos}, {kth}));
    w = binary(c, k + 1 == a.size() ? "" : "sum" + ks, k % 2 == 1 ? BinaryOp::Sub : BinaryOp::Add, w, term);
  }
  c.set_output(0, w);
}

void hann_window(Ctx& c) { cosine_window(c, {{1, 2}, {1, 2}}); }
void hamming_window(Ctx& c) { cosine_window(c, {{25, 46}, {21, 46}}); }
void blackman_window(Ctx& c) { cosine_window(c, {{42, 100}, {1, 2}, {8, 100}}); }

// ---- DFT, STFT ----

// The longest DFT nnref reads: its twiddle matrices hold up to N² elements each (128 MiB at 4096).
constexpr int64_t kMaxDftLength = 4096;

// A scalar integer input read at load time (a constant, or a graph input bound from --input).
int64_t load_time_integer(Ctx& c, size_t k, const std::string& what) {
  const HostTensor& t = c.require_constant(k, what);
  if (dtype_is_float(t.dtype) || t.shape.count() != 1) c.refuse("onnx.input-type", what + " must hold one integer");
  return c.exact(k)->ints[0];
}

// A scalar float input read at load time.
double load_time_real(Ctx& c, size_t k, const std::string& what) {
  const HostTensor& t = c.require_constant(k, what);
  if (!dtype_is_float(t.dtype) || t.shape.count() != 1) c.refuse("onnx.input-type", what + " must hold one float");
  return t.values[0];
}

// π as 4·atan(1), so that the enclosure of an angle holds the real one (windows above).
ValueRef pi(Ctx& c) {
  const auto real = [&](const std::string& n, double v) { return c.literal(n, scalar_tensor(v)); };
  return binary(c, "pi", BinaryOp::Mul, real("four", 4),
                c.emit("quarter-pi", UnaryAttrs{UnaryOp::Atan}, {real("unit", 1)}));
}

// e^{±2πi·n·k/N} for n < rows, k < bins as two real [rows, bins] matrices, cos and sin (− forward,
// + inverse). The turns m = ±n·k mod N are exact integers, and the angle 2π·m/N is computed by the
// run's own scalar from them and π, so that f64, mp50 and interval runs hold the exact reals
// cos(2πm/N), sin(2πm/N) (a matrix of float32 or double literals would not).
struct Twiddles {
  ValueRef cos, sin;
};
Twiddles twiddles(Ctx& c, int64_t n_dft, int64_t rows, int64_t bins, bool inverse) {
  c.charge(3 * rows * bins);
  std::vector<int64_t> turns(static_cast<size_t>(rows * bins));
  for (int64_t n = 0; n < rows; ++n)
    for (int64_t k = 0; k < bins; ++k) {
      const int64_t m = n * k % n_dft;
      turns[static_cast<size_t>(n * bins + k)] = inverse || m == 0 ? m : n_dft - m;
    }
  const ValueRef m = c.emit("turns", CastAttrs{ElemKind::Integer, ElemKind::Real},
                            {c.literal("turns-integer", integer_tensor(Shape::make({rows, bins}).value(), turns))});
  const ValueRef two_pi = binary(c, "two-pi", BinaryOp::Mul, c.literal("two", scalar_tensor(2)), pi(c));
  const ValueRef step =
      binary(c, "step", BinaryOp::Div, two_pi, c.literal("dft-length", scalar_tensor(static_cast<double>(n_dft))));
  const ValueRef angle = binary(c, "angle", BinaryOp::Mul, m, step);
  return {c.emit("cos", UnaryAttrs{UnaryOp::Cos}, {angle}), c.emit("sin", UnaryAttrs{UnaryOp::Sin}, {angle})};
}

// The axes of a rank-r tensor with `axis` moved last, and the inverse permutation.
std::vector<int64_t> axis_last(size_t r, int64_t axis) {
  std::vector<int64_t> perm;
  for (int64_t a = 0; a < static_cast<int64_t>(r); ++a)
    if (a != axis) perm.push_back(a);
  perm.push_back(axis);
  return perm;
}
std::vector<int64_t> inverse_permutation(const std::vector<int64_t>& perm) {
  std::vector<int64_t> inv(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inv[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
  return inv;
}

// A DFT of x (its shape `dims`, the last axis 1 for a real signal or 2 for real and imaginary
// parts) along `axis` with N = n_dft points: y[k] = Σ_n x[n]·e^{∓2πi·kn/N} (÷ N inverse), the
// signal cut to its first N samples or read as padded with zeros (the sum leaves those terms out),
// k < N, or k ≤ N/2 onesided. Each part moves `axis` last and is multiplied by the twiddle
// matrices (matmul): y_re = x_re·cos − x_im·sin, y_im = x_re·sin + x_im·cos, the complex product
// term by term; then y moves back and its parts are concatenated on a last axis of 2.
ValueRef dft(Ctx& c, ValueRef x, const std::vector<int64_t>& dims, int64_t axis, int64_t n_dft, bool onesided,
             bool inverse) {
  if (n_dft < 1 || n_dft > kMaxDftLength)
    c.refuse("onnx.shape-unsupported",
             "a DFT of " + std::to_string(n_dft) + " points: nnref reads 1 to " + std::to_string(kMaxDftLength));
  const size_t r = dims.size() - 1;  // the rank of each part
  const int64_t length = dims[static_cast<size_t>(axis)];
  const int64_t rows = std::min(length, n_dft), bins = onesided ? n_dft / 2 + 1 : n_dft;
  const bool complex = dims.back() == 2;
  const std::vector<int64_t> perm = axis_last(r, axis);
  const bool moved = axis != static_cast<int64_t>(r) - 1;
  // A part of x as a matrix [..., rows] of at least rank 2 (a 1-D signal gains a leading axis).
  const auto part = [&](int64_t p, const std::string& n) {
    ValueRef v = c.emit(n + "-slice", SliceAttrs{{-1}, {p}, {p + 1}, {}}, {x});
    v = c.emit(n, SqueezeAttrs{{-1}}, {v});
    if (moved) v = c.emit(n + "-moved", TransposeAttrs{perm}, {v});
    if (rows < length) v = c.emit(n + "-cut", SliceAttrs{{-1}, {0}, {rows}, {}}, {v});
    if (r == 1) v = c.emit(n + "-row", UnsqueezeAttrs{{0}}, {v});
    return v;
  };
  Twiddles w = twiddles(c, n_dft, rows, bins, inverse);
  if (r > 2) {
    std::vector<int64_t> leading(r - 2);
    std::iota(leading.begin(), leading.end(), int64_t{0});
    w = {c.emit("cos-batch", UnsqueezeAttrs{leading}, {w.cos}), c.emit("sin-batch", UnsqueezeAttrs{leading}, {w.sin})};
  }
  const auto product = [&](const std::string& n, ValueRef a, ValueRef b) { return c.emit(n, MatMulAttrs{}, {a, b}); };
  const ValueRef re = part(0, "re");
  ValueRef y_re = product("re-cos", re, w.cos), y_im = product("re-sin", re, w.sin);
  if (complex) {
    const ValueRef im = part(1, "im");
    y_re = binary(c, "y-re", BinaryOp::Sub, y_re, product("im-sin", im, w.sin));
    y_im = binary(c, "y-im", BinaryOp::Add, y_im, product("im-cos", im, w.cos));
  }
  // A part of y back in x's axes, with a last axis of 1.
  const auto placed = [&](ValueRef v, const std::string& n) {
    if (inverse)
      v = binary(c, n + "-scaled", BinaryOp::Div, v, c.literal(n + "-n", scalar_tensor(static_cast<double>(n_dft))));
    if (r == 1) v = c.emit(n + "-vector", SqueezeAttrs{{0}}, {v});
    if (moved) v = c.emit(n + "-back", TransposeAttrs{inverse_permutation(perm)}, {v});
    return c.emit(n + "-part", UnsqueezeAttrs{{-1}}, {v});
  };
  return c.emit("", ConcatAttrs{-1}, {placed(y_re, "y-re"), placed(y_im, "y-im")});
}

// The signal's shape for DFT and STFT: fixed extents, a last axis of 1 (real) or 2 (complex).
std::vector<int64_t> signal_shape(Ctx& c, size_t min_rank) {
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported", "the signal's extents must be fixed (the DFT's length is read at load)");
  const std::vector<int64_t> dims = c.shape(0);
  if (dims.size() < min_rank)
    c.refuse("onnx.input-shape", "the signal must have rank at least " + std::to_string(min_rank));
  if (dims.back() != 1 && dims.back() != 2)
    c.refuse("onnx.input-shape",
             "the signal's last extent must be 1 (real) or 2 (complex), not " + std::to_string(dims.back()));
  return dims;
}

// onesided (the bins k ≤ N/2 alone) of a real forward transform; of a complex signal ONNX allows
// it only where the spectrum is conjugate-symmetric, which nnref does not assume.
bool onesided_of(Ctx& c, const std::vector<int64_t>& dims, bool inverse, int64_t def) {
  const bool onesided = c.attr_int("onesided", def) != 0;
  if (onesided && dims.back() == 2)
    c.refuse("onnx.attribute-unsupported", "onesided 1 of a complex signal is not supported");
  if (onesided && inverse) c.refuse("onnx.attribute-unsupported", "onesided 1 with inverse 1 is not supported");
  return onesided;
}

// DFT (opset 17: axis an attribute, default 1; opset 20: an input, default −2), dft_length read at
// load time (default the axis' extent).
void dft_op(Ctx& c) {
  const std::vector<int64_t> dims = signal_shape(c, 2);
  const auto r = static_cast<int64_t>(dims.size());
  int64_t axis =
      c.opset() >= 20 ? (c.has_input(2) ? load_time_integer(c, 2, "axis") : -2) : c.attr_int("axis", 1);
  if (axis < 0) axis += r;
  if (axis < 0 || axis > r - 2) c.refuse("onnx.attribute-value", "axis must be in [-rank, -2] or [0, rank - 2]");
  const bool inverse = c.attr_int("inverse", 0) != 0;
  const bool onesided = onesided_of(c, dims, inverse, 0);
  const int64_t n_dft =
      c.has_input(1) ? load_time_integer(c, 1, "dft_length") : dims[static_cast<size_t>(axis)];
  c.set_output(0, dft(c, c.data(0), dims, axis, n_dft, onesided, inverse));
}

// STFT (opset 17): signal [B, L, 1 or 2], frames of W samples every frame_step (W the window's
// length or frame_length), F = ⌊(L − W)/frame_step⌋ + 1 of them, each times the window, then the
// DFT of W points over each frame: y[b, f, k] = Σ_t x[b, f·step + t]·w[t]·e^{−2πi·kt/W}, ONNX's
// definition. The frames are one gather of the indices f·step + t (exact integers).
void stft_op(Ctx& c) {
  const std::vector<int64_t> dims = signal_shape(c, 3);
  if (dims.size() != 3) c.refuse("onnx.input-shape", "the signal must be [batch, length, 1 or 2]");
  const int64_t step = load_time_integer(c, 1, "frame_step");
  const bool windowed = c.has_input(2);
  if (windowed && c.rank(2) != 1) c.refuse("onnx.input-shape", "the window must be 1-D");
  const int64_t window = windowed ? c.shape(2)[0] : 0;
  const int64_t frame = c.has_input(3) ? load_time_integer(c, 3, "frame_length") : window;
  if (!windowed && !c.has_input(3))
    c.refuse("onnx.input-missing", "STFT needs a window (input 2) or a frame_length (input 3)");
  if (windowed && frame != window)
    c.refuse("onnx.input-shape",
             "frame_length " + std::to_string(frame) + " is not the window's length " + std::to_string(window));
  const int64_t length = dims[1];
  if (step < 1) c.refuse("onnx.input-type", "frame_step must be at least 1");
  if (frame < 1 || frame > length)
    c.refuse("onnx.input-shape",
             "a frame of " + std::to_string(frame) + " samples in a signal of " + std::to_string(length));
  const bool onesided = onesided_of(c, dims, false, 1);
  const int64_t frames = (length - frame) / step + 1;
  c.charge(frames * frame);
  std::vector<int64_t> index(static_cast<size_t>(frames * frame));
  for (int64_t f = 0; f < frames; ++f)
    for (int64_t t = 0; t < frame; ++t) index[static_cast<size_t>(f * frame + t)] = f * step + t;
  ValueRef x =
      c.emit("frames", GatherAttrs{1},
             {c.data(0), c.literal("frame-index", integer_tensor(Shape::make({frames, frame}).value(), index))});
  if (windowed) x = binary(c, "windowed", BinaryOp::Mul, x, c.emit("window", UnsqueezeAttrs{{1}}, {c.data(2)}));
  c.set_output(0, dft(c, x, {dims[0], frames, frame, dims[2]}, 2, frame, onesided, false));
}

// ---- MelWeightMatrix ----

// The FFT bins of the num_mel_bins + 2 triangle edges: equally spaced on the mel scale
// mel(f) = 2595·log10(1 + f/700) from lower_edge_hertz in steps of (mel(upper) − mel(lower)) /
// (num_mel_bins + 2), each back in hertz and ⌊(dft_length + 1)·f / sample_rate⌋. The divisor
// num_mel_bins + 2 is ONNX 1.12's reference and ONNX Runtime's (the node test's expected output
// follows it; later references divide by num_mel_bins + 1). Computed in double from the float32
// edges, as ONNX Runtime does.
std::vector<int64_t> mel_edges(int64_t mel_bins, int64_t dft_length, int64_t sample_rate, double lower, double upper) {
  const auto mel = [](double hz) { return 2595 * std::log10(1 + hz / 700); };
  const double low = mel(lower), step = (mel(upper) - low) / static_cast<double>(mel_bins + 2);
  std::vector<int64_t> edges;
  for (int64_t i = 0; i < mel_bins + 2; ++i) {
    const double hz = 700 * (std::pow(10.0, (low + step * static_cast<double>(i)) / 2595) - 1);
    edges.push_back(
        static_cast<int64_t>(std::floor(static_cast<double>(dft_length + 1) * hz / static_cast<double>(sample_rate))));
  }
  return edges;
}

// MelWeightMatrix [dft_length/2 + 1, num_mel_bins]: column i the triangle over the edges (l, c, h) =
// edges[i .. i + 2], (j − l)/(c − l) rising for l ≤ j ≤ c (1 at c when l = c), (h − j)/(h − c) falling
// for c ≤ j < h, 0 elsewhere: the reference's loops. Each weight is a quotient of integers, given to
// the graph as its numerator and denominator so that every scalar holds the exact real (1/3 is no
// double).
void mel_weight_matrix(Ctx& c) {
  const int64_t mel_bins = load_time_integer(c, 0, "num_mel_bins");
  const int64_t dft_length = load_time_integer(c, 1, "dft_length");
  const int64_t sample_rate = load_time_integer(c, 2, "sample_rate");
  const double lower = load_time_real(c, 3, "lower_edge_hertz");
  const double upper = load_time_real(c, 4, "upper_edge_hertz");
  const int64_t type = c.attr_int("output_datatype", 1);
  if (type != 1 && type != 11) c.refuse("onnx.type-unsupported", "output_datatype must be FLOAT or DOUBLE");
  if (mel_bins < 1 || dft_length < 1 || sample_rate < 1)
    c.refuse("onnx.input-type", "num_mel_bins, dft_length and sample_rate must be at least 1");
  if (!(0 <= lower && lower <= upper))
    c.refuse("onnx.input-type", "the edges must satisfy 0 ≤ lower_edge_hertz ≤ upper_edge_hertz");
  const int64_t spectrum = dft_length / 2 + 1;
  const std::vector<int64_t> e = mel_edges(mel_bins, dft_length, sample_rate, lower, upper);
  if (e.front() < 0 || e.back() >= spectrum)
    c.refuse("onnx.input-type", "the mel triangles reach FFT bin " + std::to_string(e.back()) + ", beyond the " +
                                    std::to_string(spectrum) + " bins of dft_length " + std::to_string(dft_length));
  c.charge(2 * spectrum * mel_bins);
  std::vector<int64_t> num(static_cast<size_t>(spectrum * mel_bins), 0), den(num.size(), 1);
  const auto set = [&](int64_t j, int64_t i, int64_t p, int64_t q) {
    num[static_cast<size_t>(j * mel_bins + i)] = p, den[static_cast<size_t>(j * mel_bins + i)] = q;
  };
  for (int64_t i = 0; i < mel_bins; ++i) {
    const int64_t l = e[static_cast<size_t>(i)], m = e[static_cast<size_t>(i + 1)], h = e[static_cast<size_t>(i + 2)];
    if (m == l) set(m, i, 1, 1);
    for (int64_t j = l; m > l && j <= m; ++j) set(j, i, j - l, m - l);
    for (int64_t j = m; j < h; ++j) set(j, i, h - j, h - m);
  }
  const Shape s = Shape::make({spectrum, mel_bins}).value();
  const auto real = [&](const std::string& n, std::vector<int64_t> v) {
    return c.emit(n, CastAttrs{ElemKind::Integer, ElemKind::Real},
                  {c.literal(n + "-integer", integer_tensor(s, std::move(v)))});
  };
  c.set_output(0, binary(c, "", BinaryOp::Div, real("numerator", num), real("denominator", den)));
}

}  // namespace

void add_signal_ops(OpTable& table) {
  add_ops(table, {
                     {"BlackmanWindow", blackman_window},
                     {"DFT", dft_op},
                     {"HammingWindow", hamming_window},
                     {"HannWindow", hann_window},
                     {"MelWeightMatrix", mel_weight_matrix},
                     {"STFT", stft_op},
                 });
}

}  // namespace nnref::onnx_format
