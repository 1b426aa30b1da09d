// The epsilon of the normalisations (batch_normalization, layer_normalization): the constant added
// to the variance before its square root.
#pragma once

#include <cmath>
#include <string>

#include "spec/obligation.hpp"

namespace nnref {

inline constexpr ObligationSpec kEpsilon{
    ObligationKind::Attribute, "attr.epsilon.invalid",
    "The epsilon of batch_normalization and layer_normalization is a finite number, at least 0.",
    "epsilon >= 0, and epsilon is finite",
    "An IR batch_normalization with epsilon -1e-5 (NNL's BatchNorm requires epsilon > 0 earlier, as nnl.param.value) "
    "or an IR layer_normalization with epsilon infinity: error[attr.epsilon.invalid]."};

template <class Dim>
void require_epsilon(const std::string& op, double epsilon, ObligationSink<Dim>& sink) {
  sink.require(std::isfinite(epsilon) && epsilon >= 0, kEpsilon,
               op + ": epsilon must be a finite number ≥ 0, got " + std::to_string(epsilon));
}

}  // namespace nnref
