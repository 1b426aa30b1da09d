// The binding obligations of one parameter, read over any dimension type: the entry exists (when
// the op requires it), holds floating-point data, and has exactly the shape the op implies.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "semantics/payload.hpp"
#include "spec/op_rule.hpp"
#include "spec/value.hpp"

namespace nnref {

inline constexpr ObligationSpec kBindMissing{
    ObligationKind::Binding, "bind.missing", "Every parameter a node requires is in the weights.",
    "an entry (node, role) exists, for every required parameter",
    "A Dense layer fc1 whose weights directory has fc1.weight.npy but no fc1.bias.npy: error[bind.missing] parameter "
    "fc1.bias of shape [128] is missing from the weights."};
inline constexpr ObligationSpec kBindDtype{ObligationKind::Binding, "bind.dtype",
                                           "Every parameter holds floating-point data.",
                                           "dtype is float16, float32 or float64",
                                           "A fc1.weight.npy stored as int32: error[bind.dtype]."};
inline constexpr ObligationSpec kBindShape{
    ObligationKind::Binding, "bind.shape-mismatch",
    "Every parameter has exactly the shape the layer implies: the same rank and the same extent on every axis.",
    "rank(file) == rank(implied) && F_i == P_i, for every axis i",
    "`layer input = Input(shape: [28, 28, 1]); layer flat = Flatten(); layer fc = Dense(units: 10);` with a "
    "fc.weight.npy of shape [784, 10], checked with `nnref check m.nnl --dim input.0=1..64`: the layer needs "
    "[input.0 * 28, 10]: error[bind.shape-mismatch], counterexample: input.0 = 1."};
inline constexpr ObligationSpec kBindUnused{
    ObligationKind::Binding, "bind.unused",
    "Every entry of the weights is used by some layer (a warning, not an error).",
    "some node has the parameter (node, role), for every weights entry",
    "A weights directory holding fc3.weight.npy for a model without a layer fc3: warning[bind.unused] parameter "
    "fc3.weight (.../fc3.weight.npy) is not used by any layer."};

inline constexpr ObligationSpec kBindComputed{
    ObligationKind::Binding, "bind.computed",
    "A parameter the graph computes (instead of reading it from the weights) is a real value computed from constants "
    "alone, bound to a parameter the op has and not also given by the weights.",
    "the value's ancestors hold no Input node, its kind is real, and the op has the parameter",
    "An ONNX Conv whose W is the Mul of an initializer and a graph input: the reader refuses it "
    "(onnx.input-not-constant); an IR graph binding it so: error[bind.computed]."};

inline std::vector<const ObligationSpec*> binding_obligations() {
  return {&kBindMissing, &kBindDtype, &kBindShape, &kBindUnused, &kBindComputed};
}

// The extent as a number when the reading knows it: always concretely, symbolically once fixed.
template <class Dim>
std::optional<int64_t> known_extent(const Dim& d) {
  if constexpr (std::is_same_v<Dim, CDim>)
    return d.v;
  else
    return d.is_known() ? std::optional<int64_t>(d.known()) : std::nullopt;
}

// "; transposed? ..." when the file holds the extents the layer needs in another order (a Dense
// weight saved as [units, in], a convolution weight in another layout); "" otherwise, or when the
// reading does not know every extent.
template <class Dim>
std::string layout_hint(const std::vector<int64_t>& actual, const Dims<Dim>& needed) {
  std::vector<int64_t> want;
  for (const Dim& d : needed) {
    const auto v = known_extent(d);
    if (!v) return "";
    want.push_back(*v);
  }
  if (actual.size() != want.size() || actual == want ||
      !std::is_permutation(actual.begin(), actual.end(), want.begin()))
    return "";
  if (actual.size() == 2) return "; transposed? it holds the layer's extents in reverse order";
  return "; another weight layout? it holds the layer's extents in another order";
}

// The extents a parameter has against those the layer needs (kBindShape, with `what` as the message).
template <class Dim>
void require_same_dims(const Dims<Dim>& needed, const Dims<Dim>& actual, const std::string& what,
                       ObligationSink<Dim>& sink) {
  if (actual.size() != needed.size()) {
    sink.require(false, kBindShape, what);
    return;
  }
  PredOf<Dim> same = true;
  for (size_t i = 0; i < actual.size(); ++i) same = same && (needed[i] == actual[i]);
  sink.require(same, kBindShape, what);
}

// `pname` is the parameter's name in the model's terms; `lookalike`, when not empty, an entry of
// the weights that no layer uses and whose name looks like pname (the missing error suggests it).
template <class Dim>
void require_binding(const ParamShape<Dim>& p, const ParamEntry* e, const std::string& pname,
                     const std::string& lookalike, ObligationSink<Dim>& sink) {
  if (e == nullptr) {
    const std::string hint =
        lookalike.empty() ? "" : "; did you mean " + pname + " for " + lookalike + " (which no layer uses)?";
    sink.require(!p.required, kBindMissing,
                 "parameter " + pname + " of shape " + dims_str(p.dims) + " is missing from the weights" + hint);
    return;
  }
  sink.require(dtype_is_float(e->tensor.dtype), kBindDtype,
               "parameter " + pname + " (" + e->source + ") has dtype " + dtype_name(e->tensor.dtype) +
                   "; parameters must be float16, float32 or float64");
  const auto& actual = e->tensor.shape.dims();
  require_same_dims(p.dims, Dims<Dim>(actual.begin(), actual.end()),
                    "parameter " + pname + " (" + e->source + ") has shape " + e->tensor.shape.str() +
                        ", but the layer needs " + dims_str(p.dims) + layout_hint(actual, p.dims),
                    sink);
}

// A parameter bound to a value the graph computes (Node::param_values): of `kind`, with extents
// `actual`, computed from constants alone when `from_constants`.
template <class Dim>
void require_computed_binding(const ParamShape<Dim>& p, const Dims<Dim>& actual, ElemKind kind, bool from_constants,
                              const std::string& pname, const std::string& producer, ObligationSink<Dim>& sink) {
  const std::string what = "parameter " + pname + " is computed by '" + producer + "'";
  sink.require(from_constants, kBindComputed, what + ", which reads a graph input: a parameter is computed from "
                                                    "constants alone");
  sink.require(kind == ElemKind::Real, kBindComputed, what + " as " + elem_kind_name(kind) + " data, not reals");
  require_same_dims(p.dims, actual, what + " with shape " + dims_str(actual) + ", but the layer needs " + dims_str(p.dims),
                    sink);
}

}  // namespace nnref
