// NNL v0.2 front-end (seeds/nnl-reference-v0.2.txt; the choices the reference leaves open are in
// docs/nnl.md).
#pragma once

#include <string>

#include "formats/model.hpp"

namespace nnref {

// Parses NNL text; with options.load_weights, resolves config.weights relative to the file's
// directory and loads the payload. `filename` is used in diagnostics.
LoadResult load_nnl_text(const std::string& text, const std::string& filename, const LoadOptions& options);
LoadResult load_nnl_file(const std::string& path, const LoadOptions& options);

}  // namespace nnref
