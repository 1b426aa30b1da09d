// The codes nnref prints that are not obligations (those are in semantics/catalogue.hpp), for
// `check --explain`: what each means and the page that documents it.
#pragma once

#include <string_view>

namespace nnref {

struct CodeInfo {
  std::string_view code;
  std::string_view meaning;
  std::string_view page;  // docs/<page>.md documents it
  bool warning = false;   // printed as a warning: it changes no exit code by itself
};

// nullptr when the code is not one of them.
const CodeInfo* find_code(std::string_view code);

}  // namespace nnref
