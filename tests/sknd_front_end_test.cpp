// The NNEF 2.0 front-end's refusals, each located and coded: a failed @assert
// of a standard operator, an unknown operator and one without a native mapping,
// a missing .dat, a .dat of the wrong shape, a .dat leading outside the model
// folder, an unknown import. And that a folder with main.sknd or a .sknd file
// is recognised, and that matmul takes operands of different ranks. (The values of models that load are compared with an
// independent NumPy evaluation by scripts/sknd_reference.py: ctest
// nnef2_numpy_crosscheck.)
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "formats/front_ends.hpp"
#include "formats/nnef/dat.hpp"
#include "formats/nnef2_model/nnef2_model.hpp"

using namespace nnref;
namespace fs = std::filesystem;

namespace {

// A model folder of its own under the temporary directory, removed afterwards.
struct Folder {
  fs::path path;
  explicit Folder(const std::string& name) : path(fs::temp_directory_path() / ("nnref_sknd_" + name)) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Folder() { fs::remove_all(path); }
  void write(const std::string& file, const std::string& text) const {
    std::ofstream(path / file, std::ios::binary) << text;
  }
  void write_dat(const std::string& file, const std::vector<int64_t>& shape) const {
    int64_t n = 1;
    for (int64_t e : shape) n *= e;
    write(file, nnef::write_dat(shape, std::vector<double>(static_cast<size_t>(n), 0.5), nnef::ItemType::Float, 32));
  }
};

const char* kModel = R"(version 2.0;
import nn;

graph Net {
    @input {
        input: real[1, 3, 8, 8];
    }
    @output {
        output: real[1, 4, 8, 8];
    }
    @variable {
        kernel: real[4, 3, 3, 3];
    }
    @compose {
        output = nn.conv{padding=1}(input, kernel);
    }
}
)";

std::string with(const std::string& from, const std::string& to) {
  std::string text = kModel;
  text.replace(text.find(from), from.size(), to);
  return text;
}

Diagnostic first_error(const LoadResult& r) {
  REQUIRE(r.has_errors());
  REQUIRE(!r.model);
  for (const Diagnostic& d : r.diagnostics)
    if (d.severity == Severity::Error) return d;
  FAIL("no error");
  return r.diagnostics[0];
}

LoadResult load(const Folder& f) { return load_model(f.path.string(), LoadOptions(WeightsPolicy::Required)); }

}  // namespace

TEST_CASE("sknd front-end: a folder with main.sknd and a .sknd file load", "[nnef2]") {
  Folder f("loads");
  f.write("main.sknd", kModel);
  f.write_dat("main.Net.kernel.dat", {4, 3, 3, 3});
  REQUIRE(front_end_for(f.path.string()));
  CHECK(front_end_for(f.path.string())->name == "nnef2");
  CHECK(front_end_for((f.path / "main.sknd").string())->name == "nnef2");
  for (const fs::path& p : {f.path, f.path / "main.sknd"}) {
    const LoadResult r = load_model(p.string(), LoadOptions(WeightsPolicy::Required));
    INFO((r.diagnostics.empty() ? std::string() : r.diagnostics[0].message));
    REQUIRE(r.model);
    CHECK(r.model->format == "nnef2");
    CHECK(r.model->graph.outputs.size() == 1);
    CHECK(r.model->payload.find("output", "weight"));
    CHECK(r.model->param_keys.at({"output", "weight"}) == "main.Net.kernel");
  }
}

TEST_CASE(
    "sknd front-end: a failed @assert names the operator, the condition "
    "and the values",
    "[nnef2]") {
  Folder f("assert");
  f.write("main.sknd", with("kernel: real[4, 3, 3, 3]", "kernel: real[4, 2, 3, 3]"));
  f.write_dat("main.Net.kernel.dat", {4, 2, 3, 3});
  const Diagnostic d = first_error(load(f));
  CHECK(d.code == "nnef2.assert.failed");
  CHECK(d.loc.line == 15);
  CHECK(d.loc.column == 18);
  CHECK(d.message ==
        "nn.conv: @assert `ic == fc * g` fails: input-channels "
        "must equal filter-channels * groups "
        "(input-channels = 3, filter-channels = 2, groups = 1)");
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].find("in the definition of nn.conv at nn.sknd:") == 0);
}

TEST_CASE(
    "sknd front-end: unknown operators, operators without a native "
    "mapping, unknown imports",
    "[nnef2]") {
  Folder f("ops");
  f.write_dat("main.Net.kernel.dat", {4, 3, 3, 3});
  f.write("main.sknd", with("nn.conv{padding=1}", "nn.convolve{padding=1}"));
  Diagnostic d = first_error(load(f));
  CHECK(d.code == "nnef2.op.unknown");
  CHECK((d.loc.line == 15 && d.loc.column == 18));
  CHECK(d.message.find("module nn has no operator 'convolve'") != std::string::npos);
  // algo.top_k is declared without a body (its output extents depend on k only)
  std::string text =
      with("output = nn.conv{padding=1}(input, kernel);", "[output, ~] = algo.top_k{k=1, axis=1}(input);");
  text.replace(text.find("import nn;"), 10, "import nn algo;");
  f.write("main.sknd", text);
  d = first_error(load(f));
  CHECK(d.code == "nnef2.op.no-native");
  CHECK(d.loc.line == 15);
  CHECK(d.message.find("no @lower body and no @compose body") != std::string::npos);
  f.write("main.sknd", with("import nn;", "import nn vision;"));
  d = first_error(load(f));
  CHECK(d.code == "nnef2.import.unknown");
  CHECK(d.loc.file.find("main.sknd") != std::string::npos);
  CHECK((d.loc.line == 2 && d.loc.column == 11));  // at 'vision'
  f.write("main.sknd", with("nn.conv{padding=1}", "layout.conv{padding=1}"));
  CHECK(first_error(load(f)).code == "nnef2.import.missing");
}

TEST_CASE(
    "sknd front-end: a missing .dat, one of the wrong shape, one outside "
    "the folder",
    "[nnef2]") {
  Folder f("dat");
  f.write("main.sknd", kModel);
  Diagnostic d = first_error(load(f));
  CHECK(d.code == "nnef2.dat.missing");
  CHECK((d.loc.line == 12 && d.loc.column == 9));
  CHECK(d.message.find("main.Net.kernel.dat' does not exist") != std::string::npos);
  // Without weights required (check), the model loads without them.
  CHECK(load_model(f.path.string(), LoadOptions(WeightsPolicy::IfPresent)).model);

  f.write_dat("main.Net.kernel.dat", {4, 3, 3});
  d = first_error(load(f));
  CHECK(d.code == "nnef.dat.shape-mismatch");
  CHECK(d.loc.line == 12);

  Folder outside("outside");
  outside.write_dat("kernel.dat", {4, 3, 3, 3});
  fs::remove(f.path / "main.Net.kernel.dat");
  fs::create_symlink(outside.path / "kernel.dat", f.path / "main.Net.kernel.dat");
  d = first_error(load(f));
  CHECK(d.code == "nnef2.dat.escapes");
  CHECK(d.loc.line == 12);
}

TEST_CASE(
    "sknd front-end: shapes the definition refuses and outputs declared "
    "otherwise",
    "[nnef2]") {
  Folder f("shapes");
  f.write_dat("main.Net.kernel.dat", {4, 3, 3, 3});
  f.write("main.sknd", with("output: real[1, 4, 8, 8]", "output: real[1, 4, 6, 6]"));
  Diagnostic d = first_error(load(f));
  CHECK(d.code == "nnef2.graph.output-shape");
  CHECK(d.message == "output 'output' is declared [1, 4, 6, 6] but computed [1, 4, 8, 8]");
  f.write("main.sknd", with("input: real[1, 3, 8, 8]", "input: real[1, 3, 8]"));
  d = first_error(load(f));
  CHECK(d.code == "nnef2.compose.shape");
  INFO(d.message);
  // The input of rank 3 binds d = 1 (real[s..(d+2)]), so the filter must have
  // rank 3 too.
  CHECK(d.message == "nn.conv: input 'filter' has rank 4, but the definition requires 3");
  f.write("main.sknd", with("nn.conv{padding=1}", "nn.conv{padding=1, stride=2, dilation=0}"));
  d = first_error(load(f));
  CHECK(d.code == "nnef2.assert.failed");
  CHECK(d.message.find("`dilation > 0`") != std::string::npos);
}

TEST_CASE("sknd front-end: the draft's AlexNet (§2.1) is refused where it feeds a rank-4 tensor to nn.linear",
          "[nnef2]") {
  const fs::path draft = fs::path(NNREF_SOURCE_DIR) / "tests/data/nnef2/alexnet_draft/main.sknd";
  const Diagnostic d = first_error(load_model(draft.string(), LoadOptions(WeightsPolicy::Skip)));
  CHECK(d.code == "nnef2.compose.shape");
  CHECK((d.loc.line == 53 && d.loc.column == 17));
  CHECK(d.message == "nn.linear: input 'input' has rank 4, but the definition requires 2");
  // With the flattened tensor in its place, every shape of the graph composes: 1000 classes.
  std::ifstream in(draft);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string from = "nn.linear(relu6, kernel7, bias7)";
  text.replace(text.find(from), from.size(), "nn.linear(flat1, kernel7, bias7)");
  const LoadResult r = load_nnef2_text(text, "main.sknd", ".", LoadOptions(WeightsPolicy::Skip));
  REQUIRE(r.model);
  REQUIRE(r.model->graph.outputs.size() == 1);
  // The input and the 20 components; the kernels and biases are the convolutions' and linears' data.
  CHECK(r.model->graph.nodes.size() == 21);
}

TEST_CASE("sknd front-end: windows nnref's ops do not compute are refused by name", "[nnef2]") {
  Folder f("windows");
  f.write_dat("main.Net.kernel.dat", {4, 3, 3, 3});
  // The draft's automatic padding for a 3-wide window of stride 3 on 8: ((8 / 3) - 1) * 3 + 3 - 8 = -2.
  f.write("main.sknd", with("nn.conv{padding=1}", "nn.conv{stride=3}"));
  Diagnostic d = first_error(load(f));
  CHECK(d.code == "nnef2.native.cropping");
  CHECK(d.message ==
        "nn.conv: the padding of spatial axis 0 is (-1, -1), which crops the input; nnref's windowed ops "
        "pad by at least 0");
  // Ceil mode on 8 with 2 after, size 1, stride 2: the definition's ⌈9 / 2⌉ + 1 = 6 windows, the
  // last starting at 10, in the padding after.
  f.write("main.sknd", with("output = nn.conv{padding=1}(input, kernel);",
                            "output = nn.max_pool{size=1, stride=2, padding=[0, 0, 2, 2], ceil_mode=true}(input);"));
  d = first_error(load(f));
  CHECK(d.code == "nnef2.native.ceil-window");
  CHECK(d.loc.line == 15);
}

TEST_CASE("sknd front-end: matmul of operands of different ranks aligns their batch extents on the right", "[nnef2]") {
  // The definition's ea = [1 ..(dz - da), a..]: B of rank 2 is one matrix for the batch of 2, and A of
  // rank 2 against B's batch [2, 1] gives Z's batch [2, 1]. nnref's matmul takes one rank: B, or A,
  // is viewed with leading 1s (the values are compared with NumPy by ctest nnef2_single_ops).
  const std::string graph = R"(version 2.0;
import linalg;

graph Net {
    @input {
        A: real[SA];
        B: real[SB];
    }
    @output {
        Z: real[SZ];
    }
    @compose {
        Z = linalg.matmul{transB=true}(A, B);
    }
}
)";
  const auto text = [&](const std::string& a, const std::string& b, const std::string& z) {
    std::string t = graph;
    for (const auto& [from, to] : {std::pair{"SA", a}, std::pair{"SB", b}, std::pair{"SZ", z}})
      t.replace(t.find(from), 2, to);
    return t;
  };
  for (const std::string& t : {text("2, 3, 4", "5, 4", "2, 3, 5"), text("3, 4", "2, 1, 5, 4", "2, 1, 3, 5")}) {
    const LoadResult r = load_nnef2_text(t, "main.sknd", ".", LoadOptions(WeightsPolicy::Skip));
    INFO((r.diagnostics.empty() ? std::string() : r.diagnostics[0].message));
    REQUIRE(r.model);
    CHECK(r.model->graph.nodes.size() == 4);  // the two inputs, the reshape of the lower rank, the matmul
  }
}

TEST_CASE("sknd front-end: each component's result is named for conform --intermediates", "[nnef2]") {
  // Model::source_values: the IR value of each component, the same for an alias (output = r), and
  // none for a variable, whose data no node computes; the graph's input is no component.
  const std::string text = with("output = nn.conv{padding=1}(input, kernel);",
                                "c = nn.conv{padding=1}(input, kernel);\n        r = nn.relu(c);\n"
                                "        k = kernel;\n        output = r;");
  const LoadResult r = load_nnef2_text(text, "main.sknd", ".", LoadOptions(WeightsPolicy::Skip));
  INFO((r.diagnostics.empty() ? std::string() : r.diagnostics[0].message));
  REQUIRE(r.model);
  const auto& values = r.model->source_values;
  CHECK(values.size() == 4);
  CHECK(!values.count("input"));
  REQUIRE(values.at("c"));
  REQUIRE(values.at("r"));
  const auto node = [&](const std::string& name) { return r.model->graph.nodes.at(values.at(name)->node); };
  CHECK(node("c").name == "c");
  CHECK(op_name(node("c").op) == "conv");
  CHECK(node("r").name == "r");
  CHECK(op_name(node("r").op) == "relu");
  CHECK(values.at("output") == values.at("r"));
  CHECK(!values.at("k"));
}
