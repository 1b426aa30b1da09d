// nnref's standard library in SkriptND: the modules of the NNEF 2.0 draft's chapter 4 (Revision 8,
// with the repairs listed in docs/nnef2.md), embedded at build time from formats/nnef2/stdlib/.
#pragma once

#include <string_view>
#include <vector>

namespace nnref::nnef2 {

struct StdlibModule {
  std::string_view name;  // layout, math, linalg, nn, image, quant, algo
  std::string_view text;  // the module's .sknd file
};

// In the order of the draft's chapter 4.
const std::vector<StdlibModule>& stdlib_modules();

}  // namespace nnref::nnef2
