// The codes nnref prints that are not obligations (those are in semantics/catalogue.hpp), for
// `check --explain`: what each means and the page that documents it.
#pragma once

#include <string_view>

#include "formats/code_info.hpp"

namespace nnref {

// nullptr when the code is not one of them nor a front-end's (formats/front_ends.hpp).
const CodeInfo* find_code(std::string_view code);

}  // namespace nnref
