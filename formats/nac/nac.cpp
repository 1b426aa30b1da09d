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

LoadResult load_nac_file(const std::string& path, const LoadOptions& options) {
  LoadResult r;
  nac::DecodedFile f = nac::read_program(path, options.max_memory);
  r.diagnostics = std::move(f.diagnostics);
  if (!f.program || !r.diagnostics.empty()) return r;
  const nac::Program& p = *f.program;
  // External weights are opened even under WeightsPolicy::Skip: their header gives the shapes that
  // some operations' attributes come from (aten.linear's units); values are read only when asked.
  std::variant<nac::WeightStore, nac::FormatError> store = nac::WeightStore::none(p);
  const std::string weights = p.header.internal_weights ? path : nac::external_weights_path(path);
  if (p.header.internal_weights) {
    store = nac::WeightStore::internal(p, f.bytes);
  } else if (auto e = nac::check_inside_folder(path, weights)) {
    r.diagnostics.push_back(make_error(e->code, e->message, {path, 0, 0}));
    return r;
  } else if (std::error_code ec; fs::exists(weights, ec)) {
    store = nac::WeightStore::external(p, weights);
  } else if (options.weights == WeightsPolicy::Required) {
    r.diagnostics.push_back(make_error(
        "io.weights-missing", "the header says the weights are external, but '" + weights + "' does not exist",
        {path, 0, 0}));
    return r;
  }
  if (auto* e = std::get_if<nac::FormatError>(&store)) {
    r.diagnostics.push_back(make_error(e->code, e->message, {weights, 0, 0}));
    return r;
  }
  auto lowered = nac::lower(p, std::get<nac::WeightStore>(store), path, options);
  if (auto* e = std::get_if<nac::FormatError>(&lowered)) {
    r.diagnostics.push_back(make_error(e->code, e->message, {path, 0, 0}));
    return r;
  }
  r.model = std::move(std::get<Model>(lowered));
  return r;
}

}  // namespace nnref
