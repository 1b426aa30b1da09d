// The ONNX ops nnref reads, each a handler that emits IR nodes through a NodeCtx (importer.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "formats/onnx/importer.hpp"
#include "spec/integer_arith.hpp"

namespace nnref::onnx_format {

using OpHandler = void (*)(NodeCtx&);

// A node's `pads` attribute as (begin, end) per spatial axis (empty when absent); refused unless it
// has 2·spatial entries.
std::vector<std::pair<int64_t, int64_t>> pads_of(NodeCtx& c, size_t spatial);
// The shape of Conv's and ConvTranspose's weight W (input 1): a constant, or a value computed from
// constants, which NodeCtx::param binds.
std::vector<int64_t> weight_shape(NodeCtx& c);

// ConvTranspose (conv_transpose.cpp).
void conv_transpose(NodeCtx& c);

// The ops with integer or bool operands or results (typed_ops.cpp).
void arg_max(NodeCtx& c);
void arg_min(NodeCtx& c);
void cast_op(NodeCtx& c);
void cast_like_op(NodeCtx& c);
void equal_op(NodeCtx& c);
void less_op(NodeCtx& c);
void greater_op(NodeCtx& c);
void less_or_equal_op(NodeCtx& c);
void greater_or_equal_op(NodeCtx& c);
void not_op(NodeCtx& c);
void and_op(NodeCtx& c);
void or_op(NodeCtx& c);
void xor_op(NodeCtx& c);
void where_op(NodeCtx& c);
void cumsum_op(NodeCtx& c);  // CumSum of reals and of integers
// Integer arithmetic (spec/integer_arith.hpp): of constants evaluated when the model is read, of
// terms a size program, of run-time values the IR op integer_binary; Neg (abs false) and Abs.
void integer_binary(NodeCtx& c, IntegerOp op);
void integer_chain(NodeCtx& c, IntegerOp op);  // Sum, Min, Max of three or more integer tensors
void integer_negation(NodeCtx& c, bool abs);
// ReduceSum, ReduceProd, ReduceMax, ReduceMin of integers over `axes` (each in range, checked
// here for terms): of terms size programs, of constants folded, of run-time values IR reduce of
// the integer kind wrapping to the data's type. ReduceMean of integers is refused.
void integer_reduce(NodeCtx& c, ReduceOp op, const std::vector<int64_t>& axes, bool keep);
// Clip of integers with at least one bound: integer_binary Max, then Min.
void integer_clip(NodeCtx& c);
// Pow of any kinds of base and exponent (the exponent read as a real; an integer base's power
// truncated to an integer).
void pow_op(NodeCtx& c);
// MaxPool of 8- and 16-bit integers: the max pool of their reals, cast back (exact).
void integer_max_pool(NodeCtx& c, const PoolAttrs& a);
// Gather whose indices are an integer value of the graph, along `axis`.
void gather_computed(NodeCtx& c, int64_t axis);

// The handler of an op of the default domain, or nullptr when nnref does not read it.
OpHandler find_op(const std::string& op_type);

}  // namespace nnref::onnx_format
