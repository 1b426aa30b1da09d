// TfIdfVectorizer (formats/onnx/ops/tfidf.cpp): unigrams, bigrams and trigrams with skips, the
// coordinates permuted with a gap, a length not counted, batches, the three modes with weights, and
// each refusal by its code. Expected values by NumPy float64 from ONNX's definition (the n-gram at i
// with skip s is x[i], x[i + s + 1], ...; unigrams once; each found pool n-gram adds 1 at its
// coordinate; IDF weight·[count > 0], TFIDF count·weight), checked by hand in the comments.
#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::vector<double> values(const Tensor<double>& t) { return {t.data().begin(), t.data().end()}; }

HostTensor int64s(const std::vector<int64_t>& dims, std::vector<double> v) {
  return HostTensor{DType::I64, Shape::make(dims).value(), std::move(v)};
}

struct Options {
  std::string mode = "TF";
  int64_t min_n = 1, max_n = 3, skip = 2;
  std::vector<float> weights;
  std::vector<int64_t> indexes = {4, 0, 2, 5, 1};
  std::vector<int64_t> counts = {0, 2, 6};
};

// The pool: unigrams 1, 4; bigrams (1, 2), (2, 1); trigram (1, 3, 2).
OnnxModel tfidf_model(const std::vector<std::string>& dims, const Options& o, int32_t type = onnx::TensorProto::INT64) {
  OnnxModel m(9);
  m.input("X", dims, type);
  onnx::NodeProto& n = m.node("TfIdfVectorizer", {"X"}, {"Y"}, "tfidf");
  set_string(n, "mode", o.mode);
  set_int(n, "min_gram_length", o.min_n);
  set_int(n, "max_gram_length", o.max_n);
  set_int(n, "max_skip_count", o.skip);
  set_ints(n, "pool_int64s", {1, 4, 1, 2, 2, 1, 1, 3, 2});
  set_ints(n, "ngram_counts", o.counts);
  set_ints(n, "ngram_indexes", o.indexes);
  if (!o.weights.empty()) {
    onnx::AttributeProto* a = n.add_attribute();
    a->set_name("weights");
    a->set_type(onnx::AttributeProto::FLOATS);
    for (float w : o.weights) a->add_floats(w);
  }
  m.output("Y");
  return m;
}

const HostTensor kRow = int64s({8}, {1, 2, 3, 1, 2, 4, 1, 2});

}  // namespace

TEST_CASE("onnx TfIdfVectorizer: n-grams with skips at permuted coordinates (TF)") {
  TempDir tmp("onnx_tfidf_tf");
  const Model m = load_onnx(tfidf_model({"8"}, Options{}), tmp / "m.onnx");
  // x = [1, 2, 3, 1, 2, 4, 1, 2]: 1 three times (coordinate 4), 4 once (0); (1, 2) at distances 1
  // to 3: (0, 1), (3, 4), (6, 7) → 3 (2); (2, 1): (1, 3), (4, 6) → 2 (5); (1, 3, 2) with skip 1:
  // x[0], x[2], x[4] → 1 (1); coordinate 3 has no n-gram: 0.
  CHECK(values(run_f64(m, {kRow})[0]) == std::vector<double>{1, 1, 3, 0, 3, 2});
}

TEST_CASE("onnx TfIdfVectorizer: IDF and TFIDF weights by output coordinate") {
  TempDir tmp("onnx_tfidf_weights");
  Options o;
  o.weights = {0.5f, 1, 2, 3, 0.25f, 4};
  o.mode = "TFIDF";
  CHECK(values(run_f64(load_onnx(tfidf_model({"8"}, o), tmp / "a.onnx"), {kRow})[0]) ==
        std::vector<double>{0.5, 1, 6, 0, 0.75, 8});
  o.mode = "IDF";
  CHECK(values(run_f64(load_onnx(tfidf_model({"8"}, o), tmp / "b.onnx"), {kRow})[0]) ==
        std::vector<double>{0.5, 1, 2, 0, 0.25, 4});
  o.weights.clear();  // IDF without weights: 1 where the n-gram is present
  CHECK(values(run_f64(load_onnx(tfidf_model({"8"}, o), tmp / "c.onnx"), {kRow})[0]) ==
        std::vector<double>{1, 1, 1, 0, 1, 1});
}

TEST_CASE("onnx TfIdfVectorizer: a batch, unigrams not counted") {
  TempDir tmp("onnx_tfidf_batch");
  Options o;
  o.min_n = 2, o.skip = 1;
  const Model m = load_onnx(tfidf_model({"2", "4"}, o), tmp / "m.onnx");
  // Row [1, 2, 1, 2]: (1, 2) at (0, 1), (2, 3) → 2; (2, 1) at (1, 2) → 1; (1, 3, 2) none.
  // Row [2, 1, 3, 2]: (1, 2) at (1, 3) (skip 1) → 1; (2, 1) at (0, 1) → 1; (1, 3, 2) at (1, 2, 3) → 1.
  CHECK(values(run_f64(m, {int64s({2, 4}, {1, 2, 1, 2, 2, 1, 3, 2})})[0]) ==
        std::vector<double>{0, 0, 2, 0, 0, 1, 0, 1, 1, 0, 0, 1});
}

TEST_CASE("onnx TfIdfVectorizer: refusals by name") {
  TempDir tmp("onnx_tfidf_refused");
  const auto code = [&](const OnnxModel& m, const std::string& c) {
    INFO(c);
    return find_code(load_errors(m, tmp / "m.onnx"), c) != nullptr;
  };
  OnnxModel strings = tfidf_model({"8"}, Options{});
  onnx::AttributeProto* a = strings.graph().mutable_node(0)->add_attribute();
  a->set_name("pool_strings");
  a->set_type(onnx::AttributeProto::STRINGS);
  a->add_strings("a");
  CHECK(code(strings, "onnx.type-unsupported"));
  CHECK(code(tfidf_model({"8"}, Options{}, onnx::TensorProto::FLOAT), "onnx.type-unsupported"));
  Options repeated;
  repeated.indexes = {0, 0, 1, 2, 3};
  CHECK(code(tfidf_model({"8"}, repeated), "onnx.attribute-unsupported"));
  Options torn;
  torn.counts = {0, 3, 6};  // the bigrams would be 1.5 of them
  CHECK(code(tfidf_model({"8"}, torn), "onnx.attribute-value"));
  Options weights;
  weights.weights = {1, 2};
  CHECK(code(tfidf_model({"8"}, weights), "onnx.attribute-unsupported"));
  CHECK(code(tfidf_model({"N"}, Options{}), "onnx.shape-unsupported"));
  // 4096 rows of 20000 ids against 2 unigrams: 1.6·10^8 elements compared, past 2^26.
  CHECK(code(tfidf_model({"4096", "20000"}, Options{}), "onnx.shape-unsupported"));
}
