// The NNEF front-end's values: each lowered op and border mode on inputs small enough to compute
// by hand, and the compositional grammar (fragments, defaults, comprehensions, if-else, generics,
// recursion) evaluated the same way.
#include "nnef_test_support.hpp"

#include <cmath>

using namespace nnref;
using namespace nnref::test;

namespace {

const std::string kHeader = "version 1.0;\n";
const std::string kCompositional =
    "version 1.0;\nextension KHR_enable_fragment_definitions, KHR_enable_operator_expressions;\n";

std::vector<double> iota(int n, double from = 1.0) {
  std::vector<double> v;
  for (int k = 0; k < n; ++k) v.push_back(from + k);
  return v;
}

}  // namespace

TEST_CASE("nnef: conv with explicit padding reads zeros outside the input") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( output ) {
    input = external(shape = [1, 1, 3, 3]);
    filter = constant(shape = [1, 1, 3, 3], value = [1.0]);
    output = conv(input, filter, padding = [(1, 1), (1, 1)]);
})", f);
  // Sums of the 3x3 neighbourhoods of 1..9, the outside read as 0.
  CHECK(run_f64(r, {host({1, 1, 3, 3}, iota(9))})[0] == std::vector<double>{12, 21, 16, 27, 45, 33, 24, 39, 28});
}

TEST_CASE("nnef: conv with automatic padding puts the odd padding after (output ceil(X/s))") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( output ) {
    input = external(shape = [1, 1, 4, 4]);
    filter = constant(shape = [1, 1, 3, 3], value = [1.0]);
    output = conv(input, filter, 0.5, stride = [2, 2]);
})", f);
  // X = 4, s = 2: output 2, total padding (2-1)*2 + 3 - 4 = 1, all of it after. Windows of 1..16:
  // rows/cols 0-2 = 54; cols 2-3 of rows 0-2 = 45; rows 2-3 of cols 0-2 = 72; rows/cols 2-3 = 54.
  CHECK(run_f64(r, {host({1, 1, 4, 4}, iota(16))})[0] == std::vector<double>{54.5, 45.5, 72.5, 54.5});
}

TEST_CASE("nnef: grouped and depth-wise conv (groups = 0) read their own channels") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( grouped, depthwise ) {
    input = external(shape = [1, 2, 1, 2]);
    k = constant(shape = [2, 1, 1, 1], value = [10.0, 100.0]);
    grouped = conv(input, k, groups = 2);
    depthwise = conv(input, k, groups = 0);
})", f);
  // Channel 0 = [1, 2] times 10, channel 1 = [3, 4] times 100.
  const auto out = run_f64(r, {host({1, 2, 1, 2}, iota(4))});
  CHECK(out[0] == std::vector<double>{10, 20, 300, 400});
  CHECK(out[1] == out[0]);
}

TEST_CASE("nnef: deconv with explicit and automatic padding, output_shape, a bias, groups = 0") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input, pair ) -> ( explicit, automatic, shaped, sparse, depthwise ) {
    input = external(shape = [1, 1, 3]);
    pair = external(shape = [1, 2, 2]);
    f = constant(shape = [1, 1, 3], value = [1.0, 10.0, 100.0]);
    one = constant(shape = [1, 1, 1], value = [1.0]);
    k = constant(shape = [2, 1, 1], value = [10.0, 100.0]);
    explicit = deconv(input, f, stride = [2], padding = [(1, 1)]);
    automatic = deconv(input, f, stride = [2]);
    shaped = deconv(input, f, 0.5, stride = [2], padding = [(1, 1)], output_shape = [1, 1, 6]);
    sparse = deconv(input, one, stride = [3]);
    depthwise = deconv(pair, k, groups = 0);
})", f);
  // Unpadded, x = [1, 2, 3] and w = [1, 10, 100] at stride 2 give X = (3 - 1)*2 + 3 = 7 values
  // y[i] = sum of x[(i - j)/2]*w[j] over even i - j: 1, 10, 2 + 100, 20, 3 + 200, 30, 300.
  // explicit: padding (1, 1) keeps y[1..5]; automatic: X = 3*2 = 6, t = max(4 + 3 - 6, 0) = 1,
  // p = 0: y[0..5]; shaped: output_shape 6 down-scales to floor((1 + 6 + 1 - 3)/2) + 1 = 3, so
  // y[1..6], plus the bias 0.5; sparse: w = [1] at stride 3 gives X = 9 (q = 1 - 3 - 0 = -2), every
  // third position an input; depthwise: groups 0 is the 2 input channels, [1, 2]*10 and [3, 4]*100.
  const auto out = run_f64(r, {host({1, 1, 3}, {1, 2, 3}), host({1, 2, 2}, iota(4))});
  CHECK(out[0] == std::vector<double>{10, 102, 20, 203, 30});
  CHECK(out[1] == std::vector<double>{1, 10, 102, 20, 203, 30});
  CHECK(out[2] == std::vector<double>{10.5, 102.5, 20.5, 203.5, 30.5, 300.5});
  CHECK(out[3] == std::vector<double>{1, 0, 0, 2, 0, 0, 3, 0, 0});
  CHECK(out[4] == std::vector<double>{10, 20, 300, 400});
}

TEST_CASE("nnef: separable_deconv is a point deconv, then a depth-wise one") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( output ) {
    input = external(shape = [1, 1, 3]);
    plane = constant(shape = [2, 1, 2], value = [1.0, 10.0, 1.0, 1.0]);
    point = constant(shape = [1, 2, 1], value = [1.0, 2.0]);
    output = separable_deconv(input, plane, point);
})", f);
  // point: channels x and 2x; plane (automatic padding, X = 3, p = 0): [1, 10] and [1, 1] each
  // convolved: 1, 2 + 10, 3 + 20 and 2, 4 + 2, 6 + 4.
  CHECK(run_f64(r, {host({1, 1, 3}, {1, 2, 3})})[0] == std::vector<double>{1, 12, 23, 2, 6, 10});
}

TEST_CASE("nnef: max_pool and avg_pool with border ignore and constant differ at the padding") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( max_ignore, max_constant, avg_ignore, avg_constant ) {
    input = external(shape = [1, 1, 2, 2]);
    max_ignore = max_pool(input, size = [1, 1, 2, 2], stride = [1, 1, 2, 2],
                          padding = [(0, 0), (0, 0), (1, 0), (1, 0)], border = 'ignore');
    max_constant = max_pool(input, size = [1, 1, 2, 2], stride = [1, 1, 2, 2],
                            padding = [(0, 0), (0, 0), (1, 0), (1, 0)], border = 'constant');
    avg_ignore = avg_pool(input, size = [1, 1, 2, 2], stride = [1, 1, 2, 2],
                          padding = [(0, 0), (0, 0), (1, 0), (1, 0)], border = 'ignore');
    avg_constant = avg_pool(input, size = [1, 1, 2, 2], stride = [1, 1, 2, 2],
                            padding = [(0, 0), (0, 0), (1, 0), (1, 0)], border = 'constant');
})", f);
  // The one window holds x[0, 0] = -1 and three padded positions.
  const auto out = run_f64(r, {host({1, 1, 2, 2}, {-1, -2, -3, -4})});
  CHECK(out[0] == std::vector<double>{-1});    // ignore: the padding takes no part
  CHECK(out[1] == std::vector<double>{0});     // constant: zeros join the max
  CHECK(out[2] == std::vector<double>{-1});    // ignore: divided by the 1 real element
  CHECK(out[3] == std::vector<double>{-0.25}); // constant: divided by the window's 4
}

TEST_CASE("nnef: pad with constant, reflect and replicate borders") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( c, m, p ) {
    input = external(shape = [1, 3]);
    c = pad(input, padding = [(0, 0), (2, 2)], border = 'constant', value = 7.0);
    m = pad(input, padding = [(0, 0), (2, 2)], border = 'reflect');
    p = pad(input, padding = [(0, 0), (2, 2)], border = 'replicate');
})", f);
  const auto out = run_f64(r, {host({1, 3}, {1, 2, 3})});
  CHECK(out[0] == std::vector<double>{7, 7, 1, 2, 3, 7, 7});
  CHECK(out[1] == std::vector<double>{3, 2, 1, 2, 3, 2, 1});
  CHECK(out[2] == std::vector<double>{1, 1, 1, 2, 3, 3, 3});
}

// §4.5.5: "the items in padding can be negative": the input is cropped.
TEST_CASE("nnef: pad with negative padding crops") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( c, m ) {
    input = external(shape = [1, 4]);
    c = pad(input, padding = [(0, 0), (-1, 2)], border = 'constant', value = 7.0);
    m = pad(input, padding = [(0, 0), (-1, 2)], border = 'reflect');
})", f);
  const auto out = run_f64(r, {host({1, 4}, {1, 2, 3, 4})});
  CHECK(out[0] == std::vector<double>{2, 3, 4, 7, 7});
  CHECK(out[1] == std::vector<double>{2, 3, 4, 3, 2});  // reflected about the uncropped edge x[3]
}

// §4.3: "the items in padding can be negative": conv and the pools read the input cropped.
TEST_CASE("nnef: conv and pools with negative padding crop their input") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( cv, mx, av ) {
    input = external(shape = [1, 1, 4]);
    w = constant(shape = [1, 1, 2], value = [1.0, 1.0]);
    cv = conv(input, w, padding = [(-1, 1)]);
    mx = max_pool(input, size = [1, 1, 2], padding = [(0, 0), (0, 0), (-1, 0)], border = 'ignore');
    av = avg_pool(input, size = [1, 1, 2], padding = [(0, 0), (0, 0), (-1, 1)], border = 'constant');
})", f);
  const auto out = run_f64(r, {host({1, 1, 4}, {1, 2, 3, 4})});
  CHECK(out[0] == std::vector<double>{5, 7, 4});         // windows of [2, 3, 4, 0]
  CHECK(out[1] == std::vector<double>{3, 4});            // of [2, 3, 4]
  CHECK(out[2] == std::vector<double>{2.5, 3.5, 2});     // of [2, 3, 4, 0], divided by 2
}

// §4.5.1: matmul's first r − 2 axes broadcast as in binary operations.
TEST_CASE("nnef: matmul's batch axes broadcast") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( a, b ) -> ( c ) {
    a = external(shape = [2, 1, 1, 2]);
    b = external(shape = [1, 3, 1, 2]);
    c = matmul(a, b, transposeB = true);
})", f);
  // c[i, j] = a[i] · b[j]: a = (1, 2), (3, 4); b = (1, 0), (0, 1), (1, 1).
  CHECK(run_f64(r, {host({2, 1, 1, 2}, {1, 2, 3, 4}), host({1, 3, 1, 2}, {1, 0, 0, 1, 1, 1})})[0] ==
        std::vector<double>{1, 2, 3, 3, 4, 7});
}

TEST_CASE("nnef: broadcasting aligns the leading axes") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( x, y ) -> ( z ) {
    x = external(shape = [2, 3]);
    y = external(shape = [2]);
    z = add(x, y);
})", f);
  // y = [10, 20] runs along axis 0 (NNEF 1.0), not axis 1 (NumPy would refuse 3 against 2).
  CHECK(run_f64(r, {host({2, 3}, iota(6)), host({2}, {10, 20})})[0] == std::vector<double>{11, 12, 13, 24, 25, 26});
}

TEST_CASE("nnef: shape operations (reshape with 0 and -1, transpose of leading axes, split, concat, slice, stack)") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( t, a, b, joined, cut, stacked, unstacked ) {
    input = external(shape = [2, 3]);
    flat = reshape(input, shape = [0, -1, 1]);
    t = transpose(flat, axes = [1, 0]);
    [a, b] = split(input, axis = 1, ratios = [1, 2]);
    joined = concat([b, a], axis = 1);
    cut = slice(input, axes = [1], begin = [1], end = [0]);
    stacked = stack([a, a], axis = 0);
    [u0, u1] = unstack(input, axis = 0);
    unstacked = sub(u1, u0);
})", f);
  const auto out = run_f64(r, {host({2, 3}, iota(6))});
  CHECK(out[0] == std::vector<double>{1, 4, 2, 5, 3, 6});  // [3, 2, 1]
  CHECK(out[1] == std::vector<double>{1, 4});
  CHECK(out[2] == std::vector<double>{2, 3, 5, 6});
  CHECK(out[3] == std::vector<double>{2, 3, 1, 5, 6, 4});
  CHECK(out[4] == std::vector<double>{2, 3, 5, 6});  // end 0 is the extent
  CHECK(out[5] == std::vector<double>{1, 4, 1, 4});
  CHECK(out[6] == std::vector<double>{3, 3, 3});
}

TEST_CASE("nnef: reductions keep their axes, softmax defaults to axis 1, matmul transposes") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( s, m, mx, sm, mm ) {
    input = external(shape = [2, 2]);
    s = sum_reduce(input, axes = [1]);
    m = mean_reduce(input, axes = [0, 1]);
    mx = max_reduce(input, axes = [0]);
    sm = softmax(input);
    mm = matmul(input, input, transposeA = true);
})", f);
  const double l3 = std::log(3.0);
  const auto out = run_f64(r, {host({2, 2}, {0, l3, 1, 1})});
  CHECK(out[0] == std::vector<double>{l3, 2});
  CHECK(out[1][0] == Approx((l3 + 2) / 4).epsilon(1e-15));
  CHECK(out[2] == std::vector<double>{1, l3 > 1 ? l3 : 1});
  CHECK(out[3][0] == Approx(0.25).epsilon(1e-15));  // e^0 / (e^0 + e^ln3)
  CHECK(out[3][1] == Approx(0.75).epsilon(1e-15));
  CHECK(out[3][2] == Approx(0.5).epsilon(1e-15));
  // AᵀA of [[0, l3], [1, 1]]: [[1, 1], [1, l3² + 1]].
  CHECK(out[4][0] == 1);
  CHECK(out[4][3] == Approx(l3 * l3 + 1).epsilon(1e-15));
}

TEST_CASE("nnef: compound fragments lowered to IR ops compute the spec's formulas") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( relu_, elu_, leaky, lin, bn, cl, sq, rs ) {
    input = external(shape = [1, 2]);
    relu_ = relu(input);
    elu_ = elu(input, alpha = 2.0);
    leaky = leaky_relu(input, alpha = 0.5);
    w = constant(shape = [1, 2], value = [3.0, 4.0]);
    lin = linear(input, w, 1.0);
    bn = batch_normalization(input, 1.0, 3.0, 0.5, 2.0, epsilon = 1.0);
    cl = clamp(input, -1.0, 1.0);
    sq = sqr(input);
    rs = rsqrt(sq);
})", f);
  const auto out = run_f64(r, {host({1, 2}, {-2, 4})});
  CHECK(out[0] == std::vector<double>{0, 4});
  CHECK(out[1][0] == Approx(2 * (std::exp(-2.0) - 1)).epsilon(1e-15));
  CHECK(out[2] == std::vector<double>{-1, 4});
  CHECK(out[3] == std::vector<double>{-6 + 16 + 1});
  CHECK(out[4] == std::vector<double>{0.5 + 2 * (-3) / 2, 0.5 + 2 * 3.0 / 2});  // sqrt(3 + 1) = 2
  CHECK(out[5] == std::vector<double>{-1, 1});
  CHECK(out[6] == std::vector<double>{4, 16});
  CHECK(out[7] == std::vector<double>{0.5, 0.25});
}

TEST_CASE("nnef: compound fragments without an IR op are expanded from their bodies") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( q, l2, rms, gel ) {
    input = external(shape = [1, 1, 3]);
    q = linear_quantize(input, min = 0.0, max = 1.0, bits = 2);
    l2 = l2_normalization(input, axes = [2]);
    rms = rms_pool(input, size = [1, 1, 3], padding = [(0, 0), (0, 0), (0, 0)]);
    gel = gelu(input);
})", f);
  const auto out = run_f64(r, {host({1, 1, 3}, {0.1, 0.4, 0.9})});
  // r = 2^2 - 1 = 3; round(x * 3) = 0, 1, 3 (round(1.2) = 1, round(2.7) = 3); then q / 3.
  CHECK(out[0][0] == 0);
  CHECK(out[0][1] == Approx(1.0 / 3).epsilon(1e-15));
  CHECK(out[0][2] == 1);
  const double norm = std::sqrt(0.01 + 0.16 + 0.81);
  CHECK(out[1][1] == Approx(0.4 / norm).epsilon(1e-15));
  CHECK(out[2][0] == Approx(std::sqrt((0.01 + 0.16 + 0.81) / 3)).epsilon(1e-15));
  CHECK(out[3][2] == Approx(0.9 / (1 + std::exp(-1.702 * 0.9))).epsilon(1e-15));
}

TEST_CASE("nnef: fragments with defaults, comprehensions, if-else and generics compose") {
  Folder f;
  const auto r = load_text(kCompositional + R"(
fragment scaled( x: tensor<scalar>, factors: scalar[] = [2.0, 3.0], pick: integer = 1 ) -> ( y: tensor<scalar> )
{
    chosen = [for i in range_of(factors), v in factors if i == pick yield v];
    y = x * chosen[0] if length_of(chosen) == 1 else x;
}
fragment twice<?>( x: tensor<?> ) -> ( a: tensor<?>, b: tensor<?> )
{
    a = copy<?>(x);
    b = copy(x);
}
graph G( input ) -> ( output, other, first, total )
{
    input = external(shape = [1, 2]);
    output = scaled(input);
    other = scaled(input, factors = [5.0], pick = 0) + 1.0;
    first, second = twice(input);
    total = add_n([first]) - -(2.0 ^ 2.0) * scalar(integer('3') + length_of([1, 2]));
}
)", f);
  const auto out = run_f64(r, {host({1, 2}, {1, -2})});
  CHECK(out[0] == std::vector<double>{3, -6});
  CHECK(out[1] == std::vector<double>{6, -9});
  CHECK(out[2] == std::vector<double>{1, -2});
  CHECK(out[3] == std::vector<double>{21, 18});  // add_n([x]) = x + 0.0 (its body); + 4 * 5
}

TEST_CASE("nnef: the extents of externals get size names: batch for axis 0, <id>.<k> for the others") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( output ) {
    input = external(shape = [1, 3, 8, 8]);
    output = relu(input);
})", f);
  REQUIRE(r.model);
  std::vector<std::string> names;
  for (const auto& s : r.model->size_names) names.push_back(s.name);
  CHECK(names == std::vector<std::string>{"batch", "input.1", "input.2", "input.3"});
}

// input = [-2, -1, 0, 1, 2] (shape [1, 5]), t = [0, 0, 0, 1, 1]... each comparison against 0.0
// selects 1.0 or 0.0: lt [1,1,0,0,0], gt [0,0,0,1,1], le [1,1,1,0,0], ge [0,0,1,1,1], eq [0,0,1,0,0],
// ne [1,1,0,1,1]; not(lt) = ge; and(ge, mask) with the constant mask [1,0,1,0,1] = [0,0,1,0,1];
// or(lt, eq) = le.
TEST_CASE("nnef: comparisons and logical operations feed select") {
  Folder f;
  const auto r = load_text(kCompositional + R"(graph G( input ) -> ( lt0, gt0, le0, ge0, eq0, ne0, nlt, masked, either ) {
    input = external(shape = [1, 5]);
    mask = constant<logical>(shape = [1, 5], value = [true, false, true, false, true]);
    lt0 = select(lt(input, 0.0), 1.0, 0.0);
    gt0 = select(gt(input, 0.0), 1.0, 0.0);
    le0 = select(le(input, 0.0), 1.0, 0.0);
    ge0 = select(ge(input, 0.0), 1.0, 0.0);
    eq0 = select(eq(input, 0.0), 1.0, 0.0);
    ne0 = select(ne(input, 0.0), 1.0, 0.0);
    nlt = select(not(lt(input, 0.0)), 1.0, 0.0);
    masked = select(and(ge(input, 0.0), mask), 1.0, 0.0);
    either = select(or(lt(input, 0.0), eq(input, 0.0)), 1.0, 0.0);
})", f);
  const auto out = run_f64(r, {host({1, 5}, {-2, -1, 0, 1, 2})});
  CHECK(out[0] == std::vector<double>{1, 1, 0, 0, 0});
  CHECK(out[1] == std::vector<double>{0, 0, 0, 1, 1});
  CHECK(out[2] == std::vector<double>{1, 1, 1, 0, 0});
  CHECK(out[3] == std::vector<double>{0, 0, 1, 1, 1});
  CHECK(out[4] == std::vector<double>{0, 0, 1, 0, 0});
  CHECK(out[5] == std::vector<double>{1, 1, 0, 1, 1});
  CHECK(out[6] == std::vector<double>{0, 0, 1, 1, 1});
  CHECK(out[7] == std::vector<double>{0, 0, 1, 0, 1});
  CHECK(out[8] == std::vector<double>{1, 1, 1, 0, 0});
}

// selu(x) = lambda * select(x < 0, alpha * (exp(x) - 1), x) with the defaults alpha = 1.67326319,
// lambda = 1.05070102, from its §4.9 body; the operator syntax x < 0.0 is the invocation lt.
TEST_CASE("nnef: selu runs from its body, and operator comparisons are the comparison ops") {
  Folder f;
  const auto r = load_text(kCompositional + R"(graph G( input ) -> ( s, m ) {
    input = external(shape = [1, 3]);
    s = selu(input);
    m = select(input >= 0.5 && input != 1.0, input, -input);
})", f);
  const auto out = run_f64(r, {host({1, 3}, {-1, 0.5, 1})});
  const double alpha = 1.67326319, lambda = 1.05070102;
  CHECK(out[0][0] == Approx(lambda * alpha * (std::exp(-1.0) - 1)).epsilon(1e-15));
  CHECK(out[0][1] == Approx(lambda * 0.5).epsilon(1e-15));
  CHECK(out[0][2] == Approx(lambda).epsilon(1e-15));
  CHECK(out[1] == std::vector<double>{1, 0.5, -1});
}

// input [1, 2, 4] = [[[3, 1, 4, 1], [5, 9, 2, 6]]]. argmax over axis 2: [[[2], [1]]]; argmin over
// axes [1, 2] (row-major over (row, column)): position (0, 1) = 1 ties with (0, 3): the first, 1.
// all(input > 1) over axis 2: [false, true]; any(input > 8) over axis 2: [false, true].
TEST_CASE("nnef: arg reductions give integers, all and any logical values, read through cast and select") {
  Folder f;
  const auto r = load_text(kCompositional + R"(graph G( input ) -> ( amax, amin, every, some ) {
    input = external(shape = [1, 2, 4]);
    amax = cast<scalar>(argmax_reduce(input, axes = [2]));
    amin = cast<scalar>(argmin_reduce(input, axes = [1, 2]));
    every = select(all_reduce(gt(input, 1.0), axes = [2]), 1.0, 0.0);
    some = select(any_reduce(gt(input, 8.0), axes = [2]), 1.0, 0.0);
})", f);
  const auto out = run_f64(r, {host({1, 2, 4}, {3, 1, 4, 1, 5, 9, 2, 6})});
  CHECK(out[0] == std::vector<double>{2, 1});
  CHECK(out[1] == std::vector<double>{1});
  CHECK(out[2] == std::vector<double>{0, 1});
  CHECK(out[3] == std::vector<double>{0, 1});
}

// input [1, 6] = 0..5. slice stride 2: 0, 2, 4; stride −2 from −1: 5, 3, 1; pad reflect-even
// (2, 1): 1, 0 | 0..5 | 5; gather axis 1 with the constant<integer> [5, 0, 5]: 5, 0, 5;
// cast<integer> then cast<scalar> floors: input − 0.5 → −1, 0, 1, 2, 3, 4; cast<logical> of
// input − 2 is true but at 2.
TEST_CASE("nnef: strided slices, reflect-even padding, gather with integer constants, casts") {
  Folder f;
  const auto r = load_text(kCompositional + R"(graph G( input ) -> ( even, back, padded, picked, floored, nonzero ) {
    input = external(shape = [1, 6]);
    even = slice(input, axes = [1], begin = [0], end = [6], stride = [2]);
    back = slice(input, axes = [1], begin = [-1], end = [-7], stride = [-2]);
    padded = pad(input, padding = [(0, 0), (2, 1)], border = 'reflect-even');
    index = constant<integer>(shape = [3], value = [5, 0, 5]);
    picked = gather(input, index, axis = 1);
    floored = cast<scalar>(cast<integer>(sub(input, 0.5)));
    nonzero = select(cast<logical>(sub(input, 2.0)), 1.0, 0.0);
})", f);
  const auto out = run_f64(r, {host({1, 6}, {0, 1, 2, 3, 4, 5})});
  CHECK(out[0] == std::vector<double>{0, 2, 4});
  CHECK(out[1] == std::vector<double>{5, 3, 1});
  CHECK(out[2] == std::vector<double>{1, 0, 0, 1, 2, 3, 4, 5, 5});
  CHECK(out[3] == std::vector<double>{5, 0, 5});
  CHECK(out[4] == std::vector<double>{-1, 0, 1, 2, 3, 4});
  CHECK(out[5] == std::vector<double>{1, 1, 0, 1, 1, 1});
}

// NNEF's shape operations are generic (§4.5: tensor<?>): on integer and logical tensors they move
// the values as on reals. i = cast<integer>(input) = 0..5 as [1, 6], [[0, 1, 2], [3, 4, 5]] as
// [2, 3]: transposed 0, 3, 1, 4, 2, 5; concatenated with itself; sliced backwards by 2 from the
// end: 5, 3, 1; split 1 : 2 into (0, 1) and (2..5); unstacked rows stacked on axis 1 (the
// transpose again); input > 2.5 tiled twice: 0, 0, 0, 1, 1, 1 twice; copy<integer> itself.
TEST_CASE("nnef: shape operations on integer and logical tensors") {
  Folder f;
  const auto r = load_text(kCompositional + R"(graph G( input ) -> ( t, c, s, a, b, st, tl, cp ) {
    input = external(shape = [1, 6]);
    i = cast<integer>(input);
    m = reshape(i, shape = [2, 3]);
    t = cast<scalar>(transpose(m, axes = [1, 0]));
    c = cast<scalar>(concat([i, i], axis = 1));
    s = cast<scalar>(slice(i, axes = [1], begin = [-1], end = [-7], stride = [-2]));
    [ia, ib] = split(i, axis = 1, ratios = [1, 2]);
    a = cast<scalar>(ia);
    b = cast<scalar>(ib);
    [r0, r1] = unstack(m, axis = 0);
    st = cast<scalar>(stack([r0, r1], axis = 1));
    tl = select(tile(gt(input, 2.5), repeats = [1, 2]), 1.0, 0.0);
    cp = cast<scalar>(copy(i));
})", f);
  REQUIRE(r.diagnostics.empty());
  const auto out = run_f64(r, {host({1, 6}, {0, 1, 2, 3, 4, 5})});
  CHECK(out[0] == std::vector<double>{0, 3, 1, 4, 2, 5});
  CHECK(out[1] == std::vector<double>{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5});
  CHECK(out[2] == std::vector<double>{5, 3, 1});
  CHECK(out[3] == std::vector<double>{0, 1});
  CHECK(out[4] == std::vector<double>{2, 3, 4, 5});
  CHECK(out[5] == std::vector<double>{0, 3, 1, 4, 2, 5});
  CHECK(out[6] == std::vector<double>{0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1});
  CHECK(out[7] == std::vector<double>{0, 1, 2, 3, 4, 5});
}
