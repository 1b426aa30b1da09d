// A SkriptND expression as an S-expression, for tests and diagnostics: `(+ a (* b c))`,
// `(fold + x 42)`, `(access x (| i 0 n) j ,)`. An omitted operand prints as `_`.
#pragma once

#include <string>

#include "formats/nnef2/ast.hpp"

namespace nnref::nnef2 {

std::string to_sexpr(const Expr& e);

}  // namespace nnref::nnef2
