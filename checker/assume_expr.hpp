// --assume EXPR: integer arithmetic over size names and literals, read into a predicate over the
// size symbols. Grammar (C precedence, loosest first):
//   expr := or;  or := and ("||" and)*;  and := cmp ("&&" cmp)*;
//   cmp := sum (("==" | "!=" | "<" | "<=" | ">" | ">=") sum)?;
//   sum := prod (("+" | "-") prod)*;  prod := unary (("*" | "/" | "%") unary)*;
//   unary := "-" unary | "!" unary | "(" expr ")" | INTEGER | NAME
// NAME is `batch` or `<input id>.<axis>`. "/" and "%" are floor division and its remainder; a
// divisor must be a positive literal or an expression; a literal divisor ≤ 0 is an error.
// The whole expression must be a predicate (a comparison or a combination of them).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "checker/sym_dim.hpp"
#include "spec/result.hpp"

namespace nnref {

// Resolves a name to its extent; nullopt for an unknown name.
using SizeLookup = std::function<std::optional<SymDim>(const std::string&)>;

// Errors have code "usage.assume" and a message naming the column (1-based) and what was
// expected, e.g. "--assume 'input.0 % ': column 11: expected a number, a name or '('".
Result<SymPred> parse_assumption(std::string_view text, const SizeLookup& lookup);

}  // namespace nnref
