// What the files of formats/onnx/ops/ share: each family's table of the ONNX ops it reads, and
// the helpers more than one family uses. Each file holds one family's handlers; where an op is a
// composition of IR ops, its comment says why it is exactly the ONNX formula (docs/onnx.md
// repeats the list).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "formats/onnx/ops.hpp"
#include "spec/integer_arith.hpp"

namespace nnref::onnx_format {

using Ctx = NodeCtx;
using OpTable = std::map<std::string, OpHandler>;

// Adds a family's ops to the table; an op_type already there is a defect of nnref (logic_error).
void add_ops(OpTable& table, std::initializer_list<std::pair<const char*, OpHandler>> ops);

// The families, one file each.
void add_elementwise_ops(OpTable& table);    // elementwise.cpp
void add_window_ops(OpTable& table);         // windows.cpp, conv_transpose.cpp
void add_normalization_ops(OpTable& table);  // normalization.cpp
void add_product_ops(OpTable& table);        // products.cpp
void add_reduction_ops(OpTable& table);      // reductions.cpp
void add_movement_ops(OpTable& table);       // movement.cpp
void add_constant_ops(OpTable& table);       // constants.cpp
void add_indexing_ops(OpTable& table);       // indexing.cpp
void add_loss_ops(OpTable& table);           // losses.cpp
void add_signal_ops(OpTable& table);         // signal.cpp
void add_control_ops(OpTable& table);        // control.cpp
void add_typed_ops(OpTable& table);          // typed.cpp: integer and bool operands or results
void add_recurrent_ops(OpTable& table);      // recurrent.cpp: LSTM, GRU, RNN unrolled
void add_resize_ops(OpTable& table);         // resize.cpp: Resize and Upsample
void add_scatter_ops(OpTable& table);        // scatter.cpp: ScatterElements, Scatter, ScatterND
void add_selection_ops(OpTable& table);      // selection.cpp: TopK, NonZero, Compress, Unique, NMS
void add_sampling_ops(OpTable& table);       // sampling.cpp: GridSample, RoiAlign, Det
void add_tfidf_ops(OpTable& table);          // tfidf.cpp: TfIdfVectorizer
void add_quantization_ops(OpTable& table);   // quantization.cpp: QuantizeLinear, MatMulInteger, QLinearConv, ...

// ---- helpers (common.cpp) ----

// A 0-D float64 tensor holding v (a literal operand).
HostTensor scalar_tensor(double v);
// Refuses (onnx.shape-unsupported) where the model's extents are symbolic: "<op> needs fixed
// extents (<why>), and the model's inputs have symbolic ones".
void require_fixed_extents(Ctx& c, const std::string& why);
// The IR binary op under NumPy broadcasting, named by the node and suffix.
ValueRef binary(Ctx& c, const std::string& suffix, BinaryOp op, ValueRef a, ValueRef b);
// An op's data operand followed by the values its computed sizes read (the program's sources).
std::vector<ValueRef> with_sources(ValueRef x, const SizeProgram& p);
// x of the given kind reshaped to the extents `shape` computes (IR reshape's computed dims, with
// the values whose extents they read as its further operands).
ValueRef reshaped(Ctx& c, const std::string& suffix, ValueRef x, ElemKind kind, const SizeTerms& shape);
// A 1-D SizeTerms of the given terms.
SizeTerms size_terms(std::vector<std::vector<int64_t>> terms);
// The integers start, start + 1, ..., limit − 1 (IR range of the integer kind), start and limit size
// terms (numbers, over extents, or elements of values computed from data), so that its length is a
// size `check` reads.
ValueRef integer_range(Ctx& c, const std::string& suffix, const std::vector<int64_t>& start,
                       const std::vector<int64_t>& limit);
// An index j of an axis of extent d (an int64 value of the graph) moved into [0, d) as ONNX's
// negative indices count from the end: j + d where j < 0, j elsewhere, in integer arithmetic
// (exact in every scalar: in reals the envelope would widen an index to two candidates).
ValueRef index_in_range(Ctx& c, ValueRef j, int64_t d);
// GatherElements' flat index into a tensor of the fixed shape d for the int64 indices `idx` (shape
// s, fixed) along `axis`: base[i] + j·stride with j moved into [0, d_axis), or −1 for an index
// outside [−d_axis, d_axis); its nodes named by `suffix`.
ValueRef element_flat_index(Ctx& c, const std::vector<int64_t>& d, ValueRef idx, const std::vector<int64_t>& s,
                            int64_t axis, const std::string& suffix);
// GatherND's row index, for the int64 indices `idx` (shape s, fixed) with batch_dims b, into data
// (shape d, fixed) as rows [B·P, rest] (GatherND in indexing.cpp says how): int64 of shape s
// without its last axis, −1 for an index out of range. Refuses extents GatherND does not allow.
ValueRef nd_row_index(Ctx& c, const std::vector<int64_t>& d, ValueRef idx, const std::vector<int64_t>& s, int64_t b);
// GatherElements of the real `data` (shape d, fixed) at the int64 indices `idx` (shape s, fixed)
// along `axis` (GatherElements in indexing.cpp says how); its nodes named by `suffix`.
ValueRef gathered_elements(Ctx& c, ValueRef data, const std::vector<int64_t>& d, ValueRef idx,
                           const std::vector<int64_t>& s, int64_t axis, const std::string& suffix);
// Identity: the same value. Of a constant (PyTorch writes Identity of a weight it shares), the
// constant itself; of an integer or bool value, a reshape keeping every extent.
void copy(Ctx& c);

// Reshape, Squeeze, Unsqueeze, Transpose and Slice of input 0, of whatever element kind it is: the
// IR ops that move elements hold every kind, so an integer or bool tensor stays one (with its
// ONNX type).
template <class A>
void moved(Ctx& c, A attrs) {
  attrs.kind = c.kind(0);
  c.set_output(0, c.emit("", attrs, {c.operand(0, attrs.kind)}), attrs.kind, c.type(0));
}

// ---- scatter (scatter.cpp) ----

// How a scatter combines the updates that land on one element with it (ONNX's `reduction`).
enum class ScatterReduction { None, Add, Mul, Max, Min };
// The rows [P, rest...] of `data` (real; any shape that broadcasts against it, a 0-D zero for
// MaxUnpool) with the real `updates` [K, rest...] written at the rows `rows` (int64 [K], each in
// [0, P) or −1 for an index out of range) and combined by `how` (scatter.cpp says how, and its
// bound on P·K·Π rest).
ValueRef scattered(Ctx& c, ValueRef data, ValueRef updates, ValueRef rows, int64_t P, int64_t K,
                   const std::vector<int64_t>& rest, ScatterReduction how);

// ---- windows (windows.cpp) ----

// A node's `pads` attribute as (begin, end) per spatial axis (empty when absent); refused unless it
// has 2·spatial entries.
std::vector<std::pair<int64_t, int64_t>> pads_of(NodeCtx& c, size_t spatial);
// The shape of Conv's and ConvTranspose's weight W (input 1): a constant, or a value computed from
// constants, which NodeCtx::param binds.
std::vector<int64_t> weight_shape(NodeCtx& c);
// ConvTranspose (conv_transpose.cpp).
void conv_transpose(NodeCtx& c);

// ---- integer and bool operands (typed.cpp), which the real ops hand them to ----

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

}  // namespace nnref::onnx_format
