#include "formats/nac/nac.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "formats/nac/decode.hpp"
#include "formats/nac/lower.hpp"
#include "formats/nac/schedule.hpp"

namespace nnref {

namespace fs = std::filesystem;

namespace nac {

namespace {

Diagnostic located(const FormatError& e, const std::string& path) { return make_error(e.code, e.message, SourceLoc{path, 0, 0}); }

// The weights beside the model, refused when a link takes them outside the model's folder.
std::optional<FormatError> check_inside_folder(const std::string& nac_path, const std::string& weights) {
  std::error_code ec;
  const fs::path folder = fs::weakly_canonical(fs::absolute(nac_path, ec).parent_path(), ec);
  const fs::path target = ec ? fs::path() : fs::weakly_canonical(fs::absolute(weights, ec), ec);
  const std::string f = folder.string(), t = target.string();
  if (ec || t.compare(0, f.size(), f) != 0 || (t.size() > f.size() && t[f.size()] != '/'))
    return FormatError{"nac.weights.path",
                       "the weights file '" + weights + "' resolves to '" + t + "', outside the model's folder '" + f + "'", 0};
  return std::nullopt;
}

}  // namespace

std::string external_weights_path(const std::string& nac_path) {
  return fs::path(nac_path).replace_extension(".safetensors").string();
}

DecodedFile read_program(const std::string& path, int64_t max_memory) {
  DecodedFile f;
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || fs::is_directory(path, ec)) {
    f.diagnostics.push_back(make_error("io.read", "cannot read '" + path + "'" + (ec ? ": " + ec.message() : ""), {path, 0, 0}));
    return f;
  }
  if (size > static_cast<uint64_t>(std::max<int64_t>(max_memory, 0))) {
    f.diagnostics.push_back(make_error("size.budget", "'" + path + "' has " + std::to_string(size) +
                                                          " bytes, more than the memory budget of " +
                                                          std::to_string(max_memory),
                                       {path, 0, 0}));
    return f;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) {
    f.diagnostics.push_back(make_error("io.read", "cannot read '" + path + "'", {path, 0, 0}));
    return f;
  }
  f.bytes = text.str();
  auto decoded = decode(f.bytes);
  if (auto* e = std::get_if<FormatError>(&decoded)) {
    f.diagnostics.push_back(located(*e, path));
    return f;
  }
  f.program = std::move(std::get<Program>(decoded));
  for (const ScheduleError& e : verify_schedule(*f.program, ScheduleOptions{}))
    f.diagnostics.push_back(make_error(e.code, e.message, {path, 0, 0}));
  return f;
}

}  // namespace nac

namespace nac {

namespace {

// Bytes a parameter occupies as stored: internal, its DATA Length; external, its elements at the
// header's quantization (docs/nac.md, "Weights and quantization"), with an INT8 tensor's scales.
std::map<uint16_t, int64_t> stored_bytes(const Program& p, const WeightStore& store) {
  std::map<uint16_t, int64_t> bytes;
  for (const auto& [id, name] : p.param_names) {
    if (auto t = p.tensors.find(id); t != p.tensors.end()) {
      bytes[id] = static_cast<int64_t>(t->second.data_length);
      continue;
    }
    const auto shape = store.shape(id);
    if (!shape) continue;
    const int64_t count = checked_element_count(*shape);
    switch (p.header.quant) {
      case Quant::Fp16: bytes[id] = 2 * count; break;
      case Quant::Int8Tensor: bytes[id] = count + 4; break;
      case Quant::Int8Channel: bytes[id] = count + 4 * (shape->empty() ? 1 : (*shape)[0]); break;
      default: bytes[id] = 4 * count; break;
    }
  }
  return bytes;
}

// `store` refers to `p`, so the program moves into the result only once both are done with.
LoadedOrErrors lower_decoded(Program& p, const WeightStore& store, const std::string& path, const LoadOptions& options) {
  auto lowered = lower(p, store, path, options);
  if (auto* e = std::get_if<FormatError>(&lowered)) return std::vector<Diagnostic>{located(*e, path)};
  std::map<uint16_t, int64_t> bytes = stored_bytes(p, store);
  return LoadedProgram{std::move(p), std::move(std::get<Model>(lowered)), std::move(bytes)};
}

}  // namespace

LoadedOrErrors load_program(const std::string& path, const LoadOptions& options) {
  DecodedFile f = read_program(path, options.max_memory);
  if (!f.program || !f.diagnostics.empty()) return std::move(f.diagnostics);
  const Program& p = *f.program;
  // External weights are opened even under WeightsPolicy::Skip: their header gives the shapes that
  // some operations' attributes come from (aten.linear's units); values are read only when asked.
  std::variant<WeightStore, FormatError> store = WeightStore::none(p);
  const std::string weights = p.header.internal_weights ? path : external_weights_path(path);
  if (p.header.internal_weights) {
    store = WeightStore::internal(p, f.bytes);
  } else if (auto e = check_inside_folder(path, weights)) {
    return std::vector<Diagnostic>{located(*e, path)};
  } else if (std::error_code ec; fs::exists(weights, ec)) {
    store = WeightStore::external(p, weights);
  } else if (options.weights == WeightsPolicy::Required) {
    return std::vector<Diagnostic>{make_error(
        "io.weights-missing", "the header says the weights are external, but '" + weights + "' does not exist",
        {path, 0, 0})};
  }
  if (auto* e = std::get_if<FormatError>(&store)) return std::vector<Diagnostic>{located(*e, weights)};
  return lower_decoded(*f.program, std::get<WeightStore>(store), path, options);
}

LoadedOrErrors compile_program(const Model& m, const WriteOptions& w, const LoadOptions& options) {
  WriteOptions internal = w;
  internal.external_weights = false;
  auto encoded = encode(m, internal);
  if (auto* e = std::get_if<FormatError>(&encoded)) return std::vector<Diagnostic>{located(*e, m.path)};
  const std::string bytes = std::move(std::get<Encoded>(encoded).nac);
  auto decoded = decode(bytes);
  if (auto* e = std::get_if<FormatError>(&decoded)) return std::vector<Diagnostic>{located(*e, m.path)};
  Program& program = std::get<Program>(decoded);
  const WeightStore store = WeightStore::internal(program, bytes);
  return lower_decoded(program, store, m.path, options);
}

}  // namespace nac

LoadResult load_nac_file(const std::string& path, const LoadOptions& options) {
  LoadResult r;
  auto loaded = nac::load_program(path, options);
  if (auto* diags = std::get_if<std::vector<Diagnostic>>(&loaded)) {
    r.diagnostics = std::move(*diags);
    return r;
  }
  r.model = std::move(std::get<nac::LoadedProgram>(loaded).model);
  return r;
}

}  // namespace nnref
