// A diagnostic code that is not an obligation, as `check --explain` describes it. The CLI lists
// its own and the NNL front-end's (cli/codes.cpp); another front-end lists its codes in the
// registry (FrontEnd::codes).
#pragma once

#include <string_view>

namespace nnref {

struct CodeInfo {
  std::string_view code;
  std::string_view meaning;
  std::string_view page;  // docs/<page>.md documents it
  bool warning = false;   // printed as a warning: it changes no exit code by itself
};

}  // namespace nnref
