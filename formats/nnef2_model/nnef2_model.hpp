// The NNEF 2.0 (SkriptND) front-end: a model folder (main.sknd and its
// variables' .dat files) or a single .sknd file, whose first graph is composed
// into a Model at the shapes it declares: each invocation bound to its standard
// operator's definition (formats/nnef2/bind.hpp) and built as the IR op that
// computes it (native.cpp). docs/nnef2.md.
#pragma once

#include <span>
#include <string>

#include "formats/code_info.hpp"
#include "formats/model.hpp"

namespace nnref {

LoadResult load_nnef2(const std::string& path, const LoadOptions& options);

// The text of a document, read as main.sknd of `folder` (tests).
LoadResult load_nnef2_text(const std::string& text, const std::string& filename, const std::string& folder,
                           const LoadOptions& options);

// Every nnef2.* diagnostic code, for check --explain.
std::span<const CodeInfo> nnef2_codes();

}  // namespace nnref
