// The @lower interpreter (formats/nnef2_model/lower.cpp, the contract op):
// operators of the document and standard operators without a native mapping run
// from their @lower bodies, checked against values worked out by hand from the
// draft's text (double arithmetic here, not nnref's); a guarded access, a
// condition, a `>=` reduction and the refusals, each with its code. The
// cross-check of native and lowered kernels is sknd_lower_test_crosscheck.cpp.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "formats/nnef2_model/nnef2_model.hpp"
#include "semantics/evaluate.hpp"

using namespace nnref;

namespace {

LoadResult load_text(const std::string& text, bool lowered = false) {
  LoadOptions o{WeightsPolicy::Skip};
  o.sknd_lowered = lowered;
  return load_nnef2_text(text, "main.sknd", ".", o);
}

// The first error of a document that must not load.
Diagnostic refusal(const std::string& text) {
  const LoadResult r = load_text(text);
  REQUIRE(r.has_errors());
  for (const Diagnostic& d : r.diagnostics)
    if (d.severity == Severity::Error) return d;
  return {};
}

// The outputs of a document in f64, its inputs given row-major.
std::vector<std::vector<double>> run(const std::string& text, const std::vector<HostTensor>& inputs,
                                     bool lowered = false) {
  const LoadResult r = load_text(text, lowered);
  std::string diagnostics;
  for (const Diagnostic& d : r.diagnostics) diagnostics += d.code + ": " + d.message + "\n";
  INFO(diagnostics);
  REQUIRE_FALSE(r.has_errors());
  const Model& m = *r.model;
  auto out = evaluate<double>(m.graph, m.payload, inputs, EvalOptions{int64_t{1} << 28, m.param_keys});
  if (!out) FAIL(out.error().message);
  std::vector<std::vector<double>> values;
  for (const Tensor<double>& t : *out) values.emplace_back(t.data().begin(), t.data().end());
  return values;
}

HostTensor tensor(std::vector<int64_t> shape, std::vector<double> values) {
  return HostTensor{DType::F64, Shape::make(std::move(shape)).value(), std::move(values)};
}

// A graph whose @compose is `body`, from x (and more inputs) to y.
std::string composed(const std::string& inputs, const std::string& output, const std::string& body,
                     const std::string& operators = "") {
  return "version 2.0;\nimport math nn layout;\n" + operators + "graph G {\n  @input { " + inputs +
         " }\n  @output { y: real[" + output + "]; }\n  @compose { " + body + " }\n}\n";
}

// A graph of one invocation `call` from x (and more inputs) to y.
std::string graph(const std::string& inputs, const std::string& output, const std::string& call,
                  const std::string& operators = "") {
  return composed(inputs, output, "y = " + call + ";", operators);
}

void check_close(const std::vector<double>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t k = 0; k < got.size(); ++k) {
    INFO("element " << k);
    CHECK(got[k] == Approx(want[k]).epsilon(1e-14).margin(1e-300));
  }
}

}  // namespace

TEST_CASE(
    "sknd lower: standard operators without a native mapping run from "
    "their @lower bodies",
    "[nnef2]") {
  const std::vector<double> x = {-2.5, -1.0, -0.25, 0.0, 0.5, 3.0};
  const HostTensor in = tensor({2, 3}, x);
  const auto each = [&](auto f) {
    std::vector<double> out;
    for (double v : x) out.push_back(f(v));
    return out;
  };
  // math.clamp: y = x < a ? a : x > b ? b : x, with a = -1 and b = 2 (broadcast
  // scalars).
  check_close(run(graph("x: real[2, 3]; a: real[]; b: real[];", "2, 3", "math.clamp(x, a, b)"),
                  {in, tensor({}, {-1.0}), tensor({}, {2.0})})[0],
              each([](double v) { return v < -1.0  ? -1.0
                                         : v > 2.0 ? 2.0
                                                   : v; }));
  // nn.silu: x / (1 + exp(-x)).
  check_close(run(graph("x: real[2, 3];", "2, 3", "nn.silu(x)"), {in})[0],
              each([](double v) { return v / (1.0 + std::exp(-v)); }));
  // nn.selu: lambda · (x < 0 ? alpha · (exp(x) − 1) : x), its defaults read
  // from the draft.
  check_close(run(graph("x: real[2, 3];", "2, 3", "nn.selu{alpha=1.5, lambda=2.0}(x)"), {in})[0],
              each([](double v) { return 2.0 * (v < 0.0 ? 1.5 * (std::exp(v) - 1.0) : v); }));
  // nn.thresholded_relu: x > theta ? x : 0.
  check_close(run(graph("x: real[2, 3];", "2, 3", "nn.thresholded_relu{theta=0.25}(x)"), {in})[0],
              each([](double v) { return v > 0.25 ? v : 0.0; }));
}

TEST_CASE("sknd lower: layout.pad remaps and skips guarded indices", "[nnef2]") {
  const HostTensor in = tensor({4}, {1.0, 2.0, 3.0, 4.0});
  const auto pad = [&](const std::string& attributes) {
    return run(graph("x: real[4];", "8", "layout.pad{padding=[2, 2], " + attributes + "}(x)"), {in})[0];
  };
  // §4.1 pad: REFLECT mirrors about the edge element, REPLICATE repeats it,
  // SYMMETRIC mirrors including it; CONSTANT fills with the value.
  CHECK(pad("method='REFLECT'") == std::vector<double>{3, 2, 1, 2, 3, 4, 3, 2});
  CHECK(pad("method='REPLICATE'") == std::vector<double>{1, 1, 1, 2, 3, 4, 4, 4});
  CHECK(pad("method='SYMMETRIC'") == std::vector<double>{2, 1, 1, 2, 3, 4, 4, 3});
}

namespace {

// Operators of the document, each exercising one construct of §2.11.
const char* kOwnOperators = R"(
operator smooth {
    @attrib { w: int; }
    @input { x: real[s]; }
    @output { y: real[s]; }
    @lower {
        y[i] += x[|i + j - w / 2|] / real(w),
            i < s, j < w;
    }
}
operator even_sum {
    @input { x: real[s]; }
    @output { y: real[]; }
    @lower {
        y[] += x[i],
            i < s | i % 2 == 0;
    }
}
operator row_max {
    @input { x: real[m, n]; }
    @output { y: real[m]; }
    @lower {
        y[i] >= x[i, j],
            i < m, j < n;
    }
}
operator strided {
    @attrib { d: int; }
    @input { x: real[s]; }
    @output { y: real[s]; }
    @lower {
        y[i] = x[i / d],
            i < s;
    }
}
operator shifted {
    @input { x: real[s]; }
    @output { y: real[s]; }
    @lower {
        y[i] = x[i + 1],
            i < s;
    }
}
operator int_as_real {
    @input { x: int[s..]; }
    @output { y: real[s..]; }
    @lower {
        y[i..] = real(x[i..]),
            i < s;
    }
}
operator bool_as_real {
    @input { c: bool[s..]; }
    @output { y: real[s..]; }
    @lower {
        y[i..] = c[i..] ? 1.0 : 0.0,
            i < s;
    }
}
operator positive_rows {
    @input { x: real[m, n]; }
    @output { y: bool[m]; }
    @lower {
        y[i] &= x[i, j] > 0.0,
            i < m, j < n;
    }
}
operator last_max {
    @input { x: real[n]; }
    @output { y: int[]; }
    @lower {
        y[] = 0;
        y[] := i,
            i < n | x[i] >= x[y[]];
    }
}
operator no_initial_value {
    @input { x: real[n]; }
    @output { y: int[]; }
    @lower {
        y[] := i,
            i < n | x[i] > x[y[]];
    }
}
operator int_ops {
    @input { k: int[n]; }
    @output { q: int[n]; }
    @lower {
        q[i] = k[i] / 2 * 10 + k[i] % 3,
            i < n;
    }
}
operator pack_sum {
    @input { xs: real[m, n]..(k); }
    @output { y: real[m, n]; }
    @lower {
        unroll..(ki -> k)
            y[i, j] += xs[ki][i, j] * real(ki + 1),
                i < m, j < n;
    }
}
operator add_to_all {
    @input { xs: real[n, m, k]; z: real[n, m]; }
    @output { ys: real[n, m, k]; }
    @lower {
        ys[ni, mi, :] = xs[ni, mi, :] + z[ni, mi],
            ni < n, mi < m;
    }
}
operator max_idx_2d {
    @input { x: real[m, n]; }
    @output { idx: int[2]; }
    @lower {
        idx[:,] = 0;
        idx[:,] := [i, j],
            i < m, j < n | x[i, j] > x[idx[:,]..];
    }
}
operator unrolled_without_index {
    @input { x: real[n]; }
    @output { y: real[n]; }
    @lower {
        unroll..(2)
            y[i] += x[i],
                i < n;
    }
}
operator summed_bools {
    @input { x: real[n]; }
    @output { y: real[]; }
    @lower {
        y[] += x[i] > 0.0,
            i < n;
    }
}
)";

}  // namespace

TEST_CASE("sknd lower: a guarded access, a condition, a >= reduction", "[nnef2]") {
  const HostTensor x = tensor({5}, {1.0, 2.0, 4.0, 8.0, 16.0});
  // The draft's smoothing example (§2.11), w = 3: y[i] = Σ_j x[i + j − 1] / 3
  // over the j in bounds.
  check_close(run(graph("x: real[5];", "5", "smooth{w=3}(x)", kOwnOperators), {x})[0],
              {3.0 / 3, 7.0 / 3, 14.0 / 3, 28.0 / 3, 24.0 / 3});
  // Only the even positions: 1 + 4 + 16.
  CHECK(run(graph("x: real[5];", "", "even_sum(x)", kOwnOperators), {x})[0] == std::vector<double>{21.0});
  // `>=` is the maximum assignment of §2.16's grammar (`>?=` in §2.11's text).
  CHECK(run(graph("x: real[2, 3];", "2", "row_max(x)", kOwnOperators), {tensor({2, 3}, {1, 7, -2, -5, -3, -4})})[0] ==
        std::vector<double>{7.0, -3.0});
}

// Int and bool results of @lower bodies, read back as reals by operators of the document. The
// standard operators here are mapped natively too: they run lowered (--sknd-kernels lowered).
TEST_CASE("sknd lower: updates under a condition on the data, int and bool results", "[nnef2]") {
  const bool lowered = true;
  const HostTensor x = tensor({2, 3}, {1.0, 5.0, 5.0, 7.0, -2.0, 3.0});
  // math.argmax along axis 1: the first maximum of each row (5 at 1; 7 at 0), kept axis.
  CHECK(run(composed("x: real[2, 3];", "2, 1", "k = math.argmax{axis=1}(x); y = int_as_real(k);", kOwnOperators), {x},
            lowered)[0] == std::vector<double>{1.0, 0.0});
  // Along axis 0 (columns [1, 7], [5, -2], [5, 3]), squeezed: [1, 0, 0].
  CHECK(run(composed("x: real[2, 3];", "3", "k = math.argmin{axis=0, squeeze=true}(x); y = int_as_real(k);",
                     kOwnOperators),
            {x}, lowered)[0] == std::vector<double>{0.0, 1.0, 1.0});
  // §2.4's int arithmetic: `/` floors and `%` takes the divisor's sign, k / 2 · 10 + k % 3 of
  // [−7, 7, −8] is [−4 · 10 + 2, 3 · 10 + 1, −4 · 10 + 1].
  CHECK(run(composed("k: int[3];", "3", "q = int_ops(k); y = int_as_real(q);", kOwnOperators),
            {HostTensor{DType::I64, Shape::make({3}).value(), {-7, 7, -8}}})[0] == std::vector<double>{-38, 31, -39});
  // `>=` in the condition moves to the last maximum: 2 in [3, 9, 2, 9, 1] is 3.
  CHECK(run(composed("x: real[5];", "", "k = last_max(x); y = int_as_real(k);", kOwnOperators),
            {tensor({5}, {3.0, 9.0, 2.0, 9.0, 1.0})})[0] == std::vector<double>{3.0});
  // `unroll..(ki -> k)`: ki an outermost loop over the pack, 1·[1, 2] + 2·[10, 20] + 3·[100, 200].
  CHECK(run(graph("a: real[1, 2]; b: real[1, 2]; c: real[1, 2];", "1, 2", "pack_sum([a, b, c])", kOwnOperators),
            {tensor({1, 2}, {1, 2}), tensor({1, 2}, {10, 20}), tensor({1, 2}, {100, 200})})[0] ==
        std::vector<double>{321.0, 642.0});
  // quant.zero_point_linear_quantize, lowered: q = zp + int(round(x / scale)) clamped to [−128, 127]
  // (8 signed bits), then (q − zp) · scale, round being ⌊x + ½⌋ and int() truncating: 0.3 / 0.5 →
  // 1 → 0.5; −1.26 / 0.5 = −2.52 → −3 → −1.5; 100 / 0.5 = 200 → 203 → 127 → 62; −0.74 / 0.25 =
  // −2.96 → −3 → −0.75.
  CHECK(run(graph("x: real[1, 4];", "1, 4",
                  "quant.zero_point_linear_quantize{zero_point=[3, 3, 3, 3], scale=[0.5, 0.5, 0.5, 0.25], bits=8}(x)",
                  "import quant;\n"),
            {tensor({1, 4}, {0.3, -1.26, 100.0, -0.74})})[0] == std::vector<double>{0.5, -1.5, 62.0, -0.75});
  // `&=`: whether every element of a row is positive (row 1 holds −2).
  CHECK(run(composed("x: real[2, 3];", "2", "c = positive_rows(x); y = bool_as_real(c);", kOwnOperators), {x})[0] ==
        std::vector<double>{1.0, 0.0});
  // math.lt, math.select on its truth values, any_reduce and all_reduce over axis 1.
  const HostTensor z = tensor({2, 3}, {2.0, 5.0, 4.0, 0.0, 0.0, 0.0});
  const std::string both = "x: real[2, 3]; z: real[2, 3];";
  const auto reduced = [&](const std::string& body) {
    return run(composed(both, "2, 1", body, kOwnOperators), {x, z}, lowered)[0];
  };
  CHECK(run(composed(both, "2, 3", "c = math.lt(x, z); y = bool_as_real(c);", kOwnOperators), {x, z}, lowered)[0] ==
        std::vector<double>{1, 0, 0, 0, 1, 0});
  CHECK(run(composed(both, "2, 3", "c = math.lt(x, z); y = math.select(c, x, z);", kOwnOperators), {x, z},
            lowered)[0] == std::vector<double>{1, 5, 4, 0, -2, 0});
  CHECK(reduced("c = math.lt(x, z); a = math.any_reduce{axes=[1]}(c); y = bool_as_real(a);") ==
        std::vector<double>{1, 1});
  CHECK(reduced("c = math.ge(x, z); a = math.all_reduce{axes=[1]}(c); y = bool_as_real(a);") ==
        std::vector<double>{0, 0});
}

// layout.scatter (§4, its @lower: y = data, then y[si.., indices[si.., mi, ti..], ti..] := updates[…]):
// the update's target moved by the data. x = [[1, 2, 3], [4, 5, 6]], k = [[2, 0], [1, 1]], u = [[10,
// 20], [30, 40]]: along axis 1 row 0 takes 10 at 2 and 20 at 0, row 1 30 then 40 at 1 (loop order);
// along axis 0, k = [[1, 0, 1]] and u = [[7, 8, 9]] write row 1 at columns 0 and 2, row 0 at 1.
TEST_CASE("sknd lower: layout.scatter, gather_nd and scatter_nd read and write where their indices say", "[nnef2]") {
  const HostTensor x = tensor({2, 3}, {1, 2, 3, 4, 5, 6});
  const auto ints = [](std::vector<int64_t> shape, std::vector<double> v) {
    return HostTensor{DType::I64, Shape::make(std::move(shape)).value(), std::move(v)};
  };
  CHECK(run(graph("x: real[2, 3]; k: int[2, 2]; u: real[2, 2];", "2, 3", "layout.scatter{axis=1}(x, k, u)"),
            {x, ints({2, 2}, {2, 0, 1, 1}), tensor({2, 2}, {10, 20, 30, 40})})[0] ==
        std::vector<double>{20, 2, 10, 4, 40, 6});
  CHECK(run(graph("x: real[2, 3]; k: int[1, 3]; u: real[1, 3];", "2, 3", "layout.scatter{axis=0}(x, k, u)"),
            {x, ints({1, 3}, {1, 0, 1}), tensor({1, 3}, {7, 8, 9})})[0] == std::vector<double>{1, 8, 3, 7, 5, 9});
  // An index outside the axis names no element: every element is NaN.
  const std::vector<double> outside =
      run(graph("x: real[2, 3]; k: int[2, 2]; u: real[2, 2];", "2, 3", "layout.scatter{axis=1}(x, k, u)"),
          {x, ints({2, 2}, {2, 0, 3, 1}), tensor({2, 2}, {10, 20, 30, 40})})[0];
  CHECK(std::all_of(outside.begin(), outside.end(), [](double v) { return std::isnan(v); }));
  // gather_nd and scatter_nd read one index per element of an index row (`indices[bi.., zi.., :]..`):
  // x at [1, 2], [0, 0], [1, 0] is [6, 1, 4]; rows [1] and [0] of x set to u's rows swaps them.
  CHECK(run(graph("x: real[2, 3]; k: int[3, 2];", "3", "layout.gather_nd(x, k)"),
            {x, ints({3, 2}, {1, 2, 0, 0, 1, 0})})[0] == std::vector<double>{6, 1, 4});
  CHECK(run(graph("x: real[2, 3]; k: int[2, 1]; u: real[2, 3];", "2, 3", "layout.scatter_nd(x, k, u)"),
            {x, ints({2, 1}, {1, 0}), tensor({2, 3}, {7, 8, 9, 10, 11, 12})})[0] ==
        std::vector<double>{10, 11, 12, 7, 8, 9});
}

// math.argmax_n and argmin_n (y[i..] := k where xs[k][i..] beats xs[y[i..]][i..]): the pack item a
// read takes is chosen by the data. Of a = [1, 5, 2, 0], b = [3, 5, 1, 0], c = [2, 9, 0, 0] the first
// largest is in [b, c, a, a] ([1, 2, 0, 0]: ties keep the earlier item) and the first smallest in
// [a, a, c, a] ([0, 0, 2, 0]).
TEST_CASE("sknd lower: argmax_n and argmin_n read the pack item the data choose", "[nnef2]") {
  const std::string inputs = "a: real[4]; b: real[4]; c: real[4];";
  const std::vector<HostTensor> abc = {tensor({4}, {1, 5, 2, 0}), tensor({4}, {3, 5, 1, 0}), tensor({4}, {2, 9, 0, 0})};
  CHECK(run(composed(inputs, "4", "k = math.argmax_n([a, b, c]); y = int_as_real(k);", kOwnOperators), abc)[0] ==
        std::vector<double>{1, 2, 0, 0});
  CHECK(run(composed(inputs, "4", "k = math.argmin_n([a, b, c]); y = int_as_real(k);", kOwnOperators), abc)[0] ==
        std::vector<double>{0, 0, 2, 0});
}

// §2.11's packed assignment: a `:` in the target writes a row at each point, one element per lane;
// an update's condition holds for the row at once.
TEST_CASE("sknd lower: packed assignments", "[nnef2]") {
  // The draft's add_to_all: ys[ni, mi, :] = xs[ni, mi, :] + z[ni, mi], xs [1, 2, 3], z [1, 2].
  CHECK(run(graph("x: real[1, 2, 3]; z: real[1, 2];", "1, 2, 3", "add_to_all(x, z)", kOwnOperators),
            {tensor({1, 2, 3}, {1, 2, 3, 4, 5, 6}), tensor({1, 2}, {10, 100})})[0] ==
        std::vector<double>{11, 12, 13, 104, 105, 106});
  // The draft's max_idx_2d: x = [[1, 3], [2, 0]] has its maximum at [0, 1] (one lane after the other
  // would give [1, 0]: the first lane, alone, sees only the column x[·, 0]).
  CHECK(run(composed("x: real[2, 2];", "2", "k = max_idx_2d(x); y = int_as_real(k);", kOwnOperators),
            {tensor({2, 2}, {1, 3, 2, 0})})[0] == std::vector<double>{0, 1});
  // math.argmax_nd over axes [2, 0] of x [2, 2, 3], squeezed: per kept b, the first maximum in the
  // input's row-major order, as [c, a]: b = 0 has 5 at (a, c) = (1, 2); b = 1 ties 4 at (0, 1) and
  // (1, 0), the first kept. argmin_nd over [0, 2], kept: the 0s at (0, 0) and (0, 2) come first.
  const HostTensor x = tensor({2, 2, 3}, {0, 1, 2, 3, 4, 0, 1, 0, 5, 4, 0, 0});
  CHECK(run(composed("x: real[2, 2, 3];", "2, 2",
                     "k = math.argmax_nd{axes=[2, 0], squeeze=true}(x); y = int_as_real(k);", kOwnOperators),
            {x})[0] == std::vector<double>{2, 1, 1, 0});
  CHECK(run(composed("x: real[2, 2, 3];", "1, 2, 1, 2", "k = math.argmin_nd{axes=[0, 2]}(x); y = int_as_real(k);",
                     kOwnOperators),
            {x})[0] == std::vector<double>{0, 0, 0, 2});
}

TEST_CASE("sknd lower: refusals", "[nnef2]") {
  // x[i + 1] at i = 4 reads past a tensor of 5: an unguarded access must be in
  // bounds.
  const std::string shifted = graph("x: real[5];", "5", "shifted(x)", kOwnOperators);
  Diagnostic d = refusal(shifted);
  INFO(d.message);
  CHECK(d.code == "nnef2.lower.out-of-bounds");
  CHECK(d.message.find("shifted") != std::string::npos);
  CHECK(d.message.find("[5]") != std::string::npos);  // the index values
  CHECK(d.message.find("i = 4") != std::string::npos);
  // The invocation (the graph's last component); the message locates the access
  // in the definition.
  CHECK(d.loc.line == std::count(shifted.begin(), shifted.end(), '\n') - 1);
  CHECK(d.message.find("main.sknd:42:17") != std::string::npos);
  // Index arithmetic divides by the attribute d: 0 is refused where the index is computed.
  d = refusal(graph("x: real[5];", "5", "strided{d=0}(x)", kOwnOperators));
  CHECK(d.code == "nnef2.eval.division-by-zero");
  CHECK(d.message.find("strided") != std::string::npos);
  CHECK(d.message.find("i = 0") != std::string::npos);
  // An unroll without an index; a truth value is not summed; `:=` needs an `=` before it (§2.11).
  d = refusal(graph("x: real[5];", "5", "unrolled_without_index(x)", kOwnOperators));
  CHECK(d.code == "nnef2.lower.unsupported");
  CHECK(d.message.find("an unrolled lowering without an index") != std::string::npos);
  d = refusal(graph("x: real[5];", "", "summed_bools(x)", kOwnOperators));
  CHECK(d.code == "nnef2.lower.unsupported");
  CHECK(d.message.find("a truth value as a number") != std::string::npos);
  d = refusal(composed("x: real[5];", "", "k = no_initial_value(x); y = int_as_real(k);", kOwnOperators));
  CHECK(d.code == "nnef2.lower.no-initial-value");
  CHECK(d.message.find("main.sknd:") != std::string::npos);
  // An operator of the document without @lower.
  d = refusal(
      graph("x: real[5];", "5", "nothing(x)", "operator nothing { @input { x: real[s]; } @output { y: real[s]; } }\n"));
  CHECK(d.code == "nnef2.op.no-native");
  d = refusal(graph("x: real[5];", "5", "missing(x)"));
  CHECK(d.code == "nnef2.op.unknown");
}

// §2.10's control flow in a graph, known at composition: the branch an attribute or an extent takes
// (a block's yields), and loops unrolled (carried values, scan inputs and outputs, an index count).
// x = [1, −2, 3], w = [0.5, 2, −1], values worked out by hand.
TEST_CASE("sknd compose: static if, blocks and unrolled loops", "[nnef2]") {
  const std::string text = R"(version 2.0;
import math;
graph G {
  @attrib { flag: bool = true; n: int = 3; }
  @input { x: real[3]; w: real[3]; }
  @output { a: real[3]; b: real[3]; c: real[3]; d: real[3]; e: real[3]; }
  @compose {
    a = if !flag then math.abs(x) else math.neg(x);
    b = if n > 5 then x elif n > 2 then { s = math.mul(x, x); t = math.add(s, x); yield t; } else w;
    c = with s = x for t : [x, w, w] do math.add(s, t);
    d = with s = x unroll..(i -> n) math.add(s, s);
    ys = for t : [x, w] do math.neg(t);
    e = math.sum_n(ys);
  }
}
)";
  const std::vector<HostTensor> in = {tensor({3}, {1, -2, 3}), tensor({3}, {0.5, 2, -1})};
  const auto out = run(text, in);
  REQUIRE(out.size() == 5);
  CHECK(out[0] == std::vector<double>{-1, 2, -3});    // −x
  CHECK(out[1] == std::vector<double>{2, 2, 12});     // x·x + x (3 > 2)
  CHECK(out[2] == std::vector<double>{3, 0, 4});      // 2x + 2w: s = x, then + x, + w, + w
  CHECK(out[3] == std::vector<double>{8, -16, 24});   // x doubled 3 times
  CHECK(out[4] == std::vector<double>{-1.5, 0, -2});  // −x − w
}

TEST_CASE("sknd compose: run-time control flow is refused by name", "[nnef2]") {
  const auto graph_with = [](const std::string& body) {
    return "version 2.0;\nimport math;\ngraph G {\n  @input { x: real[3]; }\n  @output { y: real[3]; }\n  @compose "
           "{\n" +
           body + "\n  }\n}\n";
  };
  // A condition read from a tensor, and a while loop.
  Diagnostic d = refusal(graph_with("c = math.lt(x, x);\n y = if c then math.neg(x) else x;"));
  CHECK(d.code == "nnef2.compose.control-flow");
  CHECK(d.message.find("read from a tensor") != std::string::npos);
  d = refusal(graph_with("y = with s = x while false do math.neg(s);"));
  CHECK(d.code == "nnef2.compose.control-flow");
}
