// The syntax tree of an NNEF 1.0 document (§3.2, Appendix A): both grammars, flat and
// compositional, in one tree; the parser records which extensions the document enables and the
// composer rejects what they do not allow.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "spec/diagnostic.hpp"

namespace nnref::nnef {

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Argument {
  std::string name;  // empty: positional
  ExprPtr value;
  SourceLoc loc;
};

struct Iterator {
  std::string name;
  ExprPtr source;
  SourceLoc loc;
};

struct Expr {
  enum class Kind { Integer, Real, String, Logical, Ident, Array, Tuple, Unary, Binary, IfElse, For, Index, Slice, Call };
  Kind kind = Kind::Ident;
  std::string text;            // literal spelling, identifier, operator, or the callee's name
  std::vector<ExprPtr> items;  // Array/Tuple items; Unary: operand; Binary: lhs, rhs; IfElse: then, cond, else;
                               // Index: object, index; Slice: object, begin (or null), end (or null)
  std::vector<Argument> args;  // Call
  std::string generic;         // Call: the explicit generic type name (`f<integer>(...)`), or empty
  std::vector<Iterator> iterators;  // For
  ExprPtr filter, yield;            // For: the `if` filter (or null) and what it yields
  SourceLoc loc;
};

struct Type {
  enum class Kind { Integer, Scalar, Logical, String, Generic, Tensor, Array, Tuple };
  Kind kind = Kind::Scalar;
  std::vector<Type> items;  // Tensor: its item type (none for tensor<>); Array: the item type; Tuple: the items
};

struct Param {
  std::string name;
  Type type;
  ExprPtr default_value;  // null: none
  SourceLoc loc;
};

struct Assignment {
  ExprPtr lhs;  // an identifier, or arrays/tuples of them
  ExprPtr rhs;
  SourceLoc loc;
};

struct Fragment {
  std::string name;
  bool generic = false;
  std::optional<Type> generic_default;
  std::vector<Param> params, results;
  std::optional<std::vector<Assignment>> body;  // none: a primitive (or a custom op without body)
  SourceLoc loc;
  bool standard = false;  // from §4 (the prelude), not from the document
};

struct GraphDecl {
  std::string name;
  std::vector<std::pair<std::string, SourceLoc>> params, results;
  std::vector<Assignment> body;
  SourceLoc loc;
};

// One line of graph.quant (§5.3): "tensor-id": algorithm(name = expr, ...);
struct QuantLine {
  std::string id;
  std::string algorithm;
  std::vector<Argument> args;
  SourceLoc loc;
};

struct Document {
  std::string version;
  SourceLoc version_loc;
  std::vector<std::pair<std::string, SourceLoc>> extensions;
  std::vector<Fragment> fragments;
  std::optional<GraphDecl> graph;
};

}  // namespace nnref::nnef
