// The SkriptND (NNEF 2.0) syntax tree: every construct of the draft's grammar (§2.16, with the
// expressions of §2.4), each with its source location, before any composition or typing.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "spec/diagnostic.hpp"

namespace nnref::nnef2 {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

enum class ExprKind {
  Identifier,      // text: the name
  Member,          // text: shape | rank | size; args[0]: the object
  Integer,         // text: the spelling
  Real,            // text: the spelling
  String,          // parts: literal text and `{expr}` formatting parts
  Bool,            // text: true | false
  Inf,             // inf
  Pi,              // pi
  Wildcard,        // `~`: an omitted argument or extent
  List,            // args: the items
  Range,           // args: first, last, and a stride when there are 3
  Expand,          // args[0]: the item; args[1]: the repeat count of `x ..(n)`, when given
  Zip,             // args: the packs of `(a, b)`
  Index,           // args: the object and the index (an int or a bool mask): x[i]
  Slice,           // args: the object, then begin, end, stride, each null when omitted: x[a:b:c]
  Substitute,      // args: the subscript (Index or Slice) and the new value: x[i] <- v
  Unary,           // text: + - !; args[0]
  NullTest,        // ?x; args[0]
  Binary,          // text: the operator (min/max spelled <? and >?); args: lhs, rhs
  Select,          // args: condition, then value, and the else value when there is one
  Coalesce,        // args: x ?? y
  Is,              // args: x is y
  In,              // args: x in y
  Fold,            // text: the operator; args[0]: the pack, args[1]: the initial value of `x + .. + 42`
  CumulativeFold,  // text: the operator; args[0]: the pack of `x + ...`
  Cast,            // text: the type; args: empty for `T()`, else the value
  Builtin,         // text: the function; args[0]
  TensorAccess,    // text: the tensor; args: the indices; pack_index: x[k][i, j]; trailing_comma: x[i,]
  Bounded,         // a guarded index |i| (args[0]) or |i <> low : high| (args: i, low, high)
  SliceAll,        // a bare `:` index of a lowering target (x[:, k])
};

// A piece of a string literal: literal text, or the expression of a `{expr}` formatting part.
struct StringPart {
  std::string text;
  ExprPtr expr;  // null for a literal piece
};

struct Expr {
  ExprKind kind = ExprKind::Identifier;
  std::string text;
  std::vector<ExprPtr> args;  // null entries stand for omitted operands (a slice's bounds)
  std::vector<StringPart> parts;
  ExprPtr pack_index;
  bool trailing_comma = false;
  SourceLoc loc;
};

// `..` or `..(n)` after a type or an extent.
struct PackSpec {
  ExprPtr count;  // null when the length is not given
  SourceLoc loc;
};

// One extent of a shape spec: [..] (expr | ~) [| bound] [pack-spec].
struct ShapeItem {
  bool spread = false;  // a leading `..`: the items of a pack of extents
  ExprPtr extent;       // Wildcard for `~` (a dynamic extent)
  ExprPtr bound;        // the upper bound of `s|b`, or null
  std::optional<PackSpec> pack;
  SourceLoc loc;
};

struct TypeSpec {
  bool optional = false;
  std::string type;  // a type name or a generic's name
  ExprPtr rank;      // the rank capture of `T^(r)`, or null
  bool is_tensor = false;
  std::vector<ShapeItem> shape;  // when is_tensor
  std::optional<PackSpec> pack;
  SourceLoc loc;
};

// x < n in a lowering, a constant's definition or a loop.
struct LoopBound {
  std::string index;
  ExprPtr limit;
  SourceLoc loc;
};

struct ParamDef {
  std::string name;
  TypeSpec type;
  ExprPtr value;  // the default (or the constant's value), or null
  std::vector<LoopBound> bounds;
  SourceLoc loc;
};

struct DtypeDef {
  std::string name;
  std::string type;
  std::string default_type;  // empty when none
  SourceLoc loc;
};

// One name on the left of `=` in @using and @compose: a name with an optional tensor type and pack
// spec, a zipped tuple of names, or `~` (a result dropped).
struct LvalueItem {
  enum class Form { Name, Tuple, Drop } form = Form::Name;
  std::vector<std::string> names;              // one for a Name, several for a Tuple
  std::vector<std::optional<TypeSpec>> types;  // per name: `name: T[shape]`
  std::optional<PackSpec> pack;
  SourceLoc loc;
};

struct Lvalue {
  bool bracketed = false;  // [a, b] = ...
  std::vector<LvalueItem> items;
  SourceLoc loc;
};

struct Using {
  Lvalue lhs;
  ExprPtr value;
  SourceLoc loc;
};

struct AssertArg {
  std::string label;  // 'name': expr, or empty
  ExprPtr value;
};

struct Assertion {
  ExprPtr condition;
  ExprPtr message;  // a String, or null
  std::vector<AssertArg> args;
  SourceLoc loc;
};

// `..(n)` or `..(i -> n)`: how many times a loop runs, and the name of its counter.
struct IterCount {
  std::string index;
  ExprPtr count;
  SourceLoc loc;
};

// name = value (a loop-local, a loop-carried variable with its type: `with s: real[n] = 0.0`), or
// name : pack (a loop's scan input).
struct Binding {
  std::string name;
  std::optional<TypeSpec> type;
  ExprPtr value;
  SourceLoc loc;
};

// [unroll ..(n)] [with a = x, …:] (or Revision 6's `a = x, `) target op value, i < n, … [| cond];
struct Lowering {
  std::optional<IterCount> unroll;
  std::vector<Binding> locals;
  ExprPtr target;  // a TensorAccess
  std::string op;  // = := += *= &= |= <= >= <?= >?=
  ExprPtr value;
  std::vector<LoopBound> bounds;
  ExprPtr condition;  // after `|`, or null
  SourceLoc loc;
};

struct Attribute {
  std::string name;
  ExprPtr value;
  SourceLoc loc;
};

struct Invocation {
  std::string label;  // `label: op(...)`, or empty
  std::string op;     // qualified: module.op
  std::vector<std::string> generics;
  std::vector<Attribute> attributes;
  std::vector<ExprPtr> args;  // a Wildcard for `~`
  SourceLoc loc;
};

struct Component;
struct SubBlock;

// An invocation, an expression (the grammar's invocation-expr), or an embedded block `{ …; yield
// a, b; }` (§2.10: a branch's or a loop's body or condition); exactly one is set.
struct Computation {
  std::unique_ptr<Invocation> call;
  ExprPtr expr;
  std::unique_ptr<SubBlock> block;
  SourceLoc loc;
};

struct Branch {
  std::vector<std::pair<Computation, Computation>> cases;  // if/elif: condition, then value
  Computation otherwise;
};

struct Loop {
  std::vector<Binding> with;      // loop-carried variables and their initial values
  std::vector<Binding> for_each;  // name: pack
  std::optional<Computation> while_before;
  bool unroll = false;  // `unroll` rather than `do`
  std::optional<IterCount> count;
  Computation body;  // an invocation or a block
  std::optional<Computation> while_after;
};

// lhs, … = computation | if … | loop;  (in @compose and @update)
struct Component {
  std::vector<Lvalue> lhs;
  enum class Form { Computation, Branch, Loop } form = Form::Computation;
  Computation computation;
  std::unique_ptr<Branch> branch;
  std::unique_ptr<Loop> loop;
  SourceLoc loc;
};

struct SubBlock {
  std::vector<Component> components;
  std::vector<ExprPtr> yields;
  SourceLoc loc;
};

struct Quantization {
  std::string tensor;
  std::string op;
  std::vector<std::string> generics;
  std::vector<Attribute> attributes;
  SourceLoc loc;
};

enum class BlockKind {
  Dtype,
  Attrib,
  Input,
  Output,
  Constant,
  Variable,
  Using,
  Assert,
  Lower,
  Compose,
  Update,
  Quantize
};

struct Block {
  BlockKind kind = BlockKind::Dtype;
  std::vector<DtypeDef> dtypes;
  std::vector<ParamDef> params;  // @attrib @input @output @constant @variable
  std::vector<Using> usings;
  std::vector<Assertion> assertions;
  std::vector<Lowering> lowerings;
  std::vector<Component> components;  // @compose @update
  std::vector<Quantization> quantizations;
  SourceLoc loc;
};

struct OpDef {
  std::string name;
  bool is_public = false;
  bool is_graph = false;
  std::vector<Block> blocks;
  SourceLoc loc;
};

struct Document {
  std::optional<std::pair<int, int>> version;
  std::vector<std::vector<std::string>> extensions;
  std::vector<std::vector<std::string>> imports;  // each `import a b c;` keeps its names
  std::vector<std::vector<SourceLoc>> import_locs;  // where each of those names is written
  std::vector<OpDef> ops;
};

}  // namespace nnref::nnef2
