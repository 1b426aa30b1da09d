// Values that the graph computes from constants alone by real arithmetic, read when the model
// loads (a Loop's trip count Cast(Ceil((limit − start) / delta)) of inputs bound at load) where
// every correct runtime computes the same integer: docs/onnx.md, "Loop".
#pragma once

#include <cstdint>

#include "formats/model.hpp"
#include "semantics/graph.hpp"
#include "semantics/payload.hpp"
#include "spec/result.hpp"

namespace nnref::onnx_format {

// The one integer (a bool's 0 or 1) that the one-element integer or logical value r of g, computed
// from constants alone, takes in the exact value's Interval and in the Envelope of the thread's
// runtime model (float32 unless a RuntimeScope says else), which bounds what every correct
// runtime computes (docs/conformance.md), as `enclose` computes them (semantics' enclose_constants).
// onnx.value-undecided when either leaves it undetermined or they differ (the message gives both,
// and the Envelope of the real value a final cast reads); onnx.input-type when r is not one integer
// or bool; a plan's own error as it is.
Result<int64_t> decided_at_load(const Graph& g, const Payload& payload, const ValueRef& r,
                                LoadOptions::EncloseConstants enclose, int64_t max_memory);

}  // namespace nnref::onnx_format
