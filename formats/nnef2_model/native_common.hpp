// What the native mappings (native.cpp: real tensors; native_kinds.cpp: int and bool tensors) share: the
// bound invocation's symbols as the IR op reads them, and the reshapes that align an operand to the extents
// the definition gives it.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "formats/nnef2_model/builder.hpp"

namespace nnref::nnef2::native {

// The IR nodes of one standard operator as bound.
using Build = std::function<std::vector<Val>(Builder&, const BoundInvocation&, const std::string&)>;

// A symbol the mapping reads: the IR op holds it as the number it is at the declared sizes (null: no such
// symbol; sym throws std::out_of_range, a defect build_native reports).
const Val* find_sym(const BoundInvocation& b, const std::string& name);
const Val& sym(const BoundInvocation& b, const std::string& name);
inline std::vector<int64_t> ints(const BoundInvocation& b, const std::string& name) { return as_ints(sym(b, name)); }
inline int64_t integer(const BoundInvocation& b, const std::string& name) { return sym(b, name).i; }
inline std::vector<Val> one(Val v) { return {std::move(v)}; }

// The tensors the definition names `inputs` must be of type `type` for nnref's op: otherwise
// nnef2.native.kind, saying `why`.
void require_types(const BoundInvocation& b, const std::string& op, const std::vector<std::string>& inputs,
                   ElemType type, const std::string& why);
// An op of the IR that takes real tensors only: every tensor of the definition must be real.
Build reals(const std::string& op, Build build);

// The operand reshaped to `extents` (numbers: an operand whose extents vary with the sizes has the
// reshape's own obligation, that the counts agree, at every size).
Val reshaped(Builder& c, const Val& operand, const std::vector<int64_t>& extents, const std::string& node);
// An operand viewed at the extents the definition aligned it to (its @using's ex or ey: the
// operand's extents with 1s around them, as lhs_align and rhs_align place them). Unchanged when
// they are the operand's own at every size (the same terms); otherwise a reshape to the numbers
// they are at the declared sizes.
Val aligned(Builder& c, const BoundInvocation& b, const std::string& operand_name, const std::string& extents_name,
            const std::string& node);
// The operand reshaped to the output shape the definition computed (the same elements in row-major order).
// Where the shape depends on the sizes (flatten's leading extents), the IR reshape computes it too: a size
// program over the extents it comes from.
Val as_output_shape(Builder& c, const BoundInvocation& b, const Val& operand, const std::string& node);

// The element-wise binary operators (arithmetic, comparisons, and, or): both operands at the rank of the
// result, aligned as the definition aligns them, then broadcast as NumPy does (an extent 1 repeats).
template <class Attrs>
Build elementwise(Attrs attrs) {
  return [attrs](Builder& c, const BoundInvocation& b, const std::string& node) {
    const Val x = aligned(c, b, "x", "ex", node), y = aligned(c, b, "y", "ey", node);
    return one(c.add_node1(node, attrs, {x, y}));
  };
}

// --- int and bool tensors (native_kinds.cpp)

// A unary operator of T: num: the real op (`real`), or nnref's integer ops for neg, sqr and abs of ints.
Build unary_by_type(const std::string& name, Build real);
// iden: the real copy, or an int or bool tensor itself.
Build identity(Build real);
// An arithmetic binary operator (T: num): the real mapping, or nnref's integer op where there is one.
Build by_type(const std::string& name, Build real);
// The operators of int and bool tensors: comparisons, logic, select, argmax/argmin, any/all, gather, cast,
// math.mod of ints.
void add_kind_operators(std::map<std::string, Build>& table);
// Whether the operator's mapping takes the types bound (math.mod: only ints).
bool mapped_for(const std::string& name, const BoundInvocation& b);

}  // namespace nnref::nnef2::native
