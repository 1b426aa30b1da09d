// For every obligation code of the catalogue (semantics/catalogue.hpp, docs/obligations.md): a
// minimal model that violates it, checked with check_model (the code, the node, the source line
// and the counterexample are asserted), and one that satisfies it (no error, nothing refuted or
// unknown). Size-dependent codes are violated over size symbols (CheckSettings::dims), and their
// counterexample is the smallest failing size, computed by hand in the comment of each case.
//
// Every node of a model has its own source line, so that a diagnostic's line names its node.
// The last test keeps the table complete: every catalogue code is covered by a case or listed,
// with its reason, in kUnreachable.
#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "checker/check_model.hpp"
#include "semantics/catalogue.hpp"
#include "semantics/graph.hpp"
#include "semantics/op.hpp"
#include "semantics/payload.hpp"

using namespace nnref;

namespace {

constexpr const char* kFile = "m.nnl";
constexpr int kColumn = 5;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

SourceLoc at(int line) { return {kFile, line, kColumn}; }

// A graph, its weights and the check settings, with a small builder.
struct Model {
  Graph g;
  Payload p;
  CheckSettings s;

  int64_t input(const std::string& name, std::vector<int64_t> dims, int line) {
    return g.add(name, InputAttrs{std::move(dims)}, {}, at(line));
  }
  int64_t op(const std::string& name, OpAttrs a, std::vector<int64_t> ins, int line) {
    std::vector<ValueRef> refs;
    for (int64_t i : ins) refs.push_back(ValueRef{i, 0});
    return g.add(name, std::move(a), std::move(refs), at(line));
  }
  void out(int64_t id, int k = 0) {
    g.outputs.push_back({g.nodes[static_cast<size_t>(id)].name + (k ? "#" + std::to_string(k) : ""), ValueRef{id, k}});
  }
  void param(const std::string& node, const std::string& role, const std::vector<int64_t>& dims,
             DType dtype = DType::F32) {
    auto shape = Shape::make(dims);
    REQUIRE(shape.ok());
    const auto count = static_cast<size_t>(shape->count());
    p.set(node, role, ParamEntry{HostTensor{dtype, *shape, std::vector<double>(count, 0.5)},
                                 "weights/" + node + "." + role + ".npy"});
  }
  void dim(const std::string& name, int64_t lo, int64_t hi) { s.dims.push_back({name, lo, hi}); }
};

using Build = std::function<Model()>;

// What the violating model must produce: the first diagnostic with the case's code and this
// severity sits at `node`, `file`:`line` (line 0: no location), with exactly `cex` as its
// counterexample (empty for constant obligations), and, when `note` is not empty, a note
// containing it.
struct Expect {
  Expect(std::string node_, int line_, Assignment cex_ = {}, Severity severity_ = Severity::Error,
         std::string file_ = kFile, std::string note_ = {})
      : node(std::move(node_)), line(line_), cex(std::move(cex_)), severity(severity_), file(std::move(file_)),
        note(std::move(note_)) {}
  std::string node;
  int line = 0;
  Assignment cex;
  Severity severity = Severity::Error;
  std::string file;
  std::string note;
};

struct Case {
  std::string code;
  std::string label;  // tells apart several cases of one code
  Build bad, good;
  Expect expect;
};

// ---------------------------------------------------------------------------------------------
// Builders shared by several cases.

// input (line 1) -> op (line 2), the op's output the graph output.
Build one_op(std::vector<int64_t> in_dims, OpAttrs a, const std::string& name = "op") {
  return [=] {
    Model m;
    const int64_t x = m.input("input", in_dims, 1);
    m.out(m.op(name, a, {x}, 2));
    return m;
  };
}

// input (line 1), relu r (line 2), output r: the well-formed graph of the structure cases.
Model relu_model() {
  Model m;
  const int64_t x = m.input("input", {1, 4}, 1);
  m.out(m.op("r", UnaryAttrs{UnaryOp::Relu}, {x}, 2));
  return m;
}

// Channels-last (NHWC, as NNL) window attributes; empty lists mean the defaults.
ConvAttrs conv_attrs(int64_t out_channels, std::vector<int64_t> kernel, std::vector<int64_t> stride = {},
                     std::vector<int64_t> dilation = {}, std::vector<std::pair<int64_t, int64_t>> padding = {},
                     int64_t groups = 1, PadMode mode = PadMode::Explicit) {
  ConvAttrs a;
  a.out_channels = out_channels;
  a.kernel = std::move(kernel);
  a.stride = std::move(stride);
  a.dilation = std::move(dilation);
  a.padding = std::move(padding);
  a.groups = groups;
  a.pad_mode = mode;
  a.layout = Layout::ChannelsLast;
  return a;
}
PoolAttrs pool_attrs(std::vector<int64_t> kernel, std::vector<int64_t> stride = {}, std::vector<int64_t> dilation = {},
                     std::vector<std::pair<int64_t, int64_t>> padding = {}, PadMode mode = PadMode::Explicit,
                     PoolOp op = PoolOp::Max) {
  PoolAttrs a;
  a.op = op;
  a.kernel = std::move(kernel);
  a.stride = std::move(stride);
  a.dilation = std::move(dilation);
  a.padding = std::move(padding);
  a.pad_mode = mode;
  a.layout = Layout::ChannelsLast;
  return a;
}

// A conv "conv" (line 2) of an input [1, 8, 8, 4] (line 1) unless told, with a weight of shape
// `weight` and the bias when `weight` is not empty.
Build conv(ConvAttrs a, std::vector<int64_t> weight = {}, std::vector<int64_t> in_dims = {1, 8, 8, 4}) {
  return [=] {
    Model m;
    const int64_t x = m.input("input", in_dims, 1);
    m.out(m.op("conv", a, {x}, 2));
    if (!weight.empty()) {
      m.param("conv", "weight", weight);
      if (a.has_bias) m.param("conv", "bias", {a.out_channels});
    }
    return m;
  };
}
// A well-formed conv: 4 filters of 3 x 3 over the 4 channels.
ConvAttrs conv3() { return conv_attrs(4, {3, 3}); }
const std::vector<int64_t> kConv3Weight = {4, 4, 3, 3};

Build pool(PoolAttrs a, std::vector<int64_t> in_dims = {1, 8, 8, 4}) {
  return one_op(std::move(in_dims), a, "pool");
}
PoolAttrs pool3() { return pool_attrs({3, 3}); }

// input [1, 8] (line 1) -> linear "fc" (line 2) with 3 units, and the weights given.
Build linear(LinearAttrs a, bool weight, bool bias, DType weight_type = DType::F32, std::vector<int64_t> in = {1, 8}) {
  return [=] {
    Model m;
    const int64_t x = m.input("input", in, 1);
    m.out(m.op("fc", a, {x}, 2));
    if (weight) m.param("fc", "weight", {in.back(), 3}, weight_type);
    if (bias) m.param("fc", "bias", {3});
    return m;
  };
}

// Two inputs a (line 1) and b (line 2) -> a binary op "op" (line 3).
Build two_inputs(std::vector<int64_t> a_dims, std::vector<int64_t> b_dims, OpAttrs a,
                 std::vector<DimRange> dims = {}, std::vector<std::string> assume = {}) {
  return [=] {
    Model m;
    const int64_t x = m.input("a", a_dims, 1);
    const int64_t y = m.input("b", b_dims, 2);
    m.out(m.op("op", a, {x, y}, 3));
    m.s.dims = dims;
    m.s.assumptions = assume;
    return m;
  };
}

// one_op over a symbolic input: `dims` ranges, `assume` assumptions.
Build sym_op(std::vector<int64_t> in_dims, OpAttrs a, std::vector<DimRange> dims, std::vector<std::string> assume = {},
             const std::string& name = "op") {
  return [=] {
    Model m = one_op(in_dims, a, name)();
    m.s.dims = dims;
    m.s.assumptions = assume;
    return m;
  };
}

constexpr int64_t kTwo60 = int64_t{1} << 60;
constexpr int64_t kTwo62 = int64_t{1} << 62;

// ---------------------------------------------------------------------------------------------
// The cases.

std::vector<Case> cases() {
  std::vector<Case> t;
  const auto add = [&](std::string code, std::string label, Build bad, Build good, Expect e) {
    t.push_back(Case{std::move(code), std::move(label), std::move(bad), std::move(good), std::move(e)});
  };
  const auto attr = [&](std::string code, std::string label, Build bad, Build good, std::string node = "op") {
    add(std::move(code), std::move(label), std::move(bad), std::move(good), Expect{std::move(node), 2});
  };
  const Build relu_ok = [] { return relu_model(); };

  // ----- structure: check_structure, before any Z3 work ------------------------------------
  add("graph.id", "node at position 1 carries id 5",
      [] {
        Model m;
        const int64_t x = m.input("input", {1, 4}, 1);
        m.op("r", UnaryAttrs{UnaryOp::Relu}, {x}, 2);
        m.g.nodes.back().id = 5;
        m.g.outputs.push_back({"y", ValueRef{1, 0}});
        return m;
      },
      relu_ok, {"r", 2});
  add("graph.name-empty", "a relu named \"\"",
      [] {
        Model m;
        const int64_t x = m.input("input", {1, 4}, 1);
        m.out(m.op("", UnaryAttrs{UnaryOp::Relu}, {x}, 2));
        return m;
      },
      relu_ok, {"", 2});
  add("graph.name-duplicate", "two nodes named r: reported at the second",
      [] {
        Model m;
        const int64_t x = m.input("input", {1, 4}, 1);
        const int64_t r = m.op("r", UnaryAttrs{UnaryOp::Relu}, {x}, 2);
        m.out(m.op("r", UnaryAttrs{UnaryOp::Exp}, {r}, 3));
        return m;
      },
      [] {
        Model m;
        const int64_t x = m.input("input", {1, 4}, 1);
        const int64_t r = m.op("r", UnaryAttrs{UnaryOp::Relu}, {x}, 2);
        m.out(m.op("e", UnaryAttrs{UnaryOp::Exp}, {r}, 3));
        return m;
      },
      {"r", 3});
  add("graph.arity", "an add with one input",
      [] {
        Model m;
        const int64_t x = m.input("input", {1, 4}, 1);
        m.out(m.op("add", BinaryAttrs{BinaryOp::Add}, {x}, 2));
        return m;
      },
      [] {
        Model m;
        const int64_t x = m.input("input", {1, 4}, 1);
        m.out(m.op("add", BinaryAttrs{BinaryOp::Add}, {x, x}, 2));
        return m;
      },
      {"add", 2});
  add("graph.topology", "a relu reading itself",
      [] {
        Model m;
        m.input("input", {1, 4}, 1);
        m.out(m.op("r", UnaryAttrs{UnaryOp::Relu}, {1}, 2));
        return m;
      },
      relu_ok, {"r", 2});
  add("graph.no-outputs", "an empty output list",
      [] {
        Model m = relu_model();
        m.g.outputs.clear();
        return m;
      },
      relu_ok, {"", 0, {}, Severity::Error, ""});
  add("graph.output", "structure: output y refers to node 7 of a 2-node graph",
      [] {
        Model m = relu_model();
        m.g.outputs = {{"y", ValueRef{7, 0}}};
        return m;
      },
      relu_ok, {"", 0, {}, Severity::Error, ""});
  add("graph.output", "after the shapes: output y refers to output 1 of a relu, which has one",
      [] {
        Model m = relu_model();
        m.g.outputs = {{"y", ValueRef{1, 1}}};
        return m;
      },
      relu_ok, {"", 0, {}, Severity::Error, ""});

  // ----- structure: ranks and axis indices ---------------------------------------------------
  attr("shape.linear.input-rank", "linear of a rank-4 input", linear(LinearAttrs{3}, false, false, DType::F32, {1, 4, 4, 2}),
       linear(LinearAttrs{3}, true, true), "fc");
  add("shape.matmul.rank", "matmul of [3] and [3, 4]", two_inputs({3}, {3, 4}, MatMulAttrs{}),
      two_inputs({2, 3}, {3, 4}, MatMulAttrs{}), {"op", 3});
  add("shape.matmul.rank-mismatch", "matmul of [2, 3, 4] and [4, 5]", two_inputs({2, 3, 4}, {4, 5}, MatMulAttrs{}),
      two_inputs({2, 3, 4}, {2, 4, 5}, MatMulAttrs{}), {"op", 3});
  attr("shape.broadcast_to.rank", "broadcast_to [4] of [2, 4]", one_op({2, 4}, BroadcastToAttrs{{4}}),
       one_op({2, 4}, BroadcastToAttrs{{3, 2, 4}}));
  attr("shape.axis.out-of-range", "softmax over axis 4 of a rank-4 input", one_op({1, 8, 8, 3}, SoftmaxAttrs{{4}}),
       one_op({1, 8, 8, 3}, SoftmaxAttrs{{3}}));
  attr("shape.axis.out-of-range", "batch_normalization channel axis -5 of a rank-4 input",
       one_op({1, 8, 8, 3}, BatchNormAttrs{1e-5, -5}), [] {
         Model m = one_op({1, 8, 8, 3}, BatchNormAttrs{1e-5, -1})();
         for (const char* role : {"mean", "variance", "scale", "offset"}) m.param("op", role, {3});
         return m;
       });
  attr("shape.axis.duplicate", "sum_reduce over axes [1, -3] of a rank-4 input",
       one_op({1, 8, 8, 3}, ReduceAttrs{ReduceOp::Sum, {1, -3}}), one_op({1, 8, 8, 3}, ReduceAttrs{ReduceOp::Sum, {1, 2}}));
  attr("shape.reshape.zero-out-of-range", "reshape [0, 0, 0] of a rank-2 input", one_op({2, 3}, ReshapeAttrs{{0, 0, 0}}),
       one_op({2, 3}, ReshapeAttrs{{0, 0}}));
  attr("shape.axis.out-of-range", "flatten axis 5 of a rank-4 input", one_op({1, 8, 8, 3}, FlattenAttrs{5}),
       one_op({1, 8, 8, 3}, FlattenAttrs{4}));
  attr("shape.transpose.invalid-permutation", "perm [0, 2, 2, 1]", one_op({1, 8, 8, 3}, TransposeAttrs{{0, 2, 2, 1}}),
       one_op({1, 8, 8, 3}, TransposeAttrs{{0, 3, 1, 2}}));
  add("shape.concat.rank-mismatch", "concat of [1, 8, 8, 3] and its flattening",
      [] {
        Model m;
        const int64_t x = m.input("input", {1, 8, 8, 3}, 1);
        const int64_t f = m.op("flat", FlattenAttrs{1}, {x}, 2);
        m.out(m.op("cat", ConcatAttrs{0}, {x, f}, 3));
        return m;
      },
      [] {
        Model m;
        const int64_t x = m.input("input", {1, 8, 8, 3}, 1);
        const int64_t f = m.op("flat", FlattenAttrs{1}, {x}, 2);
        m.out(m.op("cat", ConcatAttrs{0}, {f, f}, 3));
        return m;
      },
      {"cat", 3});
  add("shape.axis.out-of-range", "concat on axis 4 of two rank-4 inputs",
      two_inputs({1, 8, 8, 3}, {1, 8, 8, 3}, ConcatAttrs{4}), two_inputs({1, 8, 8, 3}, {1, 8, 8, 3}, ConcatAttrs{-1}),
      {"op", 3});
  attr("shape.axis.out-of-range", "split on axis 2 of a rank-2 input", one_op({2, 4}, SplitAttrs{2, {1}}),
       one_op({2, 4}, SplitAttrs{-1, {1}}));
  attr("shape.axis.out-of-range", "slice of axis 3 of a rank-2 input", one_op({2, 4}, SliceAttrs{{3}, {0}, {1}}),
       one_op({2, 4}, SliceAttrs{{1}, {0}, {1}}));
  attr("shape.axis.duplicate", "slice of axes [0, -2] of a rank-2 input",
       one_op({2, 4}, SliceAttrs{{0, -2}, {0, 0}, {1, 1}}), one_op({2, 4}, SliceAttrs{{0, -1}, {0, 0}, {1, 1}}));
  attr("shape.pad.attribute-length", "one padding pair for a rank-2 input", one_op({2, 4}, PadAttrs{{{1, 1}}}),
       one_op({2, 4}, PadAttrs{{{0, 0}, {1, 1}}}));
  attr("shape.axis.out-of-range", "squeeze axis 2 of a rank-2 input", one_op({1, 4}, SqueezeAttrs{{2}}),
       one_op({1, 4}, SqueezeAttrs{{-2}}));
  attr("shape.axis.duplicate", "squeeze axes [1, -1] of a rank-2 input", one_op({2, 1}, SqueezeAttrs{{1, -1}}),
       one_op({2, 1}, SqueezeAttrs{{1}}));
  attr("shape.axis.out-of-range", "unsqueeze at 3 of a rank-2 input (output rank 3)",
       one_op({2, 4}, UnsqueezeAttrs{{3}}), one_op({2, 4}, UnsqueezeAttrs{{2}}));
  attr("shape.axis.duplicate", "unsqueeze at [0, -4] of a rank-2 input (output rank 4: both axis 0)",
       one_op({2, 4}, UnsqueezeAttrs{{0, -4}}), one_op({2, 4}, UnsqueezeAttrs{{0, -1}}));
  attr("shape.window.input-rank", "a 2-D conv of a rank-3 input", conv(conv3(), {}, {1, 8, 4}), conv(conv3(), kConv3Weight),
       "conv");
  attr("shape.window.input-rank", "a 2-D max_pool of a rank-3 input", pool(pool3(), {1, 8, 4}), pool(pool3()), "pool");

  // ----- attributes --------------------------------------------------------------------------
  attr("attr.unary.alpha", "leaky_relu with alpha infinity", one_op({1, 4}, UnaryAttrs{UnaryOp::LeakyRelu, kInf}),
       one_op({1, 4}, UnaryAttrs{UnaryOp::LeakyRelu, 0.1}));
  attr("attr.unary.alpha", "elu with alpha NaN", one_op({1, 4}, UnaryAttrs{UnaryOp::Elu, kNaN}),
       one_op({1, 4}, UnaryAttrs{UnaryOp::Elu, 1.0}));
  attr("attr.linear.units", "linear with 0 units", linear(LinearAttrs{0}, false, false), linear(LinearAttrs{3}, true, true),
       "fc");
  attr("attr.broadcast_to.negative-extent", "broadcast_to [2, -1]", one_op({2, 1}, BroadcastToAttrs{{2, -1}}),
       one_op({2, 1}, BroadcastToAttrs{{2, 5}}));
  {
    const auto bn = [](double eps) {
      return [eps] {
        Model m = one_op({1, 4, 4, 3}, BatchNormAttrs{eps, -1})();
        for (const char* role : {"mean", "variance", "scale", "offset"}) m.param("op", role, {3});
        return m;
      };
    };
    attr("attr.epsilon.invalid", "epsilon -1", bn(-1.0), bn(1e-5));
    attr("attr.epsilon.invalid", "epsilon infinity", bn(kInf), bn(0.0));
  }
  attr("attr.epsilon.invalid", "epsilon NaN", one_op({1, 4, 3}, LayerNormAttrs{{-1}, kNaN}),
       one_op({1, 4, 3}, LayerNormAttrs{{-1}, 1e-5}));
  attr("attr.conv.groups-nonpositive", "groups 0",
       conv(conv_attrs(4, {3, 3}, {}, {}, {}, 0)), conv(conv3(), kConv3Weight), "conv");
  attr("attr.conv.out-channels-nonpositive", "out_channels 0", conv(conv_attrs(0, {3, 3})),
       conv(conv3(), kConv3Weight), "conv");
  attr("attr.conv.out-channels-indivisible", "out_channels 6, groups 4 (8 input channels)",
       conv(conv_attrs(6, {3, 3}, {}, {}, {}, 4), {6, 2, 3, 3}, {1, 8, 8, 8}),
       conv(conv_attrs(8, {3, 3}, {}, {}, {}, 4), {8, 2, 3, 3}, {1, 8, 8, 8}), "conv");
  attr("attr.axes.empty", "sum_reduce with axes []", one_op({1, 4, 3}, ReduceAttrs{ReduceOp::Sum, {}}),
       one_op({1, 4, 3}, ReduceAttrs{ReduceOp::Sum, {-1}}));
  attr("attr.axes.empty", "axes []", one_op({1, 4, 3}, LayerNormAttrs{{}, 1e-5}),
       one_op({1, 4, 3}, LayerNormAttrs{{1, 2}, 1e-5}));
  attr("attr.axes.empty", "axes []", one_op({1, 4, 3}, SoftmaxAttrs{{}}), one_op({1, 4, 3}, SoftmaxAttrs{{-1}}));
  attr("attr.reshape.negative-extent", "dims [2, -3]", one_op({2, 3}, ReshapeAttrs{{2, -3}}),
       one_op({2, 3}, ReshapeAttrs{{3, -1}}));
  attr("attr.reshape.multiple-inferred", "dims [-1, -1]", one_op({2, 3}, ReshapeAttrs{{-1, -1}}),
       one_op({2, 3}, ReshapeAttrs{{-1, 2}}));
  attr("attr.split.ratio-nonpositive", "ratios [1, 0]", one_op({2, 4}, SplitAttrs{1, {1, 0}}),
       one_op({2, 4}, SplitAttrs{1, {1, 1}}));
  attr("attr.split.ratio-nonpositive", "no ratio", one_op({2, 4}, SplitAttrs{1, {}}), one_op({2, 4}, SplitAttrs{1, {4}}));
  attr("attr.slice.attribute-length", "axes [0, 1], begin [0], end [2, 2]",
       one_op({2, 4}, SliceAttrs{{0, 1}, {0}, {2, 2}}), one_op({2, 4}, SliceAttrs{{0, 1}, {0, 1}, {2, 2}}));
  attr("attr.pad.padding-negative", "padding (-1, 2) on axis 1", one_op({2, 4}, PadAttrs{{{0, 0}, {-1, 2}}}),
       one_op({2, 4}, PadAttrs{{{0, 0}, {1, 2}}}));

  // The window attributes of conv and pool (same rule, two families).
  attr("attr.window.attribute-length", "kernel [3, 3], stride [1, 1, 1]",
       conv(conv_attrs(4, {3, 3}, {1, 1, 1})),
       conv(conv_attrs(4, {3, 3}, {1, 1}), kConv3Weight), "conv");
  attr("attr.window.attribute-length", "kernel []", conv(conv_attrs(4, {})),
       conv(conv3(), kConv3Weight), "conv");
  attr("attr.window.kernel-nonpositive", "kernel [0, 3]", conv(conv_attrs(4, {0, 3})),
       conv(conv3(), kConv3Weight), "conv");
  attr("attr.window.stride-nonpositive", "stride [0, 1]",
       conv(conv_attrs(4, {3, 3}, {0, 1})),
       conv(conv_attrs(4, {3, 3}, {2, 1}), kConv3Weight), "conv");
  attr("attr.window.dilation-nonpositive", "dilation [1, -1]",
       conv(conv_attrs(4, {3, 3}, {}, {1, -1})),
       conv(conv_attrs(4, {3, 3}, {}, {1, 2}), kConv3Weight), "conv");
  attr("attr.window.padding-negative", "padding [(0, 0), (-1, 0)]",
       conv(conv_attrs(4, {3, 3}, {}, {}, {{0, 0}, {-1, 0}})),
       conv(conv_attrs(4, {3, 3}, {}, {}, {{0, 0}, {1, 0}}), kConv3Weight), "conv");
  attr("attr.window.attribute-length", "kernel [3, 3], stride [1, 1, 1]",
       pool(pool_attrs({3, 3}, {1, 1, 1})), pool(pool_attrs({3, 3}, {1, 1})),
       "pool");
  attr("attr.window.kernel-nonpositive", "kernel [0, 3]", pool(pool_attrs({0, 3})), pool(pool3()), "pool");
  attr("attr.window.stride-nonpositive", "stride [0, 1]", pool(pool_attrs({3, 3}, {0, 1})),
       pool(pool_attrs({3, 3}, {2, 1})), "pool");
  attr("attr.window.dilation-nonpositive", "dilation [1, -1]", pool(pool_attrs({3, 3}, {}, {1, -1})),
       pool(pool_attrs({3, 3}, {}, {1, 2})), "pool");
  attr("attr.window.padding-negative", "padding [(0, 0), (-1, 0)]",
       pool(pool_attrs({3, 3}, {}, {}, {{0, 0}, {-1, 0}}, PadMode::Explicit, PoolOp::Avg)),
       pool(pool_attrs({3, 3}, {}, {}, {{0, 0}, {1, 0}}, PadMode::Explicit, PoolOp::Avg)), "pool");

  // ----- shape: extents, symbolic where they can vary ----------------------------------------
  // input [1, 4, 4, C], C = input.2 over 1..8, minus a Const mean [3] (NumPy rule): C must be 1
  // or 3, so the smallest failing C is 2.
  {
    const auto standardize = [](std::vector<std::string> assume) {
      return [assume] {
        Model m;
        const int64_t x = m.input("input", {1, 4, 4, 3}, 1);
        const int64_t mean = m.op("mean", ConstAttrs{{3}}, {}, 2);
        m.param("mean", "value", {3});
        m.out(m.op("sub", BinaryAttrs{BinaryOp::Sub, Broadcast::NumpyRight}, {x, mean}, 3));
        m.dim("input.2", 1, 8);
        m.s.assumptions = assume;
        return m;
      };
    };
    add("shape.broadcast.incompatible", "[1, 4, 4, input.2] - [3], input.2 = 1..8", standardize({}),
        standardize({"input.2 == 3 || input.2 == 1"}), {"sub", 3, {{"input.2", 2}}});
  }
  // Equal rule: the ranks differ (constant).
  add("shape.broadcast.incompatible", "Equal rule, ranks 2 and 3",
      two_inputs({1, 4}, {1, 1, 4}, BinaryAttrs{BinaryOp::Mul, Broadcast::Equal}),
      two_inputs({1, 4}, {1, 4}, BinaryAttrs{BinaryOp::Mul, Broadcast::Equal}), {"op", 3});
  // add_n of a [1, a.0, 4] and b [1, b.0, 4], both over 1..100: minimised in --dim order, a.0 = 1
  // and then the smallest b.0 != 1.
  add("shape.add_n.mismatch", "a.0 and b.0 independent",
      two_inputs({1, 5, 4}, {1, 5, 4}, AddNAttrs{}, {{"a.0", 1, 100}, {"b.0", 1, 100}}),
      two_inputs({1, 5, 4}, {1, 5, 4}, AddNAttrs{}, {{"a.0", 1, 100}, {"b.0", 1, 100}}, {"a.0 == b.0"}),
      {"op", 3, {{"a.0", 1}, {"b.0", 2}}});
  // The same with the --dim options in the other order: b.0 is minimised first.
  add("shape.add_n.mismatch", "a.0 and b.0 independent, --dim b.0 first",
      two_inputs({1, 5, 4}, {1, 5, 4}, AddNAttrs{}, {{"b.0", 1, 100}, {"a.0", 1, 100}}),
      two_inputs({1, 5, 4}, {1, 5, 4}, AddNAttrs{}, {{"b.0", 1, 100}, {"a.0", 1, 100}}, {"a.0 == b.0"}),
      {"op", 3, {{"b.0", 1}, {"a.0", 2}}});
  // broadcast_to [1, 6] of [1, x.0], x.0 over 1..100: x.0 must be 1 or 6, so 2 fails first.
  add("shape.broadcast_to.incompatible", "[1, input.0] to [1, 6]",
      sym_op({1, 3}, BroadcastToAttrs{{1, 6}}, {{"input.0", 1, 100}}),
      sym_op({1, 3}, BroadcastToAttrs{{1, 6}}, {{"input.0", 1, 100}}, {"input.0 == 1 || input.0 == 6"}),
      {"op", 2, {{"input.0", 2}}});
  // matmul of a [1, a.0, 3, 4] and b [1, 5, 4, 6]: batch axis 1 needs a.0 == 5.
  add("shape.matmul.batch-mismatch", "batch axis a.0 against 5",
      two_inputs({1, 5, 3, 4}, {1, 5, 4, 6}, MatMulAttrs{}, {{"a.0", 1, 100}}),
      two_inputs({1, 5, 3, 4}, {1, 5, 4, 6}, MatMulAttrs{}, {{"a.0", 1, 100}}, {"a.0 == 5"}),
      {"op", 3, {{"a.0", 1}}});
  // matmul of a [1, 3, a.1] and b [1, 5, 6]: the inner extents need a.1 == 5.
  add("shape.matmul.inner-mismatch", "inner extent a.1 against 5",
      two_inputs({1, 3, 5}, {1, 5, 6}, MatMulAttrs{}, {{"a.1", 1, 100}}),
      two_inputs({1, 3, 5}, {1, 5, 6}, MatMulAttrs{}, {{"a.1", 1, 100}}, {"a.1 == 5"}), {"op", 3, {{"a.1", 1}}});
  // conv with groups 4 over [1, 8, 8, C], C = input.2 over 4..100: C % 4 == 0 first fails at 5.
  {
    const auto grouped = [](std::vector<std::string> assume) {
      return [assume] {
        Model m = conv(conv_attrs(4, {1, 1}, {}, {}, {}, 4), {4, 2, 1, 1}, {1, 8, 8, 8})();
        m.dim("input.2", 4, 100);
        m.s.assumptions = assume;
        return m;
      };
    };
    add("shape.conv.channels-indivisible", "groups 4, channels input.2 = 4..100", grouped({}),
        grouped({"input.2 == 8"}), {"conv", 2, {{"input.2", 5}}});
  }
  // mean_reduce over an axis of extent 0. A --dim extent is at least 1, so only a declared 0
  // (itself refuted at the input as shape.empty-extent, a constant fact) reaches the reduction.
  // reshape [-1, 4] of [1, N, 6]: 6 * N % 4 == 0 needs N even.
  add("shape.reshape.count-indivisible", "[-1, 4] of [1, input.0, 6]",
      sym_op({1, 2, 6}, ReshapeAttrs{{-1, 4}}, {{"input.0", 1, 100}}),
      sym_op({1, 2, 6}, ReshapeAttrs{{-1, 4}}, {{"input.0", 1, 100}}, {"input.0 % 2 == 0"}),
      {"op", 2, {{"input.0", 1}}});
  // reshape [1, 24] of [1, N, 6]: 6 * N == 24 needs N == 4; [1, 0, 2, 3] holds for every N.
  add("shape.reshape.count-mismatch", "[1, 24] of [1, input.0, 6]",
      sym_op({1, 4, 6}, ReshapeAttrs{{1, 24}}, {{"input.0", 1, 100}}),
      sym_op({1, 4, 6}, ReshapeAttrs{{1, 0, 2, 3}}, {{"input.0", 1, 100}}), {"op", 2, {{"input.0", 1}}});
  // concat on the channel axis of input [1, H, 8, 8] and its max_pool with stride [2, 1] and
  // same padding, of height ceil(H / 2): equal only for H = 1, so over 1..64 H = 2 fails first.
  {
    const auto cat = [](int64_t stride) {
      return [stride] {
        Model m;
        const int64_t x = m.input("input", {1, 8, 8, 8}, 1);
        const int64_t p = m.op("pool",
                               pool_attrs({3, 3}, {stride, 1}, {}, {}, PadMode::SameUpper),
                               {x}, 2);
        m.out(m.op("cat", ConcatAttrs{3}, {x, p}, 3));
        m.dim("input.0", 1, 64);
        return m;
      };
    };
    add("shape.concat.extent-mismatch", "input and its stride-2 same pool", cat(2), cat(1),
        {"cat", 3, {{"input.0", 2}}});
  }
  // split on axis 1 of [1, N, 4] with ratios [1, 3]: N % 4 == 0; over 4..100, 5 fails first.
  {
    const auto split = [](std::vector<std::string> assume) {
      return [assume] {
        Model m;
        const int64_t x = m.input("input", {1, 8, 4}, 1);
        const int64_t s = m.op("split", SplitAttrs{1, {1, 3}}, {x}, 2);
        m.out(s, 0);
        m.out(s, 1);
        m.dim("input.0", 4, 100);
        m.s.assumptions = assume;
        return m;
      };
    };
    add("shape.split.extent-indivisible", "ratios [1, 3] of input.0 = 4..100", split({}), split({"input.0 % 4 == 0"}),
        {"split", 2, {{"input.0", 5}}});
  }
  // slice [4, end) of axis 1 of [1, N, 3]: needs N >= 5.
  add("shape.slice.empty", "[4, end) of input.0 = 1..100",
      sym_op({1, 8, 3}, SliceAttrs{{1}, {4}, {0}}, {{"input.0", 1, 100}}),
      sym_op({1, 8, 3}, SliceAttrs{{1}, {4}, {0}}, {{"input.0", 5, 100}}), {"op", 2, {{"input.0", 1}}});
  // reflect pad (2, 2) of axis 1 of [1, N, 3]: needs N - 1 >= 2.
  add("shape.pad.reflect-too-wide", "(2, 2) on input.0 = 1..100",
      sym_op({1, 8, 3}, PadAttrs{{{0, 0}, {2, 2}, {0, 0}}, PadBorder::Reflect}, {{"input.0", 1, 100}}),
      sym_op({1, 8, 3}, PadAttrs{{{0, 0}, {2, 2}, {0, 0}}, PadBorder::Reflect}, {{"input.0", 3, 100}}),
      {"op", 2, {{"input.0", 1}}});
  // Replicate of an empty axis: as for the reductions, only a declared extent 0 is empty.
  // squeeze axis 1 of [1, N, 3]: N == 1, so 2 fails first.
  add("shape.squeeze.extent-not-one", "axis 1 of extent input.0 = 1..100",
      sym_op({1, 1, 3}, SqueezeAttrs{{1}}, {{"input.0", 1, 100}}),
      sym_op({1, 1, 3}, SqueezeAttrs{{1}}, {{"input.0", 1, 100}}, {"input.0 == 1"}), {"op", 2, {{"input.0", 2}}});
  // The catalogue's example: broadcast_to [1, 0] of [1, 1] (constant).
  attr("shape.empty-extent", "broadcast_to [1, 0]", one_op({1, 1}, BroadcastToAttrs{{1, 0}}),
       one_op({1, 1}, BroadcastToAttrs{{1, 2}}));
  // Symbolic: the slice [4, end) of [1, N, 3] has the extent N - min(4, N), empty for N <= 4. With
  // N over 1..4 the slice's own obligation (the same predicate) holds for no admissible size, so
  // it is not assumed afterwards and the output's extent is refuted as well, first at N = 1.
  add("shape.empty-extent", "the output of slice [4, end) of input.0 = 1..4",
      sym_op({1, 8, 3}, SliceAttrs{{1}, {4}, {0}}, {{"input.0", 1, 4}}),
      sym_op({1, 8, 3}, SliceAttrs{{1}, {4}, {0}}, {{"input.0", 5, 100}}),
      {"op", 2, {{"input.0", 1}}, Severity::Error, kFile, "fails for every size"});
  // A valid 5 x 5 conv over [1, H, 32, 3]: needs H >= 5.
  {
    const auto conv5 = [](int64_t lo) {
      return [lo] {
        Model m = conv(conv_attrs(8, {5, 5}, {}, {}, {}, 1, PadMode::Valid), {8, 3, 5, 5},
                       {1, 32, 32, 3})();
        m.dim("input.0", lo, 100);
        return m;
      };
    };
    add("shape.window.exceeds-input", "kernel 5, input.0 = 1..100", conv5(1), conv5(5),
        {"conv", 2, {{"input.0", 1}}});
    // Same padding always fits the window: proved over the whole range.
    add("shape.window.exceeds-input", "kernel 5: valid against same padding, input.0 = 1..100", conv5(1), [] {
      Model m = conv(conv_attrs(8, {5, 5}, {2, 2}, {}, {}, 1, PadMode::SameUpper), {8, 3, 5, 5}, {1, 32, 32, 3})();
      m.dim("input.0", 1, 100);
      return m;
    }, {"conv", 2, {{"input.0", 1}}});
  }
  // A 3 x 3 conv with dilation 2 (window 5) and padding (1, 0) on the height: needs H + 1 >= 5.
  {
    const auto dilated = [](int64_t lo) {
      return [lo] {
        Model m = conv(conv_attrs(4, {3, 3}, {}, {2, 1}, {{1, 0}, {0, 0}}),
                       kConv3Weight)();
        m.dim("input.0", lo, 100);
        return m;
      };
    };
    add("shape.window.exceeds-input", "dilation 2, padding (1, 0), input.0 = 2..100", dilated(2), dilated(4),
        {"conv", 2, {{"input.0", 2}}});
  }
  add("shape.window.exceeds-input", "kernel 5, input.0 = 1..100",
      sym_op({1, 32, 32, 3}, pool_attrs({5, 5}, {}, {}, {}, PadMode::Valid),
             {{"input.0", 1, 100}}, {}, "pool"),
      sym_op({1, 32, 32, 3}, pool_attrs({5, 5}, {}, {}, {}, PadMode::Valid),
             {{"input.0", 5, 100}}, {}, "pool"),
      {"pool", 2, {{"input.0", 1}}});

  // ----- binding -----------------------------------------------------------------------------
  attr("bind.missing", "fc without its bias", linear(LinearAttrs{3}, true, false), linear(LinearAttrs{3}, true, true), "fc");
  attr("bind.dtype", "fc.weight of int32", linear(LinearAttrs{3}, true, true, DType::I32),
       linear(LinearAttrs{3}, true, true, DType::F64), "fc");
  // input [1, H, 28, 1] -> flatten -> linear with a weight [784, 10]: needs 28 * H == 784.
  {
    const auto mnist = [](std::vector<std::string> assume) {
      return [assume] {
        Model m;
        const int64_t x = m.input("input", {1, 28, 28, 1}, 1);
        const int64_t f = m.op("flat", FlattenAttrs{1}, {x}, 2);
        m.out(m.op("fc", LinearAttrs{10}, {f}, 3));
        m.param("fc", "weight", {784, 10});
        m.param("fc", "bias", {10});
        m.dim("input.0", 1, 64);
        m.s.assumptions = assume;
        return m;
      };
    };
    add("bind.shape-mismatch", "weight [784, 10] for input.0 = 1..64", mnist({}), mnist({"input.0 == 28"}),
        {"fc", 3, {{"input.0", 1}}});
  }
  add("bind.shape-mismatch", "a bias of rank 2 (constant)",
      [] {
        Model m = linear(LinearAttrs{3}, true, false)();
        m.param("fc", "bias", {1, 3});
        return m;
      },
      linear(LinearAttrs{3}, true, true), {"fc", 2});
  // A weights entry no node has: a warning, located at the entry's file.
  add("bind.unused", "weights for a node ghost",
      [] {
        Model m = relu_model();
        m.param("ghost", "weight", {2});
        return m;
      },
      relu_ok, {"", 0, {}, Severity::Warning, "weights/ghost.weight.npy"});

  // ----- size --------------------------------------------------------------------------------
  // input [1, H, 2^60]: H * 2^60 < 2^63 - 1 needs H <= 7. One byte per element and no budget, so
  // that only the count is in question.
  {
    const auto big = [](int64_t hi) {
      return [hi] {
        Model m;
        m.out(m.input("input", {1, 1, kTwo60}, 1));
        m.dim("input.0", 1, hi);
        m.s.scalar_size = 1;
        m.s.budget = std::numeric_limits<int64_t>::max();
        return m;
      };
    };
    add("size.overflow", "[1, input.0, 2^60], input.0 = 1..100", big(100), big(7), {"input", 1, {{"input.0", 8}}});
  }
  // input [batch, 64] -> linear 64 units: 8 * (64 b + 64 b + 64 * 64 + 64) = 1024 b + 33280 bytes
  // fit 65536 for b <= 31. At b = 32 the largest tensor is fc's weight (32768 bytes).
  {
    const auto fc = [](int64_t hi) {
      return [hi] {
        Model m;
        const int64_t x = m.input("input", {1, 64}, 1);
        m.out(m.op("fc", LinearAttrs{64}, {x}, 2));
        m.param("fc", "weight", {64, 64});
        m.param("fc", "bias", {64});
        m.dim("batch", 1, hi);
        m.s.budget = 65536;
        return m;
      };
    };
    add("size.budget", "batch = 1..100000 under 64K", fc(100000), fc(31),
        {"fc", 2, {{"batch", 32}}, Severity::Error, kFile, "batch = 31"});
  }
  // A padding (2^62, 2^62 - 100) on the height: H + 2^63 - 100 < 2^63 - 1 needs H <= 98. The
  // stride 2^62 keeps the output small.
  {
    const ConvAttrs c = conv_attrs(1, {1, 1}, {kTwo62, 1}, {}, {{kTwo62, kTwo62 - 100}, {0, 0}});
    const auto wide = [c](int64_t hi) {
      return [c, hi] {
        Model m = conv(c, {1, 1, 1, 1}, {1, 8, 4, 1})();
        m.dim("input.0", 1, hi);
        return m;
      };
    };
    add("size.window.extent-overflow", "padding (2^62, 2^62 - 100), input.0 = 1..100", wide(100), wide(98),
        {"conv", 2, {{"input.0", 99}}});
    const PoolAttrs p = pool_attrs({1, 1}, {kTwo62, 1}, {}, {{kTwo62, kTwo62 - 100}, {0, 0}});
    add("size.window.extent-overflow", "padding (2^62, 2^62 - 100), input.0 = 1..100",
        sym_op({1, 8, 4, 1}, p, {{"input.0", 1, 100}}, {}, "pool"),
        sym_op({1, 8, 4, 1}, p, {{"input.0", 1, 98}}, {}, "pool"), {"pool", 2, {{"input.0", 99}}});
  }
  return t;
}

// A node reading an output its producer lacks, and a negative declared extent: checked before the
// shape rules can say anything about the node.
std::vector<Case> reference_and_extent_cases() {
  std::vector<Case> t;
  // Node r reads output 1 of an Input, which has one output.
  t.push_back(Case{"graph.output-index", "a relu reading output 1 of the input",
                   [] {
                     Model m;
                     const int64_t x = m.input("input", {1, 4}, 1);
                     m.out(m.g.add("r", UnaryAttrs{UnaryOp::Relu}, {ValueRef{x, 1}}, at(2)));
                     return m;
                   },
                   [] { return relu_model(); }, Expect{"r", 2}});
  // extent >= 0 is checked before extent != 0, so a negative extent is named as such.
  t.push_back(Case{"shape.negative-extent", "an Input declaring [1, -3]", one_op({1, -3}, UnaryAttrs{UnaryOp::Relu}),
                   one_op({1, 3}, UnaryAttrs{UnaryOp::Relu}), Expect{"input", 1}});
  // relu takes reals; a logical input is refused before its shape rule runs.
  t.push_back(Case{"kind.operand", "a relu of a logical input",
                   [] {
                     Model m;
                     const int64_t x = m.g.add("input", InputAttrs{{1, 4}, ElemKind::Logical}, {}, at(1));
                     m.out(m.op("r", UnaryAttrs{UnaryOp::Relu}, {x}, 2));
                     return m;
                   },
                   [] { return relu_model(); }, Expect{"r", 2}});
  // A declared output shape is an obligation on the rule's result: [1, 8] is not relu's [1, 4],
  // and over a size symbol [1, 4] is not [1, input.0] for input.0 = 5..9 (smallest: 5).
  t.push_back(Case{"shape.declared-mismatch", "a relu declared [1, 8] of a [1, 4] input",
                   [] {
                     Model m = relu_model();
                     m.g.nodes[1].declared = {std::vector<int64_t>{1, 8}};
                     return m;
                   },
                   [] {
                     Model m = relu_model();
                     m.g.nodes[1].declared = {std::vector<int64_t>{1, 4}};
                     return m;
                   },
                   Expect{"r", 2}});
  t.push_back(Case{"shape.declared-mismatch", "a relu declared [1, 4] of a [1, input.0] input",
                   [] {
                     Model m = relu_model();
                     m.g.nodes[1].declared = {std::vector<int64_t>{1, 4}};
                     m.dim("input.0", 4, 9);
                     return m;
                   },
                   [] {
                     Model m = relu_model();
                     m.g.nodes[1].declared = {std::vector<int64_t>{1, 4}};
                     m.dim("input.0", 4, 4);
                     return m;
                   },
                   Expect{"r", 2, {{"input.0", 5}}}});
  return t;
}

// Codes that no model can make check_model raise, with the reason.
const std::set<std::string> kUnreachable = {
    // Every extent of every tensor is at least 1 (shape.empty-extent, required of every input and
    // every op result), and a node that reads a failed one is not checked, so no op is read with
    // an empty axis. The rules keep these obligations for standalone use (Checked<A>::check),
    // and spec_reduce_test / spec_layout_test reach them.
    "shape.reduce.empty-axis",
    "shape.pad.replicate-empty",
};

// ---------------------------------------------------------------------------------------------

std::string describe(const CheckReport& r) {
  std::ostringstream out;
  out << "counts: total " << r.counts.total << ", proved " << r.counts.proved << ", refuted " << r.counts.refuted
      << ", unknown " << r.counts.unknown << "\n";
  for (const auto& d : r.diagnostics) out << format_diagnostic(d) << "  [node '" << d.node << "']\n";
  return out.str();
}

std::string describe(const Assignment& a) {
  std::string s;
  for (const auto& [name, v] : a) s += (s.empty() ? "" : ", ") + name + " = " + std::to_string(v);
  return "{" + s + "}";
}

void check_violation(const Case& c) {
  const Model m = c.bad();
  auto r = check_model(m.g, m.p, {}, m.s);
  INFO((r ? describe(*r) : "usage error: " + r.error().code + ": " + r.error().message));
  REQUIRE(r.ok());
  const Diagnostic* d = nullptr;
  for (const auto& x : r->diagnostics)
    if (x.code == c.code && x.severity == c.expect.severity) {
      d = &x;
      break;
    }
  REQUIRE(d != nullptr);
  CHECK(d->node == c.expect.node);
  CHECK(d->loc.file == c.expect.file);
  CHECK(d->loc.line == c.expect.line);
  if (c.expect.line > 0) CHECK(d->loc.column == kColumn);
  INFO("counterexample " << describe(d->counterexample) << ", expected " << describe(c.expect.cex));
  CHECK(d->counterexample == c.expect.cex);
  if (!c.expect.cex.empty()) CHECK(r->solver_calls >= 1);  // decided by Z3, not a constant
  if (!c.expect.note.empty()) {
    bool found = false;
    for (const auto& n : d->notes) found = found || n.find(c.expect.note) != std::string::npos;
    CHECK(found);
  }
  if (c.expect.severity == Severity::Error) {
    CHECK(r->counts.refuted >= 1);
  } else {
    // A warning is no obligation verdict: nothing is refuted.
    CHECK(r->counts.refuted == 0);
    CHECK(r->counts.unknown == 0);
  }
}

void check_satisfied(const Case& c) {
  const Model m = c.good();
  auto r = check_model(m.g, m.p, {}, m.s);
  INFO((r ? describe(*r) : "usage error: " + r.error().code + ": " + r.error().message));
  REQUIRE(r.ok());
  CHECK(r->counts.refuted == 0);
  CHECK(r->counts.unknown == 0);
  CHECK(r->counts.total >= 1);
  CHECK(r->counts.proved == r->counts.total);
  CHECK(r->diagnostics.empty());  // no error, and no warning either: every weight is used
}

}  // namespace

TEST_CASE("every obligation: a model that violates it, and one that satisfies it") {
  for (const auto& c : cases()) {
    DYNAMIC_SECTION(c.code << ": " << c.label << " (violated)") { check_violation(c); }
    DYNAMIC_SECTION(c.code << ": " << c.label << " (satisfied)") { check_satisfied(c); }
  }
}

TEST_CASE("output references and negative extents: violated and satisfied") {
  for (const auto& c : reference_and_extent_cases()) {
    DYNAMIC_SECTION(c.code << ": " << c.label << " (violated)") { check_violation(c); }
    DYNAMIC_SECTION(c.code << ": " << c.label << " (satisfied)") { check_satisfied(c); }
  }
}

// A refuted obligation is assumed from then on, so a later obligation with the same predicate
// holds for every size still in question: a refutation names the first place a size fails, not
// each of its consequences.
TEST_CASE("an obligation identical to an earlier refuted one is proved under it") {
  Model m;
  const int64_t x = m.input("input", {1, 32, 32, 3}, 1);
  const ConvAttrs c = conv_attrs(8, {5, 5}, {}, {}, {}, 1, PadMode::Valid);
  m.out(m.op("conv1", c, {x}, 2));
  m.out(m.op("conv2", c, {x}, 3));
  for (const char* node : {"conv1", "conv2"}) {
    m.param(node, "weight", {8, 3, 5, 5});
    m.param(node, "bias", {8});
  }
  m.dim("input.0", 1, 100);
  auto r = check_model(m.g, m.p, {}, m.s);
  REQUIRE(r.ok());
  INFO(describe(*r));
  std::vector<const Diagnostic*> window;
  for (const auto& d : r->diagnostics)
    if (d.code == "shape.window.exceeds-input") window.push_back(&d);
  REQUIRE(!window.empty());
  CHECK(window[0]->node == "conv1");
  CHECK(window[0]->counterexample == Assignment{{"input.0", 1}});
  CHECK(window.size() == 1);
  CHECK(r->counts.refuted == 1);
}

TEST_CASE("graph.arity: a wrong input count is the node's first obligation, before its shape rule") {
  for (OpAttrs op : {OpAttrs{conv_attrs(4, {3, 3})}, OpAttrs{MatMulAttrs{}},
                     OpAttrs{AddNAttrs{}}, OpAttrs{ConcatAttrs{0}}, OpAttrs{ReshapeAttrs{{-1}}}}) {
    Model m;
    const int64_t x = m.input("input", {1, 8, 8, 4}, 1);
    std::vector<int64_t> ins = std::holds_alternative<AddNAttrs>(op) || std::holds_alternative<MatMulAttrs>(op)
                                   ? std::vector<int64_t>{x}
                                   : std::holds_alternative<ConcatAttrs>(op) ? std::vector<int64_t>{}
                                                                             : std::vector<int64_t>{x, x};
    m.out(m.op("op", op, ins, 2));
    auto r = check_model(m.g, m.p, {}, m.s);
    REQUIRE(r.ok());
    INFO(op_name(op) << "\n" << describe(*r));
    REQUIRE(r->diagnostics.size() == 1);
    CHECK(r->diagnostics[0].code == "graph.arity");
    CHECK(r->diagnostics[0].node == "op");
    CHECK(r->diagnostics[0].loc.line == 2);
  }
}

// ---------------------------------------------------------------------------------------------
// Extents settled under the facts: a broadcast's extent is a case split (X == 1 ? other : X);
// where the --dim ranges, the --assume options and the obligations refuted so far decide it, the
// extent prints without it. Shown by a conv after the broadcast, whose weights are missing: the
// bind.missing message prints the weight shape [4, C, 3, 3], C being the broadcast's extent.

namespace {

// input [1, 4, 4, input.2] (line 1), input.2 over 1..8, `op` (line 3) with a Const `k` of shape
// [k_extent] (line 2), conv (line 4) with 4 filters of 3 x 3, its bias bound and its weight bound
// only when `weight` is not empty.
Model broadcast_then_conv(BinaryOp op, int64_t k_extent, std::vector<std::string> assume,
                          std::vector<int64_t> weight = {}) {
  Model m;
  const int64_t x = m.input("input", {1, 4, 4, 3}, 1);
  const int64_t k = m.op("k", ConstAttrs{{k_extent}}, {}, 2);
  m.param("k", "value", {k_extent});
  const int64_t y = m.op("op", BinaryAttrs{op, Broadcast::NumpyRight}, {x, k}, 3);
  m.out(m.op("conv", conv_attrs(4, {3, 3}), {y}, 4));
  m.param("conv", "bias", {4});
  if (!weight.empty()) m.param("conv", "weight", weight);
  m.dim("input.2", 1, 8);
  m.s.assumptions = std::move(assume);
  return m;
}

// The message of the first diagnostic with this code ("" if none).
std::string message_of(const CheckReport& r, const std::string& code) {
  for (const auto& d : r.diagnostics)
    if (d.code == code) return d.message;
  return "";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("settled extents: a case split the facts decide prints as its value") {
  // input.2 - [3]: the broadcast obligation needs input.2 == 1 || input.2 == 3 (refuted at
  // input.2 = 2, assumed from then on), and the extent is input.2 == 1 ? 3 : input.2.
  SECTION("with --assume 'input.2 % 3 == 0'") {
    // The facts exclude input.2 == 1 (1 % 3 != 0), so the extent is input.2; and they fix
    // input.2 = 3 (the only size in 1..8 that is 1 or 3 and a multiple of 3), so it is 3.
    const Model m = broadcast_then_conv(BinaryOp::Sub, 3, {"input.2 % 3 == 0"});
    auto r = check_model(m.g, m.p, {}, m.s);
    REQUIRE(r.ok());
    INFO(describe(*r));
    CHECK(message_of(*r, "shape.broadcast.incompatible") != "");
    CHECK(contains(message_of(*r, "bind.missing"), "conv/weight of shape [4, 3, 3, 3] is missing"));
  }
  SECTION("with no --assume") {
    // Neither branch is excluded (input.2 may be 1 or 3), but both give 3: the extent is 3.
    const Model m = broadcast_then_conv(BinaryOp::Sub, 3, {});
    auto r = check_model(m.g, m.p, {}, m.s);
    REQUIRE(r.ok());
    INFO(describe(*r));
    CHECK(contains(message_of(*r, "bind.missing"), "conv/weight of shape [4, 3, 3, 3] is missing"));
  }
  SECTION("input.2 * [1]: input.2 == 1 ? 1 : input.2 is input.2 for every size") {
    const Model m = broadcast_then_conv(BinaryOp::Mul, 1, {});
    auto r = check_model(m.g, m.p, {}, m.s);
    REQUIRE(r.ok());
    INFO(describe(*r));
    CHECK(r->counts.refuted == 1);  // only the missing weight: the broadcast holds for every size
    CHECK(contains(message_of(*r, "bind.missing"), "conv/weight of shape [4, input.2, 3, 3] is missing"));
  }
}

TEST_CASE("settled extents: the verdicts are those of the unsettled terms") {
  // The settled extent 3 is equal to the case split wherever the facts hold, so the weights
  // [4, 3, 3, 3] bind (proved) and [4, 5, 3, 3] do not (refuted), with the assumption or not.
  using Assume = std::vector<std::string>;
  for (const Assume& assume : {Assume{}, Assume{"input.2 % 3 == 0"}}) {
    const Model good = broadcast_then_conv(BinaryOp::Sub, 3, assume, {4, 3, 3, 3});
    auto r = check_model(good.g, good.p, {}, good.s);
    REQUIRE(r.ok());
    INFO(describe(*r));
    CHECK(r->counts.refuted == 1);  // the broadcast, at input.2 = 2 (or 6 with the assumption)
    CHECK(r->counts.unknown == 0);
    CHECK(message_of(*r, "bind.shape-mismatch") == "");

    const Model bad = broadcast_then_conv(BinaryOp::Sub, 3, assume, {4, 5, 3, 3});
    auto r2 = check_model(bad.g, bad.p, {}, bad.s);
    REQUIRE(r2.ok());
    INFO(describe(*r2));
    CHECK(r2->counts.refuted == 2);
    CHECK(contains(message_of(*r2, "bind.shape-mismatch"), "[4, 3, 3, 3]"));
  }
}

TEST_CASE("settled extents: a case split the facts do not decide stays") {
  // a [1, 4, 4, a.2] + b [1, 4, 4, b.2], both over 1..8: the broadcast needs the two case splits
  // to agree, that is a.2 == 1 || b.2 == 1 || a.2 == b.2 (refuted at a.2 = 2, b.2 = 3, assumed
  // from then on), and the extent is a.2 == 1 ? b.2 : a.2. Nothing settles it: the facts admit
  // a.2 = 1 and a.2 = 2 (the condition is undecided), the branches differ at a.2 = 1, b.2 = 2, and
  // the extent is 1 at a.2 = b.2 = 1 but 2 at a.2 = b.2 = 2 (no single value).
  Model m;
  const int64_t a = m.input("a", {1, 4, 4, 3}, 1);
  const int64_t b = m.input("b", {1, 4, 4, 3}, 2);
  const int64_t y = m.op("add", BinaryAttrs{BinaryOp::Add, Broadcast::NumpyRight}, {a, b}, 3);
  m.out(m.op("conv", conv_attrs(4, {3, 3}), {y}, 4));
  m.param("conv", "bias", {4});
  m.dim("a.2", 1, 8);
  m.dim("b.2", 1, 8);
  auto r = check_model(m.g, m.p, {}, m.s);
  REQUIRE(r.ok());
  INFO(describe(*r));
  CHECK(message_of(*r, "shape.broadcast.incompatible") != "");
  CHECK(contains(message_of(*r, "bind.missing"), "conv/weight of shape [4, (a.2 == 1 ? b.2 : a.2), 3, 3] is missing"));
}

TEST_CASE("the table covers every catalogue code, or lists it as unreachable") {
  std::set<std::string> covered, catalogue;
  for (const auto& c : cases()) covered.insert(c.code);
  for (const auto& c : reference_and_extent_cases()) covered.insert(c.code);
  for (const ObligationSpec* e : obligation_catalogue()) {
    const std::string code(e->code);
    catalogue.insert(code);
    INFO(code << " (" << kind_name(e->kind) << ") has no case and is not in kUnreachable");
    CHECK(covered.count(code) + kUnreachable.count(code) == 1);
  }
  for (const auto& c : covered) {
    INFO(c << " is not a catalogue code");
    CHECK(catalogue.count(c) == 1);
  }
  for (const auto& c : kUnreachable) {
    INFO(c << " is not a catalogue code");
    CHECK(catalogue.count(c) == 1);
  }
  CHECK(kUnreachable.size() <= 2);
  CHECK(catalogue.size() == covered.size() + kUnreachable.size());
}
