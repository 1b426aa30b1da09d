// The outputs of run and hw run: printed, and written to .npy or .npz.
#pragma once

#include <ostream>
#include <string>

#include "formats/model.hpp"
#include "formats/tensor_files/npy.hpp"
#include "spec/host_tensor.hpp"
#include "spec/result.hpp"
#include "spec/scalars.hpp"

namespace nnref {

// The outputs in T as doubles (an enclosure's midpoints), and with radii, each enclosure's
// half-width rounded up.
template <Scalar T>
Result<NamedTensors> named_outputs(const Model& m, Result<std::vector<Tensor<T>>> r, DType out_type,
                                   NamedTensors* radii) {
  if (!r) return std::move(r).error();
  NamedTensors named;
  for (size_t k = 0; k < r->size(); ++k) {
    const Tensor<T>& t = (*r)[k];
    HostTensor h{out_type, t.shape(), {}}, radius{DType::F64, t.shape(), {}};
    h.values.reserve(static_cast<size_t>(t.size()));
    for (const T& x : t.data()) {
      h.values.push_back(out_type == DType::F32 ? double(float(sc::to_double(x))) : sc::to_double(x));
      if (radii) radius.values.push_back(sc::enclosure(x).radius());
    }
    named.emplace_back(m.graph.outputs[k].name, std::move(h));
    if (radii) radii->emplace_back(m.graph.outputs[k].name, std::move(radius));
  }
  return named;
}

// "output NAME: shape [..] f32", then its values when it has at most 32 elements.
void print_output(std::ostream& out, const std::string& name, const HostTensor& t);

// Y.npz, or Y.npy for a model with one output (io.output-format otherwise).
Status write_tensors(const std::string& path, const NamedTensors& tensors);

}  // namespace nnref
