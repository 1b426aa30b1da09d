// LSTM, GRU and RNN (formats/onnx/ops/recurrent.cpp) on small models: the expected values are
// NumPy float64 from ONNX's formulas, each batch row run on its own over its own length
// (scripts/recurrent_reference.py prints them; weights pattern(n, seed) as there).
#include "onnx_test_support.hpp"
#include "semantics/size_names.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

// ((k·7 + seed) mod 17 − 8)/16 for k = 0 .. n − 1: exact in float32.
std::vector<double> pattern(int64_t n, int64_t seed) {
  std::vector<double> v;
  for (int64_t k = 0; k < n; ++k) v.push_back(static_cast<double>((k * 7 + seed) % 17 - 8) / 16.0);
  return v;
}
std::vector<float> pattern_f(int64_t n, int64_t seed) {
  const std::vector<double> v = pattern(n, seed);
  return {v.begin(), v.end()};
}
int64_t count(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}
void weight(OnnxModel& m, const std::string& name, const std::vector<int64_t>& dims, int64_t seed) {
  m.init(name, dims, pattern_f(count(dims), seed));
}
void int32_lengths(OnnxModel& m, const std::string& name, const std::vector<int32_t>& v) {
  onnx::TensorProto* t = m.graph().add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::INT32);
  t->add_dims(static_cast<int64_t>(v.size()));
  for (int32_t x : v) t->add_int32_data(x);
}
void set_strings(onnx::NodeProto& n, const std::string& name, const std::vector<std::string>& v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRINGS);
  for (const auto& s : v) a->add_strings(s);
}
void set_floats(onnx::NodeProto& n, const std::string& name, const std::vector<float>& v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOATS);
  for (float x : v) a->add_floats(x);
}

void near(const Tensor<double>& got, const std::vector<int64_t>& dims, const std::vector<double>& want) {
  REQUIRE(got.shape().dims() == dims);
  REQUIRE(got.data().size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) CHECK(got.data()[i] == Approx(want[i]).margin(1e-12));
}

// T 3, batch 2, input 2, hidden 2; X time-major [3, 2, 2] = pattern(12, 1).
HostTensor x_time_major() { return host({3, 2, 2}, pattern(12, 1)); }

}  // namespace

TEST_CASE("onnx LSTM forward: bias, peepholes, initial state, sequence_lens at run time") {
  TempDir tmp("onnx_lstm_forward");
  OnnxModel m(14);
  m.input("X", {"3", "2", "2"});
  m.input("lens", {"2"}, onnx::TensorProto::INT32);
  weight(m, "W", {1, 8, 2}, 2);
  weight(m, "R", {1, 8, 2}, 3);
  weight(m, "B", {1, 16}, 4);
  weight(m, "h0", {1, 2, 2}, 6);
  weight(m, "c0", {1, 2, 2}, 7);
  weight(m, "P", {1, 6}, 5);
  set_int(m.node("LSTM", {"X", "W", "R", "B", "lens", "h0", "c0", "P"}, {"Y", "Y_h", "Y_c"}), "hidden_size", 2);
  m.output("Y"), m.output("Y_h"), m.output("Y_c");
  const auto out = run_f64(load_onnx(m, tmp / "m.onnx"), {x_time_major(), HostTensor{DType::I32, Shape::make({2}).value(), {3, 1}}});
  near(out[0], {3, 1, 2, 2},
       {-0.0095926298548393539, -0.10598801647653371, -0.10092412220453703, -0.10863948019906294,
        -0.068956015592902098, -0.16342351572783451, 0, 0, -0.058809628430952839, -0.2331666066183401, 0, 0});
  near(out[1], {1, 2, 2},
       {-0.058809628430952839, -0.2331666066183401, -0.10092412220453703, -0.10863948019906294});
  near(out[2], {1, 2, 2}, {-0.16980546433438024, -0.45963832933194404, -0.25994308102335473, -0.18848625199999669});
}

namespace {

// A reverse LSTM over X of the given extents (names where symbolic): input_forget, clip, LeakyRelu.
OnnxModel reverse_lstm(const std::vector<std::string>& x) {
  OnnxModel m(14);
  m.input("X", x);
  weight(m, "W", {1, 8, 2}, 8);
  weight(m, "R", {1, 8, 2}, 9);
  int32_lengths(m, "lens", {1, 3});
  auto& n = m.node("LSTM", {"X", "W", "R", "", "lens"}, {"Y", "Y_h", "Y_c"});
  set_string(n, "direction", "reverse");
  set_int(n, "input_forget", 1);
  set_float(n, "clip", 0.25f);
  set_strings(n, "activations", {"LeakyRelu", "Tanh", "Relu"});
  set_floats(n, "activation_alpha", {0.5f});
  m.output("Y"), m.output("Y_h"), m.output("Y_c");
  return m;
}

void near_reverse_lstm(const std::vector<Tensor<double>>& out) {
  near(out[0], {3, 1, 2, 2},
       {0, -0.00097743632192172987, -0.0042357706225818002, 0.006583079099155462, 0, 0, 0.0003211947927787964,
        -0.00026467420254831726, 0, 0, 0.00045328287630401774, -0.00078147360109959781});
  near(out[1], {1, 2, 2}, {0, -0.00097743632192172987, -0.0042357706225818002, 0.006583079099155462});
  near(out[2], {1, 2, 2}, {0, 0.0089365606575701022, 0.048157094755896794, 0.027197923522334529});
}

}  // namespace

TEST_CASE("onnx LSTM reverse: input_forget, clip, LeakyRelu with its alpha, constant sequence_lens") {
  TempDir tmp("onnx_lstm_reverse");
  near_reverse_lstm(run_f64(load_onnx(reverse_lstm({"3", "2", "2"}), tmp / "m.onnx"), {x_time_major()}));
}

TEST_CASE("onnx LSTM over a symbolic sequence: the size it needs fixed at load, the batch symbolic") {
  TempDir tmp("onnx_lstm_symbolic");
  const std::string path = (tmp / "m.onnx").string();
  reverse_lstm({"T", "N", "2"}).write(path);
  const LoadResult refused = load_model(path, LoadOptions{});
  const Diagnostic* d = find_code(refused.diagnostics, "onnx.size-needed-at-load");
  REQUIRE(d);
  CHECK(d->message.find("LSTM's sequence length (X's axis 0) depends on the size T") != std::string::npos);
  CHECK(refused.sizes_needed_at_load == std::vector<std::string>{"T"});  // not N: the batch stays symbolic
  CHECK(refused.size_axes.size() == 2);

  LoadOptions fixed;
  fixed.fixed_sizes = {{"T", 3}};
  LoadResult r = load_model(path, fixed);
  REQUIRE(r.model);
  CHECK(r.model->sizes_fixed_at_load == std::vector<std::pair<std::string, int64_t>>{{"T", 3}});
  REQUIRE(r.model->size_names.size() == 1);
  CHECK(r.model->size_names[0].name == "N");
  REQUIRE(set_input_extents(r.model->graph, r.model->size_names, {{"N", 2}}));
  near_reverse_lstm(run_f64(*r.model, {x_time_major()}));
}

TEST_CASE("onnx GRU bidirectional, layout 1, linear_before_reset 1") {
  TempDir tmp("onnx_gru_bidirectional");
  OnnxModel m(14);
  m.input("X", {"2", "3", "2"});
  weight(m, "W", {2, 6, 2}, 11);
  weight(m, "R", {2, 6, 2}, 12);
  weight(m, "B", {2, 12}, 13);
  weight(m, "h0", {2, 2, 2}, 14);
  auto& n = m.node("GRU", {"X", "W", "R", "B", "", "h0"}, {"Y", "Y_h"});
  set_string(n, "direction", "bidirectional");
  set_int(n, "layout", 1);
  set_int(n, "linear_before_reset", 1);
  m.output("Y"), m.output("Y_h");
  const auto out = run_f64(load_onnx(m, tmp / "m.onnx"), {host({2, 3, 2}, pattern(12, 10))});
  near(out[0], {2, 3, 2, 2},
       {0.2919881605188539, 0.21891791464702337, 0.069646018031487233, 0.21582737583865647, 0.12972675419505916,
        0.20405281839113898, -0.0020666890673879737, -0.025675670827687503, 0.036841008020236266,
        0.18330014970843872, 0.061326790203461719, -0.094865379104654507, -0.046700505446919456,
        0.28148341241141694, -0.035382080005323106, 0.1356748885100911, 0.13987782394472331, 0.36437230516979774,
        0.1031378752093976, 0.27949391993035094, 0.18847463476866769, 0.41190214264142627, -0.019960338208026979,
        0.26462381980726257});
  near(out[1], {2, 2, 2},
       {0.036841008020236266, 0.18330014970843872, 0.069646018031487233, 0.21582737583865647, 0.18847463476866769,
        0.41190214264142627, -0.035382080005323106, 0.1356748885100911});
}

TEST_CASE("onnx GRU forward, linear_before_reset 0, no initial state, sequence_lens at run time") {
  TempDir tmp("onnx_gru_forward");
  OnnxModel m(14);
  m.input("X", {"3", "2", "2"});
  m.input("lens", {"2"}, onnx::TensorProto::INT32);
  weight(m, "W", {1, 6, 2}, 15);
  weight(m, "R", {1, 6, 2}, 16);
  weight(m, "B", {1, 12}, 0);
  m.node("GRU", {"X", "W", "R", "B", "lens"}, {"Y", "Y_h"});
  m.output("Y"), m.output("Y_h");
  const auto out = run_f64(load_onnx(m, tmp / "m.onnx"), {x_time_major(), HostTensor{DType::I32, Shape::make({2}).value(), {2, 3}}});
  near(out[0], {3, 1, 2, 2},
       {-0.033805461599911865, -0.067263104197703261, -0.18985856806640317, -0.1911945885985093,
        -0.19092818299157027, -0.19938449146851314, -0.152511587160992, -0.27040995207005925, 0, 0,
        -0.10195053491111304, -0.23392107374009441});
  near(out[1], {1, 2, 2}, {-0.19092818299157027, -0.19938449146851314, -0.10195053491111304, -0.23392107374009441});
}

TEST_CASE("onnx RNN bidirectional with Relu and Tanh, and Y_h alone") {
  TempDir tmp("onnx_rnn");
  for (bool y : {true, false}) {
    OnnxModel m(14);
    m.input("X", {"3", "2", "2"});
    weight(m, "W", {2, 2, 2}, 3);
    weight(m, "R", {2, 2, 2}, 5);
    weight(m, "B", {2, 4}, 7);
    weight(m, "h0", {2, 2, 2}, 9);
    auto& n = m.node("RNN", {"X", "W", "R", "B", "", "h0"}, {y ? "Y" : "", "Y_h"});
    set_string(n, "direction", "bidirectional");
    set_strings(n, "activations", {"Relu", "Tanh"});
    if (y) m.output("Y");
    m.output("Y_h");
    const auto out = run_f64(load_onnx(m, tmp / "m.onnx"), {x_time_major()});
    if (y)
      near(out[0], {3, 2, 2, 2},
           {0, 0.7890625, 0, 0.421875, -0.12306611816749596, -0.25576848520439288, 0.13969972189708693,
            0.018055254552351199, 0, 0.51025390625, 0, 0.5263671875, 0.099165473535126197, 0.073706818723550366,
            -0.23177621007651197, -0.36455930413627735, 0, 0.637359619140625, 0, 0.74383544921875,
            -0.28845021297273932, -0.44974055235364957, -0.37189891001638509, -0.41157005567402244});
    near(out[y ? 1 : 0], {2, 2, 2},
         {0, 0.637359619140625, 0, 0.74383544921875, -0.12306611816749596, -0.25576848520439288, 0.13969972189708693,
          0.018055254552351199});
  }
}

TEST_CASE("onnx recurrent refusals: an activation nnref does not have") {
  TempDir tmp("onnx_recurrent_refusals");
  OnnxModel hard(14);
  hard.input("X", {"3", "2", "2"});
  weight(hard, "W", {1, 6, 2}, 3);
  weight(hard, "R", {1, 6, 2}, 5);
  set_strings(hard.node("GRU", {"X", "W", "R"}, {"Y"}), "activations", {"HardSigmoid", "Tanh"});
  hard.output("Y");
  const auto hs = load_errors(hard, tmp / "hard.onnx");
  const Diagnostic* h = find_code(hs, "onnx.attribute-unsupported");
  REQUIRE(h);
  CHECK(h->message.find("the activation HardSigmoid is not supported") != std::string::npos);
}
