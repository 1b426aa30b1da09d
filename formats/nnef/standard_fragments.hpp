// The text of NNEF 1.0's standard fragments (§4), parsed as a prelude before every document.
#pragma once

#include <string_view>

namespace nnref::nnef {

// The name under which diagnostics locate the prelude's text.
inline constexpr const char* kStandardFragmentsFile = "<NNEF 1.0 standard fragments>";

std::string_view standard_fragments_text();

}  // namespace nnref::nnef
