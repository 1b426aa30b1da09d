// NAC v1.6: the reader on a corpus of hand-built files (tests/nac_corpus.py, written byte by byte
// from the spec), the writer's round trip over the examples, quantization within its bounds, the
// MMAP schedule and its verifier, and the nac subcommands.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "cli_test_support.hpp"
#include "formats/model.hpp"
#include "formats/nac/decode.hpp"
#include "formats/nac/encode.hpp"
#include "formats/nac/ir_fields.hpp"
#include "formats/tensor_files/npy.hpp"
#include "nac_weights_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;
namespace fs = std::filesystem;

namespace {

// The corpus, written by Python into a fresh directory.
void write_corpus(const fs::path& dir) {
  const std::string cmd = "/usr/bin/python3 " + std::string(NNREF_SOURCE_DIR) + "/tests/nac_corpus.py " + dir.string();
  REQUIRE(std::system(cmd.c_str()) == 0);
}

std::string file_bytes(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

const Diagnostic* first_error(const LoadResult& r) {
  for (const Diagnostic& d : r.diagnostics)
    if (d.severity == Severity::Error) return &d;
  return nullptr;
}

// Every attribute of an op as text, through the field list both the writer and the reader walk;
// with the op's name and its inputs it identifies the node.
struct Describe {
  std::ostringstream s;
  void inputs() {}
  void integer(const int64_t& v) { s << v << ';'; }
  void size(const size_t& v) { s << v << ';'; }
  void ints(const std::vector<int64_t>& v) {
    for (int64_t x : v) s << x << ',';
    s << ';';
  }
  void pairs(const std::vector<std::pair<int64_t, int64_t>>& v) {
    for (const auto& [a, b] : v) s << a << ':' << b << ',';
    s << ';';
  }
  void real(const Real& r) { s << std::hexfloat << r.value << std::defaultfloat << '/' << r.decimal << ';'; }
  void boolean(const bool& b) { s << b << ';'; }
  template <class E>
  void choice(const E& e) { s << static_cast<int>(e) << ';'; }
  void param(const std::string& role, char) { s << role << ';'; }
  void not_an_operation() {}
};

std::string describe(const Node& n) {
  Describe d;
  d.s << op_name(n.op) << '(';
  for (const ValueRef& r : n.inputs) d.s << r.node << '.' << r.output << ',';
  d.s << ')';
  OpAttrs op = n.op;
  std::visit([&](auto& a) { nac::fields(d, a); }, op);
  if (const auto* in = std::get_if<InputAttrs>(&n.op)) {
    for (int64_t e : in->dims) d.s << e << ',';
    d.s << static_cast<int>(in->kind);
  }
  if (const auto* c = std::get_if<ConstAttrs>(&n.op))
    for (int64_t e : c->dims) d.s << e << ',';
  return d.s.str();
}

Model load(const std::string& path, WeightsPolicy policy = WeightsPolicy::Required) {
  LoadResult r = load_model(path, LoadOptions{policy, int64_t{1} << 30});
  for (const Diagnostic& d : r.diagnostics) INFO(format_diagnostic(d));
  REQUIRE(r.model);
  return std::move(*r.model);
}

const char* const kExamples[] = {"mlp", "mnist_classifier", "resnet_block", "downsample_block"};

}  // namespace

TEST_CASE("nac: every malformed file of the corpus is refused with its code") {
  TempDir tmp("nac_bad");
  write_corpus(tmp.path);
  std::set<std::string> codes;
  for (const auto& entry : fs::directory_iterator(tmp.path)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("bad.", 0) != 0 || entry.path().extension() != ".nac") continue;
    const std::string stem = name.substr(4, name.size() - 8);  // "<code>.<k>"
    const std::string code = stem.substr(0, stem.rfind('.'));
    codes.insert(code);
    LoadResult r = load_model(entry.path().string(), LoadOptions{WeightsPolicy::Required, int64_t{1} << 30});
    INFO(name);
    const Diagnostic* d = first_error(r);
    REQUIRE(d);
    INFO(format_diagnostic(*d));
    CHECK(d->code == code);
    CHECK(!r.model);
    // located: a byte offset, or for the schedule's rules the tick
    if (code.rfind("nac.", 0) == 0)
      CHECK((d->message.find("at byte") != std::string::npos || d->message.find("MMAP tick") != std::string::npos));
  }
  // One file at least for every error the reader can give (docs/nac.md).
  const std::set<std::string> expected = {
      "io.weights-missing", "nac.arg.count", "nac.arg.dynamic", "nac.arg.type", "nac.arg.value",
      "nac.cmap.duplicate", "nac.cmap.id", "nac.cnst.duplicate", "nac.cnst.length", "nac.cnst.type",
      "nac.cnst.value", "nac.count", "nac.data.block-fp8", "nac.data.dtype", "nac.data.duplicate",
      "nac.data.input-index", "nac.data.length", "nac.data.metadata", "nac.data.missing-tensor",
      "nac.data.param-id", "nac.data.quant", "nac.header.quant", "nac.input.shape", "nac.magic", "nac.manifest",
      "nac.mmap.action", "nac.mmap.double-free", "nac.mmap.forward", "nac.mmap.free-unexecuted",
      "nac.mmap.preload", "nac.mmap.save-target", "nac.mmap.target", "nac.mmap.tick", "nac.mmap.use-after-free",
      "nac.offset", "nac.op.unsupported", "nac.ops.c-count", "nac.ops.c-length", "nac.ops.constant-id",
      "nac.ops.d-forward", "nac.ops.d-range", "nac.ops.input-count", "nac.ops.missing", "nac.ops.no-output",
      "nac.ops.output-count", "nac.ops.param-id", "nac.ops.signature", "nac.ops.special", "nac.ops.trailing",
      "nac.ops.unknown-op", "nac.ops.variant", "nac.perm.code", "nac.perm.duplicate", "nac.safetensors.header",
      "nac.section.tag", "nac.truncated", "nac.version", "nac.weights.missing", "nac.weights.scale"};
  CHECK(codes == expected);
}

TEST_CASE("nac: a later version byte is refused by name") {
  TempDir tmp("nac_version");
  write_corpus(tmp.path);
  LoadResult r = load_model((tmp / "bad.nac.version.1.nac").string(), LoadOptions{});
  REQUIRE(first_error(r));
  CHECK(first_error(r)->message.find("NAC version byte 2 (NAC v1.8) is later than v1.6") != std::string::npos);
}

TEST_CASE("nac: the corpus's valid files decode every section and run to NumPy's float64 values") {
  TempDir tmp("nac_good");
  write_corpus(tmp.path);
  const std::string bytes = file_bytes(tmp / "good.every_section.nac");
  auto decoded = nac::decode(bytes);
  REQUIRE(std::holds_alternative<nac::Program>(decoded));
  const nac::Program& p = std::get<nac::Program>(decoded);
  for (uint64_t o : p.header.offsets) CHECK(o != 0);  // all nine sections
  std::set<nac::Constant::Type> types;
  for (const auto& [id, c] : p.constants) types.insert(c.type);
  CHECK(types.size() == 7);
  CHECK(p.constants.at(5).s == "0.125");
  CHECK(p.constants.at(8).floats == std::vector<double>{0.5, -1.0});
  CHECK(p.proc == "TISA");
  CHECK(p.orch_bytecode == "\x01\x02\x03");
  CHECK(p.orch_const_count == 1);
  CHECK(p.orch_const_pool == "\x09");
  REQUIRE(p.resources.size() == 2);
  CHECK(p.resources[1].data == "a\nb\n");
  REQUIRE(p.ops.size() == 12);
  // softmax's dim (a constant code) comes from the lifted constant by a D offset; its dtype from C
  const nac::Instruction& softmax = p.ops[5];
  CHECK(softmax.name == "aten.softmax.int");
  CHECK(softmax.args[1].source == 4);
  CHECK(softmax.args[2].constant == uint16_t{0});
  CHECK(p.mmap[5].size() == 1);
  CHECK(p.mmap[5][0].action == nac::MemAction::Forward);

  for (const char* name : {"every_section", "quantized_internal", "external_int8_channel", "param_dim"}) {
    INFO(name);
    const std::string stem = (tmp / (std::string("good.") + name)).string();
    Run r = nnref_cli({"run", stem + ".nac", "-i", stem + ".input.npy", "-o", stem + ".out.npy", "-q"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    auto got = read_npy(stem + ".out.npy");
    auto want = read_npy(stem + ".expected.npy");
    REQUIRE((got.ok() && want.ok()));
    REQUIRE(got->shape == want->shape);
    // Both in float64 over a handful of terms of magnitude below 10: orders of summation differ by
    // far less than 1e-12.
    for (size_t k = 0; k < want->values.size(); ++k) CHECK(std::fabs(got->values[k] - want->values[k]) <= 1e-12);
  }
}

TEST_CASE("nac: write then read gives the same graph and the float32 weights bit for bit") {
  TempDir tmp("nac_roundtrip");
  for (const char* ex : kExamples) {
    INFO(ex);
    const Model original = load(example(ex, "model.nnl"));
    auto encoded = nac::encode(original, nac::WriteOptions{});
    REQUIRE(std::holds_alternative<nac::Encoded>(encoded));
    const fs::path path = tmp / (std::string(ex) + ".nac");
    std::ofstream(path, std::ios::binary) << std::get<nac::Encoded>(encoded).nac;
    const Model read = load(path.string());
    REQUIRE(read.graph.nodes.size() == original.graph.nodes.size());
    for (size_t i = 0; i < original.graph.nodes.size(); ++i)
      CHECK(describe(read.graph.nodes[i]) == describe(original.graph.nodes[i]));
    REQUIRE(read.graph.outputs.size() == original.graph.outputs.size());
    for (size_t k = 0; k < original.graph.outputs.size(); ++k) {
      CHECK(read.graph.outputs[k].name == original.graph.outputs[k].name);
      CHECK(read.graph.outputs[k].value == original.graph.outputs[k].value);
    }
    const auto want = weights_by_name(original), got = weights_by_name(read);
    REQUIRE(got.size() == want.size());
    for (const auto& [name, t] : want) {
      INFO(name);
      REQUIRE(got.count(name));
      CHECK(got.at(name)->shape == t->shape);
      CHECK(got.at(name)->values == t->values);  // float32 values, exactly
    }
  }
}

TEST_CASE("nac: run of a compiled model equals run of the NNL model, conform judges it, check proves it for a symbolic batch") {
  TempDir tmp("nac_run");
  for (const char* ex : kExamples) {
    INFO(ex);
    const std::string nac_path = (tmp / (std::string(ex) + ".nac")).string();
    for (const bool external : {false, true}) {
      std::vector<std::string> compile = {"nac", "compile", example(ex, "model.nnl"), "-o", nac_path};
      if (external) compile.push_back("--external-weights");
      Run c = nnref_cli(compile);
      INFO(c.err);
      REQUIRE(c.code == 0);
      Run a = nnref_cli({"run", example(ex, "model.nnl"), "-i", example(ex, "input.npy"), "-o", (tmp / "a.npz").string(), "-q"});
      Run b = nnref_cli({"run", nac_path, "-i", example(ex, "input.npy"), "-o", (tmp / "b.npz").string(), "-q"});
      INFO(b.err);
      REQUIRE((a.code == 0 && b.code == 0));
      auto ya = read_npz((tmp / "a.npz").string()), yb = read_npz((tmp / "b.npz").string());
      REQUIRE((ya.ok() && yb.ok()));
      REQUIRE(ya->size() == yb->size());
      for (size_t k = 0; k < ya->size(); ++k) {
        CHECK(ya->at(k).first == yb->at(k).first);
        CHECK(ya->at(k).second.values == yb->at(k).second.values);
      }
    }
  }
  Run judged = nnref_cli({"conform", (tmp / "mlp.nac").string(), "-i", example("mlp", "input.npy"), "--engine", "f32"});
  INFO(judged.err);
  CHECK(judged.code == 0);
  CHECK(judged.out.find("0 outside the f32 envelope") != std::string::npos);
  Run proved = nnref_cli({"check", (tmp / "resnet_block.nac").string(), "--dim", "batch=1..64"});
  INFO(proved.err);
  CHECK(proved.code == 0);
  CHECK(proved.out.find("ok") != std::string::npos);
  // The downsample block's two branches meet only for heights that are multiples of 4, as its NNL
  // source says: the same refutation.
  Run refuted = nnref_cli({"check", (tmp / "downsample_block.nac").string(), "--dim", "input.0=4..512"});
  CHECK(refuted.code == 1);
  CHECK(refuted.err.find("counterexample: input.0 = 5") != std::string::npos);
}

TEST_CASE("nac: quantized weights lie within the documented bounds") {
  TempDir tmp("nac_quant");
  const Model original = load(example("resnet_block", "model.nnl"));
  const auto want = weights_by_name(original);
  for (const char* quant : {"fp16", "int8-tensor", "int8-channel"})
    for (const bool external : {false, true}) {
      INFO(quant << (external ? " external" : " internal"));
      const std::string path = (tmp / (std::string(quant) + (external ? "_ext" : "") + ".nac")).string();
      std::vector<std::string> args = {"nac", "compile", example("resnet_block", "model.nnl"), "-o", path, "--quant", quant};
      if (external) args.push_back("--external-weights");
      REQUIRE(nnref_cli(args).code == 0);
      const Model read = load(path);
      const auto got = weights_by_name(read);
      REQUIRE(got.size() == want.size());
      for (const auto& [name, t] : want) {
        const std::vector<double>& w = t->values;
        const std::vector<double>& v = got.at(name)->values;
        REQUIRE(v.size() == w.size());
        const size_t rows = std::string(quant) == "int8-channel" ? static_cast<size_t>(t->shape[0]) : 1;
        const size_t row = w.size() / rows;
        for (size_t r = 0; r < rows; ++r) {
          double m = 0;
          for (size_t k = r * row; k < (r + 1) * row; ++k) m = std::max(m, std::fabs(w[k]));
          const double s = m == 0 ? 1.0 : static_cast<double>(static_cast<float>(m / 127.0));
          for (size_t k = r * row; k < (r + 1) * row; ++k) {
            // fp16, round to nearest: half an ulp, 2^-11 relative for normals, 2^-25 below 2^-14.
            // int8: half a step of the float32 scale (w/s is rounded once in double, hence the 2^-40).
            const double bound = std::string(quant) == "fp16" ? std::max(std::fabs(w[k]) * 0x1p-11, 0x1p-25)
                                                              : s / 2 + s * 0x1p-40;
            if (!(std::fabs(v[k] - w[k]) <= bound)) FAIL(name << "[" << k << "]: " << v[k] << " vs " << w[k]);
          }
        }
      }
    }
}

TEST_CASE("nac: dump prints each instruction with its arguments and its tick's MMAP commands") {
  TempDir tmp("nac_dump");
  const std::string path = (tmp / "mlp.nac").string();
  REQUIRE(nnref_cli({"nac", "compile", example("mlp", "model.nnl"), "-o", path, "--preload-ahead", "2"}).code == 0);
  Run d = nnref_cli({"nac", "dump", path});
  INFO(d.err);
  REQUIRE(d.code == 0);
  // mlp: input, then per Dense its weight and bias loads, the linear and its activation. By
  // liveness: the linear's only consumer is the next instruction (FORWARD); the input and the first
  // layer's parameters are last read at tick 3, so they are freed at tick 4; with --preload-ahead 2
  // the loads at 5 and 6 are preloaded at ticks 3 and 4.
  CHECK(d.out.find("v1 = <INPUT param 0 'fc1.weight'>") != std::string::npos);
  CHECK(d.out.find("v3 = nnref.linear(v0, 16, 0, true, v1, v2)   FORWARD -> 4, PRELOAD -> 5\n") != std::string::npos);
  CHECK(d.out.find("v4 = nnref.relu(v3, 0)                  FREE -> 0, FREE -> 1, FREE -> 2, PRELOAD -> 6\n") !=
        std::string::npos);
  CHECK(d.out.find("v12 = nnref.softmax(v11, [-1], 1)") != std::string::npos);
  CHECK(d.out.find("<OUTPUT>(v12)                           FREE -> 11\n") != std::string::npos);
}

TEST_CASE("nac: the compiled schedule passes the verifier, and an SRAM too small for it is reported by tick") {
  TempDir tmp("nac_verify");
  const std::string path = (tmp / "m.nac").string();
  REQUIRE(nnref_cli({"nac", "compile", example("mnist_classifier", "model.nnl"), "-o", path}).code == 0);
  Run ok = nnref_cli({"nac", "verify", path});
  INFO(ok.err);
  CHECK(ok.code == 0);
  // The input alone is 28·28·4 = 3136 bytes.
  Run small = nnref_cli({"nac", "verify", path, "--sram", "3000"});
  CHECK(small.code == 1);
  CHECK(small.err.find("error[nac.mmap.sram]: MMAP tick 0 (instruction 0 (<INPUT>))") != std::string::npos);
}

TEST_CASE("nac: external weights outside the model's folder or beyond the budget are refused") {
  TempDir tmp("nac_external");
  fs::create_directories(tmp / "model");
  const std::string path = (tmp / "model" / "m.nac").string();
  REQUIRE(nnref_cli({"nac", "compile", example("mnist_classifier", "model.nnl"), "-o", path, "--external-weights"}).code ==
          0);
  Run budget = nnref_cli({"run", path, "-i", example("mnist_classifier", "input.npy"), "--max-memory", "100K"});
  CHECK(budget.code == 1);
  CHECK(budget.err.find("error[size.budget]") != std::string::npos);
  fs::rename(tmp / "model" / "m.safetensors", tmp / "outside.safetensors");
  fs::create_symlink(tmp / "outside.safetensors", tmp / "model" / "m.safetensors");
  Run escaped = nnref_cli({"run", path, "-i", example("mnist_classifier", "input.npy")});
  CHECK(escaped.code == 1);
  CHECK(escaped.err.find("error[nac.weights.path]") != std::string::npos);
}

TEST_CASE("nac: every code docs/nac.md lists is explained by check --explain, and nac --help works") {
  const std::string doc = file_bytes(fs::path(NNREF_SOURCE_DIR) / "docs" / "nac.md");
  std::set<std::string> codes;
  for (size_t at = doc.find("`nac."); at != std::string::npos; at = doc.find("`nac.", at + 1)) {
    const std::string code = doc.substr(at + 1, doc.find('`', at + 1) - at - 1);
    const bool is_code = code.find('.', 4) != std::string::npos && code.find(' ') == std::string::npos &&
                         code.find('*') == std::string::npos;
    if (is_code && code.rfind("nac.", 0) == 0) codes.insert(code);
  }
  CHECK(codes.size() > 60);
  for (const std::string& code : codes) {
    INFO(code);
    Run r = nnref_cli({"check", "--explain", code});
    CHECK(r.code == 0);
    CHECK(r.out.find("see docs/nac.md") != std::string::npos);
  }
  for (const char* sub : {"compile", "dump", "verify"}) CHECK(nnref_cli({"nac", sub, "--help"}).code == 0);
  CHECK(nnref_cli({"nac"}).code == 2);
}
