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

#include "semantics/catalogue.hpp"
#include "spec/contract_program.hpp"
#include "spec/size_program.hpp"

#include "obligation_cases.hpp"

using namespace nnref;
using namespace nnref::test;

std::vector<Case> nnref::test::graph_and_attribute_cases() {
  std::vector<Case> t;
  // ----- structure: check_structure, before any Z3 work ------------------------------------
  add(t, "graph.id", "node at position 1 carries id 5",
      [] {
        Model m;
        const int64_t x = m.input("input", {1, 4}, 1);
        m.op("r", UnaryAttrs{UnaryOp::Relu}, {x}, 2);
        m.g.nodes.back().id = 5;
        m.g.outputs.push_back({"y", ValueRef{1, 0}});
        return m;
      },
      relu_model, {"r", 2});
  add(t, "graph.name-empty", "a relu named \"\"",
      [] {
        Model m;
        const int64_t x = m.input("input", {1, 4}, 1);
        m.out(m.op("", UnaryAttrs{UnaryOp::Relu}, {x}, 2));
        return m;
      },
      relu_model, {"", 2});
  add(t, "graph.name-duplicate", "two nodes named r: reported at the second",
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
  add(t, "graph.arity", "an add with one input",
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
  add(t, "graph.topology", "a relu reading itself",
      [] {
        Model m;
        m.input("input", {1, 4}, 1);
        m.out(m.op("r", UnaryAttrs{UnaryOp::Relu}, {1}, 2));
        return m;
      },
      relu_model, {"r", 2});
  add(t, "graph.no-outputs", "an empty output list",
      [] {
        Model m = relu_model();
        m.g.outputs.clear();
        return m;
      },
      relu_model, {"", 0, {}, Severity::Error, ""});
  add(t, "graph.output", "structure: output y refers to node 7 of a 2-node graph",
      [] {
        Model m = relu_model();
        m.g.outputs = {{"y", ValueRef{7, 0}}};
        return m;
      },
      relu_model, {"", 0, {}, Severity::Error, ""});
  add(t, "graph.output", "after the shapes: output y refers to output 1 of a relu, which has one",
      [] {
        Model m = relu_model();
        m.g.outputs = {{"y", ValueRef{1, 1}}};
        return m;
      },
      relu_model, {"", 0, {}, Severity::Error, ""});

  // ----- structure: ranks and axis indices ---------------------------------------------------
  attr(t, "shape.linear.input-rank", "linear of a rank-4 input", linear(LinearAttrs{3}, false, false, DType::F32, {1, 4, 4, 2}),
       linear(LinearAttrs{3}, true, true), "fc");
  add(t, "shape.matmul.rank", "matmul of [3] and [3, 4]", two_inputs({3}, {3, 4}, MatMulAttrs{}),
      two_inputs({2, 3}, {3, 4}, MatMulAttrs{}), {"op", 3});
  add(t, "shape.matmul.rank-mismatch", "matmul of [2, 3, 4] and [4, 5]", two_inputs({2, 3, 4}, {4, 5}, MatMulAttrs{}),
      two_inputs({2, 3, 4}, {2, 4, 5}, MatMulAttrs{}), {"op", 3});
  attr(t, "shape.broadcast_to.rank", "broadcast_to [4] of [2, 4]", one_op({2, 4}, BroadcastToAttrs{{4}}),
       one_op({2, 4}, BroadcastToAttrs{{3, 2, 4}}));
  attr(t, "shape.axis.out-of-range", "softmax over axis 4 of a rank-4 input", one_op({1, 8, 8, 3}, SoftmaxAttrs{{4}}),
       one_op({1, 8, 8, 3}, SoftmaxAttrs{{3}}));
  attr(t, "shape.axis.out-of-range", "batch_normalization channel axis -5 of a rank-4 input",
       one_op({1, 8, 8, 3}, BatchNormAttrs{1e-5, -5}), [] {
         Model m = one_op({1, 8, 8, 3}, BatchNormAttrs{1e-5, -1})();
         for (const char* role : {"mean", "variance", "scale", "offset"}) m.param("op", role, {3});
         return m;
       });
  attr(t, "shape.axis.duplicate", "sum_reduce over axes [1, -3] of a rank-4 input",
       one_op({1, 8, 8, 3}, ReduceAttrs{ReduceOp::Sum, {1, -3}}), one_op({1, 8, 8, 3}, ReduceAttrs{ReduceOp::Sum, {1, 2}}));
  attr(t, "shape.reshape.zero-out-of-range", "reshape [0, 0, 0] of a rank-2 input", one_op({2, 3}, ReshapeAttrs{{0, 0, 0}}),
       one_op({2, 3}, ReshapeAttrs{{0, 0}}));
  attr(t, "shape.axis.out-of-range", "flatten axis 5 of a rank-4 input", one_op({1, 8, 8, 3}, FlattenAttrs{5}),
       one_op({1, 8, 8, 3}, FlattenAttrs{4}));
  attr(t, "shape.transpose.invalid-permutation", "perm [0, 2, 2, 1]", one_op({1, 8, 8, 3}, TransposeAttrs{{0, 2, 2, 1}}),
       one_op({1, 8, 8, 3}, TransposeAttrs{{0, 3, 1, 2}}));
  add(t, "shape.concat.rank-mismatch", "concat of [1, 8, 8, 3] and its flattening",
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
  add(t, "shape.axis.out-of-range", "concat on axis 4 of two rank-4 inputs",
      two_inputs({1, 8, 8, 3}, {1, 8, 8, 3}, ConcatAttrs{4}), two_inputs({1, 8, 8, 3}, {1, 8, 8, 3}, ConcatAttrs{-1}),
      {"op", 3});
  attr(t, "shape.axis.out-of-range", "split on axis 2 of a rank-2 input", one_op({2, 4}, SplitAttrs{2, {1}}),
       one_op({2, 4}, SplitAttrs{-1, {1}}));
  attr(t, "shape.axis.out-of-range", "slice of axis 3 of a rank-2 input", one_op({2, 4}, SliceAttrs{{3}, {0}, {1}, {}}),
       one_op({2, 4}, SliceAttrs{{1}, {0}, {1}, {}}));
  attr(t, "shape.axis.duplicate", "slice of axes [0, -2] of a rank-2 input",
       one_op({2, 4}, SliceAttrs{{0, -2}, {0, 0}, {1, 1}, {}}), one_op({2, 4}, SliceAttrs{{0, -1}, {0, 0}, {1, 1}, {}}));
  attr(t, "shape.pad.attribute-length", "one padding pair for a rank-2 input", one_op({2, 4}, PadAttrs{{{1, 1}}}),
       one_op({2, 4}, PadAttrs{{{0, 0}, {1, 1}}}));
  attr(t, "shape.axis.out-of-range", "squeeze axis 2 of a rank-2 input", one_op({1, 4}, SqueezeAttrs{{2}}),
       one_op({1, 4}, SqueezeAttrs{{-2}}));
  attr(t, "shape.axis.duplicate", "squeeze axes [1, -1] of a rank-2 input", one_op({2, 1}, SqueezeAttrs{{1, -1}}),
       one_op({2, 1}, SqueezeAttrs{{1}}));
  attr(t, "shape.axis.out-of-range", "unsqueeze at 3 of a rank-2 input (output rank 3)",
       one_op({2, 4}, UnsqueezeAttrs{{3}}), one_op({2, 4}, UnsqueezeAttrs{{2}}));
  attr(t, "shape.axis.duplicate", "unsqueeze at [0, -4] of a rank-2 input (output rank 4: both axis 0)",
       one_op({2, 4}, UnsqueezeAttrs{{0, -4}}), one_op({2, 4}, UnsqueezeAttrs{{0, -1}}));
  attr(t, "shape.window.input-rank", "a 2-D conv of a rank-3 input", conv(conv3(), {}, {1, 8, 4}), conv(conv3(), kConv3Weight),
       "conv");
  attr(t, "shape.window.input-rank", "a 2-D max_pool of a rank-3 input", pool(pool3(), {1, 8, 4}), pool(pool3()), "pool");

  // ----- attributes --------------------------------------------------------------------------
  attr(t, "attr.unary.alpha", "leaky_relu with alpha infinity", one_op({1, 4}, UnaryAttrs{UnaryOp::LeakyRelu, kInf}),
       one_op({1, 4}, UnaryAttrs{UnaryOp::LeakyRelu, 0.1}));
  attr(t, "attr.unary.alpha", "elu with alpha NaN", one_op({1, 4}, UnaryAttrs{UnaryOp::Elu, kNaN}),
       one_op({1, 4}, UnaryAttrs{UnaryOp::Elu, 1.0}));
  attr(t, "attr.linear.units", "linear with 0 units", linear(LinearAttrs{0}, false, false), linear(LinearAttrs{3}, true, true),
       "fc");
  // range: delta 0 (an integer range over extent 1 of its operand, 0 to 4 by 0); a real range of
  // start 0, limit ∞ (input read by nothing: the range takes no operand).
  {
    using namespace size_code;
    const auto arange = [](int64_t delta) {
      RangeAttrs a;
      a.kind = ElemKind::Integer, a.idelta = delta, a.computed = {kConstant, 0, kExtent, 0, 1}, a.sources = {ElemKind::Real};
      return one_op({1, 4}, a);
    };
    attr(t, "attr.range.delta-zero", "range from 0 to 4 by 0", arange(0), arange(1));
    const auto real = [](double limit) {
      return [limit] {
        Model m;
        const int64_t x = m.input("input", {1, 4}, 1);
        RangeAttrs a;
        a.limit = limit;
        m.out(x);
        m.out(m.op("op", a, {}, 2));
        return m;
      };
    };
    attr(t, "attr.range.not-finite", "range from 0 to infinity", real(kInf), real(3));
  }
  // An integer mean_reduce: integers in, no mean defined.
  {
    const auto mean = [](ReduceOp op) {
      return [op] {
        Model m;
        const int64_t x = m.g.add("input", InputAttrs({1, 4}, ElemKind::Integer), {}, at(1));
        m.out(m.op("op", ReduceAttrs{op, {1}, true, ElemKind::Integer}, {x}, 2));
        return m;
      };
    };
    attr(t, "attr.reduce.integer-mean", "mean_reduce of integers", mean(ReduceOp::Mean), mean(ReduceOp::Max));
  }
  attr(t, "attr.broadcast_to.negative-extent", "broadcast_to [2, -1]", one_op({2, 1}, BroadcastToAttrs{{2, -1}}),
       one_op({2, 1}, BroadcastToAttrs{{2, 5}}));
  {
    const auto bn = [](double eps) {
      return [eps] {
        Model m = one_op({1, 4, 4, 3}, BatchNormAttrs{eps, -1})();
        for (const char* role : {"mean", "variance", "scale", "offset"}) m.param("op", role, {3});
        return m;
      };
    };
    attr(t, "attr.epsilon.invalid", "epsilon -1", bn(-1.0), bn(1e-5));
    attr(t, "attr.epsilon.invalid", "epsilon infinity", bn(kInf), bn(0.0));
  }
  attr(t, "attr.epsilon.invalid", "epsilon NaN", one_op({1, 4, 3}, LayerNormAttrs{{-1}, kNaN}),
       one_op({1, 4, 3}, LayerNormAttrs{{-1}, 1e-5}));
  attr(t, "attr.conv.groups-nonpositive", "groups 0",
       conv(conv_attrs(4, {3, 3}, {}, {}, {}, 0)), conv(conv3(), kConv3Weight), "conv");
  attr(t, "attr.conv.out-channels-nonpositive", "out_channels 0", conv(conv_attrs(0, {3, 3})),
       conv(conv3(), kConv3Weight), "conv");
  attr(t, "attr.conv.out-channels-indivisible", "out_channels 6, groups 4 (8 input channels)",
       conv(conv_attrs(6, {3, 3}, {}, {}, {}, 4), {6, 2, 3, 3}, {1, 8, 8, 8}),
       conv(conv_attrs(8, {3, 3}, {}, {}, {}, 4), {8, 2, 3, 3}, {1, 8, 8, 8}), "conv");
  attr(t, "attr.deconv.groups-nonpositive", "groups 0", deconv_op(deconv_attrs(4, {3}, {}, 0), {1, 2, 5}),
       deconv_op(deconv_attrs(4, {3}), {1, 2, 5}), "deconv");
  attr(t, "attr.deconv.out-channels-indivisible", "out_channels 3, groups 2",
       deconv_op(deconv_attrs(3, {3}, {}, 2), {1, 2, 5}), deconv_op(deconv_attrs(4, {3}, {}, 2), {1, 2, 5}), "deconv");
  attr(t, "attr.axes.empty", "sum_reduce with axes []", one_op({1, 4, 3}, ReduceAttrs{ReduceOp::Sum, {}}),
       one_op({1, 4, 3}, ReduceAttrs{ReduceOp::Sum, {-1}}));
  attr(t, "attr.axes.empty", "axes []", one_op({1, 4, 3}, LayerNormAttrs{{}, 1e-5}),
       one_op({1, 4, 3}, LayerNormAttrs{{1, 2}, 1e-5}));
  attr(t, "attr.axes.empty", "axes []", one_op({1, 4, 3}, SoftmaxAttrs{{}}), one_op({1, 4, 3}, SoftmaxAttrs{{-1}}));
  attr(t, "attr.reshape.negative-extent", "dims [2, -3]", one_op({2, 3}, ReshapeAttrs{{2, -3}}),
       one_op({2, 3}, ReshapeAttrs{{3, -1}}));
  attr(t, "attr.reshape.multiple-inferred", "dims [-1, -1]", one_op({2, 3}, ReshapeAttrs{{-1, -1}}),
       one_op({2, 3}, ReshapeAttrs{{-1, 2}}));
  attr(t, "attr.split.ratio-nonpositive", "ratios [1, 0]", one_op({2, 4}, SplitAttrs{1, {1, 0}}),
       one_op({2, 4}, SplitAttrs{1, {1, 1}}));
  attr(t, "attr.split.ratio-nonpositive", "no ratio", one_op({2, 4}, SplitAttrs{1, {}}), one_op({2, 4}, SplitAttrs{1, {4}}));
  attr(t, "attr.slice.attribute-length", "axes [0, 1], begin [0], end [2, 2]",
       one_op({2, 4}, SliceAttrs{{0, 1}, {0}, {2, 2}, {}}), one_op({2, 4}, SliceAttrs{{0, 1}, {0, 1}, {2, 2}, {}}));
  attr(t, "attr.slice.stride-zero", "stride [0]", one_op({2, 4}, SliceAttrs{{1}, {0}, {4}, {0}}),
       one_op({2, 4}, SliceAttrs{{1}, {0}, {4}, {2}}));

  // The window attributes of conv and pool (same rule, two families).
  attr(t, "attr.window.attribute-length", "kernel [3, 3], stride [1, 1, 1]",
       conv(conv_attrs(4, {3, 3}, {1, 1, 1})),
       conv(conv_attrs(4, {3, 3}, {1, 1}), kConv3Weight), "conv");
  attr(t, "attr.window.attribute-length", "kernel []", conv(conv_attrs(4, {})),
       conv(conv3(), kConv3Weight), "conv");
  attr(t, "attr.window.kernel-nonpositive", "kernel [0, 3]", conv(conv_attrs(4, {0, 3})),
       conv(conv3(), kConv3Weight), "conv");
  attr(t, "attr.window.stride-nonpositive", "stride [0, 1]",
       conv(conv_attrs(4, {3, 3}, {0, 1})),
       conv(conv_attrs(4, {3, 3}, {2, 1}), kConv3Weight), "conv");
  attr(t, "attr.window.dilation-nonpositive", "dilation [1, -1]",
       conv(conv_attrs(4, {3, 3}, {}, {1, -1})),
       conv(conv_attrs(4, {3, 3}, {}, {1, 2}), kConv3Weight), "conv");
  attr(t, "attr.window.padding-negative", "padding [(0, 0), (-1, 0)]",
       conv(conv_attrs(4, {3, 3}, {}, {}, {{0, 0}, {-1, 0}})),
       conv(conv_attrs(4, {3, 3}, {}, {}, {{0, 0}, {1, 0}}), kConv3Weight), "conv");
  attr(t, "attr.window.attribute-length", "kernel [3, 3], stride [1, 1, 1]",
       pool(pool_attrs({3, 3}, {1, 1, 1})), pool(pool_attrs({3, 3}, {1, 1})),
       "pool");
  attr(t, "attr.window.kernel-nonpositive", "kernel [0, 3]", pool(pool_attrs({0, 3})), pool(pool3()), "pool");
  attr(t, "attr.window.stride-nonpositive", "stride [0, 1]", pool(pool_attrs({3, 3}, {0, 1})),
       pool(pool_attrs({3, 3}, {2, 1})), "pool");
  attr(t, "attr.window.dilation-nonpositive", "dilation [1, -1]", pool(pool_attrs({3, 3}, {}, {1, -1})),
       pool(pool_attrs({3, 3}, {}, {1, 2})), "pool");
  attr(t, "attr.window.padding-negative", "padding [(0, 0), (-1, 0)]",
       pool(pool_attrs({3, 3}, {}, {}, {{0, 0}, {-1, 0}}, PadMode::Explicit, PoolOp::Avg)),
       pool(pool_attrs({3, 3}, {}, {}, {{0, 0}, {1, 0}}, PadMode::Explicit, PoolOp::Avg)), "pool");

  return t;
}

namespace {

std::vector<Case> cases() {
  std::vector<Case> all = graph_and_attribute_cases();
  for (Case& c : shape_binding_and_size_cases()) all.push_back(std::move(c));
  return all;
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
  // pad's constant value is an element of its data's kind: 0.5 is no integer, 3 is one.
  const auto integer_pad = [](double value) -> Build {
    return [=] {
      Model m;
      const int64_t x = m.g.add("input", InputAttrs{{2, 4}, ElemKind::Integer}, {}, at(1));
      m.out(m.op("op", PadAttrs{{{0, 0}, {1, 1}}, PadBorder::Constant, Real(value), ElemKind::Integer}, {x}, 2));
      return m;
    };
  };
  t.push_back(Case{"attr.pad.value-kind", "an integer pad with value 0.5", integer_pad(0.5), integer_pad(3.0),
                   Expect{"op", 2}});
  // cumsum adds numbers: a logical kind is refused, an integer one accepted.
  const auto cumsum_of_kind = [](ElemKind kind) -> Build {
    return [=] {
      Model m;
      const int64_t x = m.g.add("input", InputAttrs{{2, 4}, kind}, {}, at(1));
      m.out(m.op("op", CumsumAttrs{1, false, false, kind}, {x}, 2));
      return m;
    };
  };
  t.push_back(Case{"attr.cumsum.kind", "a cumsum of logical values", cumsum_of_kind(ElemKind::Logical),
                   cumsum_of_kind(ElemKind::Integer), Expect{"op", 2}});
  // contract: the copy y[i] = x[i] of a [3] operand, built for x [3]; a read of element 5 of it.
  const auto copy_program = [](int64_t last_read) {
    using namespace contract;
    const Program p{{{3}}, {{3}}, {{Assign::Set, 0, {0, 1, 2}, {{NodeKind::Read, -1, -1, -1, 0}}, 0,
                                    {{{0}, {0, 1, last_read}}}, {}}}};
    return ContractAttrs{1, encode(p)};
  };
  t.push_back(Case{"attr.contract.program", "a contraction program reading past its operand",
                   one_op({3}, copy_program(5)), one_op({3}, copy_program(2)), Expect{"op", 2}});
  t.push_back(Case{"shape.contract.operand", "a contraction program built for [3] applied to [4]",
                   one_op({4}, copy_program(2)), one_op({3}, copy_program(2)), Expect{"op", 2}});
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
  // A node's size guards (a SkriptND front-end writes them): relu's output extent 1 (input.0) at
  // most 6, refuted over 4..9 at 7; and, assumed by a reading, equal to 4, refuted at 5.
  const auto guarded = [](std::vector<int64_t> code, bool assumed, int64_t hi) {
    return [=] {
      Model m = relu_model();
      m.g.nodes[1].guards = {SizeGuard{{ValueRef{1, 0}}, code, "the source's condition", assumed}};
      m.dim("input.0", 4, hi);
      return m;
    };
  };
  namespace sc = size_code;
  const std::vector<int64_t> at_most_6{sc::kExtent, 0, 1, sc::kConstant, 6, sc::kLessEqual};
  const std::vector<int64_t> is_4{sc::kExtent, 0, 1, sc::kConstant, 4, sc::kEqual};
  t.push_back(Case{"shape.source-condition", "relu's output extent at most 6, over input.0 = 4..9",
                   guarded(at_most_6, false, 9), guarded(at_most_6, false, 6), Expect{"r", 2, {{"input.0", 7}}}});
  t.push_back(Case{"shape.composed-size", "relu's output extent 4 as composed, over input.0 = 4..9",
                   guarded(is_4, true, 9), guarded(is_4, true, 4), Expect{"r", 2, {{"input.0", 5}}}});
  return t;
}

// Codes that no model can make check_model raise, with the reason.
const std::set<std::string> kUnreachable = {
    // Every extent of every tensor is at least 1 (shape.empty-extent, required of every input and
    // every op result), and a node that reads a failed one is not checked, so no op is read with
    // an empty axis. The rules keep these obligations for standalone use (Checked<A>::check),
    // and spec_reduce_test / spec_layout_test reach them.
    "shape.reduce.empty-axis",
    "shape.arg_reduce.empty-axis",
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
  CHECK(kUnreachable.size() <= 3);  // the empty-axis obligations of the reductions and replicate pad
  CHECK(catalogue.size() == covered.size() + kUnreachable.size());
}
