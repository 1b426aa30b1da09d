// The uniform interface of an op in spec/ops/<family>.hpp. For each attribute struct A:
//
//   std::string op_name(const A&);                 // "conv", "relu", ... (NNEF names where they exist)
//   Arity arity(const A&);                         // how many graph inputs it takes
//   template <class Dim, ObligationSink<Dim> S>
//   std::optional<ShapeOut<Dim>> shape_rule(const A&, const std::vector<Dims<Dim>>& inputs, S& sink);
//       Every precondition is a sink.require(...) with a stable code; the rule returns nullopt
//       only when a structural fact (rank, axis index, arity) makes the outputs meaningless.
//       ShapeOut lists the output shapes and the parameter tensors the op needs, with the exact
//       shape each must have (the binding obligations).
//   template <Scalar T>
//   std::vector<Tensor<T>> evaluate(const Checked<A>& op, const std::vector<const Tensor<T>*>& inputs,
//                                   const std::vector<const Tensor<T>*>& params);
//       The formula. `op` is the witness that the shape rule held for exactly these input shapes;
//       params are aligned with op.params() (nullptr for an absent optional parameter).
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "spec/dim.hpp"
#include "spec/obligation.hpp"
#include "spec/reduce.hpp"
#include "spec/result.hpp"
#include "spec/scalar.hpp"
#include "spec/shape.hpp"
#include "spec/tensor.hpp"

namespace nnref {

struct Arity {
  int min = 1;
  int max = 1;  // -1: no upper bound
};

template <class Dim>
struct ParamShape {
  std::string role;  // "weight", "bias", "mean", ...
  Dims<Dim> dims;    // the exact shape the op implies
  bool required = true;
};

template <class Dim>
struct ShapeOut {
  std::vector<Dims<Dim>> outputs;
  std::vector<ParamShape<Dim>> params;
};

// What every op's result must satisfy, whatever the op: each extent of each output and parameter is
// at least 1 (not negative, then not 0) and each tensor's element count fits int64 (a saturated CDim count reaches INT64_MAX,
// so the strict bound reads the same in both readings).
template <class Dim, class S>
void require_valid_shapes(const std::string& op, const ShapeOut<Dim>& out, S& sink) {
  const auto check = [&](const Dims<Dim>& d, const std::string& what) {
    for (size_t i = 0; i < d.size(); ++i) {
      const std::string axis = op + " " + what + " " + dims_str(d) + " has axis " + std::to_string(i) + " of extent " +
                               dim_str(d[i]);
      sink.require(d[i] >= Dim(int64_t{0}), "shape.negative-extent", axis + ", which is negative");
      sink.require(d[i] != Dim(int64_t{0}), "shape.empty-extent", axis + "; every extent must be at least 1");
    }
    sink.require(element_count(d) < Dim(std::numeric_limits<int64_t>::max()), "size.overflow",
                 op + " " + what + " " + dims_str(d) + " has more elements than fit a 64-bit count");
  };
  for (size_t k = 0; k < out.outputs.size(); ++k)
    check(out.outputs[k], out.outputs.size() == 1 ? "output" : "output #" + std::to_string(k));
  for (const auto& p : out.params) check(p.dims, "parameter " + p.role);
}

// shape_rule followed by require_valid_shapes: the full set of obligations of one op, which every
// reading (concrete, symbolic) runs.
template <class A, class Dim, class S>
std::optional<ShapeOut<Dim>> op_obligations(const A& attrs, const std::vector<Dims<Dim>>& inputs, S& sink) {
  auto out = shape_rule(attrs, inputs, sink);
  if (out) require_valid_shapes(op_name(attrs), *out, sink);
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

// Witness that an op's shape rule holds for particular input shapes (DESIGN idea 4). Only
// check() builds one; kernels take it and may index without further checks.
template <class A>
class Checked {
 public:
  static Result<Checked> check(const A& attrs, std::vector<Shape> inputs) {
    ConcreteSink sink;
    auto out = op_obligations(attrs, to_cdims(inputs), sink);
    if (!sink.ok()) return sink.first_failure();
    if (!out) return make_error("shape.internal", op_name(attrs) + ": shape rule gave no result");
    Checked c;
    c.attrs_ = attrs;
    c.inputs_ = std::move(inputs);
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

  struct Param {
    std::string role;
    Shape shape;
    bool required;
  };

  const A& attrs() const { return attrs_; }
  const std::vector<Shape>& inputs() const { return inputs_; }
  const std::vector<Shape>& outputs() const { return outputs_; }
  const std::vector<Param>& params() const { return params_; }

 private:
  Checked() = default;
  A attrs_{};
  std::vector<Shape> inputs_, outputs_;
  std::vector<Param> params_;
};

// Normalises an axis that may count from the end (-1 is the last). Returns -1 when out of range.
inline int64_t normalize_axis(int64_t axis, size_t rank) {
  int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r) return -1;
  return axis < 0 ? axis + r : axis;
}

}  // namespace nnref
