// DFT, STFT and MelWeightMatrix (formats/onnx/ops/signal.cpp). Expected values from NumPy float64:
// np.fft.fft, np.fft.ifft, np.fft.rfft (their calls in the comments), and ONNX Runtime's
// MelWeightMatrix formula written out in NumPy; and the refusals, each by its code.
#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

void near(const Tensor<double>& got, const std::vector<int64_t>& dims, const std::vector<double>& want) {
  REQUIRE(got.shape() == Shape::make(dims).value());
  REQUIRE(got.data().size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) CHECK(got.data()[i] == Approx(want[i]).margin(1e-12));
}

// A DFT node over the float input x (extents `dims`), its attributes set by `attrs`, dft_length an
// int64 initializer when n > 0.
OnnxModel dft_model(const std::vector<std::string>& dims, int64_t n, int64_t axis, int64_t inverse, int64_t onesided) {
  OnnxModel m(17);
  m.input("x", dims);
  if (n > 0) ints_of(m, "n", {}, {n});
  auto& node = m.node("DFT", {"x", n > 0 ? "n" : ""}, {"y"});
  set_int(node, "axis", axis);
  set_int(node, "inverse", inverse);
  set_int(node, "onesided", onesided);
  m.output("y");
  return m;
}

Tensor<double> run_one(const OnnxModel& m, const std::filesystem::path& p, const std::vector<HostTensor>& inputs) {
  return run_f64(load_onnx(m, p), inputs)[0];
}

}  // namespace

TEST_CASE("onnx DFT: forward, inverse, onesided, dft_length, axis, against np.fft") {
  TempDir tmp("onnx_dft");
  // np.fft.fft([1, 2, 0, -1, 3]): a real [5, 1] signal along axis 0 (a 1-D signal per part).
  near(run_one(dft_model({"5", "1"}, 0, 0, 0, 0), tmp / "fft.onnx", {host({5, 1}, {1, 2, 0, -1, 3})}), {5, 2},
       {5.0, 0.0, 3.3541019662496847, 0.3632712640026804, -3.3541019662496847, 1.5388417685876266, -3.3541019662496847,
        -1.5388417685876266, 3.3541019662496847, -0.3632712640026804});
  // np.fft.ifft([1+2j, -1+0.5j, 3-1j, 1j]): complex [1, 4, 2], axis 1, inverse.
  near(run_one(dft_model({"1", "4", "2"}, 0, 1, 1, 0), tmp / "ifft.onnx",
               {host({1, 4, 2}, {1, 2, -1, 0.5, 3, -1, 0, 1})}),
       {1, 4, 2}, {0.75, 0.625, -0.375, 0.5, 1.25, -0.125, -0.625, 1.0});
  // np.fft.rfft([1, 2, 3], 5): dft_length 5 reads the signal padded with zeros, onesided 3 bins.
  near(run_one(dft_model({"1", "3", "1"}, 5, 1, 0, 1), tmp / "pad.onnx", {host({1, 3, 1}, {1, 2, 3})}), {1, 3, 2},
       {6.0, 0.0, -0.8090169943749475, -3.6654687894677265, 0.30901699437494745, 1.6775990443005142});
  // np.fft.rfft([1, 2, 3], 2): dft_length 2 cuts the signal to [1, 2].
  near(run_one(dft_model({"1", "3", "1"}, 2, 1, 0, 1), tmp / "cut.onnx", {host({1, 3, 1}, {1, 2, 3})}), {1, 2, 2},
       {3, 0, -1, 0});
  // np.fft.fft([[1, 2], [3, -1], [0.5, 4]], axis=0): the DFT along axis 0 of [3, 2, 1], axis 1 kept.
  near(run_one(dft_model({"3", "2", "1"}, 0, 0, 0, 0), tmp / "axis.onnx", {host({3, 2, 1}, {1, 2, 3, -1, 0.5, 4})}),
       {3, 2, 2},
       {4.5, 0.0, 5.0, 0.0, -0.75, -2.1650635094610964, 0.5, 4.330127018922193, -0.75, 2.1650635094610964, 0.5,
        -4.330127018922193});
  // The same with axis −3 (counting from the end).
  near(
      run_one(dft_model({"3", "2", "1"}, 0, -3, 0, 0), tmp / "negative.onnx", {host({3, 2, 1}, {1, 2, 3, -1, 0.5, 4})}),
      {3, 2, 2},
      {4.5, 0.0, 5.0, 0.0, -0.75, -2.1650635094610964, 0.5, 4.330127018922193, -0.75, 2.1650635094610964, 0.5,
       -4.330127018922193});
  // Opset 20: the axis an input (0 here), the same transform.
  OnnxModel m(20);
  m.input("x", {"3", "2", "1"});
  ints_of(m, "axis", {}, {0});
  m.node("DFT", {"x", "", "axis"}, {"y"});
  m.output("y");
  near(run_one(m, tmp / "opset20.onnx", {host({3, 2, 1}, {1, 2, 3, -1, 0.5, 4})}), {3, 2, 2},
       {4.5, 0.0, 5.0, 0.0, -0.75, -2.1650635094610964, 0.5, 4.330127018922193, -0.75, 2.1650635094610964, 0.5,
        -4.330127018922193});
}

TEST_CASE("onnx STFT: frames times the window, onesided DFT, against np.fft.rfft") {
  TempDir tmp("onnx_stft");
  OnnxModel m(17);
  m.input("x", {"1", "6", "1"});
  ints_of(m, "step", {}, {2});
  m.init("w", {3}, {1, 0.5f, 0.25f});
  m.node("STFT", {"x", "step", "w"}, {"y"});
  m.output("y");
  // s = [1..6], w = [1, 0.5, 0.25]: np.fft.rfft([s[0:3]·w, s[2:5]·w]), frames ⌊(6 − 3)/2⌋ + 1 = 2.
  near(run_one(m, tmp / "stft.onnx", {host({1, 6, 1}, {1, 2, 3, 4, 5, 6})}), {1, 2, 2, 2},
       {2.75, 0.0, 0.125, -0.21650635094610965, 6.25, 0.0, 1.375, -0.649519052838329});
  // frame_length 3 without a window: the frames themselves, np.fft.rfft([[1, 2, 3], [3, 4, 5]]).
  OnnxModel plain(17);
  plain.input("x", {"1", "6", "1"});
  ints_of(plain, "step", {}, {2});
  ints_of(plain, "len", {}, {3});
  plain.node("STFT", {"x", "step", "", "len"}, {"y"});
  plain.output("y");
  near(run_one(plain, tmp / "plain.onnx", {host({1, 6, 1}, {1, 2, 3, 4, 5, 6})}), {1, 2, 2, 2},
       {6.0, 0.0, -1.5, 0.8660254037844386, 12.0, 0.0, -1.5, 0.8660254037844386});
}

TEST_CASE("onnx MelWeightMatrix: ONNX Runtime's triangles, exact quotients") {
  TempDir tmp("onnx_mel");
  OnnxModel m(17);
  ints_of(m, "bins", {}, {3});
  ints_of(m, "n", {}, {32});
  ints_of(m, "rate", {}, {8000});
  m.init("lo", {}, {0});
  m.init("hi", {}, {4000});
  m.node("MelWeightMatrix", {"bins", "n", "rate", "lo", "hi"}, {"y"});
  m.output("y");
  // Edges ⌊33·f_i/8000⌋ of f_i = 700·(10^(i·mel(4000)/5/2595) − 1), i = 0..4: [0, 1, 3, 6, 10]; rows 0..9 of
  // the 17 × 3 matrix, the rest 0.
  std::vector<double> want = {0, 0,       0,       1, 0, 0, 0.5, 0.5, 0,    0, 1, 0,   0, 2.0 / 3, 1.0 / 3,
                              0, 1.0 / 3, 2.0 / 3, 0, 0, 1, 0,   0,   0.75, 0, 0, 0.5, 0, 0,       0.25};
  want.resize(17 * 3, 0.0);
  near(run_one(m, tmp / "mel.onnx", {}), {17, 3}, want);
}

TEST_CASE("onnx DFT, STFT, MelWeightMatrix: refusals by name") {
  TempDir tmp("onnx_spectral_refusals");
  const auto code = [&](const OnnxModel& m, const std::string& want) {
    CHECK(find_code(load_errors(m, tmp / "m.onnx"), want) != nullptr);
  };
  code(dft_model({"1", "4", "2"}, 0, 1, 0, 1), "onnx.attribute-unsupported");  // onesided of a complex signal
  code(dft_model({"1", "4", "1"}, 0, 1, 1, 1), "onnx.attribute-unsupported");  // onesided with inverse
  code(dft_model({"1", "4", "1"}, 5000, 1, 0, 0), "onnx.shape-unsupported");   // beyond 4096 points
  code(dft_model({"1", "4", "1"}, 0, 2, 0, 0), "onnx.attribute-value");        // axis on the complex axis
  code(dft_model({"1", "4", "3"}, 0, 1, 0, 0), "onnx.input-shape");            // a last extent of 3
  code(dft_model({"B", "4", "1"}, 0, 1, 0, 0), "onnx.shape-unsupported");      // a symbolic extent
  {
    OnnxModel m(17);  // dft_length a graph input: read at load, so `check` cannot
    m.input("x", {"1", "4", "1"});
    m.input("n", {}, onnx::TensorProto::INT64);
    m.node("DFT", {"x", "n"}, {"y"});
    m.output("y");
    code(m, "onnx.input-not-constant");
  }
  const auto stft = [](bool window, int64_t length) {
    OnnxModel m(17);
    m.input("x", {"1", "6", "1"});
    ints_of(m, "step", {}, {2});
    if (window) m.init("w", {3}, {1, 1, 1});
    if (length > 0) ints_of(m, "len", {}, {length});
    m.node("STFT", {"x", "step", window ? "w" : "", length > 0 ? "len" : ""}, {"y"});
    m.output("y");
    return m;
  };
  code(stft(false, 0), "onnx.input-missing");  // neither a window nor frame_length
  code(stft(true, 4), "onnx.input-shape");     // frame_length not the window's length
  code(stft(false, 7), "onnx.input-shape");    // a frame longer than the signal
  const auto mel = [](int64_t type, float hi) {
    OnnxModel m(17);
    ints_of(m, "bins", {}, {3});
    ints_of(m, "n", {}, {32});
    ints_of(m, "rate", {}, {8000});
    m.init("lo", {}, {0});
    m.init("hi", {}, {hi});
    set_int(m.node("MelWeightMatrix", {"bins", "n", "rate", "lo", "hi"}, {"y"}), "output_datatype", type);
    m.output("y");
    return m;
  };
  code(mel(7, 4000), "onnx.type-unsupported");  // int64 output
  code(mel(1, 8000), "onnx.input-type");        // the edges reach bin 33 of 17
}
