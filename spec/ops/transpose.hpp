// transpose: permutes the axes (NNEF 1.0 transpose).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/transpose.hpp"
#include "spec/index.hpp"
#include "spec/op_rule.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const TransposeAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  std::vector<int64_t> sorted = a.perm;
  std::sort(sorted.begin(), sorted.end());
  bool ok = sorted.size() == x.size();
  for (size_t i = 0; ok && i < sorted.size(); ++i) ok = sorted[i] == static_cast<int64_t>(i);
  std::string perm;
  for (size_t i = 0; i < a.perm.size(); ++i) perm += (i ? ", " : "") + std::to_string(a.perm[i]);
  sink.require(ok, kTransposeInvalidPermutation,
               "transpose perm [" + perm + "] is not a permutation of 0.." + std::to_string(x.size()) +
                   "-1 for an input of rank " + std::to_string(x.size()));
  if (!ok) return std::nullopt;
  Dims<Dim> out;
  for (int64_t p : a.perm) out.push_back(x[static_cast<size_t>(p)]);
  return ShapeOut<Dim>{{out}, {}};
}

// y[i0, ..., in] = x[j] with j[perm[k]] = i[k].
template <Scalar T>
void evaluate(const Checked<TransposeAttrs>& op, const OpIO<T>& io) {
  const auto x_strides = op.inputs()[0].strides();
  const auto& perm = op.attrs().perm;
  with_element_type<T>(op.attrs().kind, [&]<class E>() {
    gather(io.template out_as<E>(0), io.template in_as<E>(0), [&](const std::vector<int64_t>& i) {
      int64_t f = 0;
      for (size_t k = 0; k < i.size(); ++k) f += i[k] * x_strides[static_cast<size_t>(perm[k])];
      return f;
    });
  });
}

}  // namespace nnref
