// Harness bodies for the weight files a model folder holds beside its model: NNEF's .dat and
// graph.quant, and NAC's external .safetensors. Each input is written to the scratch folder as
// that file, next to fixed companions that make the reader reach it.
#include <fstream>
#include <optional>
#include <sstream>

#include "formats/nac/decode.hpp"
#include "formats/nac/lower.hpp"
#include "formats/nac/weights.hpp"
#include "formats/nnef/dat.hpp"
#include "formats/nnef/nnef.hpp"
#include "fuzz/target_support.hpp"

namespace nnref::fuzz {

namespace {

uint32_t u32_at(std::span<const uint8_t> b, size_t at) {
  return uint32_t{b[at]} | uint32_t{b[at + 1]} << 8 | uint32_t{b[at + 2]} << 16 | uint32_t{b[at + 3]} << 24;
}

// The graph whose two variables graph.quant's algorithms read: 8-bit unsigned and 4-bit signed
// quantized items.
constexpr const char* kQuantGraph =
    "version 1.0;\n"
    "graph G( input ) -> ( output ) {\n"
    "  input = external(shape = [1, 4]);\n"
    "  w = variable(shape = [1, 4], label = 'w');\n"
    "  v = variable(shape = [1, 4], label = 'v');\n"
    "  sum = add(input, w);\n"
    "  output = add(sum, v);\n"
    "}\n";

std::filesystem::path quant_folder() {
  static const std::filesystem::path folder = [] {
    const auto f = scratch_folder() / "nnef_quant";
    std::filesystem::create_directories(f);
    const auto write = [&](const char* name, const std::string& s) {
      write_bytes(f / name, std::span(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
    };
    write("graph.nnef", kQuantGraph);
    write("w.dat", nnef::write_dat({1, 4}, {0, 85, 170, 255}, nnef::ItemType::QuantizedUnsigned, 8));
    write("v.dat", nnef::write_dat({1, 4}, {-8, -1, 0, 7}, nnef::ItemType::QuantizedSigned, 4));
    return f;
  }();
  return folder;
}

// The program whose external weights the .safetensors input is: examples/mlp compiled with
// --quant int8-channel --external-weights (fuzz/nac_external/, docs/testing.md).
struct ExternalProgram {
  std::string bytes;
  std::optional<nac::Program> program;
};

const ExternalProgram& external_program() {
  static const ExternalProgram p = [] {
    ExternalProgram out;
    std::ifstream in(std::string(NNREF_FUZZ_DIR) + "/nac_external/mlp_int8_channel.nac", std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    out.bytes = ss.str();
    auto decoded = nac::decode(out.bytes);
    if (auto* program = std::get_if<nac::Program>(&decoded)) out.program = std::move(*program);
    return out;
  }();
  return p;
}

}  // namespace

// read_dat declaring what the header itself says (its extents, the kind of its item type), so that
// inputs reach the data instead of stopping at nnef.dat.shape-mismatch. A tensor holds its shape.
Outcome run_nnef_dat(std::span<const uint8_t> input) {
  Outcome o;
  const auto path = scratch_folder() / "fuzz.dat";
  write_bytes(path, input);
  std::vector<int64_t> declared;
  ElemKind kind = ElemKind::Real;
  if (input.size() >= 128) {
    for (uint32_t k = 0; k < std::min<uint32_t>(u32_at(input, 8), 8); ++k) declared.push_back(u32_at(input, 12 + 4 * k));
    const auto code = static_cast<nnef::ItemType>(u32_at(input, 48) & 0xFFFF);
    if (code == nnef::ItemType::Unsigned || code == nnef::ItemType::Signed) kind = ElemKind::Integer;
    if (code == nnef::ItemType::Bool) kind = ElemKind::Logical;
  }
  nnef::Diags diags;
  const std::optional<nnef::DatTensor> t = nnef::read_dat(path.string(), "fuzz", declared, kind, SourceLoc{"graph.nnef", 1, 1}, diags);
  add_errors(o, diags.take());
  o.accepted = t.has_value();
  require(o, o.accepted == o.codes.empty(), "a .dat gives a tensor or errors, never both");
  if (t) {
    require(o, t->tensor.values.size() == static_cast<size_t>(t->tensor.shape.count()), "a tensor holds as many values as its shape");
    require(o, t->tensor.shape.dims() == declared, "a tensor has the declared shape");
  }
  return o;
}

// The input as graph.quant of a folder whose variables hold quantized items: the whole load, with
// the weights, so each algorithm dequantizes the items.
Outcome run_nnef_quant(std::span<const uint8_t> input) {
  const auto folder = quant_folder();
  write_bytes(folder / "graph.quant", input);
  LoadOptions options;
  options.max_memory = int64_t{1} << 26;
  return model_outcome(load_nnef(folder.string(), options));
}

// The input as the .safetensors beside a fixed program: the header's parse, then the lowering that
// reads every parameter (and its scales) under a 16 MiB budget.
Outcome run_nac_safetensors(std::span<const uint8_t> input) {
  Outcome o;
  const ExternalProgram& p = external_program();
  require(o, p.program.has_value(), "fuzz/nac_external/mlp_int8_channel.nac decodes");
  if (!p.program) return o;
  const auto path = scratch_folder() / "fuzz.safetensors";
  write_bytes(path, input);
  auto store = nac::WeightStore::external(*p.program, path.string());
  if (const auto* e = std::get_if<nac::FormatError>(&store)) return nac_error_outcome(*e);
  LoadOptions options;
  options.max_memory = int64_t{1} << 24;
  return nac_lowered_outcome(nac::lower(*p.program, std::get<nac::WeightStore>(store), "fuzz.nac", options));
}

}  // namespace nnref::fuzz
