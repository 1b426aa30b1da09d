// What the writers write for the IR's interpolate, which no format has as one op: its sum spelled out
// with slices, reshapes, gathers, products and sums (convert::prepare applies it before any writer).
#pragma once

#include "semantics/graph.hpp"
#include "semantics/wellformed.hpp"

namespace nnref::convert {

// `graph` (with `info`, its shapes) with every interpolate node replaced by its composition, in the
// order a point scalar computes it (spec/ops/interpolate.hpp): per choice of taps, row-major, x
// gathered along each axis at the taps' indices times the product of the taps' weights in axis
// order, the terms added in that order. The composition's last node keeps the interpolate's name.
Graph expand_interpolate(const Graph& graph, const GraphInfo& info);

}  // namespace nnref::convert
