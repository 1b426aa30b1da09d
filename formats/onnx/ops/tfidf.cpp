// TfIdfVectorizer (opset 9): the counts of the pool's n-grams in integer data, an exact
// composition of IR ops. For each length n in [min_gram_length, max_gram_length] and each skip s
// in [0, max_skip_count] (s = 0 alone for n = 1: a unigram has no gaps), the n-gram starting at
// position i is (x[i], x[i + (s+1)], ..., x[i + (n−1)(s+1)]), for every i that keeps it inside the
// row (ONNX's definition; ONNX Runtime's and the reference implementation's walk). Its count for a
// pool n-gram g is
//   Σ_s Σ_i ∏_k [x[i + k(s+1)] − g_k = 0]
// computed for every pool n-gram of a length at once: the k-th shifted slice of x, unsqueezed to
// [..., 1, L], minus the pool's k-th column [P, 1] in integer arithmetic (exact: the difference is
// 0 exactly where they are equal, in every precision, where a compare of reals would round ids
// beyond 2^24 in a float32 run), compared with 0, the n comparisons and-ed, cast to 0/1 and summed
// over L. Every sum is an integer count, so the result is exact in every precision. The counts are
// then placed at their ngram_indexes (a gather of constant indices; a coordinate no pool n-gram
// counts reads a zero column), and weighted: TF the counts, IDF weight·[count > 0], TFIDF
// count·weight (weights by output coordinate, as ONNX Runtime and the reference apply them; 1
// when absent). Its size: P·L comparisons per length and skip, each refused by name past 2^26
// elements (onnx.shape-unsupported), instead of an IR op of its own: the composition is exact, and
// the writers, checker and envelope follow it.
#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"
#include "formats/onnx/tensor_proto.hpp"

namespace nnref::onnx_format {

namespace {

constexpr int64_t kMaxCompared = int64_t{1} << 26;  // elements of one comparison [..., P, L]

// The pool's n-grams by length: grams[n − 1] lists those of length n, in pool order.
struct Pool {
  std::vector<std::vector<std::vector<int64_t>>> grams;
  int64_t count = 0;  // of every length
};

Pool pool_of(Ctx& c) {
  if (c.has_attr("pool_strings"))
    c.refuse("onnx.type-unsupported", "pool_strings: nnref reads integer data and pool_int64s only");
  const std::vector<int64_t> pool = c.attr_ints("pool_int64s"), starts = c.attr_ints("ngram_counts");
  Pool p;
  for (size_t level = 0; level < starts.size(); ++level) {
    const auto n = static_cast<int64_t>(level + 1);
    const int64_t begin = starts[level];
    const int64_t end = level + 1 < starts.size() ? starts[level + 1] : static_cast<int64_t>(pool.size());
    if (begin < 0 || begin > end || end > static_cast<int64_t>(pool.size()) || (end - begin) % n != 0)
      c.refuse("onnx.attribute-value",
               "ngram_counts does not split pool_int64s into whole n-grams at level " + std::to_string(n));
    std::vector<std::vector<int64_t>> level_grams;
    for (int64_t at = begin; at < end; at += n) level_grams.emplace_back(pool.begin() + at, pool.begin() + at + n);
    p.count += static_cast<int64_t>(level_grams.size());
    p.grams.push_back(std::move(level_grams));
  }
  return p;
}

// The counts [..., P] of the n-grams `grams` (all of length n) in x (integers, rank `rank`, rows of
// `length`, `batch` of them), over skips 0..max_skip; nullopt when no n-gram fits in a row.
std::optional<ValueRef> level_counts(Ctx& c, ValueRef x, int64_t rank, int64_t batch, int64_t length,
                                     const std::vector<std::vector<int64_t>>& grams, int64_t max_skip) {
  const auto n = static_cast<int64_t>(grams[0].size()), count = static_cast<int64_t>(grams.size());
  const std::string level = "n" + std::to_string(n);
  std::optional<ValueRef> total;
  for (int64_t s = 0; s <= (n == 1 ? 0 : max_skip); ++s) {
    const int64_t span = s + 1, windows = length - (n - 1) * span;
    if (windows < 1) break;
    if (batch * count > kMaxCompared / windows)
      c.refuse("onnx.shape-unsupported", "matching " + std::to_string(count) + " pool n-grams of length " +
                                             std::to_string(n) + " against " + std::to_string(batch) + " × " +
                                             std::to_string(windows) + " positions compares more than 2^26 elements");
    const std::string at = level + "/s" + std::to_string(s);
    std::optional<ValueRef> match;
    for (int64_t k = 0; k < n; ++k) {
      const std::string name = at + "/k" + std::to_string(k);
      const ValueRef slice = c.emit(
          name + "/slice", SliceAttrs{{rank - 1}, {k * span}, {k * span + windows}, {1}, ElemKind::Integer}, {x});
      const ValueRef row = c.emit(name + "/unsqueeze", UnsqueezeAttrs{{rank - 1}, ElemKind::Integer}, {slice});
      std::vector<int64_t> column;
      for (const auto& g : grams) column.push_back(g[static_cast<size_t>(k)]);
      const ValueRef pool = c.literal(name + "/pool", integer_tensor(Shape::make({count, 1}).value(), column));
      const ValueRef diff = c.emit(name + "/diff", IntegerBinaryAttrs{IntegerOp::Sub}, {row, pool});
      const ValueRef real = c.emit(name + "/real", CastAttrs{ElemKind::Integer, ElemKind::Real}, {diff});
      const ValueRef equal = c.emit(name + "/equal", CompareAttrs{CompareOp::Eq, Broadcast::NumpyRight},
                                    {real, c.literal(name + "/zero", scalar_tensor(0))});
      match =
          match ? c.emit(name + "/and", LogicalAttrs{LogicalOp::And, Broadcast::NumpyRight}, {*match, equal}) : equal;
    }
    const ValueRef ones = c.emit(at + "/ones", CastAttrs{ElemKind::Logical, ElemKind::Real}, {*match});
    ReduceAttrs sum;
    sum.axes = {rank}, sum.keep_dims = false;
    const ValueRef counted = c.emit(at + "/count", sum, {ones});
    total = total ? binary(c, at + "/add", BinaryOp::Add, *total, counted) : counted;
  }
  return total;
}

void tfidf_vectorizer(Ctx& c) {
  const std::string mode = c.attr_string("mode", "");
  if (mode != "TF" && mode != "IDF" && mode != "TFIDF")
    c.refuse("onnx.attribute-value", "mode must be TF, IDF or TFIDF");
  const int64_t min_n = c.attr_int("min_gram_length", 0), max_n = c.attr_int("max_gram_length", 0);
  const int64_t max_skip = c.attr_int("max_skip_count", -1);
  if (min_n < 1 || max_n < min_n || max_skip < 0)
    c.refuse("onnx.attribute-value", "needs 1 <= min_gram_length <= max_gram_length and max_skip_count >= 0");
  const Pool pool = pool_of(c);
  const std::vector<int64_t> indexes = c.attr_ints("ngram_indexes");
  if (static_cast<int64_t>(indexes.size()) != pool.count)
    c.refuse("onnx.attribute-value", "ngram_indexes must give one coordinate per pool n-gram");
  if (std::set<int64_t>(indexes.begin(), indexes.end()).size() != indexes.size() ||
      std::any_of(indexes.begin(), indexes.end(), [](int64_t i) { return i < 0; }))
    c.refuse("onnx.attribute-unsupported", "ngram_indexes with a negative or repeated coordinate");
  const int64_t outputs = indexes.empty() ? 0 : *std::max_element(indexes.begin(), indexes.end()) + 1;
  if (outputs == 0) c.refuse("onnx.shape-unsupported", "an empty pool gives an empty output");
  std::vector<double> weights;
  if (const auto* w = c.attr("weights")) weights.assign(w->floats().begin(), w->floats().end());
  if (!weights.empty() && static_cast<int64_t>(weights.size()) != outputs)
    c.refuse("onnx.attribute-unsupported", "weights of a length other than the output's (max(ngram_indexes) + 1)");
  if (c.kind(0) != ElemKind::Integer) c.refuse("onnx.type-unsupported", "X must be an int32 or int64 tensor");
  if (!c.extents_fixed() && c.exact(0) == nullptr)
    c.refuse("onnx.shape-unsupported",
             "the row length must be known when the model is read (the n-gram windows "
             "are slices of it), and the model's inputs have symbolic extents");
  const std::vector<int64_t> shape = c.shape(0);
  if (shape.empty() || shape.size() > 2) c.refuse("onnx.input-shape", "X must be [C] or [N, C]");
  const auto rank = static_cast<int64_t>(shape.size());
  const int64_t batch = rank == 2 ? shape[0] : 1, length = shape.back();
  const ValueRef x = c.operand(0, ElemKind::Integer);

  // Each pool n-gram's position in the concatenated counts, or none (its length is not counted).
  std::vector<ValueRef> parts;
  std::vector<std::optional<int64_t>> position;
  int64_t counted = 0;
  for (const auto& grams : pool.grams) {
    const auto n = static_cast<int64_t>(&grams - pool.grams.data()) + 1;
    std::optional<ValueRef> counts;
    if (!grams.empty() && n >= min_n && n <= max_n) counts = level_counts(c, x, rank, batch, length, grams, max_skip);
    for (size_t j = 0; j < grams.size(); ++j) position.push_back(counts ? std::optional(counted + j) : std::nullopt);
    if (counts) parts.push_back(*counts), counted += static_cast<int64_t>(grams.size());
  }
  std::vector<int64_t> gather(static_cast<size_t>(outputs), counted);  // counted: the zero column
  for (size_t j = 0; j < indexes.size(); ++j)
    if (position[j]) gather[static_cast<size_t>(indexes[j])] = *position[j];
  if (std::count(gather.begin(), gather.end(), counted) > 0) {
    const std::vector<int64_t> zero_shape = rank == 2 ? std::vector<int64_t>{batch, 1} : std::vector<int64_t>{1};
    parts.push_back(c.literal("zero", HostTensor{DType::F32, Shape::make(zero_shape).value(),
                                                 std::vector<double>(static_cast<size_t>(batch), 0.0)}));
  }
  const ValueRef all = parts.size() == 1 ? parts[0] : c.emit("counts", ConcatAttrs{rank - 1}, parts);
  const ValueRef tf = c.emit("tf", GatherAttrs{rank - 1},
                             {all, c.literal("indexes", integer_tensor(Shape::make({outputs}).value(), gather))});
  if (mode == "TF") return c.set_output(0, tf);
  const ValueRef base = mode == "TFIDF" ? tf
                                        : c.emit("present", CastAttrs{ElemKind::Logical, ElemKind::Real},
                                                 {c.emit("positive", CompareAttrs{CompareOp::Gt, Broadcast::NumpyRight},
                                                         {tf, c.literal("zero-count", scalar_tensor(0))})});
  if (weights.empty()) return c.set_output(0, base);
  const ValueRef w = c.literal("weights", HostTensor{DType::F32, Shape::make({outputs}).value(), weights});
  c.set_output(0, binary(c, "weighted", BinaryOp::Mul, base, w));
}

}  // namespace

void add_tfidf_ops(OpTable& table) { add_ops(table, {{"TfIdfVectorizer", tfidf_vectorizer}}); }

}  // namespace nnref::onnx_format
