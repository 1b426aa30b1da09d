// sizes: the integer vector a size program computes from the extents of its operands
// (spec/size_program.hpp). A front-end makes it where a model reads its shape arithmetic as data:
// an export's Cast(Shape(q)[-1]) that scales attention, a Shape that is a graph output.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/sizes.hpp"
#include "spec/op_rule.hpp"
#include "spec/size_program.hpp"

namespace nnref {

// [n], n the number of values the program leaves (at least one).
template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const SizesAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const auto values = run_size_program(a.program, inputs, sink, "sizes");
  if (!values) return std::nullopt;
  sink.require(!values->empty(), kSizeProgram, "sizes' program leaves no value");
  if (values->empty()) return std::nullopt;
  return ShapeOut<Dim>{{{Dim(static_cast<int64_t>(values->size()))}}, {}};
}

// y[i] = the i-th value of the program over the operands' extents.
template <Scalar T>
void evaluate(const Checked<SizesAttrs>& op, const OpIO<T>& io) {
  ConcreteSink sink;  // the witness holds: the program reads what it may
  const auto values = run_size_program(op.attrs().program, to_cdims(op.inputs()), sink, "sizes");
  auto& y = io.template out_as<int64_t>(0);
  for (size_t i = 0; i < values->size(); ++i) y[static_cast<int64_t>(i)] = (*values)[i].value.v;
}

}  // namespace nnref
