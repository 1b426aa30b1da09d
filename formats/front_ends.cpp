#include "formats/front_ends.hpp"

#include <filesystem>

#include "formats/nac/nac.hpp"
#include "formats/nnl/nnl.hpp"

namespace nnref {

const std::vector<FrontEnd>& front_ends() {
  static const std::vector<FrontEnd> all = {
      {"nnl", ".nnl", load_nnl_file},
      {"nac", ".nac", load_nac_file},
  };
  return all;
}

const FrontEnd* front_end_for(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  for (const FrontEnd& f : front_ends())
    if (ext == f.extension) return &f;
  return nullptr;
}

}  // namespace nnref
