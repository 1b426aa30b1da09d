// NNEF's index-based sampling (§4.3.3) and max_pool_with_index (§4.9.3): argmax_pool in every
// border mode, sample and desample through it, windows over the batch and channel axes, and the
// borders §4.3.3 refuses, on inputs small enough to compute by hand. Part of nnef_test.
#include "nnef_test_support.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

const std::string kHeader = "version 1.0;\n";

}  // namespace

TEST_CASE("nnef: argmax_pool in every border mode") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( c, i, p, m, e ) {
    input = external(shape = [1, 1, 4]);
    ic = argmax_pool(input, size = [1, 1, 3], padding = [(0, 0), (0, 0), (1, 1)], border = 'constant');
    ii = argmax_pool(input, size = [1, 1, 3], padding = [(0, 0), (0, 0), (1, 1)], border = 'ignore');
    ip = argmax_pool(input, size = [1, 1, 3], padding = [(0, 0), (0, 0), (1, 1)], border = 'replicate');
    im = argmax_pool(input, size = [1, 1, 3], padding = [(0, 0), (0, 0), (1, 1)], border = 'reflect');
    ie = argmax_pool(input, size = [1, 1, 3], border = 'reflect-even');
    c = cast<scalar>(ic);
    i = cast<scalar>(ii);
    p = cast<scalar>(ip);
    m = cast<scalar>(im);
    e = cast<scalar>(ie);
})", f);
  // x = [-2, -5, -1, -4], windows of 3 over ĩ[-1..4]: (ĩ[-1], -2, -5), (-2, -5, -1), (-5, -1, -4),
  // (-1, -4, ĩ[4]). constant: ĩ = 0 → 0, 2, 1, 2; ignore: no padded candidate → 1, 2, 1, 0;
  // replicate: ĩ[-1] = -2 ties -2 → 0 (the first), ĩ[4] = -4 → 0, 2, 1, 0; reflect: ĩ[-1] = x[1] =
  // -5, ĩ[4] = x[2] = -1 ties -1 → 1, 2, 1, 0; reflect-even, automatic padding (1, 1): ĩ[-1] = x[0],
  // ĩ[4] = x[3] → 0, 2, 1, 0.
  const auto out = run_f64(r, {host({1, 1, 4}, {-2, -5, -1, -4})});
  CHECK(out[0] == std::vector<double>{0, 2, 1, 2});
  CHECK(out[1] == std::vector<double>{1, 2, 1, 0});
  CHECK(out[2] == std::vector<double>{0, 2, 1, 0});
  CHECK(out[3] == std::vector<double>{1, 2, 1, 0});
  CHECK(out[4] == std::vector<double>{0, 2, 1, 0});
}

TEST_CASE("nnef: max_pool_with_index through its body, sample and desample") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input, d, six ) -> ( c, ci, p, pi, sampled, up ) {
    input = external(shape = [1, 1, 4]);
    d = external(shape = [1, 1, 3]);
    six = external(shape = [1, 1, 6]);
    c, ic = max_pool_with_index(input, size = [1, 1, 3], padding = [(0, 0), (0, 0), (1, 1)], border = 'constant');
    p, ip = max_pool_with_index(input, size = [1, 1, 3], padding = [(0, 0), (0, 0), (1, 1)], border = 'replicate');
    ci = cast<scalar>(ic);
    pi = cast<scalar>(ip);
    sampled = sample(input, ip, size = [1, 1, 3], padding = [(0, 0), (0, 0), (1, 1)], border = 'reflect');
    iu = argmax_pool(six, size = [1, 1, 2], stride = [1, 1, 2]);
    up = desample(d, iu, size = [1, 1, 2], stride = [1, 1, 2]);
})", f);
  // input as above: constant maxima 0, -1, -1, 0 at 0, 2, 1, 2; replicate -2, -1, -1, -1 at 0, 2, 1, 0.
  // sampled: the replicate maxima's indices 0, 2, 1, 0 read under 'reflect' (ĩ[-1] = x[1] = -5,
  // ĩ[4] = x[2] = -1): -5, -1, -1, -1.
  // six = [1, 3, 2, 0, -1, 5] in pairs: (1, 3) → 1, (2, 0) → 0, (-1, 5) → 1; d = [10, 20, 40] goes
  // to positions 1, 2, 5 of the automatic up-scaled extent 3·2 = 6.
  const auto out = run_f64(r, {host({1, 1, 4}, {-2, -5, -1, -4}), host({1, 1, 3}, {10, 20, 40}),
                               host({1, 1, 6}, {1, 3, 2, 0, -1, 5})});
  CHECK(out[0] == std::vector<double>{0, -1, -1, 0});
  CHECK(out[1] == std::vector<double>{0, 2, 1, 2});
  CHECK(out[2] == std::vector<double>{-2, -1, -1, -1});
  CHECK(out[3] == std::vector<double>{0, 2, 1, 0});
  CHECK(out[4] == std::vector<double>{-5, -1, -1, -1});
  CHECK(out[5] == std::vector<double>{0, 10, 20, 0, 0, 40});
}

// A window on batch or channel runs over the [1, 1, x...] view (docs/nnef.md), argmax_pool's
// integer result and sample's index viewed alike; the index counts over the whole window.
TEST_CASE("nnef: argmax_pool, sample and desample with windows on the channel and batch axes") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input, d, column ) -> ( m, i, s, up, bc, bp ) {
    input = external(shape = [1, 4, 2]);
    d = external(shape = [1, 2, 2]);
    column = external(shape = [3, 1, 1]);
    m, j = max_pool_with_index(input, size = [1, 2, 1], stride = [1, 2, 1]);
    i = cast<scalar>(j);
    ten = mul(input, 10.0);
    s = sample(ten, j, size = [1, 2, 1], stride = [1, 2, 1]);
    up = desample(d, j, size = [1, 2, 1], stride = [1, 2, 1]);
    jc = argmax_pool(column, size = [2, 1, 1], padding = [(1, 0), (0, 0), (0, 0)], border = 'constant');
    jp = argmax_pool(column, size = [2, 1, 1], padding = [(1, 0), (0, 0), (0, 0)], border = 'replicate');
    bc = cast<scalar>(jc);
    bp = cast<scalar>(jp);
})", f);
  // input [1, 4, 2], channels (1, 5), (3, 2), (-1, -4), (0, -6); windows of channels 0-1 and 2-3 per
  // position: maxima 3, 5, 0, -4 at window positions 1, 0, 1, 0. sample of 10·input there: 30, 50,
  // 0, -40. desample of d = [10, 20, 30, 40] to the automatic [1, 4, 2]: d[0, c, w] at channel
  // 2c + index, position w: channel 0 (0, 20), 1 (10, 0), 2 (0, 40), 3 (30, 0).
  // column = [2, -1, 7] over the batch axis, windows of 2 over ĩ[-1..2]: constant (0, 2), (2, -1),
  // (-1, 7) → 1, 0, 1; replicate ĩ[-1] = 2 ties 2 → 0 (the first), 0, 1.
  const auto out = run_f64(r, {host({1, 4, 2}, {1, 5, 3, 2, -1, -4, 0, -6}), host({1, 2, 2}, {10, 20, 30, 40}),
                               host({3, 1, 1}, {2, -1, 7})});
  CHECK(out[0] == std::vector<double>{3, 5, 0, -4});
  CHECK(out[1] == std::vector<double>{1, 0, 1, 0});
  CHECK(out[2] == std::vector<double>{30, 50, 0, -40});
  CHECK(out[3] == std::vector<double>{0, 20, 10, 0, 0, 40, 30, 0});
  CHECK(out[4] == std::vector<double>{1, 0, 1});
  CHECK(out[5] == std::vector<double>{0, 0, 1});
}

// `index = argmax_pool(input, size = [1, 1, k]);` on line 4 and `output = call;` on line 5 of a
// graph whose input is [1, 1, 3]: its first diagnostic has `code` and line `line`.
static void expect_error(int64_t k, const std::string& call, const std::string& code, int line = 5) {
  Folder f;
  const LoadResult r = load_text(kHeader + "graph G( input ) -> ( output ) {\n    input = external(shape = [1, 1, 3]);\n"
                                           "    index = argmax_pool(input, size = [1, 1, " + std::to_string(k) + "]);\n"
                                           "    output = " + call + ";\n}", f, WeightsPolicy::Skip);
  INFO(call);
  REQUIRE_FALSE(r.diagnostics.empty());
  CHECK(r.diagnostics[0].code == code);
  CHECK(r.diagnostics[0].loc.line == line);
}

TEST_CASE("nnef: the borders sample and desample refuse, and malformed windows, are located errors") {
  expect_error(2, "sample(input, index, size = [1, 1, 2], border = 'ignore')", "nnef.argument.value");
  expect_error(1, "desample(input, index, size = [1, 1, 1], border = 'replicate')", "nnef.argument.value");
  expect_error(1, "desample(input, index, size = [1, 1, 1], output_shape = [1, 3])", "nnef.argument.value");
  expect_error(1, "desample(input, index, size = [1, 1, 2], stride = [1, 1, 2], padding = [(0, 0), (0, 0), (0, 0)], "
                  "output_shape = [1, 1, 4])",
               "shape.desample.output-shape");
  expect_error(1, "sample(input, index, size = [1, 1, 2], stride = [1, 1, 2])", "shape.sample.index-shape");
  expect_error(1, "argmax_pool(input, size = [1, 1, 3], border = 'wrap')", "nnef.argument.value");
  expect_error(1, "argmax_pool(input, size = [1, 3])", "nnef.argument.value");
  // A window over the channel axis, of extent 1, that does not fit it.
  expect_error(1, "argmax_pool(input, size = [1, 2, 1], padding = [(0, 0), (0, 0), (0, 0)])", "shape.window.exceeds-input");
  Folder f;
  const LoadResult r = load_text(kHeader + "graph G( input ) -> ( output ) {\n    input = external(shape = [1, 1, 3]);\n"
                                           "    output, index = max_pool_with_index(input, size = [1, 1, 2], border = 'ignore');\n}",
                                 f, WeightsPolicy::Skip);
  REQUIRE_FALSE(r.diagnostics.empty());
  CHECK(r.diagnostics[0].code == "nnef.argument.value");
  CHECK(r.diagnostics[0].message.find("sample with border 'ignore'") != std::string::npos);
}
