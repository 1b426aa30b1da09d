#include "cli/model_files.hpp"

#include <fstream>
#include <variant>

#include "formats/nac/encode.hpp"
#include "formats/writers.hpp"

namespace nnref {

namespace {

namespace fs = std::filesystem;

Result<fs::path> write_nac(const Model& m, const fs::path& dir) {
  auto encoded = nac::encode(m, nac::WriteOptions{});
  if (auto* e = std::get_if<nac::FormatError>(&encoded)) return make_error(e->code, e->message);
  const fs::path path = dir / "model.nac";
  const std::string& bytes = std::get<nac::Encoded>(encoded).nac;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f.good()) return make_error("io.write", "cannot write '" + path.string() + "'");
  return path;
}

// Where a writer writes (its OUT argument) and the path that then names the model.
std::pair<fs::path, fs::path> writer_paths(const std::string& format, const fs::path& dir) {
  if (format == "onnx") return {dir / "model.onnx", dir / "model.onnx"};
  if (format == "nnl") return {dir / "model", dir / "model" / "model.nnl"};
  return {dir / ("model." + format), dir / ("model." + format)};  // a folder: nnef
}

}  // namespace

std::vector<std::string> model_file_formats() {
  std::vector<std::string> names{"nac"};
  for (const Writer& w : writers()) names.emplace_back(w.name);
  return names;
}

std::vector<std::string> reproducer_formats() {
  if (writer_for("nnl")) return {"nnl", "nac"};
  return {"nac"};
}

Result<fs::path> write_model_file(const Model& m, const std::string& format, const fs::path& dir) {
  if (format == "nac") return write_nac(m, dir);
  const Writer* writer = writer_for(format);
  if (!writer) return make_error("usage.runtime-format", "no writer for the model format '" + format + "'");
  const auto [out, model] = writer_paths(format, dir);
  std::error_code ignored;
  fs::remove_all(out, ignored);  // what an earlier model left there: a writer may refuse an existing folder
  for (const Diagnostic& d : writer->write(m, out.string(), WriteOptions{}))
    if (d.severity == Severity::Error) return d;
  return model;
}

}  // namespace nnref
