// What the native mapping (native.cpp) builds with: the tensors of a SkriptND
// graph being composed into nnref's IR, and the IR nodes added for them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "formats/model.hpp"
#include "formats/nnef2/bind.hpp"

namespace nnref::nnef2 {

// A refused or failed composition, reported at the invocation that caused it.
struct BuildError {
  std::string code;
  std::string message;
};

class Builder {
 public:
  struct Tensor {
    std::optional<ValueRef> ref;  // the IR value, once there is one
    std::vector<int64_t> shape;
    ElemKind kind = ElemKind::Real;
    std::optional<ParamEntry> data;  // a variable's data (when read)
    std::string label;               // a variable's scoped name
    SourceLoc loc;
  };

  explicit Builder(Model& model) : model_(model) {}

  // A tensor no IR node computes yet (a variable), and one an IR value holds.
  Val add_tensor(Tensor t);
  const Tensor& tensor(const Val& v) const { return tensor(v.tensor); }
  const Tensor& tensor(int64_t handle) const { return tensors_.at(static_cast<size_t>(handle)); }
  // Whether the tensor is a variable (its data, when read, can be an IR node's
  // parameter).
  bool is_variable(const Val& v) const { return !tensor(v).label.empty(); }

  // Adds an IR node reading these tensors, named after `name`; its output
  // shapes are the op's rule at the tensors' shapes, and an obligation that
  // fails there is an error.
  std::vector<Val> add_node(const std::string& name, OpAttrs attrs, const std::vector<Val>& inputs);
  Val add_node1(const std::string& name, OpAttrs attrs, const std::vector<Val>& inputs) {
    return add_node(name, std::move(attrs), inputs)[0];
  }
  // The variable's data becomes parameter `role` of the node added last.
  void bind_param(const Val& variable, const std::string& role);
  // Values the composition makes up become parameter `role` of the node added last (a batch
  // normalization's missing scale or bias).
  void bind_constant(const std::string& role, std::vector<double> values);
  // A rank-0 constant of this kind the composition makes up (an int 0 to negate ints), named `name`.
  Val scalar(const std::string& name, ElemKind kind, double value);
  // The IR value of a tensor (a variable becomes a const node when first read
  // as an operand).
  ValueRef materialise(const Val& v);
  // `code` (a term: kExtent h k reads extent k of tensor h) over the extents of `handles`: kExtent
  // j k reads extent k of handles[j], each tensor an IR value holds added there once; a variable's
  // extent (no IR value yet) becomes its declared number.
  std::vector<int64_t> extents_program(const std::vector<int64_t>& code, std::vector<int64_t>& handles) const;
  // A node name not yet used: base, base_2, ...
  std::string fresh_name(const std::string& base);
  void set_location(const SourceLoc& loc) { loc_ = loc; }

 private:
  Model& model_;
  std::vector<Tensor> tensors_;
  std::vector<std::string> used_;
  SourceLoc loc_;
};

// SkriptND's element types are the IR's kinds: real, integer, logical.
ElemKind kind_of(ElemType t);
ElemType type_of(ElemKind k);

[[noreturn]] inline void refuse(const std::string& code, const std::string& message) {
  throw BuildError{code, message};
}

// The IR nodes that compute standard operator `name` (module.op) as bound, or
// nullopt when the operator has no native mapping.
std::optional<std::vector<Val>> build_native(Builder& b, const std::string& name, const BoundInvocation& bound,
                                             const std::string& node_name);

// Whether the operator has a @lower body, and the IR contract op that computes it (lower.cpp):
// nnef2.lower.* where the body uses what the interpreter does not take.
bool has_lowering(const OpDef& def);
std::vector<Val> build_lowered(Builder& b, const std::string& name, const OpDef& def, const BoundInvocation& bound,
                               const std::string& node_name);

// The names of the operators build_native maps, for docs and tests.
std::vector<std::string> native_operators();

}  // namespace nnref::nnef2
