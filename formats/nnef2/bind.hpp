// An operator invocation bound to its definition (§2.5, §2.6, §2.8, §2.9), at
// concrete shapes: the attributes (given, constant defaults, then deferred
// ones), the input shapes in the binding order of §2.6.2 (each extent and pack
// length deduced when it is an affine expression of an unbound symbol, checked
// otherwise), the packed attributes' lengths (a single value made uniform), the
// @using helpers interleaved with the @assert conditions that their names
// allow, and the @output shapes.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "formats/nnef2/ast.hpp"
#include "formats/nnef2/eval.hpp"

namespace nnref::nnef2 {

// What an invocation gives: attribute values (already evaluated), and the
// inputs in order (a tensor, a pack of tensors, or null for `~` and a missing
// optional input).
struct InvocationArgs {
  std::map<std::string, Val> attributes;
  std::vector<Val> inputs;
  std::vector<std::string> generics{};  // the types given between <>, in the order of @dtype
  // Where the conditions on sizes go (eval.hpp): the inputs' extents then carry terms, and so
  // does what the definition computes from them. Null: concrete only.
  SizeConditions* conditions = nullptr;
};

struct BoundInvocation {
  Evaluator env;  // every symbol of the definition: attributes, inputs, shape
                  // symbols, helpers
  std::vector<std::string> output_names;
  std::vector<std::vector<int64_t>> output_shapes;
  std::vector<ElemType> output_types;               // each output's element type (its generic's, as bound)
  std::vector<std::vector<SizeTerm>> output_terms;  // per output extent: its term (null: constant)
  // The lists above hold one entry per output tensor: a packed output (§2.3, `T[..]..(n)`) is n
  // consecutive entries, named `name[k]`. Per declared output: its pack length, or −1 for a tensor.
  std::vector<int64_t> output_packs;
};

// A failed binding or assertion. The code is nnef2.compose.* or
// nnef2.assert.failed (or the nnef2.eval.* of an expression of the definition);
// `where` locates the definition's text involved.
struct BindError {
  std::string code;
  std::string message;
  SourceLoc where;
};

// `name` is the operator as invoked (nn.conv); `source` is the text of the
// module that defines it, from which a failed assertion's condition is quoted.
BoundInvocation bind_invocation(const OpDef& op, const std::string& name, const InvocationArgs& args,
                                std::string_view source);

// The text of the condition of an assertion at `loc` in `source`, up to its
// message or its end.
std::string assertion_text(std::string_view source, const SourceLoc& loc);

}  // namespace nnref::nnef2
