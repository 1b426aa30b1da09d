// A variable stored as quantized codes (QINT/QUINT items of its .dat file), read as the reals its
// @quantize entry says (§2.14): the entry's operator bound to the variable, each code mapped back
// as that operator's @lower body computes its output from the code it rounds to.
#pragma once

#include <string>

#include "formats/nnef/dat.hpp"
#include "formats/nnef2/bind.hpp"

namespace nnref::nnef2 {

// The variable's reals from its codes, by `op` (quant.zero_point_linear_quantize: (q − zero_point)
// · scale; quant.min_max_linear_quantize: (q + p) / r · (max − min) + min; per item of the channel
// axis when the attributes are packs) as `bound` to it. Throws BuildError: nnef2.quantize.unsupported
// for another operator, nnef2.quantize.mismatch when the codes' bits or signedness are not the
// operator's.
HostTensor dequantize(const nnef::DatTensor& codes, const std::string& op, const BoundInvocation& bound);

}  // namespace nnref::nnef2
