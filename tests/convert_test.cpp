// nnref convert --to nnef|onnx|nnl: every example model, the NNEF test models and the golden cases are
// written, read back and run. What must hold:
// - the first conversion runs exactly as the original (the same oracle on the same inputs gives
//   the same bits) and holds the same weights (every parameter's values, bit for bit, as a
//   multiset: a writer may transpose a weight into its format's layout);
// - a graph already in the format's terms reads back as the same graph: converting the read-back
//   model again gives the same ops, attributes, edges, output shapes and parameters, bit for bit
//   (the writers' rewrites, such as transposes around a channels-last conv, happen once).
#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "cli_test_support.hpp"
#include "formats/nac/ir_fields.hpp"
#include "formats/nnef/nnef.hpp"
#include "formats/nnl/writer.hpp"
#include "formats/tensor_files/npy.hpp"
#include "formats/writers.hpp"
#include "onnx_test_support.hpp"
#include "semantics/evaluate.hpp"
#include "semantics/wellformed.hpp"
#include "temp_dir.hpp"

namespace nnref {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

std::string source(const std::string& rel) { return (fs::path(NNREF_SOURCE_DIR) / rel).string(); }

// ---- a structural description of a graph, for comparison ----

// Every attribute of an op as text, walked by the NAC writer's field list (formats/nac/ir_fields.hpp),
// which names every attribute of every op; reals by their double's bits.
struct AttrText {
  std::ostringstream s;
  void inputs() {}
  void not_an_operation() {}
  void real(Real& r) {
    uint64_t bits;
    std::memcpy(&bits, &r.value, 8);
    s << " real:" << bits;
  }
  template <class E>
  void choice(E& e) { s << " choice:" << static_cast<int>(e); }
  void size(size_t& v) { s << " size:" << v; }
  void integer(int64_t& v) { s << " int:" << v; }
  void boolean(bool& v) { s << " bool:" << v; }
  void ints(std::vector<int64_t>& v) {
    s << " ints:";
    for (int64_t x : v) s << x << ",";
  }
  void pairs(std::vector<std::pair<int64_t, int64_t>>& v) {
    s << " pairs:";
    for (const auto& [a, b] : v) s << a << "/" << b << ",";
  }
  void param(const char* role, char) { s << " param:" << role; }
};

std::string describe(const OpAttrs& op) {
  OpAttrs copy = op;
  AttrText t;
  t.s << op_name(copy);
  std::visit([&](auto& a) { nac::fields(t, a); }, copy);
  if (const auto* in = std::get_if<InputAttrs>(&op)) t.s << " dims:" << dims_str(in->dims) << " kind:" << static_cast<int>(in->kind);
  if (const auto* c = std::get_if<ConstAttrs>(&op)) t.s << " dims:" << dims_str(c->dims);
  return t.s.str();
}

// Node by node: op and attributes, edges, output shapes; then the graph outputs.
std::vector<std::string> structure(const Graph& g) {
  const Result<GraphInfo> info = infer_shapes(g);
  REQUIRE(info.ok());
  std::vector<std::string> lines;
  for (const Node& n : g.nodes) {
    std::string line = std::to_string(n.id) + ": " + describe(n.op) + " <-";
    for (const ValueRef& r : n.inputs) line += " " + std::to_string(r.node) + "." + std::to_string(r.output);
    line += " ->";
    for (const Shape& s : info->nodes[static_cast<size_t>(n.id)].outputs) line += " " + s.str();
    lines.push_back(line);
  }
  for (const GraphOutput& o : g.outputs) lines.push_back("output " + std::to_string(o.value.node) + "." + std::to_string(o.value.output));
  return lines;
}

std::vector<uint64_t> bits_of(const HostTensor& t) {
  std::vector<uint64_t> b(t.values.size());
  std::memcpy(b.data(), t.values.data(), 8 * b.size());
  return b;
}

// The same parameters at the same node positions and roles, with the same dtype, shape and bits.
void require_same_parameters(const Model& a, const Model& b) {
  REQUIRE(a.payload.entries().size() == b.payload.entries().size());
  for (const auto& [key, e] : a.payload.entries()) {
    const Node* n = a.graph.find(key.first);
    REQUIRE(n != nullptr);
    const ParamEntry* other = b.payload.find(b.graph.nodes[static_cast<size_t>(n->id)].name, key.second);
    INFO(key.first << "/" << key.second);
    REQUIRE(other != nullptr);
    CHECK(other->tensor.dtype == e.tensor.dtype);
    CHECK(other->tensor.shape == e.tensor.shape);
    CHECK(bits_of(other->tensor) == bits_of(e.tensor));
  }
}

// Every parameter of `original` is in `converted` with the same values bit for bit, in some order.
void require_same_weights(const Model& original, const Model& converted) {
  std::vector<std::vector<uint64_t>> have;
  for (const auto& [key, e] : converted.payload.entries()) {
    have.push_back(bits_of(e.tensor));
    std::sort(have.back().begin(), have.back().end());
  }
  for (const auto& [key, e] : original.payload.entries()) {
    std::vector<uint64_t> want = bits_of(e.tensor);
    std::sort(want.begin(), want.end());
    INFO("parameter " << key.first << "/" << key.second);
    CHECK(std::find(have.begin(), have.end(), want) != have.end());
  }
}

// ---- models ----

Model load(const std::string& path) {
  LoadResult r = load_model(path, LoadOptions{});
  INFO(path);
  for (const Diagnostic& d : r.diagnostics) INFO(format_diagnostic(d));
  REQUIRE(!r.has_errors());
  return std::move(*r.model);
}

// Deterministic values that float32 holds exactly, different at every position.
std::vector<double> pattern(int64_t count, int64_t salt) {
  std::vector<double> v;
  for (int64_t k = 0; k < count; ++k)
    v.push_back(static_cast<double>(static_cast<float>(0.25 * std::sin(0.7 * static_cast<double>(k) + 1.3 * static_cast<double>(salt)))));
  return v;
}

// An NNEF test model without .dat files, its structure read and its parameters generated.
Model nnef_with_weights(const std::string& folder) {
  LoadResult r = load_model(folder, LoadOptions{WeightsPolicy::Skip});
  REQUIRE(!r.has_errors());
  Model m = std::move(*r.model);
  const Result<GraphInfo> info = infer_shapes(m.graph);
  REQUIRE(info.ok());
  int64_t salt = 0;
  for (const Node& n : m.graph.nodes) {
    // An integer constant holds small integers (gather indices in range), a logical one 0 and 1.
    const auto* c = std::get_if<ConstAttrs>(&n.op);
    const auto values = [&](int64_t count) {
      std::vector<double> v = pattern(count, ++salt);
      for (size_t k = 0; k < v.size() && c && c->kind != ElemKind::Real; ++k)
        v[k] = static_cast<double>(k % (c->kind == ElemKind::Integer ? 3 : 2));
      return v;
    };
    // (held as float64, as the reader holds an NNEF literal's integers)
    const DType dtype = c && c->kind != ElemKind::Real ? DType::F64 : DType::F32;
    for (const ParamInfo& p : info->nodes[static_cast<size_t>(n.id)].params)
      m.payload.set(n.name, p.role, ParamEntry{HostTensor{dtype, p.shape, values(p.shape.count())}, "generated"});
    if (c && !m.payload.find(n.name, "value")) {
      const Shape s = info->nodes[static_cast<size_t>(n.id)].outputs[0];
      m.payload.set(n.name, "value", ParamEntry{HostTensor{dtype, s, values(s.count())}, "generated"});
    }
  }
  m.weights_loaded = true;
  return m;
}

std::vector<HostTensor> inputs_for(const Model& m, const std::string& dir) {
  if (fs::exists(fs::path(dir) / "input.npy")) {
    Result<HostTensor> t = read_npy((fs::path(dir) / "input.npy").string());
    REQUIRE(t.ok());
    return {*t};
  }
  std::vector<HostTensor> in;
  for (int64_t id : m.graph.input_ids()) {
    const Shape s = Shape::make(std::get<InputAttrs>(m.graph.nodes[static_cast<size_t>(id)].op).dims).value();
    in.push_back(HostTensor{DType::F32, s, pattern(s.count(), id)});
  }
  return in;
}

template <class T>
std::vector<std::vector<uint64_t>> run_bits(const Model& m, const std::vector<HostTensor>& inputs) {
  auto r = evaluate<T>(m.graph, m.payload, inputs, EvalOptions{int64_t{4} << 30, m.param_keys});
  INFO((r.ok() ? std::string() : format_diagnostic(r.error())));
  REQUIRE(r.ok());
  std::vector<std::vector<uint64_t>> out;
  for (const Tensor<T>& t : *r) {
    std::vector<uint64_t> b;
    for (const T& x : t.data()) {
      const double d = static_cast<double>(x);
      uint64_t u;
      std::memcpy(&u, &d, 8);
      b.push_back(u);
    }
    out.push_back(std::move(b));
  }
  return out;
}

struct Converted {
  Model model;
  std::vector<Diagnostic> diagnostics;
};

Converted convert_to(const Model& m, const std::string& format, const fs::path& out) {
  const Writer* w = writer_for(format);
  REQUIRE(w != nullptr);
  std::vector<Diagnostic> diags = w->write(m, out.string(), WriteOptions{});
  std::string messages;
  for (const Diagnostic& d : diags) messages += format_diagnostic(d) + "\n";
  INFO(messages);
  REQUIRE(std::none_of(diags.begin(), diags.end(), [](const Diagnostic& d) { return d.severity == Severity::Error; }));
  return {load(format == "nnl" ? (out / kNnlModelFile).string() : out.string()), std::move(diags)};
}

bool has_code(const std::vector<Diagnostic>& diags, const std::string& code) {
  return std::any_of(diags.begin(), diags.end(), [&](const Diagnostic& d) { return d.code == code; });
}

void round_trip(const Model& original, const std::vector<HostTensor>& inputs, const std::string& format) {
  TempDir dir("convert_" + format);
  const std::string ext = format == "onnx" ? ".onnx" : "";
  const Converted first = convert_to(original, format, dir / ("first" + ext));
  require_same_weights(original, first.model);
  // ONNX attributes are float32: a rounded one (a warning) changes the float64 reading only.
  CHECK(run_bits<float>(first.model, inputs) == run_bits<float>(original, inputs));
  if (!has_code(first.diagnostics, "convert.float-attribute"))
    CHECK(run_bits<double>(first.model, inputs) == run_bits<double>(original, inputs));
  const Converted second = convert_to(first.model, format, dir / ("second" + ext));
  CHECK(structure(second.model.graph) == structure(first.model.graph));
  require_same_parameters(first.model, second.model);
}

const std::vector<std::string>& nnl_models() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> v;
    for (const char* root : {"examples", "tests/data/golden"})
      for (const auto& e : fs::directory_iterator(source(root)))
        if (fs::exists(e.path() / "model.nnl")) v.push_back((e.path() / "model.nnl").string());
    std::sort(v.begin(), v.end());
    return v;
  }();
  return all;
}

const std::vector<std::string> kNnefModels = {"tests/data/nnef/alexnet_small", "tests/data/nnef/crosscheck/mlp",
                                              "tests/data/nnef/crosscheck/convnet", "tests/data/nnef/crosscheck/deconvnet"};
// Comparisons, logical operations, arg and logical reductions, strided slices, reflect-even
// padding, gather and cast: NNEF's own operations, which ONNX (as nnref reads it) cannot hold.
const std::string kNnefLogicModel = "tests/data/nnef/crosscheck/logic";
// Windows over every axis (sum pools, pads with the replicate and reflect borders), up-samplings
// (deconvs with constant filters, gathers), conv, deconv and debox in every border, regions of
// interest and index-based sampling (argmax_pool, sample, desample): NNEF's, a sum pool, regions
// and the sampling beyond ONNX.
const std::vector<std::string> kNnefWindowModels = {"tests/data/nnef/crosscheck/windows",
                                                    "tests/data/nnef/crosscheck/resample",
                                                    "tests/data/nnef/crosscheck/roi",
                                                    "tests/data/nnef/crosscheck/borders",
                                                    "tests/data/nnef/crosscheck/sample"};

TEST_CASE("convert: every example and golden NNL model round-trips through NNEF and ONNX") {
  REQUIRE(nnl_models().size() >= 15);
  for (const std::string& path : nnl_models()) {
    for (const char* format : {"nnef", "onnx"}) {
      INFO(path << " --to " << format);
      const Model m = load(path);
      round_trip(m, inputs_for(m, fs::path(path).parent_path().string()), format);
    }
  }
}

TEST_CASE("convert: the NNEF test models round-trip through NNEF and ONNX") {
  for (const std::string& rel : kNnefModels) {
    for (const char* format : {"nnef", "onnx"}) {
      INFO(rel << " --to " << format);
      const Model m = nnef_with_weights(source(rel));
      round_trip(m, inputs_for(m, ""), format);
    }
  }
}

TEST_CASE("convert: NNEF's logical and integer operations and its windows round-trip through NNEF") {
  std::vector<std::string> models = kNnefWindowModels;
  models.push_back(kNnefLogicModel);
  for (const std::string& rel : models) {
    INFO(rel);
    const Model m = nnef_with_weights(source(rel));
    round_trip(m, inputs_for(m, ""), "nnef");
  }
}

// A graph that NNEF wrote reads back as itself: the same graph, the same parameters.
TEST_CASE("convert: an NNEF model written as NNEF reads back as the same graph") {
  std::vector<std::string> models = kNnefModels;
  models.push_back(kNnefLogicModel);
  for (const std::string& rel : models) {
    INFO(rel);
    const Model m = nnef_with_weights(source(rel));
    TempDir dir("convert_nnef_same");
    const Converted c = convert_to(m, "nnef", dir / "out");
    CHECK(structure(c.model.graph) == structure(m.graph));
    require_same_parameters(m, c.model);
    // Names that are identifiers are kept (the reader's own "stmt/op" names become "stmt_op").
    for (const Node& n : m.graph.nodes)
      if (std::all_of(n.name.begin(), n.name.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; }))
        CHECK(c.model.graph.nodes[static_cast<size_t>(n.id)].name == n.name);
  }
}

// The node that computes an identifier's value carries the identifier's name, whichever node of
// its statement's lowering that is (the writer names each value by its node): a value read by a
// later statement, or an output, comes from a node named as a whole statement (no "stmt/op").
void require_values_named_by_their_statements(const Model& m) {
  const auto statement = [](const std::string& name) { return name.substr(0, name.find('/')); };
  for (const Node& n : m.graph.nodes)
    for (const ValueRef& r : n.inputs) {
      const Node& from = m.graph.nodes[static_cast<size_t>(r.node)];
      // Nodes of one invocation share its location: in `m, j = max_pool_with_index(...)` the node
      // named j reads one named m/pad.
      const bool same_invocation = from.loc.line == n.loc.line && from.loc.column == n.loc.column;
      if (!std::holds_alternative<ConstAttrs>(from.op) && statement(from.name) != statement(n.name) && !same_invocation) {
        INFO(n.name << " reads " << from.name);
        CHECK(from.name == statement(from.name));
      }
    }
  for (const GraphOutput& o : m.graph.outputs) {
    const Node& from = m.graph.nodes[static_cast<size_t>(o.value.node)];
    if (!std::holds_alternative<ConstAttrs>(from.op)) CHECK(from.name == o.name);
  }
}

TEST_CASE("convert: an NNEF identifier names the same value in the model read and in the model written") {
  std::vector<std::string> models = kNnefModels;
  models.push_back(kNnefLogicModel);
  models.insert(models.end(), kNnefWindowModels.begin(), kNnefWindowModels.end());
  for (const std::string& rel : models) {
    INFO(rel);
    const Model m = nnef_with_weights(source(rel));
    require_values_named_by_their_statements(m);
    TempDir dir("convert_nnef_names");
    const Converted c = convert_to(m, "nnef", dir / "out");
    require_values_named_by_their_statements(c.model);
    // The written document's identifiers are the node names read (the reader's "stmt/op" as "stmt_op").
    for (const Node& n : m.graph.nodes)
      if (n.name.find('/') == std::string::npos && !std::holds_alternative<ConstAttrs>(n.op))
        CHECK(c.model.graph.nodes[static_cast<size_t>(n.id)].name == n.name);
  }
  // y = conv(...) with a computed bias is a conv, then an add: y names the sum, which z reads.
  TempDir dir("convert_nnef_bias");
  fs::create_directories(dir / "in");
  std::ofstream(dir / "in" / "graph.nnef") << "version 1.0;\ngraph G( x ) -> ( z ) {\n"
                                              "  x = external(shape = [1, 1, 3]);\n"
                                              "  w = constant(shape = [1, 1, 1], value = [2.0]);\n"
                                              "  b = neg(x);\n"
                                              "  y = conv(x, w, b);\n"
                                              "  z = relu(y);\n}\n";
  const Model m = load((dir / "in").string());
  const Node& relu = m.graph.nodes.back();
  REQUIRE(relu.name == "z");
  CHECK(m.graph.nodes[static_cast<size_t>(relu.inputs[0].node)].name == "y");
  CHECK(std::holds_alternative<BinaryAttrs>(m.graph.nodes[static_cast<size_t>(relu.inputs[0].node)].op));
  const Converted c = convert_to(m, "nnef", dir / "out");
  std::ifstream written(dir / "out" / "graph.nnef");
  const std::string text((std::istreambuf_iterator<char>(written)), std::istreambuf_iterator<char>());
  INFO(text);
  CHECK(text.find("z = relu(y);") != std::string::npos);
  CHECK(text.find("y = add(y_conv, b);") != std::string::npos);
}

std::vector<float> floats(int64_t count, int64_t salt) {
  std::vector<float> v;
  for (double x : pattern(count, salt)) v.push_back(static_cast<float>(x));
  return v;
}

// The ops the example models do not use, from an ONNX model: conv with SAME_LOWER padding, elu and
// leaky_relu, a reduction without keep_dims, prelu and max under NumPy broadcasting, split,
// squeeze, unsqueeze, expand (broadcast_to), slice, matmul, transpose, reflect padding, tile.
test::OnnxModel many_ops() {
  using test::set_float, test::set_int, test::set_ints, test::set_string;
  test::OnnxModel m(13);
  m.input("x", {"2", "4", "6", "6"});
  m.init("w", {4, 4, 3, 3}, floats(144, 1));
  m.init("b", {4}, floats(4, 2));
  auto& conv = m.node("Conv", {"x", "w", "b"}, {"c"}, "conv");
  set_string(conv, "auto_pad", "SAME_LOWER");
  set_ints(conv, "strides", {2, 2});
  set_float(m.node("Elu", {"c"}, {"e"}, "elu"), "alpha", 0.5f);
  set_float(m.node("LeakyRelu", {"e"}, {"l"}, "leaky"), "alpha", 0.125f);
  auto& mean = m.node("ReduceMean", {"l"}, {"r"}, "mean");  // [2, 4, 3]
  set_ints(mean, "axes", {3});
  set_int(mean, "keepdims", 0);
  m.init("slope", {3}, floats(3, 3));
  m.node("PRelu", {"r", "slope"}, {"p"}, "prelu");
  m.ints("parts", {1, 3});
  set_int(m.node("Split", {"p", "parts"}, {"s1", "s2"}, "split"), "axis", 1);  // [2, 1, 3], [2, 3, 3]
  m.ints("one", {1});
  m.node("Squeeze", {"s1", "one"}, {"q"}, "squeeze");                          // [2, 3]
  m.ints("two", {2});
  m.node("Unsqueeze", {"q", "two"}, {"u"}, "unsqueeze");                       // [2, 3, 1]
  m.ints("target", {2, 3, 3});
  m.node("Expand", {"u", "target"}, {"ex"}, "expand");                        // [2, 3, 3]
  m.ints("starts", {0});
  m.ints("ends", {2});
  m.node("Slice", {"s2", "starts", "ends", "two"}, {"sl"}, "slice");           // [2, 3, 2]
  m.node("MatMul", {"ex", "sl"}, {"mm"}, "matmul");                           // [2, 3, 2]
  set_ints(m.node("Transpose", {"mm"}, {"t"}, "transpose"), "perm", {0, 2, 1});  // [2, 2, 3]
  m.ints("pads", {0, 0, 1, 0, 0, 1});
  set_string(m.node("Pad", {"t", "pads"}, {"pd"}, "pad"), "mode", "reflect");  // [2, 2, 5]
  m.init("floor", {5}, floats(5, 4));
  m.node("Max", {"pd", "floor"}, {"mx"}, "max");
  m.ints("repeats", {1, 2, 1});
  m.node("Tile", {"mx", "repeats"}, {"y"}, "tile");                           // [2, 4, 5]
  m.output("y");
  m.output("s1");
  return m;
}

TEST_CASE("convert: the other ops round-trip through NNEF and ONNX, from an ONNX model") {
  TempDir dir("convert_many_ops");
  const Model m = test::load_onnx(many_ops(), dir / "m.onnx");
  for (const char* format : {"nnef", "onnx"}) {
    INFO(format);
    round_trip(m, inputs_for(m, ""), format);
  }
}

// layer_norm (LayerNormalization, and InstanceNormalization's normalisation without affine) has
// no NNEF operation: ONNX only.
TEST_CASE("convert: layer normalization round-trips through ONNX") {
  test::OnnxModel m(17);
  m.input("x", {"2", "3", "4"});
  m.init("scale", {4}, floats(4, 1));
  m.init("bias", {4}, floats(4, 2));
  m.node("LayerNormalization", {"x", "scale", "bias"}, {"ln"}, "layer_norm");
  m.init("gamma", {3}, floats(3, 3));
  m.init("beta", {3}, floats(3, 4));
  m.node("InstanceNormalization", {"ln", "gamma", "beta"}, {"y"}, "instance_norm");
  m.output("y");
  TempDir dir("convert_layer_norm");
  const Model model = test::load_onnx(m, dir / "m.onnx");
  round_trip(model, inputs_for(model, ""), "onnx");
}

// Erf, Round (halves to even), LogSoftmax and ReduceProd have no NNEF operation: ONNX only, and
// NNEF refuses each, naming it.
TEST_CASE("convert: erf, round_even, log_softmax and prod_reduce round-trip through ONNX, and NNEF refuses them") {
  using test::set_int, test::set_ints;
  test::OnnxModel m(13);
  m.input("x", {"2", "3", "4"});
  m.node("Erf", {"x"}, {"e"}, "erf");
  m.node("Round", {"x"}, {"r"}, "round");
  set_int(m.node("LogSoftmax", {"x"}, {"l"}, "log_softmax"), "axis", 2);
  set_ints(m.node("ReduceProd", {"x"}, {"p"}, "prod"), "axes", {1});
  for (const char* out : {"e", "r", "l", "p"}) m.output(out);
  TempDir dir("convert_onnx_only");
  const Model model = test::load_onnx(m, dir / "m.onnx");
  round_trip(model, inputs_for(model, ""), "onnx");

  for (const auto& [op, name] : std::vector<std::pair<std::string, std::string>>{
           {"Erf", "erf"}, {"Round", "round_even"}, {"LogSoftmax", "log_softmax"}, {"ReduceProd", "prod_reduce"}}) {
    INFO(op);
    test::OnnxModel one(13);
    one.input("x", {"2", "3"});
    one.node(op, {"x"}, {"y"}, "n");
    one.output("y");
    const Model single = test::load_onnx(one, dir / (op + ".onnx"));
    const std::vector<Diagnostic> d = writer_for("nnef")->write(single, (dir / op).string(), WriteOptions{});
    REQUIRE(d.size() == 1);
    CHECK(d[0].code == "convert.unexpressible");
    CHECK(d[0].message.find("(" + name + ")") != std::string::npos);
  }
}

// ---- NNL, printed from the IR (formats/nnl/writer.cpp) ----

// An NNL model prints back to itself: the same graph (ops, attributes, edges, shapes), the same
// node and output names (NNL forces none to change), the same parameters bit for bit, the same
// outputs bit for bit in f64 and f32; printing the read-back model gives the same text.
TEST_CASE("convert: every example and golden NNL model prints as NNL to the same graph") {
  REQUIRE(nnl_models().size() >= 15);
  for (const std::string& path : nnl_models()) {
    INFO(path);
    const Model m = load(path);
    TempDir dir("convert_nnl_same");
    const Converted c = convert_to(m, "nnl", dir / "out");
    CHECK(structure(c.model.graph) == structure(m.graph));
    for (const Node& n : m.graph.nodes) CHECK(c.model.graph.nodes[static_cast<size_t>(n.id)].name == n.name);
    for (size_t k = 0; k < m.graph.outputs.size(); ++k) CHECK(c.model.graph.outputs[k].name == m.graph.outputs[k].name);
    CHECK(c.model.precision == m.precision);
    require_same_parameters(m, c.model);
    CHECK(c.model.payload.entries().size() == m.payload.entries().size());
    const std::vector<HostTensor> inputs = inputs_for(m, fs::path(path).parent_path().string());
    CHECK(run_bits<double>(c.model, inputs) == run_bits<double>(m, inputs));
    CHECK(run_bits<float>(c.model, inputs) == run_bits<float>(m, inputs));
    Model read_back = c.model;
    read_back.path = m.path;  // the model's name is its path's
    const Result<NnlFiles> again = print_nnl(read_back), first = print_nnl(m);
    REQUIRE(again.ok());
    CHECK(again->text == first->text);
  }
}

// From ONNX, the ops NNL has: Gemm with a [units, in] weight (a Dense whose weight is written
// transposed), BatchNormalization over axis 1 of a rank-2 tensor (the last axis), Concat and
// Softmax over ONNX axes (all axes counted: NNL's count per sample), Dropout, Flatten, and two
// inputs; every printed axis and weight runs to the original's bits. (ONNX's Sum is binary adds,
// which NNL's Add is not: it sums from 0, so −0 + −0 is +0 there.)
TEST_CASE("convert: an ONNX model of NNL's layers round-trips through NNL") {
  using test::set_int;
  test::OnnxModel m(13);
  m.input("x", {"2", "6"});
  m.input("z", {"2", "3", "2"});
  m.init("w1", {4, 6}, floats(24, 1));
  m.init("b1", {4}, floats(4, 2));
  set_int(m.node("Gemm", {"x", "w1", "b1"}, {"g1"}, "dense1"), "transB", 1);
  m.node("Relu", {"g1"}, {"r1"}, "relu1");
  m.init("scale", {4}, floats(4, 3));
  m.init("offset", {4}, floats(4, 4));
  m.init("mean", {4}, floats(4, 5));
  m.init("var", {4}, {0.5f, 0.25f, 1.0f, 2.0f});
  m.node("BatchNormalization", {"r1", "scale", "offset", "mean", "var"}, {"bn"}, "norm");
  m.init("w2", {6, 4}, floats(24, 6));
  m.init("b2", {4}, floats(4, 7));
  m.node("Gemm", {"x", "w2", "b2"}, {"g2"}, "dense2");
  m.node("Flatten", {"z"}, {"zf"}, "flat");
  set_int(m.node("Concat", {"bn", "g2", "zf"}, {"c"}, "join"), "axis", 1);
  m.node("Dropout", {"c"}, {"d"}, "drop");
  set_int(m.node("Softmax", {"d"}, {"y"}, "prob"), "axis", -1);
  m.node("Sigmoid", {"zf"}, {"q"}, "gate");
  m.output("y");
  m.output("q");
  TempDir dir("convert_onnx_nnl");
  const Model model = test::load_onnx(m, dir / "m.onnx");
  round_trip(model, inputs_for(model, ""), "nnl");
  const Result<NnlFiles> printed = print_nnl(model);
  REQUIRE(printed.ok());
  // Written by hand from NNL v0.2 (docs/nnl.md): ONNX's concat axis 1 of [2, 14] and its softmax
  // axis -1 of [2, 14] (which the reader keeps as 1) are the per-sample axis 0; ONNX's default
  // epsilon is the float32 nearest 1e-5, whose exact value Python's Decimal(float(np.float32(1e-5)))
  // prints as 0.00000999999974737875163555145263671875; the Gemm's [4, 6] weight is NNL's [6, 4].
  CHECK(printed->text == R"(version 0.2;

model m {
  config {
    precision: "float32";
    weights: "./weights.npz";
    batch: 2;
  }

  layer x = Input(shape: [6]);
  layer z = Input(shape: [3, 2]);
  layer dense1 = Dense(units: 4);
  layer relu1 = ReLU();
  layer norm = BatchNorm(epsilon: 9.99999974737875163555145263671875e-06);
  layer dense2 = Dense(units: 4);
  layer flat = Flatten();
  layer join = Concat(axis: 0);
  layer drop = Dropout();
  layer y = Softmax(axis: 0);
  layer q = Sigmoid();

  connections {
    x -> dense1;
    dense1 -> relu1;
    relu1 -> norm;
    x -> dense2;
    z -> flat;
    [norm, dense2, flat] -> join;
    join -> drop;
    drop -> y;
    flat -> q;
  }
}
)");
  const auto w = std::find_if(printed->weights.begin(), printed->weights.end(),
                              [](const auto& e) { return e.first == "dense1.weight"; });
  REQUIRE(w != printed->weights.end());
  CHECK(w->second.shape == Shape::of({6, 4}));
  const std::vector<float> w1 = floats(24, 1);
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t u = 0; u < 4; ++u)
      CHECK(w->second.values[static_cast<size_t>(i * 4 + u)] == static_cast<double>(w1[static_cast<size_t>(u * 6 + i)]));
}

// From NNEF, the ops NNL has: linear (a [units, in] filter), relu and sigmoid reading one value,
// add_n (NNL's Add, which only NNEF's reader also makes), concat and softmax over NNEF axes.
TEST_CASE("convert: an NNEF model of NNL's layers round-trips through NNL") {
  TempDir dir("convert_nnef_nnl");
  fs::create_directories(dir / "m");
  test::write_text(dir / "m" / "graph.nnef", R"(version 1.0;

graph G( x ) -> ( y )
{
    x = external(shape = [2, 4]);
    w = variable(shape = [3, 4], label = 'fc/weight');
    b = variable(shape = [1, 3], label = 'fc/bias');
    fc = linear(x, w, b);
    r = relu(fc);
    s = sigmoid(fc);
    a = add_n([r, s, r]);
    c = concat([a, x], axis = 1);
    y = softmax(c, axes = [1]);
}
)");
  const Model m = nnef_with_weights((dir / "m").string());
  round_trip(m, inputs_for(m, ""), "nnl");
  const Result<NnlFiles> printed = print_nnl(m);
  REQUIRE(printed.ok());
  CHECK(printed->text.find("  layer a = Add();\n") != std::string::npos);
  CHECK(printed->text.find("  layer c = Concat(axis: 0);\n") != std::string::npos);
  CHECK(printed->text.find("  layer y = Softmax(axis: 0);\n") != std::string::npos);
  CHECK(printed->text.find("    [r, s, r] -> a;\n") != std::string::npos);
}

// Comparisons, logic, Where, ArgMax and ArgMin, casts: ONNX only (the NNEF writer's own test is
// NNEF's logic model). A float-to-integer cast gains a Floor on the first conversion (ONNX's Cast
// truncates, the IR's floors); from then on the graph reads back as itself.
test::OnnxModel typed_ops() {
  using test::set_int;
  test::OnnxModel m(13);
  m.input("x", {"2", "3", "4"});
  m.init("c", {4}, floats(4, 5));
  m.node("Less", {"x", "c"}, {"lt"}, "less");
  m.node("GreaterOrEqual", {"x", "c"}, {"ge"}, "greater_equal");
  m.node("Equal", {"x", "c"}, {"eq"}, "equal");
  m.node("Not", {"eq"}, {"ne"}, "not");
  m.node("And", {"lt", "ne"}, {"both"}, "and");
  m.node("Xor", {"both", "ge"}, {"either"}, "xor");
  m.node("Where", {"either", "x", "c"}, {"w"}, "where");
  set_int(m.node("ArgMax", {"w"}, {"am"}, "argmax"), "axis", 2);
  set_int(m.node("Cast", {"am"}, {"amf"}, "index_real"), "to", onnx::TensorProto::FLOAT);
  auto& argmin = m.node("ArgMin", {"x"}, {"an"}, "argmin");
  set_int(argmin, "axis", 1);
  set_int(argmin, "keepdims", 0);
  set_int(m.node("Cast", {"x"}, {"xi"}, "truncate"), "to", onnx::TensorProto::INT64);
  set_int(m.node("Cast", {"xi"}, {"xif"}, "truncated_real"), "to", onnx::TensorProto::FLOAT);
  for (const char* out : {"w", "amf", "an", "xif", "either"}) m.output(out);
  return m;
}

TEST_CASE("convert: comparisons, logic, where, arg reductions and casts round-trip through ONNX") {
  TempDir dir("convert_typed_ops");
  const Model m = test::load_onnx(typed_ops(), dir / "m.onnx");
  round_trip(m, inputs_for(m, ""), "onnx");
}

// A bool operand of lower rank under ONNX's broadcasting: NNEF aligns it on the left with
// unsqueeze<logical> (the IR's unsqueeze holds any kind), the same values, and the NNEF read back
// writes itself again.
TEST_CASE("convert: a bool operand of lower rank is aligned by unsqueeze in NNEF") {
  test::OnnxModel m(13);
  m.input("a", {"2", "3"}, onnx::TensorProto::BOOL);
  m.input("b", {"3"}, onnx::TensorProto::BOOL);
  m.node("And", {"a", "b"}, {"y"}, "both");
  m.output("y");
  TempDir dir("convert_and_rank");
  const Model model = test::load_onnx(m, dir / "and.onnx");
  round_trip(model, {HostTensor{DType::Bool, Shape::of({2, 3}), {1, 0, 1, 1, 1, 0}},
                     HostTensor{DType::Bool, Shape::of({3}), {1, 1, 0}}},
             "nnef");
  convert_to(model, "nnef", dir / "nnef");
  std::ifstream written(dir / "nnef" / "graph.nnef");
  const std::string text((std::istreambuf_iterator<char>(written)), std::istreambuf_iterator<char>());
  INFO(text);
  CHECK(text.find("unsqueeze(b, axes = [0])") != std::string::npos);
}

// select_last_index 1 is the IR's arg_reduce with ties to the last: the ONNX writer writes it back
// (the graph reads back as itself, `last` included), and on [[1, 5, 5], [7, 2, 7]] the converted
// model still gives the last maxima [2, 2] and minima [0, 1]; NNEF's argmax_reduce ties to the
// first, so the NNEF writer refuses it by name.
TEST_CASE("convert: ArgMax and ArgMin with select_last_index round-trip through ONNX, and NNEF refuses them") {
  using test::set_int;
  test::OnnxModel m(13);
  m.input("x", {"2", "3"});
  for (const char* op : {"ArgMax", "ArgMin"}) {
    auto& n = m.node(op, {"x"}, {std::string(op) + "_y"}, op);
    set_int(n, "axis", 1);
    set_int(n, "select_last_index", 1);
    m.output(std::string(op) + "_y");
  }
  TempDir dir("convert_select_last");
  const Model model = test::load_onnx(m, dir / "m.onnx");
  const Converted first = convert_to(model, "onnx", dir / "first.onnx");
  CHECK(structure(first.model.graph) == structure(model.graph));
  bool last = false;
  for (const Node& n : first.model.graph.nodes)
    if (const auto* a = std::get_if<ArgReduceAttrs>(&n.op)) last = a->last;
  CHECK(last);
  const std::vector<HostTensor> in = {HostTensor{DType::F32, Shape::of({2, 3}), {1, 5, 5, 7, 2, 7}}};
  const auto bits = run_bits<double>(first.model, in);
  const auto as_bits = [](std::vector<double> v) {
    std::vector<uint64_t> b(v.size());
    std::memcpy(b.data(), v.data(), 8 * v.size());
    return b;
  };
  CHECK(bits == std::vector<std::vector<uint64_t>>{as_bits({2, 2}), as_bits({0, 1})});
  const std::vector<Diagnostic> d = writer_for("nnef")->write(model, (dir / "nnef").string(), WriteOptions{});
  REQUIRE(d.size() == 1);
  CHECK(d[0].code == "convert.unexpressible");
  CHECK(d[0].message.find("argmax_reduce with ties to the last index") != std::string::npos);
}

// CumSum of reals (exclusive, along axis 1 as a 0-D int64) and of integers (ArgMax's indices,
// reversed, along axis −2 as a 1-D int64): ONNX writes each back with its axis as a 0-D int64
// initializer and reads the same graph; NNEF 1.0 has no cumulative sum and refuses it, naming it.
TEST_CASE("convert: CumSum of reals and integers round-trips through ONNX, and NNEF refuses it") {
  using test::set_int;
  test::OnnxModel m(14);
  m.input("x", {"2", "3", "4"});
  test::ints_of(m, "axis", {}, {1});
  test::ints_of(m, "middle", {1}, {-2});
  set_int(m.node("CumSum", {"x", "axis"}, {"c"}, "cumsum"), "exclusive", 1);
  set_int(m.node("ArgMax", {"x"}, {"i"}, "argmax"), "axis", 2);
  set_int(m.node("CumSum", {"i", "middle"}, {"ci"}, "cumsum_int"), "reverse", 1);
  m.output("c");
  m.output("ci");
  TempDir dir("convert_cumsum");
  const Model model = test::load_onnx(m, dir / "m.onnx");
  round_trip(model, inputs_for(model, ""), "onnx");
  const std::vector<Diagnostic> d = writer_for("nnef")->write(model, (dir / "nnef").string(), WriteOptions{});
  REQUIRE(d.size() == 1);
  CHECK(d[0].code == "convert.unexpressible");
  CHECK(d[0].message.find("(cumsum)") != std::string::npos);
  CHECK(d[0].message.find("NNEF 1.0 has no cumulative sum") != std::string::npos);
}

// NNEF 2.0 writes ConvTranspose as nn.deconv and CumSum as math.cumsum (mapped natively when read),
// LayerNormalization composed of standard operators in the IR's order, and Round to even, LeakyRelu
// with alpha 2, PRelu along two axes, ArgMax with ties to the last index, int division, fmod, a
// product of ints and a slice with a negative step as operators the document defines: each reads back to the same bits in float32
// and float64. Inputs in quarters, so that Round meets halves and ArgMax ties.
TEST_CASE("convert: NNEF 2.0 writes deconv, cumsum, layer norm and the document's operators to the same values") {
  using test::set_int, test::set_ints, test::set_float;
  test::OnnxModel m(17);
  m.input("x", {"1", "4", "3", "4"});
  m.input("k", {"4"}, onnx::TensorProto::INT64);
  m.init("w", {4, 3, 3, 2}, floats(72, 1));
  m.init("b", {6}, floats(6, 2));
  auto& up = m.node("ConvTranspose", {"x", "w", "b"}, {"up"}, "up");
  set_ints(up, "strides", {2, 1});
  set_ints(up, "pads", {1, 0, 0, 1});
  set_ints(up, "output_padding", {1, 0});
  set_int(up, "group", 2);
  test::ints_of(m, "axis", {}, {3});
  set_int(m.node("CumSum", {"x", "axis"}, {"sums"}, "sums"), "reverse", 1);
  m.init("scale", {3, 4}, floats(12, 3));
  m.init("offset", {3, 4}, floats(12, 4));
  auto& ln = m.node("LayerNormalization", {"x", "scale", "offset"}, {"ln"}, "ln");
  set_int(ln, "axis", -2);
  set_float(ln, "epsilon", 1e-3f);
  m.node("Round", {"x"}, {"even"}, "even");
  set_float(m.node("LeakyRelu", {"x"}, {"leaky"}, "leaky"), "alpha", 2.0f);
  m.init("slope", {4, 1, 4}, floats(16, 5));
  m.node("PRelu", {"x", "slope"}, {"prelu"}, "prelu");
  auto& last = m.node("ArgMax", {"x"}, {"last"}, "last");
  set_int(last, "axis", 2);
  set_int(last, "select_last_index", 1);
  test::ints_of(m, "divisor", {4}, {3, -3, 2, -1});
  m.node("Div", {"k", "divisor"}, {"quotient"}, "quotient");
  set_int(m.node("Mod", {"k", "divisor"}, {"remainder"}, "remainder"), "fmod", 1);
  m.node("ReduceProd", {"k"}, {"product"}, "product");
  test::ints_of(m, "starts", {1}, {-1});
  test::ints_of(m, "ends", {1}, {-100});
  test::ints_of(m, "axes", {1}, {3});
  test::ints_of(m, "steps", {1}, {-2});
  m.node("Slice", {"x", "starts", "ends", "axes", "steps"}, {"reversed"}, "reversed");
  for (const char* out :
       {"up", "sums", "ln", "even", "leaky", "prelu", "last", "quotient", "remainder", "product", "reversed"})
    m.output(out);
  TempDir dir("convert_nnef2_written");
  const Model model = test::load_onnx(m, dir / "m.onnx");
  std::vector<double> quarters;
  for (int64_t k = 0; k < 48; ++k) quarters.push_back(static_cast<double>((k * 7) % 13 - 6) / 4.0);
  const std::vector<HostTensor> in = {HostTensor{DType::F32, Shape::of({1, 4, 3, 4}), quarters},
                                      HostTensor{DType::I64, Shape::of({4}), {-7, 7, -5, 4}}};
  const Converted written = convert_to(model, "nnef2", dir / "written");
  CHECK(run_bits<float>(written.model, in) == run_bits<float>(model, in));
  CHECK(run_bits<double>(written.model, in) == run_bits<double>(model, in));
  std::ifstream file((dir / "written" / "main.sknd").string());
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  for (const char* op : {"nn.deconv{", "math.cumsum{", "math.mean_reduce{", "operator even_op", "operator last_op",
                         "operator reversed_op"})
    CHECK(text.find(op) != std::string::npos);
}

// What NNEF 2.0 still cannot express is refused at the node, naming it and why.
TEST_CASE("convert: NNEF 2.0 refuses fmod of reals, naming the node and the reason") {
  using test::set_int;
  test::OnnxModel m(17);
  m.input("x", {"2", "3"});
  set_int(m.node("Mod", {"x", "x"}, {"y"}, "rem"), "fmod", 1);
  m.output("y");
  TempDir dir("convert_nnef2_refused");
  const Model model = test::load_onnx(m, dir / "m.onnx");
  const std::vector<Diagnostic> d = writer_for("nnef2")->write(model, (dir / "out").string(), WriteOptions{});
  REQUIRE(d.size() == 1);
  CHECK(d[0].code == "convert.unexpressible");
  CHECK(d[0].message.find("node 'rem' (fmod)") != std::string::npos);
  CHECK(d[0].message.find("no exact remainder of reals") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "out"));
}

// A real cast to an int floors in the IR; NNEF 2.0 writes it as an operator of the document, int(floor(x)),
// which the reader runs from its @lower body. ONNX's Cast truncates (the reader floors a truncated x), so
// the values read back are x truncated toward 0, worked out by hand.
TEST_CASE("convert: NNEF 2.0 writes a real cast to int, which reads back to the same values") {
  using test::set_int;
  test::OnnxModel m(17);
  m.input("x", {"2", "3"});
  set_int(m.node("Cast", {"x"}, {"i"}, "whole"), "to", onnx::TensorProto::INT64);
  set_int(m.node("Cast", {"i"}, {"y"}, "real"), "to", onnx::TensorProto::FLOAT);
  m.output("y");
  TempDir dir("convert_nnef2_real_to_int");
  const Model model = test::load_onnx(m, dir / "m.onnx");
  const Converted written = convert_to(model, "nnef2", dir / "out");
  const std::vector<HostTensor> in = {
      HostTensor{DType::F32, Shape::make({2, 3}).value(), {-2.5, -1.0, -0.25, 0.0, 0.75, 3.5}}};
  CHECK(run_bits<float>(written.model, in) == run_bits<float>(model, in));
  CHECK(run_bits<double>(written.model, in) == run_bits<double>(model, in));
  std::vector<uint64_t> truncated;
  for (double v : {-2.0, -1.0, 0.0, 0.0, 0.0, 3.0}) truncated.push_back(std::bit_cast<uint64_t>(v));
  CHECK(run_bits<double>(written.model, in) == std::vector<std::vector<uint64_t>>{truncated});
}

// Gather with computed indices reads ONNX's negative indices from the axis's end: each reading
// adds that normalisation again, so the graph grows, and only the values are compared.
TEST_CASE("convert: Gather with computed indices writes and reads back to the same values") {
  using test::set_int;
  test::OnnxModel g(13);
  g.input("x", {"3", "4"});
  set_int(g.node("ArgMax", {"x"}, {"rows"}, "argmax"), "keepdims", 0);
  g.node("Gather", {"x", "rows"}, {"y"}, "gather");
  g.output("y");
  TempDir dir("convert_gather_computed");
  const Model m = test::load_onnx(g, dir / "m.onnx");
  const std::vector<HostTensor> in = inputs_for(m, "");
  const Converted first = convert_to(m, "onnx", dir / "first.onnx");
  const Converted second = convert_to(first.model, "onnx", dir / "second.onnx");
  CHECK(run_bits<float>(first.model, in) == run_bits<float>(m, in));
  CHECK(run_bits<double>(second.model, in) == run_bits<double>(m, in));
}

// Resize's linear and cubic modes are one IR interpolate, which no format has: the writers spell
// out its sum (formats/interpolate_expansion.cpp), in the order the oracle computes it, so the
// written model gives the same float32 and float64 values; read back, it holds no interpolate.
TEST_CASE("convert: Resize's linear and cubic interpolation round-trip through NNEF and ONNX as their composition") {
  using test::set_int, test::set_string;
  test::OnnxModel g(13);
  g.input("x", {"1", "2", "3", "4"});
  g.init("scales", {4}, {1.0f, 1.0f, 1.5f, 2.0f});
  set_string(g.node("Resize", {"x", "", "scales"}, {"linear"}, "bilinear"), "mode", "linear");
  onnx::NodeProto& cubic = g.node("Resize", {"x", "", "scales"}, {"cubic"}, "bicubic");
  set_string(cubic, "mode", "cubic");
  set_int(cubic, "exclude_outside", 1);
  g.output("linear");
  g.output("cubic");
  TempDir dir("convert_resize");
  const Model m = test::load_onnx(g, dir / "m.onnx");
  const auto interpolates = [](const Model& model) {
    return std::count_if(model.graph.nodes.begin(), model.graph.nodes.end(),
                         [](const Node& n) { return std::holds_alternative<InterpolateAttrs>(n.op); });
  };
  CHECK(interpolates(m) == 2);
  const std::vector<HostTensor> in = inputs_for(m, "");
  for (const char* format : {"nnef", "onnx"}) {
    INFO(format);
    // (The ONNX reader folds the slices of the written index and weight matrices into constants:
    // the weights are not kept as the same tensors, which round_trip requires.)
    const Converted written = convert_to(m, format, dir / (std::string("written.") + format));
    CHECK(interpolates(written.model) == 0);
    CHECK(run_bits<float>(written.model, in) == run_bits<float>(m, in));
    CHECK(run_bits<double>(written.model, in) == run_bits<double>(m, in));
  }
}

}  // namespace
}  // namespace nnref
