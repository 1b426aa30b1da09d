// The NNEF 1.0 front-end: a model folder (graph.nnef, the variables' .dat files, an optional
// graph.quant) or a single graph.nnef, read into a Model. docs/nnef.md.
#pragma once

#include <string>

#include "formats/code_info.hpp"
#include "formats/model.hpp"

namespace nnref {

// `path` is the folder or its graph.nnef (a file of another name is read as the graph too; its
// folder is the model folder).
LoadResult load_nnef(const std::string& path, const LoadOptions& options);

// The text of a document, read as graph.nnef of `folder` (tests, fuzzing).
LoadResult load_nnef_text(const std::string& text, const std::string& filename, const std::string& folder,
                          const LoadOptions& options);

// Every nnef.* diagnostic code, for check --explain.
std::span<const CodeInfo> nnef_codes();

}  // namespace nnref
