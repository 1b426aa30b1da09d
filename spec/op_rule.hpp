// The uniform interface of an op. Each op (or a small family sharing one formula) has two files,
// listed once in spec/ops/op_list.hpp: spec/attrs/<op>.hpp, which everything sees through the list,
// holds the attributes down to `signature`; spec/ops/<op>.hpp, which only the op's own units
// include (its generated rule and kernel units, its fast-path kernel, its tests), holds
// `shape_rule` and `evaluate`:
//
//   struct XAttrs { ... };                          its attributes
//   inline constexpr ObligationSpec kX...{...};     its own obligations (shared ones: spec/rules/)
//   template <> struct OpInfo<XAttrs> {
//     static std::vector<const ObligationSpec*> obligations();   every obligation its rule raises
//                                                               itself (not those of spec/rules/)
//     static std::vector<XAttrs> prototypes();      optional: one per op name of a family
//   };
//   std::string op_name(const XAttrs&);             "conv", "relu", ... (NNEF names where they exist)
//   Arity arity(const XAttrs&);                     how many graph inputs it takes
//   Signature signature(const XAttrs&);             optional: element kinds; default: all real
//   template <class Dim>
//   std::optional<ShapeOut<Dim>> shape_rule(const XAttrs&, const std::vector<Dims<Dim>>& inputs,
//                                           ObligationSink<Dim>& sink);
//       Every precondition is a sink.require(...) of a typed obligation; the rule returns nullopt
//       only when a structural fact (rank, axis index) makes the outputs meaningless. It may assume
//       the arity and the operand kinds (op_obligations checks them first).
//   template <Scalar T>
//   void evaluate(const Checked<XAttrs>& op, const OpIO<T>& io);
//       The formula. `op` is the witness that the rule held for exactly these input shapes and
//       kinds; io's outputs are allocated with the witnessed shapes, its params are aligned with
//       op.params() (nullptr for an absent optional parameter).
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "spec/dim.hpp"
#include "spec/obligation.hpp"
#include "spec/op_types.hpp"
#include "spec/real.hpp"
#include "spec/reduce.hpp"
#include "spec/result.hpp"
#include "spec/rules/arity.hpp"
#include "spec/rules/kinds.hpp"
#include "spec/rules/valid_shapes.hpp"
#include "spec/scalars.hpp"
#include "spec/shape.hpp"
#include "spec/tensor.hpp"
#include "spec/value.hpp"

namespace nnref {

template <class A>
struct OpInfo;  // specialised in each op's file

template <class A>
Signature op_signature(const A& a) {
  if constexpr (requires { signature(a); })
    return signature(a);
  else
    return Signature{};
}

// Every attribute value an op file names: one per name of a family (unary: relu, exp, ...).
template <class A>
std::vector<A> op_prototypes() {
  if constexpr (requires { OpInfo<A>::prototypes(); })
    return OpInfo<A>::prototypes();
  else
    return {A{}};
}

// The full set of obligations of one op for these operands, which every reading (concrete,
// symbolic) runs: the arity, the operand kinds, the op's shape rule, and the shapes every result
// must have. `kinds` may be empty: every operand real.
template <class A, class Dim>
std::optional<ShapeOut<Dim>> op_obligations(const A& attrs, const std::vector<ElemKind>& kinds,
                                            const std::vector<Dims<Dim>>& inputs, ObligationSink<Dim>& sink) {
  const std::string op = op_name(attrs);
  if (!require_arity(op, arity(attrs), inputs.size(), sink)) return std::nullopt;
  if (!kinds.empty() && !require_operand_kinds(op, op_signature(attrs), kinds, sink)) return std::nullopt;
  auto out = shape_rule(attrs, inputs, sink);
  if (out) require_valid_shapes(op, *out, sink);
  return out;
}

inline std::vector<Dims<CDim>> to_cdims(const std::vector<Shape>& shapes) {
  std::vector<Dims<CDim>> out;
  for (const auto& s : shapes) out.emplace_back(s.dims().begin(), s.dims().end());
  return out;
}

inline Result<Shape> to_shape(const Dims<CDim>& d) {
  std::vector<int64_t> v;
  for (auto x : d) v.push_back(x.v);
  return Shape::make(std::move(v));
}

struct ParamInfo {
  std::string role;
  Shape shape;  // exactly the shape the op implies
  bool required = true;
};

// Witness that an op's obligations hold for particular input shapes and kinds (DESIGN idea 4).
// Only check() builds one; kernels take it and may index without further checks.
template <class A>
class Checked {
 public:
  // `kinds` empty: every input real.
  static Result<Checked> check(const A& attrs, std::vector<Shape> inputs, std::vector<ElemKind> kinds = {}) {
    ConcreteSink sink;
    auto out = op_obligations(attrs, kinds, to_cdims(inputs), sink);
    if (!sink.ok()) return sink.first_failure();
    if (!out) return make_error("shape.internal", op_name(attrs) + ": shape rule gave no result");
    Checked c;
    c.attrs_ = attrs;
    c.inputs_ = std::move(inputs);
    c.result_ = op_signature(attrs).result;
    for (const auto& o : out->outputs) {
      auto s = to_shape(o);
      if (!s) return std::move(s).error();
      c.outputs_.push_back(std::move(s).value());
    }
    for (const auto& p : out->params) {
      auto s = to_shape(p.dims);
      if (!s) return std::move(s).error();
      c.params_.push_back({p.role, std::move(s).value(), p.required});
    }
    return c;
  }

  const A& attrs() const { return attrs_; }
  const std::vector<Shape>& inputs() const { return inputs_; }
  const std::vector<Shape>& outputs() const { return outputs_; }
  ElemKind output_kind() const { return result_; }
  const std::vector<ParamInfo>& params() const { return params_; }

 private:
  Checked() = default;
  A attrs_{};
  std::vector<Shape> inputs_, outputs_;
  ElemKind result_ = ElemKind::Real;
  std::vector<ParamInfo> params_;
};

// What a kernel reads and writes. Operand kinds are witnessed, so the accessors cannot fail.
template <Scalar T>
struct OpIO {
  std::vector<const Value<T>*> inputs;
  std::vector<const Tensor<T>*> params;
  std::vector<Value<T>*> outputs;

  const Tensor<T>& in(size_t i) const { return std::get<Tensor<T>>(*inputs[i]); }
  // Input i and output k as tensors of element type E (with_element_type, spec/value.hpp).
  template <class E>
  const Tensor<E>& in_as(size_t i) const { return std::get<Tensor<E>>(*inputs[i]); }
  template <class E>
  Tensor<E>& out_as(size_t k) const { return std::get<Tensor<E>>(*outputs[k]); }
  const Tensor<uint8_t>& logical_in(size_t i) const { return std::get<Tensor<uint8_t>>(*inputs[i]); }
  const Tensor<T>* param(size_t i) const { return params[i]; }
  Tensor<T>& out(size_t k) const { return std::get<Tensor<T>>(*outputs[k]); }
};

// The op's formula, explicitly instantiated once per op and scalar (spec/CMakeLists.txt), so
// that no translation unit instantiates them all.
template <class A, Scalar T>
void run_kernel(const Checked<A>& op, const OpIO<T>& io) {
  evaluate(op, io);
}

}  // namespace nnref
