#include "formats/model.hpp"

#include <algorithm>
#include <filesystem>

#include "formats/front_ends.hpp"

namespace nnref {

bool LoadResult::has_errors() const {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

LoadResult load_model(const std::string& path, const LoadOptions& options) {
  if (const FrontEnd* f = front_end_for(path)) return f->load(path, options);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    std::string markers;
    for (const FrontEnd& f : front_ends())
      if (!f.folder_marker.empty()) markers += (markers.empty() ? "" : " or ") + std::string(f.folder_marker);
    LoadResult r;
    r.diagnostics.push_back(make_error("io.not-a-file", "'" + path + "' is a directory without a model file (" + markers + ")",
                                       SourceLoc{path, 0, 0}));
    return r;
  }
  std::string known;
  for (const FrontEnd& f : front_ends()) known += (known.empty() ? "" : ", ") + std::string(f.extension);
  const bool one = front_ends().size() == 1;
  const std::string ext = std::filesystem::path(path).extension().string();
  LoadResult r;
  r.diagnostics.push_back(make_error(
      "io.unknown-format",
      (ext.empty() ? "model file '" + path + "' has no extension"
                   : "unknown model format '" + ext + "' of '" + path + "'") +
          (one ? "; the known model format is " : "; the known model formats are ") + known,
      SourceLoc{path, 0, 0}));
  return r;
}

}  // namespace nnref
