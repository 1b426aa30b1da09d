// NNEF's reverse window and up-sampling operations (§4.3.2, §4.3.4): debox, nearest_upsample and
// multilinear_upsample in each method and border, on inputs small enough to compute by hand.
#include "nnef_test_support.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

const std::string kHeader = "version 1.0;\n";

}  // namespace

TEST_CASE("nnef: debox sums the input positions that reach each output position") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input, pair ) -> ( repeat, flipped, mean, strided, channels, shaped ) {
    input = external(shape = [1, 1, 3]);
    pair = external(shape = [1, 2, 1]);
    repeat = debox(input, size = [1, 1, 2], stride = [1, 1, 2], padding = [(0, 0), (0, 0), (0, 0)]);
    flipped = debox(input, size = [1, 1, 3], padding = [(0, 0), (0, 0), (1, 1)]);
    mean = debox(input, size = [1, 1, 3], padding = [(0, 0), (0, 0), (1, 1)], normalize = true);
    strided = debox(input, size = [1, 1, 3], stride = [1, 1, 2], padding = [(0, 0), (0, 0), (1, 1)]);
    channels = debox(pair, size = [1, 2, 1], padding = [(0, 0), (0, 0), (0, 0)]);
    shaped = debox(input, size = [1, 1, 3], stride = [1, 1, 2], padding = [(0, 0), (0, 0), (1, 1)],
                   output_shape = [1, 1, 6]);
})", f);
  // x = [1, 2, 3]. output[i] = Σ_{j<f, (i + p − j·d) mod s = 0} x[(i + p − j·d)/s]:
  // repeat: f = s = 2, p = 0, X = (3 − 1)·2 + 2 = 6: x[⌊i/2⌋] = 1 1 2 2 3 3.
  // flipped: f = 3, s = 1, p = 1, X = 3: x[i + 1] + x[i] + x[i − 1] = 3 6 5; mean: / 3.
  // strided: f = 3, s = 2, p = 1, X = 2·2 + 3 − 2 = 5: i = 0: x[0]; 1: x[1] + x[0]; 2: x[1];
  // 3: x[2] + x[1]; 4: x[2] = 1 3 2 5 3. shaped: X = 6, which down-scales to ⌊(1 + 6 + 1 − 3)/2⌋ + 1
  // = 3: one more position, i = 5: x[3] (outside: 0) + x[2] = 3.
  // channels: y = [1, 2] over channels, f = 2, X = 3 channels: y[c] + y[c − 1] = 1 3 2.
  const auto out = run_f64(r, {host({1, 1, 3}, {1, 2, 3}), host({1, 2, 1}, {1, 2})});
  CHECK(out[0] == std::vector<double>{1, 1, 2, 2, 3, 3});
  CHECK(out[1] == std::vector<double>{3, 6, 5});
  CHECK(out[2] == std::vector<double>{1, 2, 5.0 / 3});
  CHECK(out[3] == std::vector<double>{1, 3, 2, 5, 3});
  CHECK(out[4] == std::vector<double>{1, 3, 2});
  CHECK(out[5] == std::vector<double>{1, 3, 2, 5, 3, 3});
}

TEST_CASE("nnef: nearest_upsample repeats each element factor times per spatial axis") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( output ) {
    input = external(shape = [1, 1, 2, 2]);
    output = nearest_upsample(input, factor = [2, 3]);
})", f);
  CHECK(run_f64(r, {host({1, 1, 2, 2}, {1, 2, 3, 4})})[0] ==
        std::vector<double>{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4});
}

TEST_CASE("nnef: multilinear_upsample in each method and border") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input, two ) -> ( sr, sc, sm, se, ar, ac, three ) {
    input = external(shape = [1, 1, 3]);
    two = external(shape = [1, 1, 2]);
    sr = multilinear_upsample(input, factor = [2]);
    sc = multilinear_upsample(input, factor = [2], border = 'constant');
    sm = multilinear_upsample(input, factor = [2], border = 'reflect');
    se = multilinear_upsample(input, factor = [2], border = 'reflect-even');
    ar = multilinear_upsample(input, factor = [2], method = 'asymmetric');
    ac = multilinear_upsample(input, factor = [2], method = 'asymmetric', border = 'constant');
    three = multilinear_upsample(two, factor = [3], method = 'asymmetric', border = 'constant');
})", f);
  // x = [1, 2, 3], f = 2. symmetric: v = (i − 1/2)/2, out = (1 − u)·x̃[j] + u·x̃[j + 1], j = ⌊v⌋:
  // i = 0: v = −1/4, ¼·x̃[−1] + ¾·x[0]; i = 1..4: 1.25 1.75 2.25 2.75; i = 5: v = 9/4, ¾·x[2] + ¼·x̃[3].
  // x̃[−1], x̃[3]: replicate 1, 3 (ends 1, 3); constant 0, 0 (ends 0.75, 2.25); reflect x[1] = 2, 2
  // (ends 1.25, 2.75); reflect-even x[0], x[2] (as replicate here).
  // asymmetric: v = i/2: 1 1.5 2 2.5 3, then i = 5: ½·x[2] + ½·x̃[3]: 3 (replicate), 1.5 (constant).
  // three: x = [0, 3], f = 3, asymmetric, constant: v = i/3: 0 1 2 3, then ⅔·3 + ⅓·0 = 2, ⅓·3 = 1.
  const auto out = run_f64(r, {host({1, 1, 3}, {1, 2, 3}), host({1, 1, 2}, {0, 3})});
  CHECK(out[0] == std::vector<double>{1, 1.25, 1.75, 2.25, 2.75, 3});
  CHECK(out[1] == std::vector<double>{0.75, 1.25, 1.75, 2.25, 2.75, 2.25});
  CHECK(out[2] == std::vector<double>{1.25, 1.25, 1.75, 2.25, 2.75, 2.75});
  CHECK(out[3] == std::vector<double>{1, 1.25, 1.75, 2.25, 2.75, 3});
  CHECK(out[4] == std::vector<double>{1, 1.5, 2, 2.5, 3, 3});
  CHECK(out[5] == std::vector<double>{1, 1.5, 2, 2.5, 3, 1.5});
  CHECK(out[6] == std::vector<double>{0, 1, 2, 3, 2, 1});
}

TEST_CASE("nnef: bilinear upsampling is the 1-D interpolation along each spatial axis") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( output ) {
    input = external(shape = [1, 2, 2, 2]);
    output = multilinear_upsample(input, factor = [2, 2]);
})", f);
  // Each channel [[a, b], [c, d]]: a row [p, q] becomes [p, ¾p + ¼q, ¼p + ¾q, q] (symmetric,
  // replicate), then the columns alike. Channel 0 = [[1, 2], [3, 4]]: rows [1, 1.25, 1.75, 2] and
  // [3, 3.25, 3.75, 4]; between them ¾·r0 + ¼·r1 and ¼·r0 + ¾·r1. Channel 1 = 10 × channel 0.
  std::vector<double> one = {1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4};
  std::vector<double> want = one;
  for (double v : one) want.push_back(10 * v);
  CHECK(run_f64(r, {host({1, 2, 2, 2}, {1, 2, 3, 4, 10, 20, 30, 40})})[0] == want);
}

TEST_CASE("nnef: up-sampling's unsupported and bad arguments are located errors") {
  expect_statement_error("multilinear_upsample(input, factor = [2], method = 'cubic')", "nnef.argument.value");
  expect_statement_error("multilinear_upsample(input, factor = [2], border = 'ignore')", "nnef.argument.value");
  expect_statement_error("multilinear_upsample(input, factor = [2, 2])", "nnef.argument.value");
  expect_statement_error("multilinear_upsample(input, factor = [0])", "nnef.argument.value");
  expect_statement_error("multilinear_upsample(input, factor = [1048576])", "nnef.argument.value");
  expect_statement_error("debox(input, size = [1, 3])", "nnef.argument.value");
  expect_statement_error("debox(input, size = [1, 1, 3], stride = [2])", "nnef.argument.value");
  expect_statement_error("debox(input, size = [1, 1, 0])", "nnef.argument.value");
}
