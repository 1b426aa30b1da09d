// Loop and Scan (formats/onnx/ops/control.cpp), unrolled when the model is read: carried values,
// scan outputs stacked, a condition that ends the loop early, the body reading outer values and its
// own initializers, Scan's axes and directions (opset 9 and on) and its batch rows (opset 8), and
// each refusal by its code. Expected values by hand in the comments.
#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::vector<double> values(const Tensor<double>& t) { return {t.data().begin(), t.data().end()}; }

onnx::GraphProto& body_attr(onnx::NodeProto& n) {
  onnx::AttributeProto* a = n.add_attribute();
  a->set_name("body");
  a->set_type(onnx::AttributeProto::GRAPH);
  a->mutable_g()->set_name("body");
  return *a->mutable_g();
}

void scalar_init(onnx::GraphProto& g, const std::string& name, int32_t type, double v) {
  onnx::TensorProto* t = g.add_initializer();
  t->set_name(name);
  t->set_data_type(type);
  if (type == onnx::TensorProto::FLOAT)
    t->add_float_data(static_cast<float>(v));
  else if (type == onnx::TensorProto::INT64)
    t->add_int64_data(static_cast<int64_t>(v));
  else
    t->add_int32_data(static_cast<int32_t>(v));  // bool
}

void names(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list, const std::vector<std::string>& v) {
  for (const auto& n : v) list->Add()->set_name(n);
}

enum class Cond { Kept, BelowOne, FromData };

// y ← 2·y + i for each step i, the scan output y + X (X an outer value); `two` the body's own
// initializer. The body's condition: the one it is given, i < 1, or Σy > 0 (computed from data).
OnnxModel loop_model(const std::string& trip, bool with_cond, Cond cond, bool scan_read = true) {
  OnnxModel m;
  m.input("X", {"2"});
  if (trip == "input") {
    m.input("M", {}, onnx::TensorProto::INT64);
  } else if (trip.starts_with("ceil(")) {  // ceil(a/b): real arithmetic on constants
    const size_t slash = trip.find('/');
    scalar_init(m.graph(), "a", onnx::TensorProto::FLOAT, std::stod(trip.substr(5, slash - 5)));
    scalar_init(m.graph(), "b", onnx::TensorProto::FLOAT, std::stod(trip.substr(slash + 1)));
    m.node("Div", {"a", "b"}, {"q"});
    m.node("Ceil", {"q"}, {"up"});
    set_int(m.node("Cast", {"up"}, {"M"}), "to", onnx::TensorProto::INT64);
  } else if (!trip.empty()) {
    scalar_init(m.graph(), "M", onnx::TensorProto::INT64, std::stod(trip));
  }
  if (with_cond) scalar_init(m.graph(), "C", onnx::TensorProto::BOOL, 1);
  onnx::NodeProto& n = m.node("Loop", {trip.empty() ? "" : "M", with_cond ? "C" : "", "X"}, {"Y", "S"}, "loop");
  onnx::GraphProto& g = body_attr(n);
  names(g.mutable_input(), {"i", "c", "y"});
  scalar_init(g, "two", onnx::TensorProto::FLOAT, 2);
  set_int(body_node(g, "Cast", {"i"}, "fi"), "to", onnx::TensorProto::FLOAT);
  body_node(g, "Mul", {"y", "two"}, "y2");
  body_node(g, "Add", {"y2", "fi"}, "y_out");
  body_node(g, "Add", {"y_out", "X"}, "scan");
  if (cond == Cond::Kept) {
    body_node(g, "Identity", {"c"}, "c_out");
  } else if (cond == Cond::BelowOne) {
    scalar_init(g, "one", onnx::TensorProto::INT64, 1);
    body_node(g, "Less", {"i", "one"}, "c_out");
  } else {
    scalar_init(g, "zero", onnx::TensorProto::FLOAT, 0);
    set_int(body_node(g, "ReduceSum", {"y_out"}, "sum"), "keepdims", 0);
    body_node(g, "Greater", {"sum", "zero"}, "c_out");
  }
  names(g.mutable_output(), {"c_out", "y_out", "scan"});
  m.output("Y");
  if (scan_read) m.output("S");
  return m;
}

// A Scan summing its scan input's slices: the state s ← s + x_t, the scan output s.
void sum_body(onnx::NodeProto& n) {
  onnx::GraphProto& g = body_attr(n);
  names(g.mutable_input(), {"s", "x"});
  body_node(g, "Add", {"s", "x"}, "s_out");
  body_node(g, "Identity", {"s_out"}, "scan");
  names(g.mutable_output(), {"s_out", "scan"});
}

}  // namespace

TEST_CASE("onnx Loop: a constant trip count, carried values and a stacked scan output") {
  TempDir tmp("onnx_loop_count");
  const Model m = load_onnx(loop_model("3", false, Cond::Kept), tmp / "m.onnx");
  // X = [1, 2]. i = 0: y = [2, 4]; i = 1: [5, 9]; i = 2: [12, 20]. Scans y + X: [3, 6], [6, 11], [13, 22].
  const auto out = run_f64(m, {host({2}, {1, 2})});
  CHECK(values(out[0]) == std::vector<double>{12, 20});
  CHECK(out[1].shape().dims() == std::vector<int64_t>{3, 2});
  CHECK(values(out[1]) == std::vector<double>{3, 6, 6, 11, 13, 22});
}

TEST_CASE("onnx Loop: the body's condition ends it before M") {
  TempDir tmp("onnx_loop_cond");
  // cond' = i < 1: step 0 continues, step 1 ends the loop, of M = 10.
  const Model m = load_onnx(loop_model("10", true, Cond::BelowOne), tmp / "m.onnx");
  const auto out = run_f64(m, {host({2}, {1, 2})});
  CHECK(values(out[0]) == std::vector<double>{5, 9});
  CHECK(values(out[1]) == std::vector<double>{3, 6, 6, 11});
  // No M: cond alone bounds it.
  const Model w = load_onnx(loop_model("", true, Cond::BelowOne), tmp / "w.onnx");
  CHECK(values(run_f64(w, {host({2}, {1, 2})})[0]) == std::vector<double>{5, 9});
}

TEST_CASE("onnx Loop: a trip count computed by real arithmetic runs where every float32 runtime computes it alike") {
  TempDir tmp("onnx_loop_real_count");
  LoadOptions enclosing;  // as run, conform and check read a model
  enclosing.enclose_constants = enclose_constants;
  // M = Cast(Ceil(4/3)) = 2: 4/3 = 1.33 exactly, and within float32's rounding of the division,
  // so ceil is 2 in every correct runtime. X = [1, 2]: two steps, as in the count of 3 above.
  const Model m = load_onnx(loop_model("ceil(4/3)", false, Cond::Kept), tmp / "m.onnx", enclosing);
  const auto out = run_f64(m, {host({2}, {1, 2})});
  CHECK(values(out[0]) == std::vector<double>{5, 9});
  CHECK(values(out[1]) == std::vector<double>{3, 6, 6, 11});
  // M = Cast(Ceil(6/3)): exactly 2, but a runtime may divide as 6·fl(1/3), which float32 may round
  // above 2 (docs/conformance.md, ÷), and its ceil is then 3: refused by name, the enclosure given.
  const auto ds = load_errors(loop_model("ceil(6/3)", false, Cond::Kept), tmp / "u.onnx", enclosing);
  const Diagnostic* d = find_code(ds, "onnx.value-undecided");
  REQUIRE(d != nullptr);
  CHECK(d->loc.line > 0);
  CHECK(d->message.find("M (the trip count) ('M')") != std::string::npos);
  CHECK(d->message.find("the exact value gives 2, the f32 envelope undetermined") != std::string::npos);
  CHECK(d->message.find("(it casts the real value the envelope bounds by [2, 3])") != std::string::npos);
  // A reader without the oracle (the fuzz harnesses) refuses the count by name.
  CHECK(find_code(load_errors(loop_model("ceil(4/3)", false, Cond::Kept), tmp / "r.onnx"), "onnx.input-not-constant") !=
        nullptr);
}

TEST_CASE("onnx Loop: refusals by name") {
  TempDir tmp("onnx_loop_refused");
  const auto code = [&](const OnnxModel& m, const std::string& c) {
    const auto ds = load_errors(m, tmp / "m.onnx");
    INFO(c);
    return find_code(ds, c) != nullptr;
  };
  // M a graph input: read at load (run and conform bind it).
  CHECK(code(loop_model("input", false, Cond::Kept), "onnx.input-not-constant"));
  // A condition computed from the data: the number of steps depends on it.
  CHECK(code(loop_model("3", true, Cond::FromData), "onnx.input-not-constant"));
  // 10^9 steps: past the unrolled-node limit, refused before unrolling.
  CHECK(code(loop_model("1000000000", false, Cond::Kept), "onnx.unroll-limit"));
  // Neither M nor cond: it never ends.
  CHECK(code(loop_model("", false, Cond::Kept), "onnx.input-missing"));
  // M = 0: the scan output read would be empty.
  CHECK(code(loop_model("0", false, Cond::Kept), "onnx.shape-unsupported"));
  // ... and unread, the loop is its initial values.
  const Model z = load_onnx(loop_model("0", false, Cond::Kept, false), tmp / "z.onnx");
  CHECK(values(run_f64(z, {host({2}, {1, 2})})[0]) == std::vector<double>{1, 2});
}

TEST_CASE("onnx Loop: a nested Loop and an If on the step number in the body") {
  TempDir tmp("onnx_loop_nested");
  OnnxModel m;
  m.input("X", {"2"});
  scalar_init(m.graph(), "M", onnx::TensorProto::INT64, 3);
  onnx::GraphProto& outer = body_attr(m.node("Loop", {"M", "", "X"}, {"Y", "S"}, "outer"));
  names(outer.mutable_input(), {"i", "c", "y"});
  scalar_init(outer, "one", onnx::TensorProto::INT64, 1);
  scalar_init(outer, "steps", onnx::TensorProto::INT64, 2);
  body_node(outer, "Identity", {"c"}, "c_out");
  // The inner loop: z ← 2·z + X, twice (its own initializer, the outer X).
  onnx::NodeProto& inner_node = *outer.add_node();
  inner_node.set_op_type("Loop");
  for (const char* in : {"steps", "", "y"}) inner_node.add_input(in);
  inner_node.add_output("w");
  onnx::GraphProto& inner = body_attr(inner_node);
  names(inner.mutable_input(), {"j", "ic", "z"});
  scalar_init(inner, "two", onnx::TensorProto::FLOAT, 2);
  body_node(inner, "Identity", {"ic"}, "ic_out");
  body_node(inner, "Mul", {"z", "two"}, "z2");
  body_node(inner, "Add", {"z2", "X"}, "z_out");
  names(inner.mutable_output(), {"ic_out", "z_out"});
  // v = w + 100 at step 1 (a condition known at each step), w elsewhere; y ← v + i.
  body_node(outer, "Equal", {"i", "one"}, "is1");
  onnx::NodeProto& branch = body_node(outer, "If", {"is1"}, "v");
  for (const char* which : {"then_branch", "else_branch"}) {
    onnx::AttributeProto* a = branch.add_attribute();
    a->set_name(which);
    a->set_type(onnx::AttributeProto::GRAPH);
    onnx::GraphProto& g = *a->mutable_g();
    const std::string out = std::string(which) + "_v";
    if (std::string(which) == "then_branch") {
      scalar_init(g, "hundred", onnx::TensorProto::FLOAT, 100);
      body_node(g, "Add", {"w", "hundred"}, out);
    } else {
      body_node(g, "Identity", {"w"}, out);
    }
    names(g.mutable_output(), {out});
  }
  set_int(body_node(outer, "Cast", {"i"}, "fi"), "to", onnx::TensorProto::FLOAT);
  body_node(outer, "Add", {"v", "fi"}, "y_out");
  names(outer.mutable_output(), {"c_out", "y_out", "v"});
  m.output("Y");
  m.output("S");
  const Model model = load_onnx(m, tmp / "m.onnx");
  // X = [1, 2]. i = 0: w = 2·(2·[1, 2] + X) + X = [7, 14], v = w, y = [7, 14]. i = 1: w = 4·y + 3·X
  // = [31, 62], v = [131, 162], y = [132, 163]. i = 2: w = [531, 658] = v, y = [533, 660].
  const auto out = run_f64(model, {host({2}, {1, 2})});
  CHECK(values(out[0]) == std::vector<double>{533, 660});
  CHECK(values(out[1]) == std::vector<double>{7, 14, 131, 162, 531, 658});
}

TEST_CASE("onnx Scan 9: input and output axes and directions") {
  TempDir tmp("onnx_scan9");
  OnnxModel m(11);
  m.input("S", {"2"});
  m.input("X", {"3", "2"});
  onnx::NodeProto& n = m.node("Scan", {"S", "X"}, {"Y", "Z"}, "scan");
  set_int(n, "num_scan_inputs", 1);
  set_ints(n, "scan_input_directions", {1});
  set_ints(n, "scan_output_directions", {1});
  set_ints(n, "scan_output_axes", {-1});
  sum_body(n);
  m.output("Y");
  m.output("Z");
  const Model model = load_onnx(m, tmp / "m.onnx");
  // X rows read last first: [5, 6] → s = [5, 6]; [3, 4] → [8, 10]; [1, 2] → [9, 12]. The scan
  // output reversed ([9, 12], [8, 10], [5, 6]) and stacked along its last axis: [[9, 8, 5], [12, 10, 6]].
  const auto out = run_f64(model, {host({2}, {0, 0}), host({3, 2}, {1, 2, 3, 4, 5, 6})});
  CHECK(values(out[0]) == std::vector<double>{9, 12});
  CHECK(out[1].shape().dims() == std::vector<int64_t>{2, 3});
  CHECK(values(out[1]) == std::vector<double>{9, 8, 5, 12, 10, 6});
}

TEST_CASE("onnx Scan 9: a scan input axis counted from the end") {
  TempDir tmp("onnx_scan9_axis");
  OnnxModel m(11);
  m.input("S", {"2"});
  m.input("X", {"2", "3"});
  onnx::NodeProto& n = m.node("Scan", {"S", "X"}, {"Y", "Z"}, "scan");
  set_int(n, "num_scan_inputs", 1);
  set_ints(n, "scan_input_axes", {-1});
  sum_body(n);
  m.output("Y");
  m.output("Z");
  const Model model = load_onnx(m, tmp / "m.onnx");
  // Columns of [[1, 3, 5], [2, 4, 6]]: [1, 2], [3, 4], [5, 6]; sums [1, 2], [4, 6], [9, 12].
  const auto out = run_f64(model, {host({2}, {0, 0}), host({2, 3}, {1, 3, 5, 2, 4, 6})});
  CHECK(values(out[0]) == std::vector<double>{9, 12});
  CHECK(values(out[1]) == std::vector<double>{1, 2, 4, 6, 9, 12});
}

TEST_CASE("onnx Scan 8: each batch row scanned on its own") {
  TempDir tmp("onnx_scan8");
  const auto model = [](bool lens) {
    OnnxModel m(8);
    m.input("S", {"2", "2"});
    m.input("X", {"2", "3", "2"});
    if (lens) m.input("L", {"2"}, onnx::TensorProto::INT32);
    onnx::NodeProto& n = m.node("Scan", {lens ? "L" : "", "S", "X"}, {"Y", "Z"}, "scan");
    set_int(n, "num_scan_inputs", 1);
    sum_body(n);
    m.output("Y");
    m.output("Z");
    return m;
  };
  const Model m = load_onnx(model(false), tmp / "m.onnx");
  // Row 0 from [0, 0]: [1, 2], [4, 6], [9, 12]. Row 1 from [1, 1]: [11, 21], [41, 61], [91, 121].
  const auto out =
      run_f64(m, {host({2, 2}, {0, 0, 1, 1}), host({2, 3, 2}, {1, 2, 3, 4, 5, 6, 10, 20, 30, 40, 50, 60})});
  CHECK(values(out[0]) == std::vector<double>{9, 12, 91, 121});
  CHECK(out[1].shape().dims() == std::vector<int64_t>{2, 3, 2});
  CHECK(values(out[1]) == std::vector<double>{1, 2, 4, 6, 9, 12, 11, 21, 41, 61, 91, 121});
  // sequence_lens given: refused by name.
  CHECK(find_code(load_errors(model(true), tmp / "l.onnx"), "onnx.input-unsupported") != nullptr);
}

TEST_CASE("onnx Scan: a symbolic sequence length is refused by name, read once the size is fixed") {
  TempDir tmp("onnx_scan_symbolic");
  OnnxModel m(11);
  m.input("S", {"2"});
  m.input("X", {"T", "2"});
  onnx::NodeProto& n = m.node("Scan", {"S", "X"}, {"Y", "Z"}, "scan");
  set_int(n, "num_scan_inputs", 1);
  sum_body(n);
  m.output("Y");
  m.output("Z");
  const std::string path = (tmp / "m.onnx").string();
  m.write(path);
  const LoadResult refused = load_model(path, LoadOptions{});
  CHECK(find_code(refused.diagnostics, "onnx.shape-unsupported") != nullptr);
  // Scan asks for the model's extents all fixed: every size name is needed.
  CHECK(refused.sizes_needed_at_load == std::vector<std::string>{"T"});
  LoadOptions fixed;
  fixed.fixed_sizes = {{"T", 3}};
  const LoadResult r = load_model(path, fixed);
  REQUIRE(r.model);
  // S = [1, 1], X = [[1, 2], [3, 4], [5, 6]]: the sums [2, 3], [5, 7], [10, 13].
  const auto out = run_f64(*r.model, {host({2}, {1, 1}), host({3, 2}, {1, 2, 3, 4, 5, 6})});
  CHECK(values(out[0]) == std::vector<double>{10, 13});
  CHECK(values(out[1]) == std::vector<double>{2, 3, 5, 7, 10, 13});
}

TEST_CASE("onnx Loop: a trip count from a symbolic extent, fixed when the model is read") {
  TempDir tmp("onnx_loop_symbolic_count");
  // M = Shape(X)[0], X [T, 2]: the running sum s ← s + X[i] from s = 0; the scan output s.
  OnnxModel m(13);
  m.input("X", {"T", "2"});
  m.init("s0", {2}, {0, 0});
  m.node("Shape", {"X"}, {"shape"});
  scalar_init(m.graph(), "zero", onnx::TensorProto::INT64, 0);
  m.node("Gather", {"shape", "zero"}, {"M"});
  onnx::NodeProto& n = m.node("Loop", {"M", "", "s0"}, {"Y", "S"}, "loop");
  onnx::GraphProto& g = body_attr(n);
  names(g.mutable_input(), {"i", "c", "s"});
  body_node(g, "Gather", {"X", "i"}, "x_i");
  body_node(g, "Add", {"s", "x_i"}, "s_out");
  body_node(g, "Identity", {"c"}, "c_out");
  body_node(g, "Identity", {"s_out"}, "scan");
  names(g.mutable_output(), {"c_out", "s_out", "scan"});
  m.output("Y");
  m.output("S");
  const std::string path = (tmp / "m.onnx").string();
  m.write(path);
  const LoadResult refused = load_model(path, LoadOptions{});
  const Diagnostic* d = find_code(refused.diagnostics, "onnx.size-needed-at-load");
  REQUIRE(d);
  CHECK(d->message.find("M (the trip count) depends on the size T") != std::string::npos);
  CHECK(refused.sizes_needed_at_load == std::vector<std::string>{"T"});
  LoadOptions fixed;
  fixed.fixed_sizes = {{"T", 3}};
  const LoadResult r = load_model(path, fixed);
  REQUIRE(r.model);
  // X = [[1, 2], [3, 4], [5, 6]]: s = [1, 2], [4, 6], [9, 12].
  const auto out = run_f64(*r.model, {host({3, 2}, {1, 2, 3, 4, 5, 6})});
  CHECK(values(out[0]) == std::vector<double>{9, 12});
  CHECK(out[1].shape().dims() == std::vector<int64_t>{3, 2});
  CHECK(values(out[1]) == std::vector<double>{1, 2, 4, 6, 9, 12});
}
