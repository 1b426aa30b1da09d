// The catalogue of obligation codes (checker/catalogue.hpp). Two plain tables: kTable, one row
// per code, and kWindow, the codes that spec/ops/conv.hpp's window rule builds as
// "shape." + family + "." + what, one row per `what`, instantiated once per family (kFamilies).
// docs/obligations.md lists the same entries; tests/checker_catalogue_test.cpp keeps the
// catalogue, the sources of the codes and that document in step.
//
// Formulas use the syntax of --assume (+ - * / % == != < <= > >= && ||, `/` floor division).
// Capital letters are extents (H, W, C, X: which --dim may make symbolic), lower case attributes;
// rank(x), len(list) and count(t) (the element count of tensor t) are fixed numbers at check time.

#include "checker/catalogue.hpp"

#include <algorithm>
#include <array>

namespace nnref {

namespace {

struct Row {
  const char* code;
  const char* kind;
  const char* summary;
  const char* formula;
  const char* example;
};

// clang-format off
const Row kTable[] = {
// ---- structure: the graph, arity, ranks and axis indices (never symbolic) ----
{"graph.id", "structure",
 "Every node's id equals its position in the node list.",
 "id == position, for every node",
 "An IR graph whose node at position 2 carries id 5 (front-ends number their nodes; a hand-built graph may not): "
 "error[graph.id] has id 5 at position 2."},
{"graph.name-empty", "structure",
 "Every node has a non-empty name.",
 "len(name) >= 1, for every node",
 "An IR node named \"\": error[graph.name-empty] has no name."},
{"graph.name-duplicate", "structure",
 "No two nodes share a name.",
 "name_i != name_j, for every two nodes i != j",
 "Two IR nodes both named conv1: error[graph.name-duplicate] at the second (NNL reports repeated layer ids earlier, "
 "as nnl.layer.duplicate-id)."},
{"graph.arity", "structure",
 "Every node has a number of inputs its op accepts.",
 "min_arity <= inputs && (max_arity == -1 || inputs <= max_arity), max_arity -1 meaning no upper bound",
 "An IR add node (binary: 2 inputs) with one input: error[graph.arity] takes 2 inputs, got 1 (NNL reports a wrong "
 "input count earlier, as nnl.layer.arity)."},
{"graph.topology", "structure",
 "Every input of a node is an output of an earlier node: the nodes are in topological order.",
 "0 <= input_node && input_node < id, for every input of every node",
 "An IR node 1 that reads node 3, or itself: error[graph.topology] (NNL sorts its layers and reports a cycle as "
 "nnl.graph.cycle)."},
{"graph.no-outputs", "structure",
 "The graph has at least one output.",
 "len(outputs) >= 1",
 "An IR graph with an empty output list: error[graph.no-outputs]."},
{"graph.output", "structure",
 "Every graph output names an existing output of an existing node.",
 "0 <= node && node < len(nodes) && 0 <= output && output < outputs(node), for every graph output",
 "An IR output y that refers to node 7 of a 5-node graph, or to output 1 of a conv (which has one): "
 "error[graph.output] output 'y' refers to no node."},
{"graph.output-index", "structure",
 "Every node input reads an output its producer has.",
 "0 <= output && output < outputs(producer), for every input of every node",
 "An IR relu node reading output 1 of node conv1, a conv with one output: error[graph.output-index] reads output 1 "
 "of node 'conv1', which has 1."},
{"shape.arity", "structure",
 "An op is given a number of inputs its arity accepts: 1 for conv, the pools, linear, the unary maps, the "
 "normalisations, the reductions and the layout ops other than concat; 2 for the binary maps and matmul; at least 2 for add_n; at "
 "least 1 for concat.",
 "min_arity <= inputs && (max_arity == -1 || inputs <= max_arity)",
 "The op-level twin of graph.arity, raised when a shape rule is run on its own, e.g. a conv checked with two input "
 "shapes: error[shape.arity] conv takes 1 input(s), got 2."},
{"shape.linear.input-rank", "structure",
 "The input of linear (NNL Dense) has rank 2, [N, in].",
 "rank(x) == 2",
 "`layer input = Input(shape: [28, 28, 1]); layer fc = Dense(units: 10);`: Dense reads the rank-4 [1, 28, 28, 1]: "
 "error[shape.linear.input-rank], whose message suggests inserting a Flatten (constant: decided without Z3)."},
{"shape.matmul.rank", "structure",
 "Both operands of matmul have rank at least 2.",
 "rank(A) >= 2 && rank(B) >= 2",
 "An IR matmul of [3] and [3, 4]: error[shape.matmul.rank]."},
{"shape.matmul.rank-mismatch", "structure",
 "The operands of matmul have the same rank (batch axes do not broadcast).",
 "rank(A) == rank(B)",
 "An IR matmul of [2, 3, 4] and [4, 5]: error[shape.matmul.rank-mismatch]."},
{"shape.broadcast_to.rank", "structure",
 "The input of broadcast_to has no more axes than the target shape (exactly as many under the Equal rule).",
 "rank(x) <= len(dims) (Equal: rank(x) == len(dims))",
 "An IR broadcast_to with dims [4] of an input [2, 4]: error[shape.broadcast_to.rank]."},
{"shape.axis.out-of-range", "structure",
 "Every axis attribute names an axis of the input, counting from the end when negative: the axes of the "
 "reductions, layer_normalization and softmax, and the channel_axis of batch_normalization.",
 "-rank(x) <= axis && axis < rank(x), for every axis",
 "`layer input = Input(shape: [32, 32, 3]); layer sm = Softmax(axis: 3);`: axis 3 of the per-sample shape is axis 4 "
 "of the [1, 32, 32, 3] tensor: error[shape.axis.out-of-range]."},
{"shape.axis.duplicate", "structure",
 "No axis is named twice in `axes` (negative axes counted from the end): reductions, layer_normalization, softmax.",
 "a_i != a_j for every two entries i != j, each a normalised to a + rank(x) when negative",
 "An IR sum_reduce with axes [1, -3] on a rank-4 input (both name axis 1): error[shape.axis.duplicate]."},
{"shape.reshape.zero-out-of-range", "structure",
 "An entry 0 of reshape's dims (copy the input extent at that position) sits at a position the input has.",
 "i < rank(x), for every position i with dims[i] == 0",
 "An IR reshape with dims [0, 0, 0] of a rank-2 input: error[shape.reshape.zero-out-of-range]."},
{"shape.flatten.axis-out-of-range", "structure",
 "The axis of flatten lies in [0, rank] (axis = rank appends an axis of extent 1).",
 "0 <= axis && axis <= rank(x)",
 "An IR flatten with axis 5 on a rank-4 input (NNL's Flatten always uses axis 1): "
 "error[shape.flatten.axis-out-of-range]."},
{"shape.transpose.invalid-permutation", "structure",
 "The perm of transpose is a permutation of 0 .. rank - 1.",
 "len(perm) == rank(x), and perm sorted is 0, 1, ..., rank(x) - 1",
 "An IR transpose with perm [0, 2, 2, 1] of a rank-4 input: error[shape.transpose.invalid-permutation]."},
{"shape.concat.rank-mismatch", "structure",
 "Every input of concat has the rank of input 0.",
 "rank(x_k) == rank(x_0), for every input k",
 "`layer input = Input(shape: [8, 8, 3]); layer flat = Flatten(); layer cat = Concat();` with "
 "`connections { input -> flat; [input, flat] -> cat; }`: ranks 4 and 2: error[shape.concat.rank-mismatch]."},
{"shape.concat.axis-out-of-range", "structure",
 "The axis of concat names an axis of its inputs, counting from the end when negative.",
 "-rank(x_0) <= axis && axis < rank(x_0)",
 "`Concat(axis: 3)` of two Input(shape: [8, 8, 3]) layers: axis 3 of the per-sample shape is axis 4 of the rank-4 "
 "tensors: error[shape.concat.axis-out-of-range]."},
{"shape.split.axis-out-of-range", "structure",
 "The axis of split names an axis of the input, counting from the end when negative.",
 "-rank(x) <= axis && axis < rank(x)",
 "An IR split with axis 2 of a rank-2 input: error[shape.split.axis-out-of-range]."},
{"shape.slice.axis-out-of-range", "structure",
 "Every axis slice lists names an axis of the input, counting from the end when negative.",
 "-rank(x) <= a && a < rank(x), for every listed axis a",
 "An IR slice with axes [3] of a rank-2 input: error[shape.slice.axis-out-of-range]."},
{"shape.slice.duplicate-axis", "structure",
 "No axis is listed twice by slice (negative axes counted from the end).",
 "a_i != a_j for every two listed axes i != j, each normalised to a + rank(x) when negative",
 "An IR slice with axes [0, -2] of a rank-2 input: error[shape.slice.duplicate-axis]."},
{"shape.pad.attribute-length", "structure",
 "pad has exactly one (before, after) pair per input axis.",
 "len(padding) == rank(x)",
 "An IR pad with padding [(1, 1)] of a rank-2 input: error[shape.pad.attribute-length]."},
{"shape.squeeze.axis-out-of-range", "structure",
 "Every axis squeeze lists names an axis of the input, counting from the end when negative.",
 "-rank(x) <= a && a < rank(x), for every listed axis a",
 "An IR squeeze with axes [2] of a rank-2 input: error[shape.squeeze.axis-out-of-range]."},
{"shape.squeeze.duplicate-axis", "structure",
 "No axis is listed twice by squeeze (negative axes counted from the end).",
 "a_i != a_j for every two listed axes i != j, each normalised to a + rank(x) when negative",
 "An IR squeeze with axes [1, -1] of a rank-2 input: error[shape.squeeze.duplicate-axis]."},
{"shape.unsqueeze.axis-out-of-range", "structure",
 "Every position unsqueeze lists is an axis of the output, whose rank is the input's plus the number of positions "
 "(counting from the end when negative).",
 "-(rank(x) + len(axes)) <= a && a < rank(x) + len(axes), for every listed position a",
 "An IR unsqueeze with axes [3] of a rank-2 input (output rank 3): error[shape.unsqueeze.axis-out-of-range]."},
{"shape.unsqueeze.duplicate-axis", "structure",
 "No output position is listed twice by unsqueeze (negative positions counted from the end).",
 "a_i != a_j for every two listed positions i != j, each normalised to a + rank(x) + len(axes) when negative",
 "An IR unsqueeze with axes [0, -3] of a rank-1 input (output rank 3): error[shape.unsqueeze.duplicate-axis]."},

// ---- attribute: conditions on attribute values alone (never symbolic) ----
{"attr.unary.alpha", "attribute",
 "The alpha of elu and leaky_relu is a finite number.",
 "alpha is finite: neither NaN nor infinite",
 "An IR leaky_relu with alpha NaN (NNL has no layer with an alpha): error[attr.unary.alpha]."},
{"attr.linear.units", "attribute",
 "linear has at least one unit.",
 "units >= 1",
 "An IR linear with units 0 (NNL rejects Dense(units: 0) earlier, as nnl.param.value): error[attr.linear.units]."},
{"attr.broadcast_to.negative-extent", "attribute",
 "The target shape of broadcast_to has no negative extent.",
 "T >= 0, for every entry T of dims",
 "An IR broadcast_to with dims [2, -1]: error[attr.broadcast_to.negative-extent]."},
{"attr.batch_normalization.epsilon", "attribute",
 "The epsilon of batch_normalization is a finite number, at least 0.",
 "epsilon >= 0, and epsilon is finite",
 "An IR batch_normalization with epsilon -1e-5 (NNL's BatchNorm requires epsilon > 0 earlier, as nnl.param.value): "
 "error[attr.batch_normalization.epsilon]."},
{"attr.layer_normalization.epsilon", "attribute",
 "The epsilon of layer_normalization is a finite number, at least 0.",
 "epsilon >= 0, and epsilon is finite",
 "An IR layer_normalization with epsilon infinity: error[attr.layer_normalization.epsilon]."},
{"shape.conv.groups-nonpositive", "attribute",
 "The groups of conv is at least 1.",
 "groups >= 1",
 "An IR conv with groups 0 (NNL's Conv2D always has groups 1): error[shape.conv.groups-nonpositive]."},
{"shape.conv.out-channels-nonpositive", "attribute",
 "The out_channels of conv (NNL filters) is at least 1.",
 "out_channels >= 1",
 "An IR conv with out_channels 0 (NNL rejects filters: 0 earlier, as nnl.param.value): "
 "error[shape.conv.out-channels-nonpositive]."},
{"shape.conv.out-channels-indivisible", "attribute",
 "The out_channels of conv is a multiple of groups.",
 "out_channels % groups == 0",
 "An IR conv with out_channels 6 and groups 4: error[shape.conv.out-channels-indivisible]."},
{"shape.reduce.no-axes", "attribute",
 "A reduction names at least one axis (an empty list is an error, not \"all axes\").",
 "len(axes) >= 1",
 "An IR sum_reduce with axes []: error[shape.reduce.no-axes]."},
{"shape.layer_normalization.no-axes", "attribute",
 "layer_normalization names at least one axis.",
 "len(axes) >= 1",
 "An IR layer_normalization with axes []: error[shape.layer_normalization.no-axes]."},
{"shape.softmax.no-axes", "attribute",
 "softmax names at least one axis.",
 "len(axes) >= 1",
 "An IR softmax with axes [] (NNL's Softmax always names one): error[shape.softmax.no-axes]."},
{"shape.reshape.negative-extent", "attribute",
 "No entry of reshape's dims is below -1 (-1 alone is allowed: the inferred extent).",
 "v >= -1, for every entry v of dims",
 "An IR reshape with dims [2, -3]: error[shape.reshape.negative-extent]."},
{"shape.reshape.multiple-inferred", "attribute",
 "At most one entry of reshape's dims is -1.",
 "the number of entries v of dims with v == -1 is <= 1",
 "An IR reshape with dims [-1, -1]: error[shape.reshape.multiple-inferred]."},
{"shape.split.ratio-nonpositive", "attribute",
 "split has at least one ratio, and every ratio is at least 1.",
 "len(ratios) >= 1 && r >= 1, for every ratio r",
 "An IR split with ratios [1, 0]: error[shape.split.ratio-nonpositive]."},
{"shape.slice.attribute-length", "attribute",
 "The axes, begin and end of slice have the same length.",
 "len(begin) == len(axes) && len(end) == len(axes)",
 "An IR slice with axes [0, 1], begin [0] and end [2, 2]: error[shape.slice.attribute-length]."},
{"shape.pad.padding-negative", "attribute",
 "Every padding of pad is at least 0.",
 "before >= 0 && after >= 0, for every axis",
 "An IR pad with padding [(0, 0), (-1, 2)]: error[shape.pad.padding-negative]."},

// ---- shape: conditions on extents (symbolic under --dim) ----
{"shape.broadcast.incompatible", "shape",
 "The operands of a binary map combine under its broadcast rule: on every aligned axis the extents are equal or one "
 "is 1 (NumpyRight aligns the trailing axes, NnefLeft the leading ones); under Equal the shapes are identical.",
 "X == Y || X == 1 || Y == 1, for every aligned axis with extents X and Y (Equal: rank(x) == rank(y) && X == Y)",
 "NNL with `preprocess: \"standardize\"` and three preprocess_mean / preprocess_std entries, "
 "`layer input = Input(shape: [32, 32, 3]);`, checked with `nnref check m.nnl --dim input.2=1..8`: the input "
 "[1, 32, 32, input.2] minus the mean [3]: error[shape.broadcast.incompatible], counterexample: input.2 = 2."},
{"shape.add_n.mismatch", "shape",
 "Every input of add_n (NNL Add) has the shape of input 0: the same rank and the same extent on every axis.",
 "rank(x_k) == rank(x_0) && X_k == X_0, for every input k and axis",
 "`layer input = Input(shape: [32, 32, 8]); layer conv = Conv2D(filters: 8, kernel: 3, stride: [2, 1], padding: "
 "\"same\"); layer res = Add();` with `connections { input -> conv; [input, conv] -> res; }`, checked with "
 "`nnref check m.nnl --dim input.0=1..64`: heights input.0 and (input.0 + 1) / 2: error[shape.add_n.mismatch], "
 "counterexample: input.0 = 2."},
{"shape.broadcast_to.incompatible", "shape",
 "Every input extent of broadcast_to is the target extent or 1 (under Equal: the target extent), on the axes "
 "aligned by the broadcast rule.",
 "X == T || X == 1, for every aligned axis (Equal: X == T)",
 "An IR broadcast_to with dims [4, 6] of an input [4, 3]: error[shape.broadcast_to.incompatible]."},
{"shape.matmul.batch-mismatch", "shape",
 "The leading (batch) axes of the matmul operands have equal extents.",
 "A_i == B_i, for every axis i < rank(A) - 2",
 "An IR matmul of [2, 3, 4] and [5, 4, 6]: error[shape.matmul.batch-mismatch] (batch axis 0: 2 and 5)."},
{"shape.matmul.inner-mismatch", "shape",
 "The inner extents of matmul agree after the optional transposes: the last axis of A (second to last with "
 "transpose_a) equals the second to last axis of B (last with transpose_b).",
 "K_A == K_B",
 "An IR matmul of [3, 4] and [5, 6]: error[shape.matmul.inner-mismatch] (inner extents 4 and 5)."},
{"shape.conv.channels-indivisible", "shape",
 "The channel extent C of the conv input is a multiple of groups.",
 "C % groups == 0",
 "An IR conv with groups 4 on an input with 6 channels: error[shape.conv.channels-indivisible]; with the channel "
 "extent a size symbol ranging over 1..64, refuted with the counterexample 1 (NNL's Conv2D has groups 1, which "
 "always holds)."},
{"shape.reduce.empty-axis", "shape",
 "Every axis reduced by mean_reduce, max_reduce or min_reduce has extent at least 1 (an empty group has no mean, "
 "max or min; sum_reduce gives 0).",
 "X >= 1, for every reduced axis",
 "An IR mean_reduce over axis 1 of an input [2, 0, 3]: error[shape.reduce.empty-axis]."},
{"shape.reshape.count-indivisible", "shape",
 "With a -1 in reshape's dims, the product P of the other entries (0 entries copying the input extent) is at least "
 "1 and divides the input's element count.",
 "P >= 1 && (X_0 * X_1 * ... * X_{r-1}) % P == 0",
 "An IR reshape with dims [-1, 5] of an input [2, 3]: error[shape.reshape.count-indivisible]; with dims [-1, 4] of "
 "an input [N, 6], N a size symbol over 1..100: refuted, counterexample N = 1."},
{"shape.reshape.count-mismatch", "shape",
 "Without a -1, the product of reshape's dims (0 entries copying the input extent) equals the input's element "
 "count.",
 "D_0 * D_1 * ... * D_{m-1} == X_0 * X_1 * ... * X_{r-1}",
 "An IR reshape with dims [4, 4] of an input [2, 3]: error[shape.reshape.count-mismatch] (16 and 6 elements)."},
{"shape.concat.extent-mismatch", "shape",
 "Every input of concat (NNL Concat) has the extents of input 0 on every axis but the concat axis.",
 "X_k == X_0, for every input k and every axis other than axis",
 "`layer input = Input(shape: [32, 32, 8]); layer conv = Conv2D(filters: 8, kernel: 3, stride: [2, 1], padding: "
 "\"same\"); layer cat = Concat();` with `connections { input -> conv; [input, conv] -> cat; }`, checked with "
 "`nnref check m.nnl --dim input.0=1..64`: error[shape.concat.extent-mismatch], counterexample: input.0 = 2."},
{"shape.split.extent-indivisible", "shape",
 "The extent of the split axis is a multiple of the sum of the ratios.",
 "X % (r_0 + r_1 + ... + r_{n-1}) == 0",
 "An IR split on axis 1 with ratios [1, 2] of an input [2, 4]: error[shape.split.extent-indivisible] (4 is not a "
 "multiple of 3)."},
{"shape.slice.empty", "shape",
 "Every slice keeps at least one element on each listed axis.",
 "e2 - b2 >= 1, where on an axis of extent X: b2 is begin (plus X when negative) clamped to [0, X], and e2 is X when "
 "end == 0, else end (plus X when negative) clamped to [0, X]",
 "An IR slice with axes [0], begin [3], end [3]: error[shape.slice.empty]; with begin [4], end [0] (to the end) on "
 "an axis whose extent is a size symbol over 1..100: refuted, counterexample 1 (at least 5 is needed)."},
{"shape.pad.reflect-too-wide", "shape",
 "With Reflect, neither padding of an axis exceeds its extent minus 1 (the edge is not repeated, so one reflection "
 "reaches X - 1 positions).",
 "X - 1 >= before && X - 1 >= after, for every axis",
 "An IR Reflect pad of (2, 2) on an axis of extent 2: error[shape.pad.reflect-too-wide]."},
{"shape.pad.replicate-empty", "shape",
 "With Replicate, every axis has an element to repeat.",
 "X >= 1, for every axis",
 "An IR Replicate pad of an input [2, 0]: error[shape.pad.replicate-empty]."},
{"shape.squeeze.extent-not-one", "shape",
 "Every axis squeeze removes has extent 1.",
 "X == 1, for every listed axis",
 "An IR squeeze with axes [1] of an input [2, 3]: error[shape.squeeze.extent-not-one]."},
{"shape.empty-extent", "shape",
 "Every extent of every output and every parameter of every op is at least 1 (checked after each op's own rule).",
 "E >= 1, for every extent E of every output and parameter shape",
 "An IR broadcast_to with dims [2, 0] of an input [2, 1]: the output [2, 0] is empty: error[shape.empty-extent]."},
{"shape.negative-extent", "shape",
 "Every extent of a shape the IR declares (Input and Const dims) or a file holds is at least 0.",
 "E >= 0, for every extent E",
 "An IR Input node declaring dims [1, -3] (a hand-built graph: NNL takes positive extents only): "
 "error[shape.negative-extent] extent -3 of axis 1 in shape [1, -3] is negative."},

// ---- binding: the weights against the shapes the layers imply ----
{"bind.missing", "binding",
 "Every parameter a node requires is in the weights.",
 "an entry (node, role) exists, for every required parameter",
 "A Dense layer fc1 whose weights directory has fc1.weight.npy but no fc1.bias.npy: error[bind.missing] parameter "
 "fc1.bias of shape [128] is missing from the weights."},
{"bind.dtype", "binding",
 "Every parameter holds floating-point data.",
 "dtype is float16, float32 or float64",
 "A fc1.weight.npy stored as int32: error[bind.dtype]."},
{"bind.shape-mismatch", "binding",
 "Every parameter has exactly the shape the layer implies: the same rank and the same extent on every axis.",
 "rank(file) == rank(implied) && F_i == P_i, for every axis i",
 "`layer input = Input(shape: [28, 28, 1]); layer flat = Flatten(); layer fc = Dense(units: 10);` with a "
 "fc.weight.npy of shape [784, 10], checked with `nnref check m.nnl --dim input.0=1..64`: the layer needs "
 "[input.0 * 28, 10]: error[bind.shape-mismatch], counterexample: input.0 = 1."},
{"bind.unused", "binding",
 "Every entry of the weights is used by some layer (a warning, not an error).",
 "some node has the parameter (node, role), for every weights entry",
 "A weights directory holding fc3.weight.npy for a model without a layer fc3: warning[bind.unused] parameter "
 "fc3/weight (.../fc3.weight.npy) is not used by any layer."},

// ---- size: 64-bit bounds and the memory budget ----
{"size.overflow", "size",
 "The element count of every output and parameter shape (and of every shape read from a file) is below 2^63 - 1.",
 "E_0 * E_1 * ... * E_{r-1} < 9223372036854775807, for every output and parameter shape",
 "`layer input = Input(shape: [4, 4, 1]); layer flat = Flatten(); layer fc = Dense(units: 4611686018427387904);`: "
 "the weight [16, 4611686018427387904] has 2^66 elements: error[size.overflow] (constant: decided without Z3)."},
{"size.budget", "size",
 "The bytes of every node output and every parameter, summed, fit the --max-memory budget (default 4G); when "
 "refuted, a note gives the largest admissible size that fits, maximised in the order the --dim options were given.",
 "8 * (count(t_1) + count(t_2) + ... + count(t_n)) <= budget, over every node output and parameter t_i (8 bytes per "
 "element: the f64 evaluation)",
 "`layer input = Input(shape: [1024]); layer fc = Dense(units: 1024);` checked with `nnref check m.nnl --dim "
 "batch=1..100000 --max-memory 16M`: 16384 * batch + 8396800 bytes: error[size.budget], counterexample: batch = "
 "512, located at the node holding the largest tensor, with the note: the largest admissible sizes that fit "
 "(maximised in --dim order): batch = 511."},
};

// The window codes of spec/ops/conv.hpp's spatial_rule: "shape.{f}." + what, for each family.
// Placeholders: {f} the family, {op} the op as the sentence names it, {ir} an IR op name, {layer}
// an NNL layer with a 5x5 window and no padding.
struct WindowRow {
  const char* what;
  const char* kind;
  const char* summary;
  const char* formula;
  const char* example;
};

const WindowRow kWindow[] = {
{"attribute-length", "attribute",
 "The window attributes of {op} have one entry per spatial axis: kernel has at least one entry, and stride, "
 "dilation and (explicit) padding are each empty or as long as kernel.",
 "len(kernel) >= 1 && (len(L) == 0 || len(L) == len(kernel)), for L = stride, dilation, padding",
 "An IR {ir} with kernel [3, 3] and stride [1, 1, 1]: error[shape.{f}.attribute-length] (NNL always gives two "
 "entries)."},
{"input-rank", "structure",
 "The input of {op} has rank len(kernel) + 2: the batch axis, the channel axis and one axis per kernel entry.",
 "rank(x) == len(kernel) + 2",
 "`layer input = Input(shape: [28, 28, 1]); layer flat = Flatten(); layer l = {layer};`: the layer reads the "
 "rank-2 [1, 784]: error[shape.{f}.input-rank] (constant: decided without Z3)."},
{"kernel-nonpositive", "attribute",
 "Every kernel extent of {op} is at least 1.",
 "k >= 1, for every spatial axis",
 "An IR {ir} with kernel [0, 3]: error[shape.{f}.kernel-nonpositive]."},
{"stride-nonpositive", "attribute",
 "Every stride of {op} is at least 1.",
 "s >= 1, for every spatial axis",
 "An IR {ir} with stride [0, 1]: error[shape.{f}.stride-nonpositive]."},
{"dilation-nonpositive", "attribute",
 "Every dilation of {op} is at least 1.",
 "d >= 1, for every spatial axis",
 "An IR {ir} with dilation [1, -1]: error[shape.{f}.dilation-nonpositive]."},
{"padding-negative", "attribute",
 "Every explicit padding of {op} is at least 0.",
 "pad_before >= 0 && pad_after >= 0, for every spatial axis",
 "An IR {ir} with padding [(0, 0), (-1, 0)]: error[shape.{f}.padding-negative]."},
{"extent-overflow", "size",
 "The padded extent of every spatial axis of the input of {op} fits a 64-bit index.",
 "H + pad_before + pad_after < 9223372036854775807, for every spatial axis (same padding: "
 "H + max((ceil(H/sH) - 1) * sH + (kH - 1) * dH + 1 - H, 0) < 9223372036854775807)",
 "An IR {ir} with padding (4611686018427387904, 4611686018427387904) on the height axis: the padded height "
 "saturates at 2^63 - 1: error[shape.{f}.extent-overflow]."},
{"window-exceeds-input", "shape",
 "On every spatial axis the window of {op}, (k - 1) * d + 1, fits the padded input, so every output extent, "
 "(padded - window) / s + 1, is at least 1.",
 "H + pad_before + pad_after >= (kH - 1) * dH + 1, for every spatial axis (valid padding: both pads 0; same "
 "padding: the padded extent is H + max((ceil(H/sH) - 1) * sH + (kH - 1) * dH + 1 - H, 0), ceil(H/sH) being "
 "(H + sH - 1) / sH, and the obligation always holds)",
 "`layer input = Input(shape: [32, 32, 3]); layer l = {layer};` (valid padding) checked with "
 "`nnref check m.nnl --dim input.0=1..100`: error[shape.{f}.window-exceeds-input], counterexample: input.0 = 1 "
 "(the window of height 5 needs input.0 >= 5)."},
};

struct Family {
  const char* f;
  const char* op;
  const char* ir;
  const char* layer;
};

const Family kFamilies[] = {
    {"conv", "a conv", "conv", "Conv2D(filters: 8, kernel: 5)"},
    {"pool", "a pool (max_pool, avg_pool)", "max_pool", "MaxPool2D(kernel: 5)"},
};
// clang-format on

std::string fill(std::string text, const Family& fam) {
  const std::array<std::pair<std::string, std::string>, 4> subst{{
      {"{f}", fam.f}, {"{op}", fam.op}, {"{ir}", fam.ir}, {"{layer}", fam.layer}}};
  for (const auto& [key, value] : subst)
    for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size()))
      text.replace(at, key.size(), value);
  return text;
}

int kind_rank(const std::string& kind) {
  static const char* const order[] = {"structure", "attribute", "shape", "binding", "size"};
  for (int i = 0; i < 5; ++i)
    if (kind == order[i]) return i;
  return 5;
}

std::vector<ObligationEntry> build() {
  std::vector<ObligationEntry> out;
  for (const Row& r : kTable) out.push_back({r.code, r.kind, r.summary, r.formula, r.example});
  for (const Family& fam : kFamilies)
    for (const WindowRow& w : kWindow)
      out.push_back({std::string("shape.") + fam.f + "." + w.what, w.kind, fill(w.summary, fam),
                     fill(w.formula, fam), fill(w.example, fam)});
  // Grouped by kind (the order of docs/obligations.md), table order within a kind.
  std::stable_sort(out.begin(), out.end(), [](const ObligationEntry& a, const ObligationEntry& b) {
    return kind_rank(a.kind) < kind_rank(b.kind);
  });
  return out;
}

// Continuation lines of a field are indented under its first.
std::string indented(const std::string& text, const std::string& indent) {
  std::string out;
  for (char ch : text) {
    out += ch;
    if (ch == '\n') out += indent;
  }
  return out;
}

}  // namespace

const std::vector<ObligationEntry>& obligation_catalogue() {
  static const std::vector<ObligationEntry> catalogue = build();
  return catalogue;
}

const ObligationEntry* find_obligation(std::string_view code) {
  for (const auto& e : obligation_catalogue())
    if (e.code == code) return &e;
  return nullptr;
}

std::string explain(const ObligationEntry& e) {
  return e.code + " (" + e.kind + ")\n" +                      //
         "  " + indented(e.summary, "  ") + "\n" +             //
         "  formula: " + indented(e.formula, "    ") + "\n" +  //
         "  example: " + indented(e.example, "    ") + "\n";
}

}  // namespace nnref
