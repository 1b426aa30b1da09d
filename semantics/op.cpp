#include "semantics/op.hpp"

namespace nnref {

std::string op_name(const OpAttrs& op) {
  return std::visit([](const auto& a) { return op_name(a); }, op);
}

Arity op_arity(const OpAttrs& op) {
  return std::visit([](const auto& a) { return arity(a); }, op);
}

Signature op_signature(const OpAttrs& op) {
  return std::visit([](const auto& a) { return op_signature(a); }, op);
}

namespace {

// Every prototype of every op, in list order.
std::vector<OpAttrs> all_prototypes() {
  std::vector<OpAttrs> out;
#define NNREF_PROTOTYPES(A, stem) \
  for (const A& a : op_prototypes<A>()) out.emplace_back(a);
  NNREF_FOR_EACH_OP(NNREF_PROTOTYPES)
#undef NNREF_PROTOTYPES
  return out;
}

}  // namespace

std::optional<OpAttrs> op_by_name(std::string_view name) {
  for (const OpAttrs& op : all_prototypes())
    if (op_name(op) == name) return op;
  return std::nullopt;
}

std::vector<std::string> all_op_names() {
  std::vector<std::string> out;
  for (const OpAttrs& op : all_prototypes()) out.push_back(op_name(op));
  return out;
}

}  // namespace nnref
