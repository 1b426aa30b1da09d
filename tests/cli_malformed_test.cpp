// Malformed input of every kind, through the nnref command: each gets a located diagnostic with
// its stable code and exit 1 (invalid model) or 2 (usage, I/O, a file that cannot be read as the
// tensor it claims to be), never a crash or a hang.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "cli/app.hpp"
#include "temp_dir.hpp"

using namespace nnref;
namespace fs = std::filesystem;

namespace {

void write_bytes(const fs::path& p, const std::string& bytes) { std::ofstream(p, std::ios::binary) << bytes; }

std::string model(const std::string& layers) {
  return "version 0.2;\nmodel m {\n  config { weights: \"./w\"; }\n" + layers + "}\n";
}

struct Outcome {
  int code;
  std::string err;
};

Outcome check(const fs::path& file) {
  std::ostringstream out, err;
  int code = run_app({"check", file.string()}, out, err);
  return {code, err.str()};
}

// Some line of the output reads "file:line:col: error[code]: ...".
bool reports(const Outcome& o, const std::string& file, int line, const std::string& code) {
  std::istringstream lines(o.err);
  for (std::string l; std::getline(lines, l);)
    if (l.rfind(file + ":" + std::to_string(line) + ":", 0) == 0 && l.find("error[" + code + "]") != std::string::npos)
      return true;
  return false;
}

}  // namespace

TEST_CASE("malformed models: each reported at its line with its code, exit 1") {
  test::TempDir tmp("malformed_models");
  const fs::path& dir = tmp.path;
  fs::create_directories(dir / "w");
  struct Case {
    std::string name, text;
    int line;
    std::string code;
  };
  const std::vector<Case> cases = {
      {"empty.nnl", "", 1, "nnl.syntax.expected"},
      {"truncated.nnl", model("  layer input = Input(shape: [4]);\n  layer fc = Dense(units:").substr(0, 90), 5,
       "nnl.syntax.expected"},
      {"unknown.nnl", model("  layer input = Input(shape: [4]);\n  layer x = Convolution(filters: 2);\n"), 5,
       "nnl.layer.unknown-type"},
      {"cycle.nnl",
       model("  layer input = Input(shape: [4]);\n  layer a = ReLU();\n  layer b = ReLU();\n  layer s = Add();\n"
             "  connections {\n    input -> s;\n    s -> a;\n    a -> b;\n    b -> s;\n  }\n"),
       5, "nnl.graph.cycle"},  // named from its first-declared layer
      // Dense needs a flat per-sample input; the message says to Flatten.
      {"dense_rank.nnl", model("  layer input = Input(shape: [4, 4, 2]);\n  layer fc = Dense(units: 3);\n"), 5,
       "shape.linear.input-rank"},
      {"window.nnl", model("  layer input = Input(shape: [3, 3, 1]);\n  layer c = Conv2D(filters: 2, kernel: 5);\n"),
       5, "shape.window.exceeds-input"},
      {"add_mismatch.nnl",
       model("  layer input = Input(shape: [4, 4, 2]);\n  layer p = MaxPool2D(kernel: 2);\n  layer s = Add();\n"
             "  connections {\n    input -> p;\n    [input, p] -> s;\n  }\n"),
       6, "shape.add_n.mismatch"},
      // 10^15 elements: a count that fits int64, a size that does not fit the 4 GiB budget.
      {"huge.nnl", model("  layer input = Input(shape: [100000, 100000, 100000]);\n  layer r = ReLU();\n"), 4,
       "size.budget"},
      // 2^66 elements: no count at all.
      {"overflow.nnl", model("  layer input = Input(shape: [4294967296, 4294967296, 4]);\n  layer r = ReLU();\n"), 4,
       "nnl.input.too-large"},
      {"int8.nnl",
       "version 0.2;\nmodel m {\n  config { weights: \"./w\";\n    precision: \"int8\"; }\n"
       "  layer input = Input(shape: [4]);\n}\n",
       4, "nnl.config.int8-unsupported"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    write_bytes(dir / c.name, c.text);
    Outcome o = check(dir / c.name);
    INFO(o.err);
    CHECK(o.code == 1);
    CHECK(reports(o, (dir / c.name).string(), c.line, c.code));
  }
  Outcome flatten = check(dir / "dense_rank.nnl");
  CHECK(flatten.err.find("Flatten") != std::string::npos);
  Outcome cycle = check(dir / "cycle.nnl");
  CHECK(cycle.err.find("a -> b -> s -> a") != std::string::npos);
}

TEST_CASE("malformed files: garbage, missing and unreadable inputs") {
  test::TempDir tmp("malformed_files");
  const fs::path& dir = tmp.path;
  fs::create_directories(dir / "w");
  SECTION("random bytes as a model, many seeds: exit 1 with a located syntax error") {
    std::mt19937 rng(12345);
    for (int seed = 0; seed < 50; ++seed) {
      std::string bytes(static_cast<size_t>(1 + rng() % 400), '\0');
      for (auto& b : bytes) b = static_cast<char>(rng());
      write_bytes(dir / "garbage.nnl", bytes);
      Outcome o = check(dir / "garbage.nnl");
      CHECK(o.code == 1);
      CHECK(o.err.find((dir / "garbage.nnl").string() + ":1:") != std::string::npos);
    }
  }
  SECTION("I/O: a missing model, a directory, an unknown extension: exit 2") {
    CHECK(check(dir / "absent.nnl").code == 2);
    CHECK(check(dir / "w").code == 2);
    fs::create_directories(dir / "folder.nnl");
    Outcome folder = check(dir / "folder.nnl");
    CHECK(folder.code == 2);
    CHECK(folder.err.find("error[io.not-a-file]") != std::string::npos);
    CHECK(folder.err.find("is a directory") != std::string::npos);
    write_bytes(dir / "model.tflite", "not a format nnref reads");
    Outcome tflite = check(dir / "model.tflite");
    CHECK(tflite.code == 2);
    CHECK(tflite.err.find("io.unknown-format") != std::string::npos);
    write_bytes(dir / "noweights.nnl",
                "version 0.2;\nmodel m {\n  config { weights: \"./nowhere\"; }\n  layer input = Input(shape: [4]);\n}\n");
    // check before the weights exist: shapes are proved, bindings not checked (exit 3); run needs them.
    Outcome nw = check(dir / "noweights.nnl");
    CHECK(nw.code == 3);
    CHECK(nw.err.find("warning[check.no-weights]") != std::string::npos);
    std::ostringstream out, err;
    CHECK(run_app({"run", (dir / "noweights.nnl").string(), "--input", "x.npy"}, out, err) == 2);
    CHECK(err.str().find("io.weights-missing") != std::string::npos);
  }
  SECTION("weights: garbage and truncated .npy files are named, exit 2") {
    write_bytes(dir / "dense.nnl", model("  layer input = Input(shape: [2]);\n  layer fc = Dense(units: 2);\n"));
    write_bytes(dir / "w" / "fc.weight.npy", "garbage, not a tensor");
    Outcome bad = check(dir / "dense.nnl");
    CHECK(bad.code == 2);
    CHECK(bad.err.find("fc.weight.npy") != std::string::npos);
    CHECK(bad.err.find("npy.bad-magic") != std::string::npos);
    // A valid header promising 2×2 float64 values, with 3 bytes of data.
    std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }";
    header.append(128 - 10 - header.size() - 1, ' ');  // data starts at byte 128
    header += '\n';
    std::string npy = std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size()) + '\0' + header + "abc";
    write_bytes(dir / "w" / "fc.weight.npy", npy);
    Outcome trunc = check(dir / "dense.nnl");
    CHECK(trunc.code == 2);
    CHECK(trunc.err.find("npy.truncated") != std::string::npos);
  }
  SECTION("an input that is not a tensor file: exit 2") {
    write_bytes(dir / "relu.nnl", model("  layer input = Input(shape: [2]);\n  layer r = ReLU();\n"));
    write_bytes(dir / "x.npy", "\x93NUMPY garbage");
    std::ostringstream out, err;
    int code = run_app({"run", (dir / "relu.nnl").string(), "--input", (dir / "x.npy").string()}, out, err);
    CHECK(code == 2);
    CHECK(err.str().find("x.npy") != std::string::npos);
  }
  SECTION("a model with two inputs given one") {
    write_bytes(dir / "two_in.nnl", model("  layer a = Input(shape: [2]);\n  layer b = Input(shape: [2]);\n"
                                          "  layer s = Add();\n  connections {\n    [a, b] -> s;\n  }\n"));
    std::ostringstream out, err;
    int code = run_app({"run", (dir / "two_in.nnl").string(), "--input",
                        (fs::path(NNREF_SOURCE_DIR) / "tests/data/golden/dense_mlp/input.npy").string()},
                       out, err);
    CHECK(code == 2);
    CHECK(err.str().find("io.input-missing") != std::string::npos);
    CHECK(err.str().find("'b'") != std::string::npos);
  }
}
