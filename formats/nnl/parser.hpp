// NNL parser: tokens → Program. Recovers from a syntax error by skipping to the end of the
// statement (the next ';' or the '}' that closes the enclosing block), so that one run reports
// every independent problem. Never recursive, so nesting depth cannot exhaust the stack.
#pragma once

#include <vector>

#include "formats/nnl/ast.hpp"
#include "formats/nnl/diags.hpp"
#include "formats/nnl/lexer.hpp"

namespace nnref::nnl {

Program parse(const std::vector<Token>& tokens, Diags& diags);

}  // namespace nnref::nnl
