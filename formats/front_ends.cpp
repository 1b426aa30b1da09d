#include "formats/front_ends.hpp"

#include <filesystem>

#include "formats/nac/nac.hpp"
#include "formats/nnef/nnef.hpp"
#include "formats/nnef2_model/nnef2_model.hpp"
#include "formats/nnl/nnl.hpp"
#include "formats/onnx/onnx.hpp"

namespace nnref {

const std::vector<FrontEnd>& front_ends() {
  static const std::vector<FrontEnd> all = {
      {"nnl", ".nnl", load_nnl_file},
      {"nnef", ".nnef", load_nnef, "graph.nnef", nnef_codes()},
      {"nnef2", ".sknd", load_nnef2, "main.sknd", nnef2_codes()},
      {"onnx", ".onnx", load_onnx_file, {}, onnx_codes()},
      {"nac", ".nac", load_nac_file, {}, nac_codes()},
  };
  return all;
}

const FrontEnd* front_end_for(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    for (const FrontEnd& f : front_ends())
      if (!f.folder_marker.empty() && std::filesystem::is_regular_file(std::filesystem::path(path) / f.folder_marker, ec))
        return &f;
    return nullptr;
  }
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  for (const FrontEnd& f : front_ends())
    if (ext == f.extension) return &f;
  return nullptr;
}

}  // namespace nnref
