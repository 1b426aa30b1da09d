// NNL v0.2 front-end: parsing, checking, lowering to the IR, weight loading, robustness.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <variant>

#include "formats/model.hpp"
#include "formats/nnl/nnl.hpp"
#include "temp_dir.hpp"
#include "nnl_test_support.hpp"

using namespace nnref;
using namespace nnref::test;

// ---------------------------------------------------------------- the spec's examples

TEST_CASE("nnl: the simple MLP example", "[nnl]") {
  LoadResult r = parse_file("mlp.nnl");
  const Model& m = ok_model(r);
  CHECK(r.diagnostics.empty());
  CHECK(m.format == "nnl");
  CHECK(m.precision == "float32");
  CHECK(m.path == kDataDir + "/mlp.nnl");
  CHECK(m.weights_path == kDataDir + "/weights");
  CHECK(names(m) ==
        std::vector<std::string>{"input", "fc1", "fc1/relu", "fc2", "fc2/relu", "output", "output/softmax"});
  CHECK(attrs<InputAttrs>(m, "input").dims == std::vector<int64_t>{1, 4});
  const auto& fc1 = attrs<LinearAttrs>(m, "fc1");
  CHECK(fc1.units == 16);
  CHECK(fc1.layout == WeightLayout::InOut);
  CHECK(fc1.has_bias);
  CHECK(attrs<UnaryAttrs>(m, "fc1/relu").op == UnaryOp::Relu);
  CHECK(attrs<LinearAttrs>(m, "fc2").units == 8);
  CHECK(attrs<LinearAttrs>(m, "output").units == 3);
  CHECK(attrs<SoftmaxAttrs>(m, "output/softmax").axes == std::vector<int64_t>{-1});
  CHECK(input_names(m, "fc1") == std::vector<std::string>{"input"});
  CHECK(input_names(m, "fc2") == std::vector<std::string>{"fc1/relu"});
  CHECK(input_names(m, "output/softmax") == std::vector<std::string>{"output"});
  REQUIRE(m.graph.outputs.size() == 1);
  CHECK(m.graph.outputs[0].name == "output");
  CHECK(m.graph.outputs[0].value.node == node(m, "output/softmax").id);
  CHECK(m.graph.input_ids() == std::vector<int64_t>{0});
  CHECK(node(m, "fc2").loc.file == kDataDir + "/mlp.nnl");
  CHECK(node(m, "fc2").loc.line == 9);
  CHECK(node(m, "fc2/relu").loc.line == 9);
  CHECK(node(m, "fc2").loc.column == 7);
  using K = std::pair<std::string, std::string>;
  CHECK(m.param_keys == std::map<K, std::string>{{{"fc1", "weight"}, "fc1.weight"},
                                                  {{"fc1", "bias"}, "fc1.bias"},
                                                  {{"fc2", "weight"}, "fc2.weight"},
                                                  {{"fc2", "bias"}, "fc2.bias"},
                                                  {{"output", "weight"}, "output.weight"},
                                                  {{"output", "bias"}, "output.bias"}});
  CHECK(m.payload.entries().empty());
}

TEST_CASE("nnl: the MNIST CNN example", "[nnl]") {
  LoadResult r = parse_file("mnist.nnl");
  const Model& m = ok_model(r);
  CHECK(names(m) == std::vector<std::string>{"input", "input/scale", "input/normalize", "conv1", "pool1", "flatten",
                                             "fc1", "fc1/relu", "output", "output/softmax"});
  CHECK(attrs<InputAttrs>(m, "input").dims == std::vector<int64_t>{1, 28, 28, 1});
  CHECK(attrs<ConstAttrs>(m, "input/scale").dims == std::vector<int64_t>{1});
  const ParamEntry* scale = m.payload.find("input/scale", "value");
  REQUIRE(scale != nullptr);
  CHECK(scale->tensor.values == std::vector<double>{255.0});
  CHECK(scale->tensor.shape.dims() == std::vector<int64_t>{1});
  CHECK(scale->source == "<preprocess>");
  const auto& norm = attrs<BinaryAttrs>(m, "input/normalize");
  CHECK(norm.op == BinaryOp::Div);
  CHECK(norm.broadcast == Broadcast::NumpyRight);
  CHECK(input_names(m, "input/normalize") == std::vector<std::string>{"input", "input/scale"});
  CHECK(input_names(m, "conv1") == std::vector<std::string>{"input/normalize"});
  const auto& conv = attrs<ConvAttrs>(m, "conv1");
  CHECK(conv.out_channels == 32);
  CHECK(conv.kernel == std::vector<int64_t>{3, 3});
  CHECK(conv.stride == std::vector<int64_t>{1, 1});
  CHECK(conv.pad_mode == PadMode::Valid);
  CHECK(conv.layout == Layout::ChannelsLast);
  CHECK(conv.has_bias);
  CHECK(conv.groups == 1);
  const auto& pool = attrs<PoolAttrs>(m, "pool1");
  CHECK(pool.op == PoolOp::Max);
  CHECK(pool.kernel == std::vector<int64_t>{2, 2});
  CHECK(pool.stride == std::vector<int64_t>{2, 2});
  CHECK(pool.pad_mode == PadMode::Valid);
  CHECK(pool.layout == Layout::ChannelsLast);
  CHECK(attrs<FlattenAttrs>(m, "flatten").axis == 1);
  CHECK(m.graph.outputs.size() == 1);
  CHECK(m.param_keys.size() == 6);
  CHECK(m.param_keys.count({"input/scale", "value"}) == 0);
  CHECK(m.param_keys.at({"conv1", "weight"}) == "conv1.weight");
  CHECK(m.param_keys.at({"conv1", "bias"}) == "conv1.bias");
}

TEST_CASE("nnl: the ResNet block example", "[nnl]") {
  LoadResult r = parse_file("resnet_block.nnl");
  const Model& m = ok_model(r);
  CHECK(names(m) ==
        std::vector<std::string>{"input", "conv1", "bn1", "relu1", "conv2", "bn2", "res", "relu2"});
  CHECK(attrs<ConvAttrs>(m, "conv1").pad_mode == PadMode::SameUpper);
  const auto& bn = attrs<BatchNormAttrs>(m, "bn1");
  CHECK(bn.epsilon.value == 1e-5);
  CHECK(bn.channel_axis == -1);
  CHECK(std::holds_alternative<AddNAttrs>(node(m, "res").op));
  CHECK(input_names(m, "res") == std::vector<std::string>{"input", "bn2"});
  CHECK(attrs<UnaryAttrs>(m, "relu2").op == UnaryOp::Relu);
  REQUIRE(m.graph.outputs.size() == 1);
  CHECK(m.graph.outputs[0].name == "relu2");
  CHECK(m.param_keys.at({"bn1", "scale"}) == "bn1.gamma");
  CHECK(m.param_keys.at({"bn1", "offset"}) == "bn1.beta");
  CHECK(m.param_keys.at({"bn2", "mean"}) == "bn2.running_mean");
  CHECK(m.param_keys.at({"bn2", "variance"}) == "bn2.running_var");
  CHECK(m.param_keys.size() == 12);
}

// ---------------------------------------------------------------- layer parameters

TEST_CASE("nnl: parameter defaults and values", "[nnl]") {
  SECTION("Conv2D defaults: stride 1, padding valid") {
    const Model& m = ok_model(one_layer("Conv2D(filters: 4, kernel: 5)", "[16, 16, 3]"));
    const auto& c = attrs<ConvAttrs>(m, "x");
    CHECK(c.kernel == std::vector<int64_t>{5, 5});
    CHECK(c.stride == std::vector<int64_t>{1, 1});
    CHECK(c.pad_mode == PadMode::Valid);
  }
  SECTION("Conv2D kernel and stride as shapes") {
    const Model& m = ok_model(one_layer("Conv2D(filters: 4, kernel: [3, 1], stride: [2, 1], padding: \"same\")"));
    const auto& c = attrs<ConvAttrs>(m, "x");
    CHECK(c.kernel == std::vector<int64_t>{3, 1});
    CHECK(c.stride == std::vector<int64_t>{2, 1});
    CHECK(c.pad_mode == PadMode::SameUpper);
    CHECK(c.out_channels == 4);
  }
  SECTION("pool stride defaults to the kernel") {
    const Model& m = ok_model(one_layer("AvgPool2D(kernel: [2, 4])"));
    const auto& p = attrs<PoolAttrs>(m, "x");
    CHECK(p.op == PoolOp::Avg);
    CHECK(p.stride == std::vector<int64_t>{2, 4});
    CHECK(p.border == PoolBorder::Ignore);
  }
  SECTION("pool explicit stride") {
    const Model& m = ok_model(one_layer("MaxPool2D(kernel: 3, stride: 1)"));
    const auto& p = attrs<PoolAttrs>(m, "x");
    CHECK(p.kernel == std::vector<int64_t>{3, 3});
    CHECK(p.stride == std::vector<int64_t>{1, 1});
  }
  SECTION("BatchNorm epsilon") {
    CHECK(attrs<BatchNormAttrs>(ok_model(one_layer("BatchNorm()")), "x").epsilon.value == 1e-5);
    CHECK(attrs<BatchNormAttrs>(ok_model(one_layer("BatchNorm(epsilon: 1e-6)")), "x").epsilon.value == 1e-6);
    // The decimal as written, for the 50-digit and interval readings.
    CHECK(attrs<BatchNormAttrs>(ok_model(one_layer("BatchNorm(epsilon: 0.001)")), "x").epsilon.decimal == "0.001");
    CHECK(attrs<BatchNormAttrs>(ok_model(one_layer("BatchNorm(epsilon: 1)")), "x").epsilon.value == 1.0);
  }
  SECTION("Dropout is a copy, rate ignored") {
    CHECK(attrs<UnaryAttrs>(ok_model(one_layer("Dropout()")), "x").op == UnaryOp::Copy);
    CHECK(attrs<UnaryAttrs>(ok_model(one_layer("Dropout(rate: 0.25)")), "x").op == UnaryOp::Copy);
    CHECK(attrs<UnaryAttrs>(ok_model(one_layer("Dropout(rate: 0)")), "x").op == UnaryOp::Copy);
  }
  SECTION("ReLU, Sigmoid, Flatten") {
    CHECK(attrs<UnaryAttrs>(ok_model(one_layer("ReLU()")), "x").op == UnaryOp::Relu);
    CHECK(attrs<UnaryAttrs>(ok_model(one_layer("Sigmoid()")), "x").op == UnaryOp::Sigmoid);
    CHECK(attrs<FlattenAttrs>(ok_model(one_layer("Flatten()")), "x").axis == 1);
  }
  SECTION("Softmax axis: default -1, kept as written, counted per sample (past 1 batch axis)") {
    for (int64_t axis : {-3, -2, -1, 0, 2}) {
      const std::string decl = "Softmax(axis: " + std::to_string(axis) + ")";
      const Model m = ok_model(one_layer(decl));
      const auto& a = attrs<SoftmaxAttrs>(m, "x");
      CHECK(a.axes == std::vector<int64_t>{axis});
      CHECK(a.batch_axes == 1);
    }
    CHECK(attrs<SoftmaxAttrs>(ok_model(one_layer("Softmax()")), "x").axes == std::vector<int64_t>{-1});
    const Model dense_model = ok_model(one_layer("Dense(units: 2, activation: \"softmax\")", "[5]"));
    const auto& dense = attrs<SoftmaxAttrs>(dense_model, "x/softmax");
    CHECK(dense.axes == std::vector<int64_t>{-1});
    CHECK(dense.batch_axes == 1);
  }
  SECTION("Dense activations") {
    const Model& none = ok_model(one_layer("Dense(units: 2)", "[5]"));
    CHECK(names(none) == std::vector<std::string>{"input", "x"});
    const Model& none2 = ok_model(one_layer("Dense(units: 2, activation: \"none\")", "[5]"));
    CHECK(names(none2) == std::vector<std::string>{"input", "x"});
    const Model& sig = ok_model(one_layer("Dense(units: 2, activation: \"sigmoid\")", "[5]"));
    CHECK(attrs<UnaryAttrs>(sig, "x/sigmoid").op == UnaryOp::Sigmoid);
    CHECK(sig.graph.outputs[0].value.node == node(sig, "x/sigmoid").id);
  }
  SECTION("trailing comma in parameter list") {
    CHECK(attrs<LinearAttrs>(ok_model(one_layer("Dense(units: 2,)", "[5]")), "x").units == 2);
  }
}

TEST_CASE("nnl: Concat axis and multiple inputs", "[nnl]") {
  auto model = [](const std::string& concat) {
    return parse(wrap("layer a = Input(shape: [4, 4, 2]);\nlayer b = Input(shape: [4, 4, 3]);\nlayer c = " +
                      concat + ";\nconnections { [a, b] -> c; }\n"));
  };
  CHECK(attrs<ConcatAttrs>(ok_model(model("Concat()")), "c").axis == -1);
  for (int64_t axis : {-3, -1, 0, 2}) {
    const Model m = ok_model(model("Concat(axis: " + std::to_string(axis) + ")"));
    const auto& a = attrs<ConcatAttrs>(m, "c");
    CHECK(a.axis == axis);
    CHECK(a.batch_axes == 1);
  }
  const Model& m = ok_model(model("Concat()"));
  CHECK(input_names(m, "c") == std::vector<std::string>{"a", "b"});
  CHECK(m.graph.input_ids().size() == 2);
}

// ---------------------------------------------------------------- config

TEST_CASE("nnl: config keys accepted", "[nnl]") {
  std::string cfg =
      "precision: \"float64\"; weights: \"dir/w.npz\"; target: \"avx512\"; align: 16; batch: 4; "
      "preprocess: \"none\"; io: \"stdio\";";
  LoadResult r = load_nnl_text(wrap("layer input = Input(shape: [28, 28, 1]);\nlayer f = Flatten();\n", cfg),
                               "/models/a/m.nnl", structure_only());
  const Model& m = ok_model(r);
  CHECK(m.precision == "float64");
  CHECK(m.weights_path == "/models/a/dir/w.npz");
  CHECK(attrs<InputAttrs>(m, "input").dims == std::vector<int64_t>{4, 28, 28, 1});
  for (const char* t : {"generic", "avx2", "avx512", "arm_neon"})
    CHECK_FALSE(parse(wrap("layer i = Input(shape: [1]);\n", std::string("weights: \"w\"; target: \"") + t + "\";"))
                    .has_errors());
  // Absolute weights paths stay as they are.
  LoadResult abs = load_nnl_text(wrap("layer i = Input(shape: [1]);\n", "weights: \"/abs/w\";"), "/models/m.nnl",
                                 structure_only());
  CHECK(ok_model(abs).weights_path == "/abs/w");
}

TEST_CASE("nnl: config errors", "[nnl]") {
  auto bad = [](const std::string& cfg) { return parse(wrap("layer i = Input(shape: [2, 3]);\n", cfg)); };
  // `config { ` is 9 columns, so the first key is at column 10 of line 3.
  SECTION("unknown key") { CHECK(has_diag(bad("weights: \"w\"; colour: \"red\";"), "nnl.config.unknown-key", 3, 24)); }
  SECTION("duplicate key") { CHECK(has_diag(bad("weights: \"w\"; weights: \"v\";"), "nnl.config.duplicate-key", 3, 24)); }
  SECTION("wrong types") {
    CHECK(has_diag(bad("weights: \"w\"; batch: \"4\";"), "nnl.config.type", 3, 31));
    CHECK(has_diag(bad("weights: \"w\"; batch: 1.5;"), "nnl.config.type", 3, 31));
    CHECK(has_diag(bad("weights: \"w\"; precision: float32;"), "nnl.config.type", 3, 35));
    CHECK(has_diag(bad("weights: 3;"), "nnl.config.type", 3, 19));
    CHECK(has_diag(bad("weights: \"w\"; preprocess_mean: 0.5;"), "nnl.config.type", 3, 41));
    CHECK(has_diag(bad("weights: \"w\"; align: [64];"), "nnl.config.type", 3, 31));
  }
  SECTION("bad values") {
    CHECK(has_diag(bad("weights: \"w\"; precision: \"float16\";"), "nnl.config.value", 3, 35));
    CHECK(has_diag(bad("weights: \"w\"; target: \"x86\";"), "nnl.config.value", 3, 32));
    CHECK(has_diag(bad("weights: \"w\"; align: 3;"), "nnl.config.value", 3, 31));
    CHECK(has_diag(bad("weights: \"w\"; align: 0;"), "nnl.config.value", 3, 31));
    CHECK(has_diag(bad("weights: \"w\"; align: -64;"), "nnl.config.value", 3, 31));
    CHECK(has_diag(bad("weights: \"w\"; batch: 0;"), "nnl.config.value", 3, 31));
    CHECK(has_diag(bad("weights: \"w\"; preprocess: \"scale\";"), "nnl.config.value", 3, 36));
    CHECK(has_diag(bad("weights: \"w\"; io: \"file\";"), "nnl.config.value", 3, 28));
    CHECK(has_diag(bad("weights: \"\";"), "nnl.config.value", 3, 19));
    CHECK(has_diag(bad("weights: \"w\"; preprocess: \"standardize\"; preprocess_mean: [1, 2, 3]; "
                       "preprocess_std: [1, 0, 1];"),
                   "nnl.config.value", 3, 99));
    CHECK(has_diag(bad("weights: \"w\"; preprocess_mean: [];"), "nnl.config.value", 3, 41));
  }
  SECTION("int8") { CHECK(has_diag(bad("weights: \"w\"; precision: \"int8\";"), "nnl.config.int8-unsupported", 3, 35)); }
  SECTION("weights missing") { CHECK(has_diag(bad("batch: 2;"), "nnl.config.weights-missing", 3, 1)); }
  SECTION("config block missing and duplicated") {
    LoadResult none = parse("version 0.2;\nmodel m {\nlayer i = Input(shape: [1]);\n}\n");
    CHECK(has_diag(none, "nnl.config.missing", 2, 1));
    LoadResult two = parse(wrap("config { weights: \"v\"; }\nlayer i = Input(shape: [1]);\n"));
    CHECK(has_diag(two, "nnl.config.duplicate-block", 3, 1));
  }
  SECTION("standardize needs mean and std") {
    LoadResult r = bad("weights: \"w\"; preprocess: \"standardize\";");
    CHECK(has_diag(r, "nnl.config.preprocess-missing", 3, 36));
    int n = 0;
    for (const auto& d : r.diagnostics) n += d.code == "nnl.config.preprocess-missing";
    CHECK(n == 2);
  }
  SECTION("mean without standardize is a warning") {
    LoadResult r = bad("weights: \"w\"; preprocess_mean: [1, 2, 3];");
    CHECK_FALSE(r.has_errors());
    const Diagnostic* d = find_diag(r, "nnl.config.preprocess-unused", 3, 24);
    REQUIRE(d != nullptr);
    CHECK(d->severity == Severity::Warning);
  }
}

TEST_CASE("nnl: preprocessing", "[nnl]") {
  SECTION("standardize") {
    std::string cfg =
        "weights: \"w\"; preprocess: \"standardize\";\npreprocess_mean: [0.5, 0.25, 1];\n"
        "preprocess_std: [2, 4, 0.5]; precision: \"float64\";";
    // config spans lines 3-5; the layer is on line 6.
    const Model& m = ok_model(parse(wrap("layer img = Input(shape: [2, 2, 3]);\nlayer r = ReLU();\n", cfg)));
    CHECK(names(m) == std::vector<std::string>{"img", "img/mean", "img/std", "img/center", "img/standardize", "r"});
    CHECK(attrs<ConstAttrs>(m, "img/mean").dims == std::vector<int64_t>{3});
    CHECK(attrs<ConstAttrs>(m, "img/std").dims == std::vector<int64_t>{3});
    CHECK(m.payload.find("img/mean", "value")->tensor.values == std::vector<double>{0.5, 0.25, 1});
    CHECK(m.payload.find("img/std", "value")->tensor.values == std::vector<double>{2, 4, 0.5});
    CHECK(m.payload.find("img/std", "value")->tensor.dtype == DType::F64);
    CHECK(attrs<BinaryAttrs>(m, "img/center").op == BinaryOp::Sub);
    CHECK(attrs<BinaryAttrs>(m, "img/standardize").op == BinaryOp::Div);
    CHECK(attrs<BinaryAttrs>(m, "img/standardize").broadcast == Broadcast::NumpyRight);
    CHECK(input_names(m, "img/center") == std::vector<std::string>{"img", "img/mean"});
    CHECK(input_names(m, "img/standardize") == std::vector<std::string>{"img/center", "img/std"});
    CHECK(input_names(m, "r") == std::vector<std::string>{"img/standardize"});
    CHECK(node(m, "img/mean").loc.line == 6);
    CHECK(m.param_keys.empty());
  }
  SECTION("constants are the nearest doubles to the literals, whatever the precision") {
    std::string cfg = "weights: \"w\"; preprocess: \"standardize\"; preprocess_mean: [0.1]; preprocess_std: [0.3];";
    const Model& m = ok_model(parse(wrap("layer img = Input(shape: [1]);\n", cfg)));
    CHECK(m.precision == "float32");
    CHECK(m.payload.find("img/mean", "value")->tensor.dtype == DType::F64);
    CHECK(m.payload.find("img/mean", "value")->tensor.values[0] == 0.1);
  }
  SECTION("one entry per channel") {
    std::string cfg =
        "weights: \"w\"; preprocess: \"standardize\";\npreprocess_mean: [0.5, 0.25];\npreprocess_std: [2, 4, 0.5];";
    LoadResult r = parse(wrap("layer img = Input(shape: [2, 2, 3]);\n", cfg));
    CHECK(has_diag(r, "nnl.config.preprocess-shape", 4, 1));
    CHECK_FALSE(has_diag(r, "nnl.config.preprocess-shape", 5, 1));
  }
  SECTION("normalize applies to every Input") {
    const Model& m = ok_model(parse(wrap(
        "layer a = Input(shape: [3]);\nlayer b = Input(shape: [3]);\nlayer s = Add();\nconnections { [a, b] -> s; }\n",
        "weights: \"w\"; preprocess: \"normalize_0_1\";")));
    CHECK(input_names(m, "s") == std::vector<std::string>{"a/normalize", "b/normalize"});
  }
}

// ---------------------------------------------------------------- lexical structure

TEST_CASE("nnl: comments", "[nnl]") {
  std::string text =
      "// leading comment\nversion 0.2; /* block\n comment */ model m { // trailing\n"
      "config { /* inline */ weights: \"a/*b*/c // d\"; }\n"
      "layer i = Input(shape: [/* here too */ 3]); /**/\n}\n// final line comment without newline";
  const Model& m = ok_model(parse(text));
  CHECK(m.weights_path == "a/*b*/c / d");
  CHECK(attrs<InputAttrs>(m, "i").dims == std::vector<int64_t>{1, 3});
  CHECK(node(m, "i").loc.line == 5);

  LoadResult unterminated = parse(wrap("layer i = Input(shape: [3]);\n  /* never closed\n"));
  CHECK(has_diag(unterminated, "nnl.syntax.unterminated-comment", 5, 3));
  CHECK(unterminated.has_errors());
  CHECK_FALSE(unterminated.model);
}

TEST_CASE("nnl: lexical errors", "[nnl]") {
  CHECK(has_diag(parse(wrap("layer i = Input(shape: [3]) @;\n")), "nnl.syntax.unexpected-char", 4, 29));
  CHECK(has_diag(parse(wrap("layer i = Input(shape: [3x]);\n")), "nnl.syntax.bad-number", 4, 25));
  CHECK(has_diag(parse(wrap("layer i = Input(shape: [1.]);\n")), "nnl.syntax.bad-number", 4, 25));
  CHECK(has_diag(parse(wrap("layer i = Input(shape: [1e+]);\n")), "nnl.syntax.bad-number", 4, 25));
  CHECK(has_diag(parse(wrap("layer i = Dense(units: 3, activation: \"relu);\n")), "nnl.syntax.unterminated-string",
                 4, 39));
  CHECK(has_diag(parse("version 0.2;\nmodel m { config { weights: \"w\"; } layer i = Input(shape: [1]); }\n}\n"),
                 "nnl.syntax.trailing", 3, 1));
}

TEST_CASE("nnl: numbers out of range", "[nnl]") {
  CHECK(has_diag(one_layer("BatchNorm(epsilon: 1e999)"), "nnl.number.out-of-range", 5, 30));
  CHECK(has_diag(one_layer("Dense(units: 99999999999999999999)", "[3]"), "nnl.number.out-of-range", 5, 24));
  CHECK(has_diag(one_layer("Dense(units: -99999999999999999999)", "[3]"), "nnl.number.out-of-range", 5, 24));
  CHECK(has_diag(parse(wrap("layer i = Input(shape: [2, 99999999999999999999]);\n")), "nnl.number.out-of-range", 4,
                 28));
  // One report per problem: the out-of-range literal is not also a type error.
  LoadResult r = one_layer("Dense(units: 99999999999999999999)", "[3]");
  CHECK(r.diagnostics.size() == 1);
  CHECK(has_diag(parse(wrap("layer i = Input(shape: [4611686018427387904, 4]);\n")), "nnl.input.too-large", 4, 7));
  CHECK(has_diag(parse(wrap("layer i = Input(shape: [2147483648, 2147483648]);\n", "weights: \"w\"; batch: 4;")),
                 "nnl.input.too-large", 4, 7));
}

// ---------------------------------------------------------------- connections

TEST_CASE("nnl: implicit and explicit connections", "[nnl]") {
  std::string layers = "layer input = Input(shape: [4]);\nlayer a = Dense(units: 3);\nlayer b = ReLU();\n";
  const Model& implicit = ok_model(parse(wrap(layers)));
  const Model& explicit_ = ok_model(parse(wrap(layers + "connections {\ninput -> a;\na -> b;\n}\n")));
  CHECK(names(implicit) == names(explicit_));
  CHECK(input_names(implicit, "b") == input_names(explicit_, "b"));

  SECTION("declaration order does not matter with explicit connections") {
    const Model& m = ok_model(parse(wrap(
        "layer b = ReLU();\nlayer a = Dense(units: 3);\nlayer input = Input(shape: [4]);\n"
        "connections { a -> b; input -> a; }\n")));
    CHECK(names(m) == std::vector<std::string>{"input", "a", "b"});
    CHECK(m.graph.outputs.size() == 1);
    CHECK(m.graph.outputs[0].name == "b");
  }
  SECTION("chains") {
    const Model& m = ok_model(parse(wrap(layers + "connections { input -> a -> b; }\n")));
    CHECK(input_names(m, "b") == std::vector<std::string>{"a"});
  }
  SECTION("fan-out: one layer feeding several, outputs in declaration order") {
    const Model& m = ok_model(parse(wrap(
        "layer input = Input(shape: [4]);\nlayer a = ReLU();\nlayer b = Sigmoid();\nlayer c = Dense(units: 2);\n"
        "connections { input -> a; input -> b; input -> c; }\n")));
    CHECK(input_names(m, "a") == std::vector<std::string>{"input"});
    CHECK(input_names(m, "b") == std::vector<std::string>{"input"});
    REQUIRE(m.graph.outputs.size() == 3);
    CHECK(m.graph.outputs[0].name == "a");
    CHECK(m.graph.outputs[1].name == "b");
    CHECK(m.graph.outputs[2].name == "c");
  }
  SECTION("multi-input order follows the edges") {
    const Model& m = ok_model(parse(wrap(
        "layer input = Input(shape: [4]);\nlayer a = ReLU();\nlayer b = Sigmoid();\nlayer s = Add();\n"
        "connections { input -> a; input -> b; b -> s; a -> s; [input] -> s; }\n")));
    CHECK(input_names(m, "s") == std::vector<std::string>{"b", "a", "input"});
    const Model& m2 = ok_model(parse(wrap(
        "layer input = Input(shape: [4]);\nlayer s = Add();\nconnections { [input, input] -> s; }\n")));
    CHECK(input_names(m2, "s") == std::vector<std::string>{"input", "input"});
  }
}

TEST_CASE("nnl: connection and graph errors", "[nnl]") {
  SECTION("unknown layers") {
    LoadResult r = parse(wrap("layer input = Input(shape: [4]);\nlayer a = ReLU();\n"
                              "connections {\ninput -> a;\n[input, ghost] -> a;\na -> nowhere;\n}\n"));
    CHECK(has_diag(r, "nnl.connection.unknown-layer", 8, 9));
    CHECK(has_diag(r, "nnl.connection.unknown-layer", 9, 6));
  }
  SECTION("cycle named") {
    LoadResult r = parse(wrap("layer input = Input(shape: [4]);\nlayer a = Add();\nlayer b = ReLU();\n"
                              "layer c = ReLU();\nconnections { input -> a; c -> a; a -> b; b -> c; }\n"));
    const Diagnostic* d = find_diag(r, "nnl.graph.cycle", 5, 7);
    REQUIRE(d != nullptr);
    CHECK(d->message.find("a -> b -> c -> a") != std::string::npos);
    LoadResult self = parse(wrap("layer input = Input(shape: [4]);\nlayer s = Add();\n"
                                 "connections { [input, s] -> s; }\n"));
    const Diagnostic* ds = find_diag(self, "nnl.graph.cycle", 5, 7);
    REQUIRE(ds != nullptr);
    CHECK(ds->message.find("s -> s") != std::string::npos);
  }
  SECTION("unreachable") {
    LoadResult r = parse(wrap("layer input = Input(shape: [4]);\nlayer a = ReLU();\nlayer b = ReLU();\n"
                              "connections { input -> a; }\n"));
    CHECK(has_diag(r, "nnl.graph.unreachable", 6, 7));
    CHECK(r.diagnostics.size() == 1);
  }
  SECTION("input counts") {
    // Add without explicit connections gets one input.
    LoadResult add = parse(wrap("layer input = Input(shape: [4]);\nlayer s = Add();\n"));
    const Diagnostic* d = find_diag(add, "nnl.layer.arity", 5, 7);
    REQUIRE(d != nullptr);
    CHECK_FALSE(d->notes.empty());
    LoadResult concat = parse(wrap("layer input = Input(shape: [4]);\nlayer c = Concat();\nconnections { input -> c; }\n"));
    CHECK(has_diag(concat, "nnl.layer.arity", 5, 7));
    LoadResult two = parse(wrap("layer input = Input(shape: [4]);\nlayer r = ReLU();\n"
                                "connections { [input, input] -> r; }\n"));
    CHECK(has_diag(two, "nnl.layer.arity", 5, 7));
    LoadResult into_input = parse(wrap("layer a = Input(shape: [4]);\nlayer b = Input(shape: [4]);\n"
                                       "connections { a -> b; }\n"));
    CHECK(has_diag(into_input, "nnl.layer.arity", 5, 7));
    LoadResult first = parse(wrap("layer r = ReLU();\nlayer input = Input(shape: [4]);\n"));
    CHECK(has_diag(first, "nnl.layer.arity", 4, 7));
  }
  SECTION("duplicate connections block") {
    LoadResult r = parse(wrap("layer input = Input(shape: [4]);\nlayer a = ReLU();\n"
                              "connections { input -> a; }\nconnections { }\n"));
    CHECK(has_diag(r, "nnl.connection.duplicate-block", 6, 1));
  }
  SECTION("syntax errors in connections") {
    LoadResult r = parse(wrap("layer input = Input(shape: [4]);\nlayer a = ReLU();\n"
                              "connections {\ninput => a;\n[input, ] -> a;\ninput -> a\n}\n"));
    CHECK(has_diag(r, "nnl.syntax.unexpected-char", 7, 8));
    CHECK(has_diag(r, "nnl.syntax.expected", 8, 9));
    CHECK(has_diag(r, "nnl.syntax.expected", 10, 1));
  }
}

// ---------------------------------------------------------------- layer errors

TEST_CASE("nnl: layer and parameter errors", "[nnl]") {
  SECTION("unknown type, with a suggestion") {
    LoadResult r = one_layer("Relu()");
    const Diagnostic* d = find_diag(r, "nnl.layer.unknown-type", 5, 11);
    REQUIRE(d != nullptr);
    CHECK(d->node == "x");
    REQUIRE_FALSE(d->notes.empty());
    CHECK(d->notes[0].find("ReLU") != std::string::npos);
    CHECK(has_diag(one_layer("LSTM(units: 3)"), "nnl.layer.unknown-type", 5, 11));
  }
  SECTION("unknown parameter") {
    CHECK(has_diag(one_layer("Dense(units: 3, bias: 1)", "[3]"), "nnl.param.unknown", 5, 27));
    CHECK(has_diag(one_layer("ReLU(alpha: 0.1)"), "nnl.param.unknown", 5, 16));
  }
  SECTION("duplicate parameter") {
    CHECK(has_diag(one_layer("Dense(units: 3, units: 4)", "[3]"), "nnl.param.duplicate", 5, 27));
  }
  SECTION("missing parameters") {
    CHECK(has_diag(one_layer("Dense(activation: \"relu\")", "[3]"), "nnl.param.missing", 5, 11));
    CHECK(has_diag(one_layer("Conv2D(kernel: 3)"), "nnl.param.missing", 5, 11));
    CHECK(has_diag(one_layer("Conv2D(filters: 3)"), "nnl.param.missing", 5, 11));
    CHECK(has_diag(one_layer("MaxPool2D()"), "nnl.param.missing", 5, 11));
    CHECK(has_diag(one_layer("AvgPool2D(stride: 2)"), "nnl.param.missing", 5, 11));
    CHECK(has_diag(parse(wrap("layer i = Input();\n")), "nnl.param.missing", 4, 11));
  }
  SECTION("wrong types") {
    CHECK(has_diag(one_layer("Dense(units: 3.0)", "[3]"), "nnl.param.type", 5, 24));
    CHECK(has_diag(one_layer("Dense(units: \"3\")", "[3]"), "nnl.param.type", 5, 24));
    CHECK(has_diag(one_layer("Dense(units: 3, activation: relu)", "[3]"), "nnl.param.type", 5, 39));
    CHECK(has_diag(one_layer("Conv2D(filters: 3, kernel: 1.5)"), "nnl.param.type", 5, 38));
    CHECK(has_diag(one_layer("Conv2D(filters: 3, kernel: \"3\")"), "nnl.param.type", 5, 38));
    CHECK(has_diag(one_layer("BatchNorm(epsilon: \"small\")"), "nnl.param.type", 5, 30));
    CHECK(has_diag(one_layer("Dropout(rate: [0.5])"), "nnl.param.type", 5, 25));
    CHECK(has_diag(one_layer("Softmax(axis: 1.0)"), "nnl.param.type", 5, 25));
    CHECK(has_diag(one_layer("Concat(axis: \"c\")"), "nnl.param.type", 5, 24));
    CHECK(has_diag(parse(wrap("layer i = Input(shape: 3);\n")), "nnl.param.type", 4, 24));
    CHECK(has_diag(one_layer("Conv2D(filters: 3, kernel: 3, padding: 1)"), "nnl.param.type", 5, 50));
  }
  SECTION("bad values") {
    CHECK(has_diag(one_layer("Dense(units: 0)", "[3]"), "nnl.param.value", 5, 24));
    CHECK(has_diag(one_layer("Dense(units: 2, activation: \"tanh\")", "[3]"), "nnl.param.value", 5, 39));
    CHECK(has_diag(one_layer("Conv2D(filters: -1, kernel: 3)"), "nnl.param.value", 5, 27));
    CHECK(has_diag(one_layer("Conv2D(filters: 1, kernel: [3, 3, 3])"), "nnl.param.value", 5, 38));
    CHECK(has_diag(one_layer("Conv2D(filters: 1, kernel: [3, 0])"), "nnl.param.value", 5, 42));
    CHECK(has_diag(one_layer("Conv2D(filters: 1, kernel: 3, stride: 0)"), "nnl.param.value", 5, 49));
    CHECK(has_diag(one_layer("Conv2D(filters: 1, kernel: 3, padding: \"full\")"), "nnl.param.value", 5, 50));
    CHECK(has_diag(one_layer("MaxPool2D(kernel: [2, 2.5])"), "nnl.param.value", 5, 33));
    CHECK(has_diag(one_layer("BatchNorm(epsilon: 0)"), "nnl.param.value", 5, 30));
    CHECK(has_diag(one_layer("Dropout(rate: 1.5)"), "nnl.param.value", 5, 25));
    CHECK(has_diag(one_layer("Softmax(axis: 9999999)"), "nnl.param.value", 5, 25));
    CHECK(has_diag(parse(wrap("layer i = Input(shape: []);\n")), "nnl.param.value", 4, 24));
    CHECK(has_diag(parse(wrap("layer i = Input(shape: [3, 0]);\n")), "nnl.param.value", 4, 28));
  }
  SECTION("duplicate layer id") {
    LoadResult r = parse(wrap("layer input = Input(shape: [4]);\nlayer a = ReLU();\nlayer a = Sigmoid();\n"));
    const Diagnostic* d = find_diag(r, "nnl.layer.duplicate-id", 6, 7);
    REQUIRE(d != nullptr);
    CHECK(d->message.find("line 5") != std::string::npos);
  }
  SECTION("no layers, no input") {
    CHECK(has_diag(parse(wrap("")), "nnl.model.no-layers", 2, 1));
    CHECK(has_diag(parse(wrap("layer r = ReLU();\n")), "nnl.model.no-input", 2, 1));
  }
}

TEST_CASE("nnl: syntax errors and recovery", "[nnl]") {
  SECTION("several independent errors are all reported") {
    LoadResult r = parse(wrap(
        "layer input = Input(shape: [4]);\n"
        "layer a = Dense(units: 3 activation: \"relu\");\n"
        "layer b = Foo();\n"
        "layer c = Dense(units: 0);\n"));
    INFO(dump(r));
    CHECK(has_diag(r, "nnl.syntax.expected", 5, 26));
    CHECK(has_diag(r, "nnl.layer.unknown-type", 6, 11));
    CHECK(has_diag(r, "nnl.param.value", 7, 24));
    CHECK_FALSE(r.model);
  }
  SECTION("two independent errors") {
    LoadResult r = parse(wrap("layer input = Input(shape: [4]);\nlayer a = Dense(units: \"x\");\nlayer b = Softmax(dim: 1);\n"));
    CHECK(has_diag(r, "nnl.param.type", 5, 24));
    CHECK(has_diag(r, "nnl.param.unknown", 6, 19));
  }
  SECTION("missing semicolon before the next statement") {
    LoadResult r = parse(wrap("layer input = Input(shape: [4])\nlayer a = ReLU();\n"));
    CHECK(has_diag(r, "nnl.syntax.expected", 5, 1));
  }
  SECTION("unknown statement") {
    LoadResult r = parse(wrap("input = Input(shape: [4]);\nlayer a = ReLU();\nlayer a2 = Relu();\n"));
    CHECK(has_diag(r, "nnl.syntax.unexpected-token", 4, 1));
    CHECK(has_diag(r, "nnl.layer.unknown-type", 6, 12));
  }
  SECTION("model keyword, name and braces") {
    CHECK(has_diag(parse("version 0.2;\nmodule m {}\n"), "nnl.syntax.expected", 2, 1));
    CHECK(has_diag(parse("model {}\n"), "nnl.syntax.expected", 1, 7));
    CHECK(has_diag(parse("model m\n"), "nnl.syntax.expected", 2, 1));
    CHECK(has_diag(parse("version 0.2;\nmodel m { config { weights: \"w\"; }\nlayer i = Input(shape: [1]);\n"),
                   "nnl.syntax.expected", 4, 1));
    CHECK(has_diag(parse("version;\nmodel m { }\n"), "nnl.syntax.expected", 1, 8));
    CHECK(has_diag(parse(""), "nnl.syntax.expected", 1, 1));
  }
  SECTION("config entry errors keep the rest of the block") {
    LoadResult r = parse(wrap("layer i = Input(shape: [1]);\n", "weights \"w\"; batch: 0;"));
    CHECK(has_diag(r, "nnl.syntax.expected", 3, 18));
    CHECK(has_diag(r, "nnl.config.value", 3, 30));
    CHECK(r.diagnostics.size() == 2);
  }
  SECTION("nested lists are not values") {
    CHECK(has_diag(parse(wrap("layer i = Input(shape: [[1]]);\n")), "nnl.syntax.expected", 4, 25));
  }
}

TEST_CASE("nnl: version", "[nnl]") {
  LoadResult missing = parse("model m { config { weights: \"w\"; } layer i = Input(shape: [1]); }");
  const Diagnostic* d = find_diag(missing, "nnl.version.missing", 1, 1);
  REQUIRE(d != nullptr);
  CHECK(d->severity == Severity::Warning);
  CHECK_FALSE(missing.has_errors());
  CHECK(missing.model);
  LoadResult other = parse("version 0.3;\nmodel m { config { weights: \"w\"; } layer i = Input(shape: [1]); }");
  CHECK(has_diag(other, "nnl.version.unsupported", 1, 1));
  CHECK(other.has_errors());
  CHECK(has_diag(parse("version 1;\nmodel m { config { weights: \"w\"; } layer i = Input(shape: [1]); }"),
                 "nnl.version.unsupported", 1, 1));
}

// ---------------------------------------------------------------- weights

TEST_CASE("nnl: weights from a directory", "[nnl][weights]") {
  LoadResult r = load_nnl_file(kDataDir + "/mlp.nnl", LoadOptions{});
  const Model& m = ok_model(r);
  const ParamEntry* w = m.payload.find("fc1", "weight");
  REQUIRE(w != nullptr);
  CHECK(w->tensor.shape.dims() == std::vector<int64_t>{4, 16});
  CHECK(w->tensor.dtype == DType::F32);
  CHECK(w->tensor.values[0] == -0.375);
  CHECK(w->tensor.values[4] == 0.125);
  CHECK(w->source == kDataDir + "/weights/fc1.weight.npy");
  CHECK(m.payload.find("output", "bias")->tensor.shape.dims() == std::vector<int64_t>{3});
  // Files the model does not use are kept, for the binding check to report.
  CHECK(m.payload.find("fc1", "gamma") != nullptr);
  CHECK(m.payload.find("notes", "extra") != nullptr);
  CHECK(m.payload.entries().size() == 8);
}

TEST_CASE("nnl: weights from an .npz archive, BatchNorm roles", "[nnl][weights]") {
  std::string text = wrap("layer input = Input(shape: [4]);\nlayer fc1 = Dense(units: 16);\n", "weights: \"mlp.npz\";");
  LoadResult r = load_nnl_text(text, kDataDir + "/x.nnl", LoadOptions{});
  const Model& m = ok_model(r);
  CHECK(m.weights_path == kDataDir + "/mlp.npz");
  const ParamEntry* w = m.payload.find("fc1", "weight");
  REQUIRE(w != nullptr);
  CHECK(w->tensor.shape.dims() == std::vector<int64_t>{4, 16});
  CHECK(w->source == kDataDir + "/mlp.npz:fc1.weight");
  CHECK(m.payload.find("fc2", "weight") != nullptr);  // not a layer of this model: kept
  CHECK(m.payload.find("notes", "extra")->tensor.dtype == DType::I32);
  CHECK(m.payload.entries().size() == 8);

  // fc1.gamma is a BatchNorm file name: for a BatchNorm layer fc1 it is role "scale".
  std::string bn = wrap("layer input = Input(shape: [16]);\nlayer fc1 = BatchNorm();\n", "weights: \"mlp.npz\";");
  const Model& mb = ok_model(load_nnl_text(bn, kDataDir + "/x.nnl", LoadOptions{}));
  CHECK(mb.payload.find("fc1", "scale") != nullptr);
  CHECK(mb.payload.find("fc1", "gamma") == nullptr);
  CHECK(mb.payload.find("fc1", "weight") != nullptr);
}

TEST_CASE("nnl: weight errors", "[nnl][weights]") {
  auto load = [](const std::string& weights, LoadOptions o = {}) {
    return load_nnl_text(wrap("layer input = Input(shape: [4]);\n", "weights: \"" + weights + "\";"),
                         kDataDir + "/x.nnl", o);
  };
  // An .onnx model's initializers are weights (tests/onnx_test.cpp); this one does not exist.
  LoadResult onnx = load("model.onnx");
  CHECK(has_diag(onnx, "io.weights-missing", 3, 19));
  CHECK_FALSE(onnx.model);
  CHECK(has_diag(load("no_such_dir"), "io.weights-missing", 3, 19));
  CHECK(has_diag(load("no_such.npz"), "io.weights-missing", 3, 19));
  CHECK(has_diag(load("not_weights.txt"), "nnl.weights.unknown-format", 3, 19));
  LoadOptions tiny;
  tiny.max_memory = 100;
  LoadResult dir = load("weights", tiny);
  CHECK(has_diag(dir, "size.budget", 3, 19));
  CHECK_FALSE(dir.model);
  CHECK(has_diag(load("mlp.npz", tiny), "size.budget", 3, 19));
  // Structure only, nothing is read: a missing or .onnx source is fine.
  CHECK_FALSE(load("model.onnx", structure_only()).has_errors());
  CHECK_FALSE(load("no_such_dir", structure_only()).has_errors());
  CHECK_FALSE(ok_model(load("weights", structure_only())).weights_loaded);
  // If present (check before weights exist): a source that does not exist is no error, and the
  // model says it has no weights; one that exists is read as when required.
  LoadOptions if_present;
  if_present.weights = WeightsPolicy::IfPresent;
  const Model& without = ok_model(load("no_such_dir", if_present));
  CHECK_FALSE(without.weights_loaded);
  CHECK(without.payload.entries().empty());
  CHECK(ok_model(load("weights", if_present)).weights_loaded);
  CHECK(has_diag(load("not_weights.txt", if_present), "nnl.weights.unknown-format", 3, 19));
}

// ---------------------------------------------------------------- load_model

TEST_CASE("nnl: a directory named like a model is an I/O error", "[nnl]") {
  const test::TempDir tmp("nnl_dir_model");
  std::filesystem::create_directories(tmp / "model.nnl");
  LoadResult r = load_model((tmp / "model.nnl").string(), structure_only());
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].code == "io.not-a-file");
  CHECK(r.diagnostics[0].message.find("is a directory") != std::string::npos);
  CHECK_FALSE(r.model);
}

TEST_CASE("nnl: load_model dispatches on the extension", "[nnl]") {
  LoadResult r = load_model(kDataDir + "/resnet_block.nnl", structure_only());
  CHECK_FALSE(r.has_errors());
  CHECK(r.model);
  LoadResult unknown = load_model(kDataDir + "/mlp.npz", structure_only());
  REQUIRE(unknown.diagnostics.size() == 1);
  CHECK(unknown.diagnostics[0].code == "io.unknown-format");
  CHECK(unknown.diagnostics[0].message.find(".npz") != std::string::npos);
  CHECK(load_model("/nonexistent/m.nnl", structure_only()).diagnostics.at(0).code == "io.open-failed");
  LoadResult warn_only;
  warn_only.diagnostics.push_back(make_warning("w", "w"));
  CHECK_FALSE(warn_only.has_errors());
}

// ---------------------------------------------------------------- robustness

TEST_CASE("nnl: every truncation of the examples is handled", "[nnl][robust]") {
  for (const char* name : {"mlp.nnl", "mnist.nnl", "resnet_block.nnl"}) {
    std::ifstream in(kDataDir + "/" + name);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(text.size() > 100);
    for (size_t n = 0; n <= text.size(); ++n) {
      LoadResult r = parse(text.substr(0, n));
      INFO(name << " truncated to " << n << " bytes\n" << dump(r));
      REQUIRE((r.has_errors() || r.model.has_value()));
      if (r.has_errors()) REQUIRE_FALSE(r.model.has_value());
      for (const auto& d : r.diagnostics)
        if (d.code != "nnl.too-many-errors") REQUIRE(d.loc.line >= 1);
    }
  }
}

TEST_CASE("nnl: garbage input", "[nnl][robust]") {
  std::mt19937 rng(12345);
  const std::string alphabet = "model config layer connections {}()[];:,=->\"/*0123456789.eE abcxyz\n\t";
  for (int round = 0; round < 300; ++round) {
    size_t len = rng() % 400;
    std::string s;
    for (size_t i = 0; i < len; ++i)
      s += (round % 2) ? static_cast<char>(rng() % 256) : alphabet[rng() % alphabet.size()];
    LoadResult r = parse(s);
    REQUIRE((r.has_errors() || r.model.has_value()));
    REQUIRE(r.diagnostics.size() <= 250);
  }
  // Many errors are capped, with a final note.
  std::string many;
  for (int i = 0; i < 500; ++i) many += "@ ;\n";
  LoadResult r = parse(wrap(many));
  CHECK(r.diagnostics.back().code == "nnl.too-many-errors");
  CHECK(r.diagnostics.back().loc.file == "t.nnl");  // located at the file the dropped errors are in
  CHECK(r.diagnostics.size() <= 102);
}

TEST_CASE("nnl: pathological sizes", "[nnl][robust]") {
  SECTION("deep nesting") {
    for (const std::string open : {"[", "{", "("}) {
      std::string deep;
      for (int i = 0; i < 200000; ++i) deep += open;
      CHECK(parse(wrap("layer i = Input(shape: " + deep + ");\n")).has_errors());
      CHECK(parse(deep).has_errors());
    }
  }
  SECTION("a 10^6-character identifier") {
    std::string id(1000000, 'a');
    const Model& m = ok_model(parse(wrap("layer " + id + " = Input(shape: [2]);\nlayer r = ReLU();\n")));
    CHECK(m.graph.nodes[0].name == id);
    LoadResult bad = parse(wrap("layer i = Input(shape: [2]);\nlayer r = " + id + "();\n"));
    CHECK(has_diag(bad, "nnl.layer.unknown-type", 5, 11));
    CHECK(bad.diagnostics[0].message.size() < 1000100);
  }
  SECTION("a long number") {
    std::string digits(100000, '9');
    CHECK(has_diag(one_layer("Dense(units: " + digits + ")", "[3]"), "nnl.number.out-of-range", 5, 24));
    CHECK(has_diag(one_layer("BatchNorm(epsilon: 0." + digits + "e-99999)"), "nnl.number.out-of-range", 5, 30));
  }
  SECTION("NUL bytes") {
    std::string s = wrap("layer i = Input(shape: [2]);\n");
    s.insert(20, 3, '\0');
    CHECK(parse(s).has_errors());
  }
}
