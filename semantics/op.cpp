#include "semantics/op.hpp"

namespace nnref {

std::string op_name(const OpAttrs& op) {
  return std::visit([](const auto& a) { return op_name(a); }, op);
}

}  // namespace nnref
