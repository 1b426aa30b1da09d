#include "formats/model.hpp"

#include <algorithm>
#include <filesystem>

#include "formats/nnl/nnl.hpp"

namespace nnref {

bool LoadResult::has_errors() const {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

LoadResult load_model(const std::string& path, const LoadOptions& options) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::string lower = ext;
  for (char& c : lower)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  if (lower == ".nnl") return load_nnl_file(path, options);
  LoadResult r;
  r.diagnostics.push_back(make_error(
      "io.unknown-format",
      ext.empty() ? "model file '" + path + "' has no extension; the known model format is .nnl"
                  : "unknown model format '" + ext + "' of '" + path + "'; the known model format is .nnl",
      SourceLoc{path, 0, 0}));
  return r;
}

}  // namespace nnref
