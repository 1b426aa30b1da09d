// Metamorphic laws (issue 14): two graphs that compute the same function, built with drawn sizes
// and values, must give the same outputs (bit for bit where both evaluate the same operations in
// the same order, within a derived bound where they do not). Each law comes with a deliberately
// wrong variant that the same comparison must catch, so that a comparison that accepts anything
// cannot pass for a law that holds. rapidcheck draws the cases with a fixed seed and a bounded
// count, so CI is deterministic (docs/testing.md, "Metamorphic laws").
#include <catch2/catch.hpp>
#include <rapidcheck.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <sstream>

#include "formats/nnl/nnl.hpp"
#include "formats/tensor_files/npy.hpp"
#include "semantics/evaluate.hpp"
#include "temp_dir.hpp"

namespace nnref {
namespace {

constexpr uint64_t kSeed = 20261124;

// Runs a rapidcheck property with the fixed seed, `cases` successes and sizes up to `max_size`.
template <class Testable>
void check_law(const std::string& name, int cases, Testable&& testable) {
  rc::detail::TestParams params;
  params.seed = kSeed;
  params.maxSuccess = cases;
  params.maxSize = 10;
  rc::detail::TestMetadata meta;
  meta.id = name;
  meta.description = name;
  const rc::detail::TestResult result = rc::detail::checkTestable(std::forward<Testable>(testable), meta, params);
  std::ostringstream message;
  rc::detail::printResultMessage(result, message);
  INFO(name << ": " << message.str());
  CHECK(result.template is<rc::detail::SuccessResult>());
}

// ---- graphs and values ----

int64_t count(const std::vector<int64_t>& dims) {
  return std::accumulate(dims.begin(), dims.end(), int64_t{1}, std::multiplies<>());
}

HostTensor tensor(const std::vector<int64_t>& dims, std::vector<double> values) {
  return HostTensor{DType::F64, Shape::make(dims).value(), std::move(values)};
}

void set_param(Payload& p, const std::string& node, const std::string& role, const std::vector<int64_t>& dims,
               std::vector<double> values) {
  p.set(node, role, ParamEntry{tensor(dims, std::move(values)), "drawn"});
}

// n values k/7 for integers k in [-lo, hi]: most are not dyadic, so sums and products round.
std::vector<double> sevenths(int64_t n, int lo = 700, int hi = 700) {
  const std::vector<int> k = *rc::gen::container<std::vector<int>>(static_cast<size_t>(n), rc::gen::inRange(-lo, hi + 1));
  std::vector<double> v;
  for (int x : k) v.push_back(x / 7.0);
  return v;
}
// n dyadic values k/16 for integers k in [lo, hi]: products with powers of two and short sums
// of them are exact in double.
std::vector<double> sixteenths(int64_t n, int lo, int hi) {
  const std::vector<int> k = *rc::gen::container<std::vector<int>>(static_cast<size_t>(n), rc::gen::inRange(lo, hi + 1));
  std::vector<double> v;
  for (int x : k) v.push_back(x / 16.0);
  return v;
}

struct Model1 {
  Graph graph;
  Payload payload;
};

template <class T>
std::vector<Tensor<T>> run(const Model1& m, const std::vector<HostTensor>& inputs) {
  auto r = evaluate<T>(m.graph, m.payload, inputs, EvalOptions{});
  if (!r) RC_FAIL(format_diagnostic(r.error()));
  return std::move(r).value();
}

uint64_t bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
// Every output's scalars as the bits of doubles (float and double convert exactly).
template <class T>
std::vector<std::vector<uint64_t>> bits_of(const std::vector<Tensor<T>>& outputs) {
  std::vector<std::vector<uint64_t>> out;
  for (const Tensor<T>& t : outputs) {
    out.emplace_back();
    for (const T& x : t.data()) out.back().push_back(bits(static_cast<double>(x)));
  }
  return out;
}

// ---- 1×1 conv ≡ dense per pixel ----

// Both compute b[f] + Σ_c x[p, c]·W(c, f) as one dot_of, over c in ascending order from the bias
// (spec/ops/conv.hpp with a 1×1 window, spec/ops/linear.hpp): the same operations in the same
// order, so the same bits in every scalar that rounds (float, double).
struct ConvDense {
  Model1 conv, dense;
  std::vector<HostTensor> conv_input, dense_input;
};

ConvDense conv_and_dense(bool wrong) {
  const int64_t n = *rc::gen::inRange(1, 3), h = *rc::gen::inRange(1, 5), w = *rc::gen::inRange(1, 5);
  const int64_t c = *rc::gen::inRange(wrong ? 2 : 1, 6), f = *rc::gen::inRange(1, 6);
  const std::vector<double> weight = sevenths(f * c), bias = sevenths(f);
  std::vector<double> x = sevenths(n * h * w * c);
  ConvDense m;
  ConvAttrs a;
  a.out_channels = f;
  a.kernel = {1, 1};
  a.pad_mode = PadMode::Valid;
  a.layout = Layout::ChannelsLast;
  m.conv.graph.add("x", InputAttrs{{n, h, w, c}});
  m.conv.graph.add("conv", a, {ValueRef{0, 0}});
  m.conv.graph.outputs.push_back({"y", ValueRef{1, 0}});
  set_param(m.conv.payload, "conv", "weight", {f, c, 1, 1}, weight);
  set_param(m.conv.payload, "conv", "bias", {f}, bias);
  // The wrong variant reads the channels in reverse order; a first pixel (1, 0, …, 0) makes its
  // output there W(0, f) against W(C−1, f), which differ (they are drawn until they do).
  std::vector<double> w_dense(static_cast<size_t>(c * f));
  for (int64_t ci = 0; ci < c; ++ci)
    for (int64_t fi = 0; fi < f; ++fi)
      w_dense[static_cast<size_t>(ci * f + fi)] = weight[static_cast<size_t>(fi * c + (wrong ? c - 1 - ci : ci))];
  if (wrong) {
    RC_PRE(weight[0] != weight[static_cast<size_t>(c - 1)]);
    for (int64_t ci = 0; ci < c; ++ci) x[static_cast<size_t>(ci)] = ci == 0 ? 1.0 : 0.0;
  }
  m.dense.graph.add("pixels", InputAttrs{{n * h * w, c}});
  m.dense.graph.add("dense", LinearAttrs{f, WeightLayout::InOut, true}, {ValueRef{0, 0}});
  m.dense.graph.outputs.push_back({"y", ValueRef{1, 0}});
  set_param(m.dense.payload, "dense", "weight", {c, f}, w_dense);
  set_param(m.dense.payload, "dense", "bias", {f}, bias);
  m.conv_input = {tensor({n, h, w, c}, x)};
  m.dense_input = {tensor({n * h * w, c}, x)};  // [N, H, W, C] row-major is [N·H·W, C]: a pixel per row
  return m;
}

template <class T>
bool conv_equals_dense(const ConvDense& m) {
  return bits_of(run<T>(m.conv, m.conv_input)) == bits_of(run<T>(m.dense, m.dense_input));
}

TEST_CASE("laws: a 1x1 conv computes a dense layer per pixel, bit for bit") {
  check_law("1x1 conv = dense per pixel", 200, [] {
    const ConvDense m = conv_and_dense(false);
    RC_ASSERT(conv_equals_dense<double>(m));
    RC_ASSERT(conv_equals_dense<float>(m));
  });
  check_law("a dense layer reading the channels reversed is caught", 40, [] {
    const ConvDense m = conv_and_dense(true);
    RC_ASSERT(!conv_equals_dense<double>(m));
  });
}

// ---- concat then split ≡ identity ----

// Concat copies its inputs' scalars and split copies them back: no arithmetic, so every scalar
// (float, double, mp50, Interval) returns each input element as it read it.
struct ConcatSplit {
  Model1 model;
  std::vector<HostTensor> inputs;
};

ConcatSplit concat_split(bool swapped) {
  const int64_t rank = *rc::gen::inRange(1, 5);
  const int64_t axis = *rc::gen::inRange<int64_t>(0, rank);
  std::vector<int64_t> a_dims =
      *rc::gen::container<std::vector<int64_t>>(static_cast<size_t>(rank), rc::gen::inRange<int64_t>(1, 4));
  std::vector<int64_t> b_dims = a_dims;
  b_dims[static_cast<size_t>(axis)] = *rc::gen::inRange<int64_t>(1, 4);
  // Inputs of disjoint values (a ≥ 0 > b), any doubles among them (negative zero excluded from b).
  std::vector<double> a = sevenths(count(a_dims), 0, 100000), b = sevenths(count(b_dims), 100000, -1);
  for (size_t k = 0; k < a.size(); k += 3) a[k] = std::ldexp(a[k], *rc::gen::inRange(-1070, 1000));
  ConcatSplit m;
  Graph& g = m.model.graph;
  g.add("a", InputAttrs{a_dims});
  g.add("b", InputAttrs{b_dims});
  // The wrong variant concatenates b before a and splits at a's extent.
  const std::vector<ValueRef> order = swapped ? std::vector<ValueRef>{{1, 0}, {0, 0}} : std::vector<ValueRef>{{0, 0}, {1, 0}};
  g.add("concat", ConcatAttrs{axis, 0}, order);
  g.add("split", SplitAttrs{axis, {a_dims[static_cast<size_t>(axis)], b_dims[static_cast<size_t>(axis)]}}, {ValueRef{2, 0}});
  g.outputs = {{"a2", ValueRef{3, 0}}, {"b2", ValueRef{3, 1}}};
  m.inputs = {tensor(a_dims, a), tensor(b_dims, b)};
  return m;
}

// Each output has its input's shape and, element by element, the scalar T reads from it.
template <class T>
bool outputs_are_inputs(const ConcatSplit& m) {
  const std::vector<Tensor<T>> out = run<T>(m.model, m.inputs);
  for (size_t k = 0; k < 2; ++k) {
    if (out[k].shape() != m.inputs[k].shape) return false;
    for (size_t i = 0; i < m.inputs[k].values.size(); ++i) {
      const T& y = out[k].data()[i];
      const T x = from_double<T>(m.inputs[k].values[i]);
      if constexpr (std::is_same_v<T, Interval>) {
        if (lower(y) != lower(x) || upper(y) != upper(x)) return false;
      } else if (!(y == x)) {
        return false;
      }
    }
  }
  return true;
}

TEST_CASE("laws: concat then split at the same sizes is the identity in every scalar") {
  check_law("concat then split = identity", 200, [] {
    const ConcatSplit m = concat_split(false);
    RC_ASSERT(outputs_are_inputs<float>(m));
    RC_ASSERT(outputs_are_inputs<double>(m));
    RC_ASSERT(outputs_are_inputs<mp50>(m));
    RC_ASSERT(outputs_are_inputs<Interval>(m));
  });
  check_law("concat in the other order is caught", 40, [] { RC_ASSERT(!outputs_are_inputs<double>(concat_split(true))); });
}


// ---- BN folded into conv ≡ conv then BN ----

// Conv (weight W, bias b) then BatchNorm (γ, β, μ, σ², ε) against one conv with W'[f] = a_f·W[f]
// and b'_f = a_f·(b_f − μ_f) + β_f, a_f = γ_f / √(σ²_f + ε).
//
// The same real function, exactly: the values are drawn so that folding rounds nothing. ε = 2⁻¹⁰,
// σ²_f = s_f² − ε with s_f = k/4 (k = 1…8), so σ²_f + ε = s_f² and √ is s_f, both exact; γ_f =
// a_f·s_f with a_f = ±2^e (e = −2…2), so γ_f/s_f = a_f exactly; W, b, μ, β are multiples of 1/16
// of at most 10 bits, so a_f·W, b − μ, a_f·(b − μ) and + β are exact. Hence the rigorous interval
// enclosures of the two models (evaluate<Interval>) both contain the same real value, and must
// overlap element by element.
//
// The float64 results differ by rounding only. With u = 2⁻⁵³, γ_k = k·u/(1 − k·u) ≤ 1.01·k·u
// (k·u < 0.0099), n = C·kH·kW terms per output (fewer where "same" padding reads zeros), X = max|x|,
// and M_f = |b_f| + ‖W_f‖₁·X ≥ |b_f| + Σ|W||x| for every output of channel f:
// - the conv's dot product from its bias (left to right, n products and n sums) is within
//   γ_{n+1}·M_f of its real value y, so |ŷ| ≤ (1 + γ_{n+1})·M_f (Higham, Accuracy and Stability,
//   §3.1, with the bias as a term whose product is exact);
// - BatchNorm computes a_f and −a_f exactly (above), then β + ŷ·a_f + μ·(−a_f) as a dot of two
//   terms from β: both products exact (a_f is a power of two), two additions, within
//   γ_2·(|β_f| + |a_f|·|ŷ| + |a_f|·|μ_f|) of β + a_f·ŷ − a_f·μ, which is within |a_f|·γ_{n+1}·M_f of
//   the real result R;
// - the folded conv is within γ_{n+1}·(|b'_f| + |a_f|·‖W_f‖₁·X) of R.
// So |conv·BN − folded| ≤ |a_f|·γ_{n+1}·M_f + γ_2·(|β_f| + |a_f|·(1 + γ_{n+1})·M_f + |a_f|·|μ_f|)
//                        + γ_{n+1}·(|b'_f| + |a_f|·‖W_f‖₁·X),
// evaluated below in mp50 (166 bits) from the doubles; its own rounding, relative < 2⁻¹⁵⁰ over these
// few dozen operations on non-negative terms, is covered by a factor 1 + 2⁻¹⁴⁰.
struct Folding {
  Model1 separate, folded;
  std::vector<HostTensor> input;
  std::vector<mp50> bound;  // per output channel
};

Folding folding(bool forget_mean) {
  const int64_t n = *rc::gen::inRange(1, 3), c = *rc::gen::inRange(1, 4), f = *rc::gen::inRange(1, 4);
  const int64_t kh = *rc::gen::inRange(1, 4), kw = *rc::gen::inRange(1, 4);
  const int64_t h = *rc::gen::inRange<int64_t>(kh, 6), w = *rc::gen::inRange<int64_t>(kw, 6);
  ConvAttrs conv;
  conv.out_channels = f;
  conv.kernel = {kh, kw};
  conv.stride = {*rc::gen::inRange(1, 3), *rc::gen::inRange(1, 3)};
  conv.pad_mode = *rc::gen::element(PadMode::Valid, PadMode::SameUpper);
  conv.layout = Layout::ChannelsLast;
  const std::vector<double> W = sixteenths(f * c * kh * kw, -511, 511), b = sixteenths(f, -511, 511);
  const std::vector<double> beta = sixteenths(f, -511, 511);
  // μ ≠ 0, so that the wrong variant (which forgets it) computes another function.
  std::vector<double> mu = sixteenths(f, 1, 511);
  for (double& m : mu) m *= *rc::gen::element(-1.0, 1.0);
  const double eps = std::ldexp(1.0, -10);
  std::vector<double> a, gamma, var;
  for (int64_t k = 0; k < f; ++k) {
    a.push_back(std::ldexp(*rc::gen::element(-1.0, 1.0), *rc::gen::inRange(-2, 3)));
    const double s = *rc::gen::inRange(1, 9) / 4.0;
    gamma.push_back(a.back() * s);
    var.push_back(s * s - eps);
  }
  const std::vector<double> x = sevenths(n * h * w * c);
  Folding m;
  m.input = {tensor({n, h, w, c}, x)};
  Graph& g = m.separate.graph;
  g.add("x", InputAttrs{{n, h, w, c}});
  g.add("conv", conv, {ValueRef{0, 0}});
  g.add("bn", BatchNormAttrs{Real(eps, "0.0009765625"), -1}, {ValueRef{1, 0}});
  g.outputs.push_back({"y", ValueRef{2, 0}});
  set_param(m.separate.payload, "conv", "weight", {f, c, kh, kw}, W);
  set_param(m.separate.payload, "conv", "bias", {f}, b);
  set_param(m.separate.payload, "bn", "scale", {f}, gamma);
  set_param(m.separate.payload, "bn", "offset", {f}, beta);
  set_param(m.separate.payload, "bn", "mean", {f}, mu);
  set_param(m.separate.payload, "bn", "variance", {f}, var);

  std::vector<double> W2(W.size()), b2(static_cast<size_t>(f));
  const auto per_filter = static_cast<size_t>(c * kh * kw);
  for (size_t k = 0; k < static_cast<size_t>(f); ++k) {
    for (size_t i = 0; i < per_filter; ++i) W2[k * per_filter + i] = a[k] * W[k * per_filter + i];
    b2[k] = a[k] * (b[k] - (forget_mean ? 0.0 : mu[k])) + beta[k];
  }
  m.folded.graph.add("x", InputAttrs{{n, h, w, c}});
  m.folded.graph.add("conv", conv, {ValueRef{0, 0}});
  m.folded.graph.outputs.push_back({"y", ValueRef{1, 0}});
  set_param(m.folded.payload, "conv", "weight", {f, c, kh, kw}, W2);
  set_param(m.folded.payload, "conv", "bias", {f}, b2);

  mp50 X = 0;
  for (double v : x) X = std::max(X, mp50(std::fabs(v)));
  const mp50 u = mp50(std::ldexp(1.0, -53));
  const mp50 gn = mp50(1.01) * static_cast<double>(per_filter + 1) * u, g2 = mp50(1.01) * 2 * u;
  for (size_t k = 0; k < static_cast<size_t>(f); ++k) {
    mp50 l1 = 0;
    for (size_t i = 0; i < per_filter; ++i) l1 += std::fabs(W[k * per_filter + i]);
    const mp50 M = std::fabs(b[k]) + l1 * X, A = std::fabs(a[k]);
    const mp50 bound = A * gn * M + g2 * (std::fabs(beta[k]) + A * (1 + gn) * M + A * std::fabs(mu[k])) +
                       gn * (std::fabs(b2[k]) + A * l1 * X);
    m.bound.push_back(bound * (1 + mp50(std::ldexp(1.0, -140))));
  }
  return m;
}

// The enclosures overlap everywhere and the float64 results are within the bound.
bool same_function(const Folding& m) {
  const std::vector<Tensor<Interval>> i1 = run<Interval>(m.separate, m.input), i2 = run<Interval>(m.folded, m.input);
  const std::vector<Tensor<double>> d1 = run<double>(m.separate, m.input), d2 = run<double>(m.folded, m.input);
  const size_t channels = m.bound.size();
  for (size_t k = 0; k < d1[0].data().size(); ++k) {
    const Interval &p = i1[0].data()[k], &q = i2[0].data()[k];
    if (upper(p) < lower(q) || upper(q) < lower(p)) return false;
    // The difference of two doubles is exact in mp50's 166 bits.
    if (!(boost::multiprecision::abs(mp50(d1[0].data()[k]) - mp50(d2[0].data()[k])) <= m.bound[k % channels])) return false;
  }
  return true;
}

TEST_CASE("laws: batch norm folded into the conv before it computes the same function") {
  check_law("conv then BN = BN folded into conv", 150, [] { RC_ASSERT(same_function(folding(false))); });
  check_law("a fold that forgets the running mean is caught", 30, [] { RC_ASSERT(!same_function(folding(true))); });
}

// ---- a permutation then its inverse ≡ identity ----

// Transposes copy scalars: the composition returns the input, bit for bit. The wrong variant
// composes the permutation with its inverse followed by a swap of two axes of extent ≥ 2, which
// moves some element: the inputs are all distinct.
struct Permuted {
  Model1 model;
  HostTensor input;
};

Permuted permuted(bool wrong) {
  const int64_t rank = *rc::gen::inRange(wrong ? 2 : 1, 6);
  const std::vector<int64_t> dims =
      *rc::gen::container<std::vector<int64_t>>(static_cast<size_t>(rank), rc::gen::inRange<int64_t>(wrong ? 2 : 1, 4));
  // A drawn permutation: the axes sorted by drawn keys.
  const std::vector<int> keys = *rc::gen::container<std::vector<int>>(static_cast<size_t>(rank), rc::gen::arbitrary<int>());
  std::vector<int64_t> perm(static_cast<size_t>(rank));
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(),
                   [&](int64_t i, int64_t j) { return keys[static_cast<size_t>(i)] < keys[static_cast<size_t>(j)]; });
  std::vector<int64_t> inverse(perm.size());
  for (size_t k = 0; k < perm.size(); ++k) inverse[static_cast<size_t>(perm[k])] = static_cast<int64_t>(k);
  if (wrong) {
    const int64_t i = *rc::gen::inRange<int64_t>(0, rank);
    const int64_t j = (i + *rc::gen::inRange<int64_t>(1, rank)) % rank;
    std::swap(inverse[static_cast<size_t>(i)], inverse[static_cast<size_t>(j)]);
  }
  std::vector<double> x;
  for (int64_t k = 0; k < count(dims); ++k) x.push_back(static_cast<double>(k) / 7.0 - 3.0);
  Permuted m{{}, tensor(dims, x)};
  m.model.graph.add("x", InputAttrs{dims});
  m.model.graph.add("forth", TransposeAttrs{perm}, {ValueRef{0, 0}});
  m.model.graph.add("back", TransposeAttrs{inverse}, {ValueRef{1, 0}});
  m.model.graph.outputs.push_back({"y", ValueRef{2, 0}});
  return m;
}

template <class T>
bool returns_input(const Permuted& m) {
  const std::vector<Tensor<T>> out = run<T>(m.model, {m.input});
  if (out[0].shape() != m.input.shape) return false;
  for (size_t k = 0; k < m.input.values.size(); ++k)
    if (bits(static_cast<double>(out[0].data()[k])) != bits(static_cast<double>(from_double<T>(m.input.values[k])))) return false;
  return true;
}

TEST_CASE("laws: a transpose then its inverse is the identity, bit for bit") {
  check_law("transpose then inverse = identity", 200, [] {
    const Permuted m = permuted(false);
    RC_ASSERT(returns_input<double>(m));
    RC_ASSERT(returns_input<float>(m));
  });
  check_law("a transpose then a non-inverse is caught", 40, [] { RC_ASSERT(!returns_input<double>(permuted(true))); });
}

// ---- dropout ≡ identity, through the NNL front-end ----

// NNL's Dropout is the identity at inference (its rate is ignored): a chain of Dense layers with
// a Dropout somewhere reads as the same function as the chain without it, and its copy changes no
// bit. The wrong variant has a Sigmoid where the Dropout was (σ(x) = x only at one irrational point).
struct DropoutPair {
  std::string with, without;
  NamedTensors weights;
  HostTensor input;
};

DropoutPair dropout_pair(bool wrong) {
  const int64_t in = *rc::gen::inRange(1, 7), layers = *rc::gen::inRange(1, 4);
  const int64_t at = *rc::gen::inRange<int64_t>(0, layers + 1);  // after the Input (0) or Dense `at`
  const std::string rate = *rc::gen::element<std::string>("0", "0.25", "0.5", "0.9");
  const std::string head = "version 0.2;\nmodel chain {\n  config { precision: \"float64\"; weights: \"./w.npz\"; }\n"
                           "  layer input = Input(shape: [" + std::to_string(in) + "]);\n";
  DropoutPair p{head, head, {}, tensor({1, in}, sevenths(in))};
  const std::string dropout = wrong ? "  layer drop = Sigmoid();\n" : "  layer drop = Dropout(rate: " + rate + ");\n";
  if (at == 0) p.with += dropout;
  int64_t width = in;
  for (int64_t k = 1; k <= layers; ++k) {
    const int64_t units = *rc::gen::inRange(1, 7);
    const std::string act = *rc::gen::element<std::string>("none", "relu", "sigmoid");
    const std::string id = "fc" + std::to_string(k);
    const std::string line = "  layer " + id + " = Dense(units: " + std::to_string(units) + ", activation: \"" + act + "\");\n";
    p.with += line;
    p.without += line;
    if (at == k) p.with += dropout;
    p.weights.emplace_back(id + ".weight", tensor({width, units}, sevenths(width * units)));
    p.weights.emplace_back(id + ".bias", tensor({units}, sevenths(units)));
    width = units;
  }
  p.with += "}\n";
  p.without += "}\n";
  return p;
}

// The two models' outputs, read from NNL text and evaluated in T.
template <class T>
std::pair<std::vector<std::vector<uint64_t>>, std::vector<std::vector<uint64_t>>> dropout_outputs(const DropoutPair& p) {
  test::TempDir dir("laws_dropout");
  if (!write_npz((dir / "w.npz").string(), p.weights)) RC_FAIL("cannot write the weights");
  std::vector<std::vector<std::vector<uint64_t>>> out;
  for (const std::string* text : {&p.with, &p.without}) {
    LoadResult r = load_nnl_text(*text, (dir / "m.nnl").string(), LoadOptions{});
    if (r.has_errors()) RC_FAIL(format_diagnostic(r.diagnostics[0]) + "\n" + *text);
    out.push_back(bits_of(run<T>(Model1{r.model->graph, r.model->payload}, {p.input})));
  }
  return {out[0], out[1]};
}

TEST_CASE("laws: an NNL Dropout layer changes nothing") {
  check_law("dropout = identity", 80, [] {
    const DropoutPair p = dropout_pair(false);
    const auto d = dropout_outputs<double>(p);
    RC_ASSERT(d.first == d.second);
    const auto f = dropout_outputs<float>(p);
    RC_ASSERT(f.first == f.second);
  });
  check_law("a Sigmoid in the Dropout's place is caught", 30, [] {
    const auto d = dropout_outputs<double>(dropout_pair(true));
    RC_ASSERT(d.first != d.second);
  });
}

}  // namespace
}  // namespace nnref
