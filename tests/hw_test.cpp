// The NAC hardware model (docs/hw-model.md): cycle counts of tiny programs computed by hand from
// the cost model, the stall a late or missing PRELOAD causes, the documented accumulation orders
// on inputs where order changes the float32 result, the outputs of every example and of the NAC
// corpus inside the conform envelope, the config's and the run's errors, and the trace.
#include <catch2/catch.hpp>
#include <bit>
#include <cmath>
#include <nlohmann/json.hpp>
#include <regex>
#include <map>
#include <set>

#include "cli_test_support.hpp"
#include "formats/tensor_files/npy.hpp"
#include "hw/cost.hpp"
#include "hw/kernels.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;
namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

const char* kExamples[] = {"mlp", "mnist_classifier", "resnet_block", "downsample_block"};

// Numbers chosen so that every cost is easy to add up: a 2×2 MAC array, 4 lanes, DRAM at 4 bytes
// a cycle after 10 cycles, exp 5 and reciprocal 3 cycles.
const char* kHandConfig = R"({"mac_rows": 2, "mac_cols": 2, "vector_lanes": 4, "vector_cycles": 1,
  "dram_bytes_per_cycle": 4, "dram_latency": 10, "mmap_command_cycles": 1, "clock_mhz": 500,
  "sfu_latency": {"exp": 5, "reciprocal": 3}})";

// A one-input NNL model in `dir` (body: its layers after `input`), with its weights and an input
// of `n` elements 0.5, 1.5, ...
void write_model(const fs::path& dir, int n, const std::string& body,
                 const std::vector<std::pair<std::string, HostTensor>>& weights = {}) {
  fs::create_directories(dir / "weights");
  write_text(dir / "model.nnl", "version 0.2;\nmodel m {\n  config { weights: \"./weights\"; io: \"stdio\"; }\n"
                                "  layer input = Input(shape: [" + std::to_string(n) + "]);\n" + body + "}\n");
  for (const auto& [name, t] : weights) REQUIRE(write_npy((dir / "weights" / (name + ".npy")).string(), t).ok());
  HostTensor x{DType::F32, *Shape::make({1, n}), {}};
  for (int k = 0; k < n; ++k) x.values.push_back(k + 0.5);
  REQUIRE(write_npy((dir / "input.npy").string(), x).ok());
  write_text(dir / "hw.json", kHandConfig);
}

// The number after `label` in --stats' text ("cycles: 58" -> 58).
int64_t stat(const std::string& text, const std::string& label) {
  std::smatch m;
  REQUIRE(std::regex_search(text, m, std::regex(label + " ?(\\d+)")));
  return std::stoll(m[1]);
}

Run hw_run(const fs::path& dir, std::vector<std::string> extra) {
  std::vector<std::string> args{"hw", "run", (dir / "model.nnl").string(), "--input", (dir / "input.npy").string(),
                                "--config", (dir / "hw.json").string(), "--stats", "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  return nnref_process(args, dir);
}

// linear: x [1, 3] · W [3, 2] + b; W and b 24 and 8 bytes.
void write_linear(const fs::path& dir) {
  write_model(dir, 3, "  layer fc = Dense(units: 2);\n",
              {{"fc.weight", HostTensor{DType::F32, *Shape::make({3, 2}), {1, 2, 3, 4, 5, 6}}},
               {"fc.bias", HostTensor{DType::F32, *Shape::make({2}), {0.25, -0.25}}}});
}

// The linear model run with `--preload-ahead K`, which succeeds: its --stats.
std::string linear_stats(const std::string& ahead) {
  TempDir tmp("hw_linear_" + ahead);
  write_linear(tmp.path);
  const Run r = hw_run(tmp.path, {"--preload-ahead", ahead});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  return r.out;
}

}  // namespace

TEST_CASE("hw run: a linear with no PRELOAD loads each parameter on demand, the cycles counted by hand") {
  const std::string out = linear_stats("0");
  // input 12 bytes: 10 + 12/4 = 13; weight on demand from 13: 10 + 24/4 = 16 stalled; bias from 29:
  // 10 + 8/4 = 12 stalled; linear: 1 tile of K + R + C - 2 = 3 + 2 = 5; output 8 bytes: 10 + 2 = 12.
  CHECK(stat(out, "cycles:") == 13 + 16 + 12 + 5 + 12);
  CHECK(out.find("on-demand 28 (2)") != std::string::npos);
  CHECK(out.find("preload-late 0 (0)") != std::string::npos);
  CHECK(stat(out, "DRAM:") == 12 + 24 + 8 + 8);
  CHECK(stat(out, "peak SRAM:") == 12 + 24 + 8 + 8);  // at the linear's tick: x, W, b and y
  // 6 MACs on a 2×2 array over 58 cycles.
  CHECK(out.find("MAC utilisation: 2.59% (6 MACs on 2x2)") != std::string::npos);
}

TEST_CASE("hw run: a PRELOAD one tick ahead arrives late by exactly the transfer the core did not hide") {
  const std::string out = linear_stats("1");
  // PRELOAD W at tick 0 (cycles 0-16) while the input takes 13: 3 late. PRELOAD b at tick 1 waits
  // for the coprocessor (16-28) while the core is at 16: 12 late. Then 5 + 12.
  CHECK(stat(out, "cycles:") == 13 + 3 + 12 + 5 + 12);
  CHECK(out.find("preload-late 15 (2)") != std::string::npos);
  CHECK(out.find("on-demand 0 (0)") != std::string::npos);
}

TEST_CASE("nac compile: each PRELOAD's lead is the fewest ticks whose modeled cycles hide its transfer") {
  TempDir tmp("hw_lead");
  // v0 input (13 cycles), v1 W1, v2 b1, v3 linear (5), v4 relu (1), v5 W2 [2, 2], v6 b2, v7 linear, v8 output.
  write_model(tmp.path, 3, "  layer fc1 = Dense(units: 2, activation: \"relu\");\n  layer fc2 = Dense(units: 2);\n",
              {{"fc1.weight", HostTensor{DType::F32, *Shape::make({3, 2}), {1, 2, 3, 4, 5, 6}}},
               {"fc1.bias", HostTensor{DType::F32, *Shape::make({2}), {0.25, -0.25}}},
               {"fc2.weight", HostTensor{DType::F32, *Shape::make({2, 2}), {1, -1, 2, 0.5}}},
               {"fc2.bias", HostTensor{DType::F32, *Shape::make({2}), {1, 2}}}});
  const std::string nac = (tmp / "m.nac").string();
  auto dump_line = [&](const std::vector<std::string>& options, const std::string& tick) {
    std::vector<std::string> args{"nac", "compile", (tmp / "model.nnl").string(), "-o", nac};
    args.insert(args.end(), options.begin(), options.end());
    const Run c = nnref_process(args, tmp.path);
    INFO(c.err);
    REQUIRE(c.code == 0);
    const std::string out = nnref_process({"nac", "dump", nac}, tmp.path).out;
    const size_t at = out.find("\n" + tick + " = ");
    REQUIRE(at != std::string::npos);
    return out.substr(at + 1, out.find('\n', at + 1) - at - 1);
  };
  // The hand config: W2 moves 16 bytes in 10 + 4 = 14 cycles; ticks 4, 3, 2, 1 take 1 + 5 + 0 + 0 and
  // tick 0 13 more: lead 5, so at tick 0, with b2 (12 cycles, lead 6) and W1, b1 (16 and 12 cycles
  // behind the input's 13 cycles: leads 1 and 2).
  CHECK(dump_line({"--config", (tmp / "hw.json").string()}, "v0").find("PRELOAD -> 1, PRELOAD -> 2, PRELOAD -> 5, PRELOAD -> 6") != std::string::npos);
  // 1 cycle of latency at 64 bytes a cycle: every transfer takes 2 cycles; W2 is hidden by ticks 4
  // and 3 (1 + 5), b2 by ticks 5, 4, 3 (0 + 1 + 5): both at tick 3.
  write_text(tmp / "fast.json", R"({"dram_latency": 1, "dram_bytes_per_cycle": 64})");
  CHECK(dump_line({"--config", (tmp / "fast.json").string()}, "v3").find("PRELOAD -> 5, PRELOAD -> 6") != std::string::npos);
  // --preload-ahead 2: W2 at tick 3, b2 at tick 4.
  CHECK(dump_line({"--preload-ahead", "2"}, "v3").find("PRELOAD -> 5") != std::string::npos);
  CHECK(dump_line({"--preload-ahead", "2"}, "v4").find("PRELOAD -> 6") != std::string::npos);
  const Run bad = nnref_process({"nac", "compile", (tmp / "model.nnl").string(), "-o", nac, "--config", (tmp / "absent.json").string()}, tmp.path);
  CHECK(bad.code == 2);
  CHECK(bad.err.find("hw.config.read") != std::string::npos);
}

TEST_CASE("hw run: a relu chain and a softmax, the cycles counted by hand") {
  TempDir tmp("hw_vector");
  write_model(tmp / "relu", 8, "  layer a = ReLU();\n  layer b = ReLU();\n  layer c = ReLU();\n");
  const Run relu = hw_run(tmp / "relu", {});
  INFO(relu.out << relu.err);
  REQUIRE(relu.code == 0);
  // input and output 32 bytes: 10 + 8 each; each relu ⌈8/4⌉ = 2.
  CHECK(stat(relu.out, "cycles:") == 18 + 3 * 2 + 18);
  CHECK(stat(relu.out, "stalls:") == 0);
  write_model(tmp / "softmax", 8, "  layer s = Softmax();\n");
  const Run softmax = hw_run(tmp / "softmax", {});
  INFO(softmax.out << softmax.err);
  REQUIRE(softmax.code == 0);
  // 3 vector passes of 2, exp 5 + 2, one reciprocal 3 + 1.
  CHECK(stat(softmax.out, "cycles:") == 18 + (3 * 2 + 7 + 4) + 18);
}

TEST_CASE("hw cost: every unary op runs on the vector unit or on the SFU function docs/hw-model.md names") {
  // The defaults of docs/hw-model.md, and the function each SFU op uses.
  const std::map<std::string, int64_t> latency{
      {"exp", 20},  {"log", 24},  {"sqrt", 12},  {"rsqrt", 12}, {"reciprocal", 8}, {"tanh", 24},  {"sigmoid", 24},
      {"softplus", 28}, {"sin", 24}, {"cos", 24}, {"tan", 32},   {"sinh", 28},      {"cosh", 28},  {"asin", 32},
      {"acos", 32}, {"atan", 32}, {"asinh", 32}, {"acosh", 32}, {"atanh", 32}, {"erf", 28}};
  const std::map<std::string, std::string> through{{"rcp", "reciprocal"}, {"rsqr", "reciprocal"}, {"elu", "exp"}, {"log2", "log"}};
  const std::set<std::string> vector_ops{"copy",       "neg",       "abs",        "sign", "floor",     "ceil",
                                          "round",      "round_even", "round_f16", "round_bf16", "sqr", "relu", "leaky_relu"};
  const hw::Config c;
  for (const UnaryAttrs& a : op_prototypes<UnaryAttrs>()) {
    const std::string name = op_name(a);
    INFO(name);
    auto op = Checked<UnaryAttrs>::check(a, {*Shape::make({40})});
    REQUIRE(op.ok());
    const hw::OpCost cost = hw::cost_of(CheckedOp(*op), c);
    if (vector_ops.count(name)) {
      CHECK(cost.unit == hw::Unit::Vector);
      CHECK(cost.cycles == 3);  // ⌈40 / 16⌉
    } else {
      CHECK(cost.unit == hw::Unit::Sfu);
      CHECK(cost.cycles == latency.at(through.count(name) ? through.at(name) : name) + 3);
    }
  }
}

TEST_CASE("hw kernels: the MAC array adds each output's products in increasing k with one fma each") {
  hw::Config c;
  auto run = [&](std::vector<float> x, std::vector<float> w, float bias) {
    const auto k = static_cast<int64_t>(x.size());
    Value<float> in = *Tensor<float>::from(*Shape::make({1, k}), x);
    Tensor<float> weight = *Tensor<float>::from(*Shape::make({1, k}), w), b = *Tensor<float>::from(*Shape::make({1}), {bias});
    Value<float> out = Tensor<float>(*Shape::make({1, 1}));
    auto checked = Checked<LinearAttrs>::check(LinearAttrs{1, WeightLayout::OutIn, true}, {*Shape::make({1, k})});
    REQUIRE(checked.ok());
    hw::compute(CheckedOp(*checked), OpIO<float>{{&in}, {&weight, &b}, {&out}}, c);
    return std::get<Tensor<float>>(out)[0];
  };
  // 1 + 1e8 rounds to 1e8 (spacing 8 there), then − 1e8: 0. Decreasing k would give 1.
  CHECK(run({1.0f, 1e8f, -1e8f}, {1, 1, 1}, 0.0f) == 0.0f);
  CHECK(run({1e8f, -1e8f, 1.0f}, {1, 1, 1}, 0.0f) == 1.0f);
  // (1 + 2⁻¹²)² − 1 = 2⁻¹¹ + 2⁻²⁴ exactly with one rounding; a rounded product would lose the 2⁻²⁴.
  const float a = 1.0f + std::ldexp(1.0f, -12);
  CHECK(run({a}, {a}, -1.0f) == std::ldexp(1.0f, -11) + std::ldexp(1.0f, -24));
}

TEST_CASE("hw kernels: the vector unit sums lane by lane, then the lanes left to right") {
  const auto op = Checked<ReduceAttrs>::check(ReduceAttrs{ReduceOp::Sum, {1}, false}, {*Shape::make({1, 4})});
  REQUIRE(op.ok());
  auto sum = [&](int64_t lanes) {
    hw::Config c;
    c.vector_lanes = lanes;
    Value<float> in = *Tensor<float>::from(*Shape::make({1, 4}), {1e8f, 1.0f, -1e8f, 1.0f});
    Value<float> out = Tensor<float>(*Shape::make({1}));
    hw::compute(CheckedOp(*op), OpIO<float>{{&in}, {}, {&out}}, c);
    return std::get<Tensor<float>>(out)[0];
  };
  CHECK(sum(1) == 1.0f);  // ((1e8 + 1) − 1e8) + 1: the 1 is lost in 1e8
  CHECK(sum(2) == 2.0f);  // lanes (1e8 − 1e8) and (1 + 1), then 0 + 2
  CHECK(sum(4) == 1.0f);  // each lane one term: ((1e8 + 1) − 1e8) + 1
}

TEST_CASE("hw kernels: sum and average pooling sum each window lane by lane, the average then divides") {
  PoolAttrs a;
  a.kernel = {4};
  auto pool = [&](PoolOp op, int64_t lanes) {
    a.op = op;
    const auto checked = Checked<PoolAttrs>::check(a, {*Shape::make({1, 1, 4})});
    REQUIRE(checked.ok());
    hw::Config c;
    c.vector_lanes = lanes;
    Value<float> in = *Tensor<float>::from(*Shape::make({1, 1, 4}), {1e8f, 1.0f, -1e8f, 1.0f});
    Value<float> out = Tensor<float>(*Shape::make({1, 1, 1}));
    hw::compute(CheckedOp(*checked), OpIO<float>{{&in}, {}, {&out}}, c);
    return std::get<Tensor<float>>(out)[0];
  };
  // The window's four terms in the reduction's order (above): 1 with one lane, 2 with two lanes.
  CHECK(pool(PoolOp::Sum, 1) == 1.0f);
  CHECK(pool(PoolOp::Sum, 2) == 2.0f);
  CHECK(pool(PoolOp::Avg, 2) == 0.5f);
}

TEST_CASE("hw: conform --engine hw accepts every example, and run --engine hw writes float32") {
  TempDir tmp("hw_conform");
  for (const char* name : kExamples) {
    INFO("example " << name);
    const Run c = nnref_process({"conform", example(name, "model.nnl"), "--input", example(name, "input.npy"), "--engine",
                                 "hw", "--format", "json"},
                                tmp.path);
    INFO(c.out << c.err);
    REQUIRE(c.code == 0);
    CHECK(Json::parse(c.out)["verdict"] == "conforms");
  }
  const std::string y = (tmp / "y.npy").string();
  const Run r = nnref_process({"run", example("mlp", "model.nnl"), "--input", example("mlp", "input.npy"), "--engine",
                               "hw", "--output", y, "--quiet"},
                              tmp.path);
  REQUIRE(r.code == 0);
  CHECK(read_npy(y)->dtype == DType::F32);
}

// NNEF's comparisons, logical operations, arg and logical reductions, gather with an integer
// constant and cast: compiled to NAC (internal and external weights) they run to the same
// outputs as the NNEF model, bit for bit (the integer constant keeps its kind through DATA's int64),
// and the hardware model's outputs conform.
TEST_CASE("hw: NNEF's integer and logical operations through NAC and the hardware model") {
  TempDir tmp("hw_nnef_ops");
  const std::string logic = std::string(NNREF_SOURCE_DIR) + "/tests/data/nnef/crosscheck/logic";
  HostTensor x{DType::F32, *Shape::make({2, 3, 8}), {}};
  for (int k = 0; k < 48; ++k) x.values.push_back(std::sin(0.7 * k) * 1.5);
  const std::string in = (tmp / "x.npy").string();
  REQUIRE(write_npy(in, x).ok());
  const auto run_to = [&](const std::string& model, const std::string& out) {
    const Run r = nnref_process({"run", model, "--input", in, "--output", (tmp / out).string(), "--quiet"}, tmp.path);
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    const auto outputs = read_npz((tmp / out).string());
    REQUIRE(outputs.ok());
    std::vector<std::pair<std::string, std::vector<uint32_t>>> bits;  // each output's float32 bits
    for (const auto& [name, t] : *outputs) {
      bits.emplace_back(name, std::vector<uint32_t>{});
      for (double v : t.values) bits.back().second.push_back(std::bit_cast<uint32_t>(static_cast<float>(v)));
    }
    return bits;
  };
  const auto expected = run_to(logic, "nnef.npz");
  REQUIRE(expected.size() == 11);
  for (const bool external : {false, true}) {
    INFO("external weights " << external);
    const std::string nac = (tmp / (external ? "ext.nac" : "int.nac")).string();
    std::vector<std::string> compile{"nac", "compile", logic, "-o", nac};
    if (external) compile.push_back("--external-weights");
    REQUIRE(nnref_process(compile, tmp.path).code == 0);
    CHECK(run_to(nac, external ? "ext.npz" : "int.npz") == expected);
    const Run c = nnref_process({"conform", nac, "--input", in, "--engine", "hw"}, tmp.path);
    INFO(c.out << c.err);
    CHECK(c.code == 0);
  }
}

TEST_CASE("hw: the NAC corpus's valid files and an int8-channel compile conform on the hardware model") {
  TempDir tmp("hw_corpus");
  REQUIRE(std::system(("/usr/bin/python3 " + std::string(NNREF_SOURCE_DIR) + "/tests/nac_corpus.py " + tmp.path.string()).c_str()) == 0);
  for (const char* name : {"every_section", "quantized_internal", "external_int8_channel", "param_dim"}) {
    INFO(name);
    const std::string stem = (tmp / (std::string("good.") + name)).string();
    const Run c = nnref_process({"conform", stem + ".nac", "--input", stem + ".input.npy", "--engine", "hw"}, tmp.path);
    INFO(c.out << c.err);
    CHECK(c.code == 0);
    const Run stats = nnref_process({"hw", "run", stem + ".nac", "--input", stem + ".input.npy", "--stats"}, tmp.path);
    CHECK(stats.code == 0);
  }
  // The quantized model's outputs against the envelope of the oracle on the dequantized weights,
  // which is what conform computes from the .nac (its weights dequantized at load).
  for (const char* name : kExamples) {
    INFO("example " << name);
    const std::string nac = (tmp / (std::string(name) + ".int8.nac")).string();
    REQUIRE(nnref_process({"nac", "compile", example(name, "model.nnl"), "-o", nac, "--quant", "int8-channel"}, tmp.path).code == 0);
    const Run c = nnref_process({"conform", nac, "--input", example(name, "input.npy"), "--engine", "hw"}, tmp.path);
    INFO(c.out << c.err);
    CHECK(c.code == 0);
  }
}

TEST_CASE("hw run: config errors name the file and the key, exit 2") {
  TempDir tmp("hw_config");
  write_linear(tmp.path);
  const std::pair<const char*, const char*> cases[] = {
      {R"({"mac_rows": 16, "lanes": 4})", "hw.config.unknown-key"},
      {R"({"sfu_latency": {"gelu": 3}})", "hw.config.unknown-key"},
      {R"({"mac_rows": "16"})", "hw.config.type"},
      {R"({"clock_mhz": true})", "hw.config.type"},
      {R"({"dram_bytes_per_cycle": 2.5})", "hw.config.type"},
      {R"({"dram_latency": 0})", "hw.config.value"},
      {R"({"sfu_latency": {"exp": -1}})", "hw.config.value"},
      {R"({"dram_bytes_per_cycle": 18446744073709551615})", "hw.config.value"},
      {R"({"mac_rows": 1099511627777})", "hw.config.value"},
      {R"({"clock_mhz": 0})", "hw.config.value"},
      {R"({"mac_rows": 16,})", "hw.config.json"},
      {R"([16, 16])", "hw.config.type"}};
  for (const auto& [text, code] : cases) {
    INFO(text);
    write_text(tmp / "hw.json", text);
    const Run r = hw_run(tmp.path, {});
    CHECK(r.code == 2);
    CHECK(r.err.find(code) != std::string::npos);
    CHECK(r.err.find("hw.json") != std::string::npos);
  }
  const Run missing = nnref_process({"hw", "run", (tmp / "model.nnl").string(), "--input", (tmp / "input.npy").string(),
                                     "--config", (tmp / "absent.json").string()},
                                    tmp.path);
  CHECK(missing.code == 2);
  CHECK(missing.err.find("hw.config.read") != std::string::npos);
}

TEST_CASE("hw run: a missing or short input is a usage error, an SRAM too small for a tick names it, exit 1") {
  TempDir tmp("hw_errors");
  write_linear(tmp.path);
  const Run missing = hw_run(tmp.path, {"--input", (tmp / "absent.npy").string()});
  CHECK(missing.code == 2);
  // An array of another rank is the input's error; one of 2 features sets input.0 = 2, at which the
  // [3, 2] weight does not fit: the model's error, with the size the array gave.
  REQUIRE(write_npy((tmp / "rank3.npy").string(), HostTensor{DType::F32, *Shape::make({1, 1, 3}), {1, 2, 3}}).ok());
  const Run rank3 = nnref_process({"hw", "run", (tmp / "model.nnl").string(), "--input", (tmp / "rank3.npy").string()}, tmp.path);
  CHECK(rank3.code == 2);
  CHECK(rank3.err.find("input.shape-mismatch") != std::string::npos);
  REQUIRE(write_npy((tmp / "short.npy").string(), HostTensor{DType::F32, *Shape::make({1, 2}), {1, 2}}).ok());
  const Run short_input = nnref_process({"hw", "run", (tmp / "model.nnl").string(), "--input", (tmp / "short.npy").string()}, tmp.path);
  CHECK(short_input.code == 1);
  CHECK(short_input.err.find("error[bind.shape-mismatch]") != std::string::npos);
  CHECK(short_input.err.find("the model was checked at the sizes the inputs give: input.0 = 2 (the model declares 3)") !=
        std::string::npos);
  // x (12 bytes), W (24) and b (8) are resident at the linear's tick with y (8): 52 > 48.
  write_text(tmp / "hw.json", R"({"sram_bytes": 48})");
  const Run sram = hw_run(tmp.path, {"--preload-ahead", "0"});
  CHECK(sram.code == 1);
  CHECK(sram.err.find("hw.sram.capacity") != std::string::npos);
  CHECK(sram.err.find("tick 3") != std::string::npos);
  CHECK(sram.err.find("52 bytes") != std::string::npos);
  write_text(tmp / "hw.json", R"({"sram_bytes": 52})");
  CHECK(hw_run(tmp.path, {"--preload-ahead", "0"}).code == 0);
}

namespace {

// The core's events of a trace: their cycles, their microseconds and their names; and its tracks.
struct TraceSummary {
  std::map<int, std::string> tracks;
  int64_t core_cycles = 0, coprocessor_events = 0;
  double core_us = 0;
  std::multiset<std::string> core_names;
};

TraceSummary read_trace(const std::string& path) {
  std::ifstream in(path);
  const Json j = Json::parse(in);
  TraceSummary t;
  for (const Json& e : j.at("traceEvents")) {
    if (e.at("ph") == "M" && e.at("name") == "thread_name") t.tracks[e.at("tid").get<int>()] = e.at("args").at("name");
    if (e.at("ph") != "X") continue;
    CHECK(e.at("ts").get<double>() >= 0);
    if (e.at("tid") == 1) {
      t.core_cycles += e.at("args").at("cycles").get<int64_t>();
      t.core_us += e.at("dur").get<double>();
      t.core_names.insert(e.at("name"));
    } else {
      ++t.coprocessor_events;
    }
  }
  return t;
}

}  // namespace

TEST_CASE("hw run --trace: Chrome trace-event JSON with the core and coprocessor tracks, the core's events add up to the cycles") {
  TempDir tmp("hw_trace");
  const std::string trace = (tmp / "t.json").string();
  const Run r = nnref_process({"hw", "run", example("resnet_block", "model.nnl"), "--input",
                               example("resnet_block", "input.npy"), "--stats", "--quiet", "--trace", trace},
                              tmp.path);
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const TraceSummary t = read_trace(trace);
  CHECK(t.tracks == std::map<int, std::string>{{1, "core"}, {2, "coprocessor"}});
  const int64_t cycles = stat(r.out, "cycles:");
  CHECK(t.core_cycles == cycles);
  CHECK(std::fabs(t.core_us * 1000.0 - static_cast<double>(cycles)) <= 1e-6 * static_cast<double>(cycles));  // 1000 MHz
  CHECK(t.coprocessor_events > 0);
  // The linear on demand, at 500 MHz: its two stalls are events of the core's track too.
  write_linear(tmp / "linear");
  const std::string linear = (tmp / "linear.json").string();
  REQUIRE(hw_run(tmp / "linear", {"--preload-ahead", "0", "--trace", linear}).code == 0);
  const TraceSummary l = read_trace(linear);
  CHECK(l.core_cycles == 58);
  CHECK(std::fabs(l.core_us - 58 / 500.0) <= 1e-9);
  CHECK(l.core_names.count("stall: on-demand") == 2);
  CHECK(l.core_names.count("linear") == 1);
  CHECK(l.coprocessor_events == 2 + 1 + 3);  // two loads on demand, the linear's FORWARD, three FREEs
}
