// SkriptND (NNEF 2.0) parser: tokens → Document by recursive descent over the grammar of the
// draft's §2.16 and the expressions of §2.4, with the precedence of docs/nnef2.md (the draft gives
// none). Stops at the first syntax error, reported with its location and a stable code
// (nnef2.syntax.*); nesting deeper than kMaxNesting is refused (nnef2.syntax.too-deep) so that no
// input exhausts the stack. Nothing is thrown out of these functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "formats/nnef2/ast.hpp"
#include "formats/nnef2/lexer.hpp"

namespace nnref::nnef2 {

// The bound on the depth of an expression's tree, counted per recursive production (an expression,
// an operand, an embedded block) and per node a loop adds (each operator of a + b + c, each
// subscript of x[i][j]): 75 levels of parentheses, or a chain of about 290 operators.
inline constexpr int kMaxNesting = 300;

// A whole file: [version] extension* import* op-definition*. The version line, which the grammar
// requires of a model, is optional here so that the standard library's modules read as they are.
Document parse(const std::vector<Token>& tokens, Diags& diags);
Document parse_text(std::string_view src, const std::string& file, Diags& diags);

// One rvalue expression filling the whole text (tests, tools); null after an error.
ExprPtr parse_expression(std::string_view src, const std::string& file, Diags& diags);

}  // namespace nnref::nnef2
