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

#include "formats/model.hpp"

namespace nnref {

// A diagnostic code a front-end prints, for `check --explain`: what it means and the page under
// docs/ that documents it.
struct FormatCode {
  std::string_view code;
  std::string_view meaning;
  std::string_view page;
};

struct FrontEnd {
  std::string_view name;       // "nnl": Model::format
  std::string_view extension;  // ".nnl", lower case: how it recognises its files
  LoadResult (*load)(const std::string& path, const LoadOptions& options);
  // Its codes that the table of cli/codes.cpp does not list (NNL's are there).
  std::span<const FormatCode> codes = {};
};

// Every front-end, in the order they are tried.
const std::vector<FrontEnd>& front_ends();

// The front-end for this path (by its extension, case-insensitive), or nullptr.
const FrontEnd* front_end_for(const std::string& path);

}  // namespace nnref
