// The front-end registry: how nnref chooses a reader for a model file. A front-end recognises
// its files, loads one into Graph + Payload (with source locations, the names of its parameters
// in the source, and the names of its input extents for --dim), and reports what it cannot read
// as located diagnostics. A new format adds a directory under formats/ and one line to
// front_ends() (formats/front_ends.cpp).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/code_info.hpp"
#include "formats/model.hpp"

namespace nnref {

struct FrontEnd {
  std::string_view name;       // "nnl": Model::format
  std::string_view extension;  // ".nnl", lower case: how it recognises its files
  LoadResult (*load)(const std::string& path, const LoadOptions& options);
  // A model that is a folder: the file that marks it ("graph.nnef"), or empty.
  std::string_view folder_marker = {};
  // Its diagnostic codes that cli/codes.cpp does not list.
  std::span<const CodeInfo> codes = {};
};

// Every front-end, in the order they are tried.
const std::vector<FrontEnd>& front_ends();

// The front-end for this path (a file by its extension, case-insensitive; a folder by the marker
// file it holds), or nullptr.
const FrontEnd* front_end_for(const std::string& path);

}  // namespace nnref
