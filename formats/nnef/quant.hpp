// graph.quant (§5.3, §7.1): the quantization algorithm of each exported tensor. A variable
// stored as quantized items (.dat item types 0b0010, 0b0011) is read through its algorithm into
// reals here; every other tensor it names is quantized in the graph, by the algorithm's fragment,
// after its value is computed (the composer does that).
#pragma once

#include <string>

#include "formats/nnef/composer.hpp"
#include "formats/nnef/dat.hpp"

namespace nnref::nnef {

// Replaces the integer codes of `t` by the reals they stand for under `q`: linear_quantize,
// min_max_linear_quantize, zero_point_linear_quantize, and logarithmic_quantize of unsigned items.
// false (with a diagnostic at `loc`) when the algorithm or its arguments do not fit the items.
bool dequantize(const QuantEntry& q, DatTensor& t, const std::string& label, const SourceLoc& loc, Diags& diags);

}  // namespace nnref::nnef
