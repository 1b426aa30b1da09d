// NNEF 1.0 parser (§3.2, Appendix A): tokens → Document, by recursive descent with the
// precedence of §3.3.3. Stops at the first syntax error (nnef.syntax.*), which it reports with its
// location. Nesting deeper than kMaxNesting is refused (nnef.syntax.too-deep) so that no input
// exhausts the stack. Fragment definitions need KHR_enable_fragment_definitions and operator
// expressions KHR_enable_operator_expressions (nnef.syntax.extension-required).
#pragma once

#include <vector>

#include "formats/nnef/ast.hpp"
#include "formats/nnef/lexer.hpp"

namespace nnref::nnef {

inline constexpr int kMaxNesting = 200;

// A reserved word of §3.1 (true and false included), which no identifier may be.
bool is_keyword(const std::string& s);

// `prelude`: the standard fragments of §4 (both extensions enabled, no version line, no graph).
Document parse(const std::vector<Token>& tokens, Diags& diags, bool prelude = false);

// graph.quant: one QuantLine per line; its arguments are named compile-time expressions.
std::vector<QuantLine> parse_quant(const std::vector<Token>& tokens, Diags& diags);

// The extensions this reader knows.
inline constexpr const char* kFragmentsExtension = "KHR_enable_fragment_definitions";
inline constexpr const char* kOperatorsExtension = "KHR_enable_operator_expressions";

}  // namespace nnref::nnef
