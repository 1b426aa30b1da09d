#include "formats/nnef2_model/native_common.hpp"

#include <stdexcept>

#include "spec/size_program.hpp"

namespace nnref::nnef2::native {

const Val* find_sym(const BoundInvocation& b, const std::string& name) {
  const auto it = b.env.symbols.find(name);
  if (it == b.env.symbols.end()) return nullptr;
  pin(it->second, "'" + name + "'", SourceLoc{}, b.env.conditions);
  return &it->second;
}
const Val& sym(const BoundInvocation& b, const std::string& name) {
  if (const Val* v = find_sym(b, name)) return *v;
  throw std::out_of_range("nnef2 native mapping: no symbol '" + name + "'");
}

void require_types(const BoundInvocation& b, const std::string& op, const std::vector<std::string>& inputs,
                   ElemType type, const std::string& why) {
  for (const std::string& name : inputs) {
    const Val& v = sym(b, name);
    if (v.kind == Val::Kind::Tensor && v.elem != type)
      refuse("nnef2.native.kind",
             op + " of " + type_name(v.elem) + " tensors ('" + name + "') has no native mapping: " + why);
  }
}

Build reals(const std::string& op, Build build) {
  return [op, build](Builder& c, const BoundInvocation& b, const std::string& node) {
    for (const auto& [name, v] : b.env.symbols)
      if (v.kind == Val::Kind::Tensor && v.elem != ElemType::Real)
        refuse("nnef2.native.kind", op + " of " + type_name(v.elem) + " tensors ('" + name +
                                        "') has no native mapping: nnref's op takes real tensors");
    return build(c, b, node);
  };
}

Val reshaped(Builder& c, const Val& operand, const std::vector<int64_t>& extents, const std::string& node) {
  if (operand.shape == extents) return operand;
  ReshapeAttrs r;
  r.dims = extents;
  r.kind = kind_of(operand.elem);
  return c.add_node1(node + "_aligned", r, {operand});
}

Val aligned(Builder& c, const BoundInvocation& b, const std::string& operand_name, const std::string& extents_name,
            const std::string& node) {
  const Val operand = sym(b, operand_name);
  const Val& extents = b.env.symbols.at(extents_name);
  bool own = extents.items.size() == operand.shape.size();
  for (size_t k = 0; own && k < operand.shape.size(); ++k)
    own = code_of(extents.items[k]) == code_of(extent_of(operand, k, b.env.conditions));
  return own ? operand : reshaped(c, operand, ints(b, extents_name), node);
}

Val as_output_shape(Builder& c, const BoundInvocation& b, const Val& operand, const std::string& node) {
  ReshapeAttrs r;
  std::vector<Val> operands{operand};
  r.kind = kind_of(operand.elem);
  const std::vector<SizeTerm>& terms = b.output_terms[0];
  if (std::none_of(terms.begin(), terms.end(), [](const SizeTerm& t) { return t != nullptr; })) {
    r.dims = b.output_shapes[0];
    return c.add_node1(node, r, operands);
  }
  std::vector<int64_t> handles;
  for (size_t k = 0; k < terms.size(); ++k) {
    const std::vector<int64_t> code = c.extents_program(
        terms[k] ? *terms[k] : std::vector<int64_t>{size_code::kConstant, b.output_shapes[0][k]}, handles);
    r.computed.insert(r.computed.end(), code.begin(), code.end());
  }
  for (int64_t h : handles) {
    operands.push_back(Val::of_tensor(h, c.tensor(h).shape, type_of(c.tensor(h).kind)));
    r.sources.push_back(c.tensor(h).kind);
  }
  return c.add_node1(node, r, operands);
}

}  // namespace nnref::nnef2::native
