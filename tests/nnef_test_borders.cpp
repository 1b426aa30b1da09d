// NNEF's border modes (§4.3) where conv, deconv and debox read them, and multilinear_upsample's
// 'aligned' method (§4.3.4), on inputs small enough to compute by hand.
#include "nnef_test_support.hpp"

#include <cmath>
#include <limits>

using namespace nnref;
using namespace nnref::test;

namespace {

const std::string kHeader = "version 1.0;\n";

// The model's warnings' codes.
std::vector<std::string> warning_codes(const LoadResult& r) {
  std::vector<std::string> codes;
  for (const Diagnostic& d : r.diagnostics) codes.push_back(d.code);
  return codes;
}

}  // namespace

TEST_CASE("nnef: conv reads the extended input in every border mode") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( c, p, m, e, automatic, sc, sp, sm, se ) {
    input = external(shape = [1, 1, 3]);
    w = constant(shape = [1, 1, 3], value = [1.0, 10.0, 100.0]);
    v = constant(shape = [1, 1, 2], value = [1.0, 10.0]);
    c = conv(input, w, padding = [(1, 1)], border = 'constant');
    p = conv(input, w, padding = [(1, 1)], border = 'replicate');
    m = conv(input, w, padding = [(1, 1)], border = 'reflect');
    e = conv(input, w, padding = [(1, 1)], border = 'reflect-even');
    automatic = conv(input, w, border = 'replicate');
    sc = conv(input, v, padding = [(2, 1)], stride = [2], border = 'constant');
    sp = conv(input, v, padding = [(2, 1)], stride = [2], border = 'replicate');
    sm = conv(input, v, padding = [(2, 1)], stride = [2], border = 'reflect');
    se = conv(input, v, padding = [(2, 1)], stride = [2], border = 'reflect-even');
})", f);
  // x = [1, 2, 3]; output[i] = Σ_j ĩ[i·s + j − p]·w[j].
  // w = [1, 10, 100], p = 1: ĩ[i − 1] + 10·ĩ[i] + 100·ĩ[i + 1], ĩ[-1] and ĩ[3]:
  // constant 0, 0: 210 321 32; replicate 1, 3: 211 321 332; reflect x[1], x[1] = 2, 2: 212 321 232;
  // reflect-even x[0], x[2] = 1, 3: 211 321 332. automatic: size 3, t = 2, p = q = 1: as replicate.
  // v = [1, 10], s = 2, p = 2, q = 1 (3 outputs): ĩ[2i − 2] + 10·ĩ[2i − 1], reading ĩ[-2], ĩ[-1], ĩ[3]:
  // constant 0 0 0: 0 21 3; replicate 1 1 3: 11 21 33; reflect x[2] x[1] x[1] = 3 2 2: 23 21 23;
  // reflect-even x[1] x[0] x[2] = 2 1 3: 12 21 33.
  const auto out = run_f64(r, {host({1, 1, 3}, {1, 2, 3})});
  CHECK(out[0] == std::vector<double>{210, 321, 32});
  CHECK(out[1] == std::vector<double>{211, 321, 332});
  CHECK(out[2] == std::vector<double>{212, 321, 232});
  CHECK(out[3] == std::vector<double>{211, 321, 332});
  CHECK(out[4] == std::vector<double>{211, 321, 332});
  CHECK(out[5] == std::vector<double>{0, 21, 3});
  CHECK(out[6] == std::vector<double>{11, 21, 33});
  CHECK(out[7] == std::vector<double>{23, 21, 23});
  CHECK(out[8] == std::vector<double>{12, 21, 33});
}

TEST_CASE("nnef: a 2-D grouped conv with a reflected border and a bias") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( output ) {
    input = external(shape = [1, 2, 2, 2]);
    w = constant(shape = [2, 1, 2, 2], value = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
    b = constant(shape = [1, 2], value = [0.5, -0.5]);
    output = conv(input, w, b, padding = [(1, 0), (0, 1)], border = 'reflect', groups = 0);
})", f);
  // Channel 0 = [[1, 2], [3, 4]], filter [[1, 0], [0, 0]]: output[i][k] = ĩ[i − 1][k]; ĩ[-1] is row 1
  // (reflect): rows [3, 4], [1, 2], + 0.5. Channel 1 = [[5, 6], [7, 8]], filter [[0, 0], [0, 1]]:
  // output[i][k] = ĩ[i][k + 1], ĩ[·][2] is column 0 (reflect): [6, 5], [8, 7], − 0.5.
  CHECK(run_f64(r, {host({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8})})[0] ==
        std::vector<double>{3.5, 4.5, 1.5, 2.5, 5.5, 4.5, 7.5, 6.5});
}

TEST_CASE("nnef: deconv reads the extended input in every border mode") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( c, p, m, e, sc, sp, sm ) {
    input = external(shape = [1, 1, 3]);
    w = constant(shape = [1, 1, 3], value = [1.0, 10.0, 100.0]);
    c = deconv(input, w, padding = [(0, 0)], border = 'constant');
    p = deconv(input, w, padding = [(0, 0)], border = 'replicate');
    m = deconv(input, w, padding = [(0, 0)], border = 'reflect');
    e = deconv(input, w, padding = [(0, 0)], border = 'reflect-even');
    sc = deconv(input, w, stride = [2], border = 'constant');
    sp = deconv(input, w, stride = [2], border = 'replicate');
    sm = deconv(input, w, stride = [2], border = 'reflect');
})", f);
  // x = [1, 2, 3], w = [1, 10, 100]; output[i] = Σ_j ĩ[(i + p − j)/s]·w[j] over (i + p − j) mod s = 0.
  // s = 1, p = q = 0, X = 5: ĩ[i] + 10·ĩ[i − 1] + 100·ĩ[i − 2], reading ĩ[-2], ĩ[-1], ĩ[3], ĩ[4]:
  // constant 0 0 0 0: 1 12 123 230 300; replicate 1 1 3 3: 111 112 123 233 333;
  // reflect x[2] x[1] x[1] x[0] = 3 2 2 1: 321 212 123 232 321;
  // reflect-even x[1] x[0] x[2] x[1] = 2 1 3 2: 211 112 123 233 332.
  // s = 2, automatic: X = 6, t = 1, p = 0 (q = 1): i even: ĩ[i/2] + 100·ĩ[i/2 − 1], i odd:
  // 10·ĩ[(i − 1)/2]; only i = 0 reads the border ĩ[-1]: 0 (constant), 1 (replicate), x[1] (reflect).
  const auto out = run_f64(r, {host({1, 1, 3}, {1, 2, 3})});
  CHECK(out[0] == std::vector<double>{1, 12, 123, 230, 300});
  CHECK(out[1] == std::vector<double>{111, 112, 123, 233, 333});
  CHECK(out[2] == std::vector<double>{321, 212, 123, 232, 321});
  CHECK(out[3] == std::vector<double>{211, 112, 123, 233, 332});
  CHECK(out[4] == std::vector<double>{1, 10, 102, 20, 203, 30});
  CHECK(out[5] == std::vector<double>{101, 10, 102, 20, 203, 30});
  CHECK(out[6] == std::vector<double>{201, 10, 102, 20, 203, 30});
}

TEST_CASE("nnef: debox reads the extended input in every border mode") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input, square ) -> ( c, i, p, m, e, mean, strided, sparse, plane ) {
    input = external(shape = [1, 1, 3]);
    square = external(shape = [1, 1, 2, 2]);
    c = debox(input, size = [1, 1, 3], padding = [(0, 0), (0, 0), (0, 0)], border = 'constant');
    i = debox(input, size = [1, 1, 3], padding = [(0, 0), (0, 0), (0, 0)], border = 'ignore');
    p = debox(input, size = [1, 1, 3], padding = [(0, 0), (0, 0), (0, 0)], border = 'replicate');
    m = debox(input, size = [1, 1, 3], padding = [(0, 0), (0, 0), (0, 0)], border = 'reflect');
    e = debox(input, size = [1, 1, 3], padding = [(0, 0), (0, 0), (0, 0)], border = 'reflect-even');
    mean = debox(input, size = [1, 1, 3], padding = [(0, 0), (0, 0), (0, 0)], border = 'ignore', normalize = true);
    strided = debox(input, size = [1, 1, 3], stride = [1, 1, 2], padding = [(0, 0), (0, 0), (1, 1)],
                    border = 'ignore', normalize = true);
    sparse = debox(input, size = [1, 1, 3], stride = [1, 1, 2], padding = [(0, 0), (0, 0), (0, 0)],
                   border = 'ignore', normalize = true);
    plane = debox(square, size = [1, 1, 2, 2], padding = [(0, 0), (0, 0), (0, 0), (0, 0)], border = 'ignore',
                  normalize = true);
})", f);
  // x = [1, 2, 3], f = 3, s = 1, p = 0, X = 5: ĩ[i] + ĩ[i − 1] + ĩ[i − 2], reading ĩ[-2], ĩ[-1], ĩ[3], ĩ[4]:
  // constant and ignore 0 0 0 0: 1 3 6 5 3; replicate 1 1 3 3: 3 4 6 8 9; reflect 3 2 2 1: 6 5 6 7 6;
  // reflect-even 2 1 3 2: 4 4 6 8 8.
  // mean (ignore, normalized): the divisor is 3 less the terms reading the border, 1 2 3 2 1: the
  // mean of the real terms 1 1.5 2 2.5 3.
  // strided: s = 2, p = 1 (the first test of nnef_test_resample: sums 1 3 2 5 3) reads no border:
  // each sum / 3. sparse: s = 2, p = 0, X = 7; terms j with (i − j) even, ĩ[(i − j)/2]: i = 0 reads
  // x[0] and the border ĩ[-1] (divisor 3 − 1 = 2), i = 6 x[2] and ĩ[3] (divisor 2), the others no
  // border (divisor 3): 1/2, x[0]/3, (x[1] + x[0])/3, x[1]/3, (x[2] + x[1])/3, x[2]/3, 3/2.
  // plane: [[1, 2], [3, 4]] with a 2×2 window, X = 3×3; every term exists, so the divisor is the
  // product of the real counts 1 2 1 along each axis: the mean of the real elements per window,
  // sums [[1, 3, 2], [4, 10, 6], [3, 7, 4]] over [[1, 2, 1], [2, 4, 2], [1, 2, 1]].
  const auto out = run_f64(r, {host({1, 1, 3}, {1, 2, 3}), host({1, 1, 2, 2}, {1, 2, 3, 4})});
  CHECK(out[0] == std::vector<double>{1, 3, 6, 5, 3});
  CHECK(out[1] == std::vector<double>{1, 3, 6, 5, 3});
  CHECK(out[2] == std::vector<double>{3, 4, 6, 8, 9});
  CHECK(out[3] == std::vector<double>{6, 5, 6, 7, 6});
  CHECK(out[4] == std::vector<double>{4, 4, 6, 8, 8});
  CHECK(out[5] == std::vector<double>{1, 1.5, 2, 2.5, 3});
  CHECK(out[6] == std::vector<double>{1.0 / 3, 1, 2.0 / 3, 5.0 / 3, 1});
  CHECK(out[7] == std::vector<double>{0.5, 1.0 / 3, 1, 2.0 / 3, 5.0 / 3, 1, 1.5});
  CHECK(out[8] == std::vector<double>{1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4});
  // The divisor's vectors hold the declared extents: the inputs get no size names.
  CHECK(warning_codes(r) == std::vector<std::string>{"nnef.extents.fixed"});
  CHECK(r.model->size_names.empty());
}

TEST_CASE("nnef: multilinear_upsample 'aligned' maps the end points onto each other") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input, square, pair ) -> ( line, plane, replicate, reflect ) {
    input = external(shape = [1, 1, 3]);
    square = external(shape = [1, 2, 2, 2]);
    pair = external(shape = [1, 1, 2]);
    line = multilinear_upsample(input, factor = [2], method = 'aligned');
    plane = multilinear_upsample(square, factor = [2, 2], method = 'aligned', border = 'constant');
    replicate = multilinear_upsample(pair, factor = [3], method = 'aligned', border = 'replicate');
    reflect = multilinear_upsample(pair, factor = [3], method = 'aligned', border = 'reflect');
})", f);
  // line: x = [1, 2, 3], f = 2, g = (6 − 1)/(3 − 1) = 5/2, v = i/g = 2i/5 = 0 0.4 0.8 1.2 1.6 2, and
  // (1 − u)·x[j] + u·x[j + 1] = 1 + v: 1 7/5 9/5 11/5 13/5 3.
  // plane: channel c holds 1 + 2r + k + 10c (linear in the position), g = 3 on both axes, so output
  // (i, k) is 1 + 2i/3 + k/3 + 10c (the last output reads ĩ[2] with weight 0).
  // pair: x = [0, 3], f = 3, g = 5: v = i/5, output 3i/5 in every border.
  const auto out = run_f64(r, {host({1, 1, 3}, {1, 2, 3}), host({1, 2, 2, 2}, {1, 2, 3, 4, 11, 12, 13, 14}),
                               host({1, 1, 2}, {0, 3})});
  CHECK(out[0] == std::vector<double>{1, 7.0 / 5, 9.0 / 5, 11.0 / 5, 13.0 / 5, 3});
  std::vector<double> plane;
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < 4; ++i)
      for (int k = 0; k < 4; ++k) plane.push_back((3.0 + 2 * i + k + 30 * c) / 3);
  CHECK(out[1] == plane);
  const std::vector<double> pair = {0, 3.0 / 5, 6.0 / 5, 9.0 / 5, 12.0 / 5, 3};
  CHECK(out[2] == pair);
  CHECK(out[3] == pair);
  CHECK(warning_codes(r) == std::vector<std::string>{"nnef.extents.fixed"});
  CHECK(r.model->size_names.empty());
}

TEST_CASE("nnef: the borders' bad arguments are located errors") {
  // A [1, 1, 3] input, filters w [1, 1, 3] and v [1, 1, 9] (lines 4, 5); the statement on line 6.
  const auto first_error = [](const std::string& call, const std::string& code) {
    Folder f;
    const LoadResult r = load_text("version 1.0;\ngraph G( input ) -> ( output ) {\ninput = external(shape = [1, 1, 3]);\n"
                                   "w = constant(shape = [1, 1, 3], value = [1.0]);\n"
                                   "v = constant(shape = [1, 1, 9], value = [1.0]);\noutput = " + call + ";\n}\n",
                                   f, WeightsPolicy::Skip);
    INFO(call);
    REQUIRE_FALSE(r.diagnostics.empty());
    CHECK(r.diagnostics[0].code == code);
    CHECK(r.diagnostics[0].loc.line == 6);
  };
  first_error("conv(input, w, border = 'ignore')", "nnef.argument.value");  // §4.3.1: not among conv's borders
  first_error("conv(input, w, padding = [(0, 0)], border = 'ignore')", "nnef.argument.value");
  first_error("conv(input, w, padding = [(-4, 1)], border = 'replicate')", "shape.pad.empty");
  // ĩ[-3] of an extent of 3 reflects more than once, which §4.3 leaves undefined.
  first_error("conv(input, w, padding = [(3, 0)], border = 'reflect')", "shape.pad.reflect-too-wide");
  first_error("deconv(input, w, border = 'ignore')", "nnef.argument.value");
  // A deconv of size 9 reads ĩ[-8] ... ĩ[10]: 8 positions of reflection on each side of an extent of 3.
  first_error("deconv(input, v, padding = [(0, 0)], border = 'reflect')", "shape.pad.reflect-too-wide");
  first_error("debox(input, size = [1, 1, 3], border = 'wrap')", "nnef.argument.value");
}

TEST_CASE("nnef: multilinear_upsample 'aligned' of an axis of extent 1 is refused") {
  // g = (x·f − 1)/(x − 1) divides by zero.
  Folder f;
  const LoadResult r = load_text(kHeader + "graph G( input ) -> ( output ) {\ninput = external(shape = [1, 1, 1]);\n"
                                           "output = multilinear_upsample(input, factor = [2], method = 'aligned');\n}\n",
                                 f, WeightsPolicy::Skip);
  REQUIRE_FALSE(r.diagnostics.empty());
  CHECK(r.diagnostics[0].code == "nnef.argument.value");
  CHECK(r.diagnostics[0].loc.line == 4);
}
