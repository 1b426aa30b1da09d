// The standard library's modules parsed once, and operators found by module and
// name.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "formats/nnef2/ast.hpp"
#include "formats/nnef2/diags.hpp"

namespace nnref::nnef2 {

struct Module {
  std::string name;       // layout, math, ...
  std::string file;       // the name its locations carry: nn.sknd
  std::string_view text;  // its source, from which assertions are quoted
  Document doc;
};

// Every standard module, parsed at the first call; `errors` holds what the
// parse reported (nothing, unless the embedded text and the parser disagree).
const std::vector<Module>& standard_modules();
const std::vector<Diagnostic>& standard_module_errors();

const Module* find_module(std::string_view name);
const OpDef* find_operator(const Module& module, std::string_view name);

}  // namespace nnref::nnef2
