// The op set of the IR, generated from the one list of ops (spec/ops/op_list.hpp): the OpAttrs
// variant, the witness variant CheckedOp, and dispatch by name.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "spec/ops/op_list.hpp"

namespace nnref {

namespace op_list_detail {
template <class... A>
struct TypeList {};
template <class L>
struct Variants;
// The list starts with a placeholder so that the macro can put a comma before every entry.
template <class... A>
struct Variants<TypeList<void, A...>> {
  using attrs = std::variant<A...>;
  using checked = std::variant<Checked<A>...>;
};
#define NNREF_LIST_ENTRY(A, stem) , A
using AllOps = TypeList<void NNREF_FOR_EACH_OP(NNREF_LIST_ENTRY)>;
#undef NNREF_LIST_ENTRY
}  // namespace op_list_detail

using OpAttrs = op_list_detail::Variants<op_list_detail::AllOps>::attrs;
// A node's witness: its op checked for the node's input shapes and kinds.
using CheckedOp = op_list_detail::Variants<op_list_detail::AllOps>::checked;

std::string op_name(const OpAttrs& op);
Arity op_arity(const OpAttrs& op);
Signature op_signature(const OpAttrs& op);

// The op a name denotes, with default attributes ("relu" → UnaryAttrs{Relu}); nullopt when no op
// has that name.
std::optional<OpAttrs> op_by_name(std::string_view name);
// Every op name, in list order.
std::vector<std::string> all_op_names();

}  // namespace nnref
