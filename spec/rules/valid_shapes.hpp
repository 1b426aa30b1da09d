// What every op's result must satisfy, whatever the op: each extent of each output and parameter
// is at least 1 (not negative, then not 0), and each tensor's element count fits int64.
#pragma once

#include <limits>
#include <string>

#include "spec/obligation.hpp"
#include "spec/op_types.hpp"

namespace nnref {

inline constexpr ObligationSpec kNegativeExtent{
    ObligationKind::Shape, "shape.negative-extent",
    "Every extent of a shape the IR declares (Input and Const dims) or a file holds is at least 0.",
    "E >= 0, for every extent E",
    "An IR Input node declaring dims [1, -3] (a hand-built graph: NNL takes positive extents only): "
    "error[shape.negative-extent] extent -3 of axis 1 in shape [1, -3] is negative."};

inline constexpr ObligationSpec kEmptyExtent{
    ObligationKind::Shape, "shape.empty-extent",
    "Every extent of every output and every parameter of every op is at least 1 (checked after each op's own rule).",
    "E >= 1, for every extent E of every output and parameter shape",
    "An IR broadcast_to with dims [2, 0] of an input [2, 1]: the output [2, 0] is empty: error[shape.empty-extent]."};

inline constexpr ObligationSpec kCountOverflow{
    ObligationKind::Size, "size.overflow",
    "The element count of every output and parameter shape (and of every shape read from a file) is below 2^63 - 1.",
    "E_0 * E_1 * ... * E_{r-1} < 9223372036854775807, for every output and parameter shape",
    "`layer input = Input(shape: [4, 4, 1]); layer flat = Flatten(); layer fc = Dense(units: 4611686018427387904);`: "
    "the weight [16, 4611686018427387904] has 2^66 elements: error[size.overflow] (constant: decided without Z3)."};

// A saturated CDim count reaches INT64_MAX, so the strict bound reads the same in both readings.
template <class Dim>
void require_valid_shapes(const std::string& op, const ShapeOut<Dim>& out, ObligationSink<Dim>& sink) {
  const auto check = [&](const Dims<Dim>& d, const std::string& what) {
    for (size_t i = 0; i < d.size(); ++i) {
      const std::string axis = op + " " + what + " " + dims_str(d) + " has axis " + std::to_string(i) + " of extent " +
                               dim_str(d[i]);
      sink.require(d[i] >= Dim(int64_t{0}), kNegativeExtent, axis + ", which is negative");
      sink.require(d[i] != Dim(int64_t{0}), kEmptyExtent, axis + "; every extent must be at least 1");
    }
    sink.require(element_count(d) < Dim(std::numeric_limits<int64_t>::max()), kCountOverflow,
                 op + " " + what + " " + dims_str(d) + " has more elements than fit a 64-bit count");
  };
  for (size_t k = 0; k < out.outputs.size(); ++k)
    check(out.outputs[k], out.outputs.size() == 1 ? "output" : "output #" + std::to_string(k));
  for (const auto& p : out.params) check(p.dims, "parameter " + p.role);
}

}  // namespace nnref
