// The extent, binding and size cases of checker_obligations_test (tests/obligation_cases.hpp).
#include "obligation_cases.hpp"

namespace nnref::test {

std::vector<Case> shape_binding_and_size_cases() {
  std::vector<Case> t;
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
    add(t, "shape.broadcast.incompatible", "[1, 4, 4, input.2] - [3], input.2 = 1..8", standardize({}),
        standardize({"input.2 == 3 || input.2 == 1"}), {"sub", 3, {{"input.2", 2}}});
  }
  // Equal rule: the ranks differ (constant).
  add(t, "shape.broadcast.incompatible", "Equal rule, ranks 2 and 3",
      two_inputs({1, 4}, {1, 1, 4}, BinaryAttrs{BinaryOp::Mul, Broadcast::Equal}),
      two_inputs({1, 4}, {1, 4}, BinaryAttrs{BinaryOp::Mul, Broadcast::Equal}), {"op", 3});
  // add_n of a [1, a.0, 4] and b [1, b.0, 4], both over 1..100: minimised in --dim order, a.0 = 1
  // and then the smallest b.0 != 1.
  add(t, "shape.add_n.mismatch", "a.0 and b.0 independent",
      two_inputs({1, 5, 4}, {1, 5, 4}, AddNAttrs{}, {{"a.0", 1, 100}, {"b.0", 1, 100}}),
      two_inputs({1, 5, 4}, {1, 5, 4}, AddNAttrs{}, {{"a.0", 1, 100}, {"b.0", 1, 100}}, {"a.0 == b.0"}),
      {"op", 3, {{"a.0", 1}, {"b.0", 2}}});
  // The same with the --dim options in the other order: b.0 is minimised first.
  add(t, "shape.add_n.mismatch", "a.0 and b.0 independent, --dim b.0 first",
      two_inputs({1, 5, 4}, {1, 5, 4}, AddNAttrs{}, {{"b.0", 1, 100}, {"a.0", 1, 100}}),
      two_inputs({1, 5, 4}, {1, 5, 4}, AddNAttrs{}, {{"b.0", 1, 100}, {"a.0", 1, 100}}, {"a.0 == b.0"}),
      {"op", 3, {{"b.0", 1}, {"a.0", 2}}});
  // broadcast_to [1, 6] of [1, x.0], x.0 over 1..100: x.0 must be 1 or 6, so 2 fails first.
  add(t, "shape.broadcast_to.incompatible", "[1, input.0] to [1, 6]",
      sym_op({1, 3}, BroadcastToAttrs{{1, 6}}, {{"input.0", 1, 100}}),
      sym_op({1, 3}, BroadcastToAttrs{{1, 6}}, {{"input.0", 1, 100}}, {"input.0 == 1 || input.0 == 6"}),
      {"op", 2, {{"input.0", 2}}});
  // matmul of a [1, a.0, 3, 4] and b [1, 5, 4, 6]: batch axis 1 needs a.0 == 5 or a.0 == 1 (it
  // broadcasts), so the smallest failing a.0 is 2.
  add(t, "shape.matmul.batch-mismatch", "batch axis a.0 against 5",
      two_inputs({1, 5, 3, 4}, {1, 5, 4, 6}, MatMulAttrs{}, {{"a.0", 1, 100}}),
      two_inputs({1, 5, 3, 4}, {1, 5, 4, 6}, MatMulAttrs{}, {{"a.0", 1, 100}}, {"a.0 == 5 || a.0 == 1"}),
      {"op", 3, {{"a.0", 2}}});
  // matmul of a [1, 3, a.1] and b [1, 5, 6]: the inner extents need a.1 == 5.
  add(t, "shape.matmul.inner-mismatch", "inner extent a.1 against 5",
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
    add(t, "shape.conv.channels-indivisible", "groups 4, channels input.2 = 4..100", grouped({}),
        grouped({"input.2 == 8"}), {"conv", 2, {{"input.2", 5}}});
  }
  // deconv with groups 2 over [1, C, 5], C = input.0 over 2..100: C % 2 == 0 first fails at 3.
  {
    const auto grouped = [](std::vector<std::string> assume) {
      return [assume] {
        Model m = deconv_op(deconv_attrs(4, {1}, {}, 2), {1, 4, 5})();
        m.dim("input.0", 2, 100);
        m.s.assumptions = assume;
        return m;
      };
    };
    add(t, "shape.deconv.channels-indivisible", "groups 2, channels input.0 = 2..100", grouped({}),
        grouped({"input.0 == 4"}), {"deconv", 2, {{"input.0", 3}}});
  }
  // mean_reduce over an axis of extent 0. A --dim extent is at least 1, so only a declared 0
  // (itself refuted at the input as shape.empty-extent, a constant fact) reaches the reduction.
  // reshape [-1, 4] of [1, N, 6]: 6 * N % 4 == 0 needs N even.
  add(t, "shape.reshape.count-indivisible", "[-1, 4] of [1, input.0, 6]",
      sym_op({1, 2, 6}, ReshapeAttrs{{-1, 4}}, {{"input.0", 1, 100}}),
      sym_op({1, 2, 6}, ReshapeAttrs{{-1, 4}}, {{"input.0", 1, 100}}, {"input.0 % 2 == 0"}),
      {"op", 2, {{"input.0", 1}}});
  // reshape [1, 24] of [1, N, 6]: 6 * N == 24 needs N == 4; [1, 0, 2, 3] holds for every N.
  add(t, "shape.reshape.count-mismatch", "[1, 24] of [1, input.0, 6]",
      sym_op({1, 4, 6}, ReshapeAttrs{{1, 24}}, {{"input.0", 1, 100}}),
      sym_op({1, 4, 6}, ReshapeAttrs{{1, 0, 2, 3}}, {{"input.0", 1, 100}}), {"op", 2, {{"input.0", 1}}});
  // reshape of [1, N, 6] to dims computed from N (the input read again as their source).
  {
    using namespace size_code;
    const auto computed = [](std::vector<int64_t> program) {
      return [program] {
        Model m;
        const int64_t x = m.input("input", {1, 2, 6}, 1);
        m.out(m.op("op", ReshapeAttrs{{}, ElemKind::Real, program, {ElemKind::Real}}, {x, x}, 2));
        m.s.dims = {{"input.0", 1, 100}};
        return m;
      };
    };
    // [N − 1, −1]: the computed N − 1 is at least 1 only from N = 2; [N, −1] for every N.
    add(t, "shape.reshape.computed-extent", "[N - 1, -1] of [1, N, 6]",
        computed({kExtent, 0, 1, kConstant, 1, kSub, kConstant, -1}), computed({kExtent, 0, 1, kConstant, -1}),
        {"op", 2, {{"input.0", 1}}});
    // [N / (N − 1), −1]: the divisor N − 1 is at least 1 only from N = 2; [N / N, −1] for every N.
    add(t, "shape.size-program", "[N / (N - 1), -1] of [1, N, 6]",
        computed({kExtent, 0, 1, kExtent, 0, 1, kConstant, 1, kSub, kDiv, kConstant, -1}),
        computed({kExtent, 0, 1, kExtent, 0, 1, kDiv, kConstant, -1}), {"op", 2, {{"input.0", 1}}});
  }
  // A reshape whose first entry is element 0 of an integer input s [2] (a value computed from data,
  // read by `run` only): not provable for every value of s, constant. The same reshape to [N, −1].
  {
    using namespace size_code;
    const auto from = [](std::vector<int64_t> program) {
      return [program] {
        Model m;
        const int64_t x = m.input("input", {1, 2, 6}, 1);
        const int64_t s = m.g.add("s", InputAttrs{{2}, ElemKind::Integer}, {}, at(3));
        m.out(m.op("op", ReshapeAttrs{{}, ElemKind::Real, program, {ElemKind::Integer, ElemKind::Real}}, {x, s, x}, 2));
        m.s.dims = {{"input.0", 1, 100}};
        return m;
      };
    };
    add(t, "shape.data-dependent-size", "[s[0], -1] of [1, N, 6]", from({kElement, 0, 0, kConstant, -1}),
        from({kExtent, 1, 1, kConstant, -1}), {"op", 2});
  }
  // broadcast_to of [1, 6] and pad of [1, N, 6] by amounts computed from N (the input read again
  // as their source).
  {
    using namespace size_code;
    const auto broadcast = [](std::vector<int64_t> program) {
      return [program] {
        Model m;
        const int64_t x = m.input("input", {1, 2, 6}, 1);
        m.out(m.op("op", BroadcastToAttrs{{}, Broadcast::NumpyRight, program, {ElemKind::Real}}, {x, x}, 2));
        m.s.dims = {{"input.0", 1, 100}};
        return m;
      };
    };
    // [N − 1, N, 6]: the computed N − 1 is at least 1 only from N = 2; [N, N, 6] for every N.
    add(t, "shape.broadcast_to.computed-extent", "[N - 1, N, 6] of [1, N, 6]",
        broadcast({kExtent, 0, 1, kConstant, 1, kSub, kExtent, 0, 1, kConstant, 6}),
        broadcast({kExtent, 0, 1, kExtent, 0, 1, kConstant, 6}), {"op", 2, {{"input.0", 1}}});
    const auto pad = [](std::vector<int64_t> program) {
      return [program] {
        Model m;
        const int64_t x = m.input("input", {1, 2, 6}, 1);
        PadAttrs a;
        a.computed = PadComputed{program, {ElemKind::Real}};
        m.out(m.op("op", a, {x, x}, 2));
        m.s.dims = {{"input.0", 1, 100}};
        return m;
      };
    };
    // range from 0 to N − 1 by 1 over [1, N, 6]: at least one element only from N = 2; to N for every N.
    const auto range = [](std::vector<int64_t> limit) {
      return [limit] {
        Model m;
        const int64_t x = m.input("input", {1, 2, 6}, 1);
        RangeAttrs a;
        a.kind = ElemKind::Integer;
        a.computed = {kConstant, 0};
        a.computed.insert(a.computed.end(), limit.begin(), limit.end());
        a.sources = {ElemKind::Real};
        m.out(m.op("op", a, {x}, 2));
        m.s.dims = {{"input.0", 1, 100}};
        return m;
      };
    };
    add(t, "shape.range.empty", "0 to N - 1 by 1 over [1, N, 6]", range({kExtent, 0, 1, kConstant, 1, kSub}),
        range({kExtent, 0, 1}), {"op", 2, {{"input.0", 1}}});
    // Before axis 1: N − 2, at least 0 only from N = 2; N − 1 for every N. The rest 0.
    const std::vector<int64_t> zero{kConstant, 0};
    const auto pads = [&](std::vector<int64_t> before) {
      std::vector<int64_t> code = zero;
      code.insert(code.end(), before.begin(), before.end());
      for (int k = 0; k < 4; ++k) code.insert(code.end(), zero.begin(), zero.end());
      return code;
    };
    add(t, "shape.pad.computed-negative", "(N - 2, 0) on axis 1 of [1, N, 6]",
        pad(pads({kExtent, 0, 1, kConstant, 2, kSub})), pad(pads({kExtent, 0, 1, kConstant, 1, kSub})),
        {"op", 2, {{"input.0", 1}}});
  }
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
    add(t, "shape.concat.extent-mismatch", "input and its stride-2 same pool", cat(2), cat(1),
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
    add(t, "shape.split.extent-indivisible", "ratios [1, 3] of input.0 = 4..100", split({}), split({"input.0 % 4 == 0"}),
        {"split", 2, {{"input.0", 5}}});
  }
  // slice [4, end) of axis 1 of [1, N, 3]: needs N >= 5.
  add(t, "shape.slice.empty", "[4, end) of input.0 = 1..100",
      sym_op({1, 8, 3}, SliceAttrs{{1}, {4}, {0}, {}}, {{"input.0", 1, 100}}),
      sym_op({1, 8, 3}, SliceAttrs{{1}, {4}, {0}, {}}, {{"input.0", 5, 100}}), {"op", 2, {{"input.0", 1}}});
  // pad (-2, -2) of axis 1 of [1, N, 3] crops 4 positions: needs N >= 5.
  add(t, "shape.pad.empty", "(-2, -2) on input.0 = 1..100",
      sym_op({1, 8, 3}, PadAttrs{{{0, 0}, {-2, -2}, {0, 0}}}, {{"input.0", 1, 100}}),
      sym_op({1, 8, 3}, PadAttrs{{{0, 0}, {-2, -2}, {0, 0}}}, {{"input.0", 5, 100}}), {"op", 2, {{"input.0", 1}}});
  // reflect pad (2, 2) of axis 1 of [1, N, 3]: needs N - 1 >= 2.
  add(t, "shape.pad.reflect-too-wide", "(2, 2) on input.0 = 1..100",
      sym_op({1, 8, 3}, PadAttrs{{{0, 0}, {2, 2}, {0, 0}}, PadBorder::Reflect}, {{"input.0", 1, 100}}),
      sym_op({1, 8, 3}, PadAttrs{{{0, 0}, {2, 2}, {0, 0}}, PadBorder::Reflect}, {{"input.0", 3, 100}}),
      {"op", 2, {{"input.0", 1}}});
  // reflect-even pad (3, 0) of axis 1 of [1, N, 3]: needs N >= 3 (the edge is repeated).
  add(t, "shape.pad.reflect-even-too-wide", "(3, 0) on input.0 = 1..100",
      sym_op({1, 8, 3}, PadAttrs{{{0, 0}, {3, 0}, {0, 0}}, PadBorder::ReflectEven}, {{"input.0", 1, 100}}),
      sym_op({1, 8, 3}, PadAttrs{{{0, 0}, {3, 0}, {0, 0}}, PadBorder::ReflectEven}, {{"input.0", 3, 100}}),
      {"op", 2, {{"input.0", 1}}});
  // Replicate of an empty axis: as for the reductions, only a declared extent 0 is empty.
  // squeeze axis 1 of [1, N, 3]: N == 1, so 2 fails first.
  add(t, "shape.squeeze.extent-not-one", "axis 1 of extent input.0 = 1..100",
      sym_op({1, 1, 3}, SqueezeAttrs{{1}}, {{"input.0", 1, 100}}),
      sym_op({1, 1, 3}, SqueezeAttrs{{1}}, {{"input.0", 1, 100}}, {"input.0 == 1"}), {"op", 2, {{"input.0", 2}}});
  // The catalogue's example: broadcast_to [1, 0] of [1, 1] (constant).
  attr(t, "shape.empty-extent", "broadcast_to [1, 0]", one_op({1, 1}, BroadcastToAttrs{{1, 0}}),
       one_op({1, 1}, BroadcastToAttrs{{1, 2}}));
  // Symbolic: the slice [4, end) of [1, N, 3] has the extent N - min(4, N), empty for N <= 4. With
  // N over 1..4 the slice's own obligation (the same predicate) holds for no admissible size, so
  // it is not assumed afterwards and the output's extent is refuted as well, first at N = 1.
  add(t, "shape.empty-extent", "the output of slice [4, end) of input.0 = 1..4",
      sym_op({1, 8, 3}, SliceAttrs{{1}, {4}, {0}, {}}, {{"input.0", 1, 4}}),
      sym_op({1, 8, 3}, SliceAttrs{{1}, {4}, {0}, {}}, {{"input.0", 5, 100}}),
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
    add(t, "shape.window.exceeds-input", "kernel 5, input.0 = 1..100", conv5(1), conv5(5),
        {"conv", 2, {{"input.0", 1}}});
    // Same padding always fits the window: proved over the whole range.
    add(t, "shape.window.exceeds-input", "kernel 5: valid against same padding, input.0 = 1..100", conv5(1), [] {
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
    add(t, "shape.window.exceeds-input", "dilation 2, padding (1, 0), input.0 = 2..100", dilated(2), dilated(4),
        {"conv", 2, {{"input.0", 2}}});
  }
  add(t, "shape.window.exceeds-input", "kernel 5, input.0 = 1..100",
      sym_op({1, 32, 32, 3}, pool_attrs({5, 5}, {}, {}, {}, PadMode::Valid),
             {{"input.0", 1, 100}}, {}, "pool"),
      sym_op({1, 32, 32, 3}, pool_attrs({5, 5}, {}, {}, {}, PadMode::Valid),
             {{"input.0", 5, 100}}, {}, "pool"),
      {"pool", 2, {{"input.0", 1}}});

  // ----- binding -----------------------------------------------------------------------------
  attr(t, "bind.missing", "fc without its bias", linear(LinearAttrs{3}, true, false), linear(LinearAttrs{3}, true, true), "fc");
  attr(t, "bind.dtype", "fc.weight of int32", linear(LinearAttrs{3}, true, true, DType::I32),
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
    add(t, "bind.shape-mismatch", "weight [784, 10] for input.0 = 1..64", mnist({}), mnist({"input.0 == 28"}),
        {"fc", 3, {{"input.0", 1}}});
  }
  add(t, "bind.shape-mismatch", "a bias of rank 2 (constant)",
      [] {
        Model m = linear(LinearAttrs{3}, true, false)();
        m.param("fc", "bias", {1, 3});
        return m;
      },
      linear(LinearAttrs{3}, true, true), {"fc", 2});
  // fc's weight bound to a value of the graph (Node::param_values): the input itself, or a constant.
  {
    const auto computed = [](bool from_input) {
      return [from_input] {
        Model m;
        const int64_t x = m.input("input", {1, 2}, 1);
        const int64_t w = m.op("w", ConstAttrs{{2, 3}}, {}, 2);
        m.param("w", "value", {2, 3});
        const int64_t fc = m.op("fc", LinearAttrs{3, WeightLayout::InOut, false}, {x}, 3);
        m.g.nodes[static_cast<size_t>(fc)].param_values.push_back({"weight", {from_input ? x : w, 0}});
        m.out(fc);
        return m;
      };
    };
    add(t, "bind.computed", "fc's weight bound to the graph input", computed(true), computed(false), {"fc", 3});
  }
  // A weights entry no node has: a warning, located at the entry's file.
  add(t, "bind.unused", "weights for a node ghost",
      [] {
        Model m = relu_model();
        m.param("ghost", "weight", {2});
        return m;
      },
      relu_model, {"", 0, {}, Severity::Warning, "weights/ghost.weight.npy"});

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
    add(t, "size.overflow", "[1, input.0, 2^60], input.0 = 1..100", big(100), big(7), {"input", 1, {{"input.0", 8}}});
  }
  // input [batch, 64] -> linear 64 units: 8 * (64 b + 64 b) + 16 * (64 * 64 + 64) = 1024 b + 66560
  // bytes (each parameter as read, and converted while fc runs) fit 98304 for b <= 31. At b = 32 the
  // largest tensor is fc's weight (32768 bytes, as read and again converted).
  {
    const auto fc = [](int64_t hi) {
      return [hi] {
        Model m;
        const int64_t x = m.input("input", {1, 64}, 1);
        m.out(m.op("fc", LinearAttrs{64}, {x}, 2));
        m.param("fc", "weight", {64, 64});
        m.param("fc", "bias", {64});
        m.dim("batch", 1, hi);
        m.s.budget = 98304;
        return m;
      };
    };
    add(t, "size.budget", "batch = 1..100000 under 96K", fc(100000), fc(31),
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
    add(t, "size.window.extent-overflow", "padding (2^62, 2^62 - 100), input.0 = 1..100", wide(100), wide(98),
        {"conv", 2, {{"input.0", 99}}});
    const PoolAttrs p = pool_attrs({1, 1}, {kTwo62, 1}, {}, {{kTwo62, kTwo62 - 100}, {0, 0}});
    add(t, "size.window.extent-overflow", "padding (2^62, 2^62 - 100), input.0 = 1..100",
        sym_op({1, 8, 4, 1}, p, {{"input.0", 1, 100}}, {}, "pool"),
        sym_op({1, 8, 4, 1}, p, {{"input.0", 1, 98}}, {}, "pool"), {"pool", 2, {{"input.0", 99}}});
  }
  // deconv with stride 2^61 and padding (2^61 - 50, 0) over a width W: the full extent
  // (W - 1) * 2^61 + 1 plus the padding's 2^61 - 50 reaches 2^63 - 1 first at W = 5; at W = 2
  // the output width is 51.
  {
    const auto wide = [](int64_t lo, int64_t hi) {
      return [lo, hi] {
        Model m = deconv_op(deconv_attrs(1, {1}, {int64_t{1} << 61}, 1, {{(int64_t{1} << 61) - 50, 0}}), {1, 1, 2})();
        m.dim("input.1", lo, hi);
        return m;
      };
    };
    add(t, "size.deconv.extent-overflow", "stride 2^61, padding (2^61 - 50, 0), input.1 = 2..100", wide(2, 100),
        wide(2, 2), {"deconv", 2, {{"input.1", 5}}});
  }
  // sample reads x [1, 1, 4] with kernel 2, stride 2: its output and index are [1, 1, 2]; an index
  // [1, 1, 4] (a kernel-1 argmax) does not fit. desample of x [1, 1, 3] with kernel 2, stride 2:
  // output_shape [1, 1, 6] down-scales to 3, [1, 1, 4] to 2.
  {
    const auto sampled = [](int64_t index_kernel) {
      return [index_kernel] {
        Model m;
        const int64_t x = m.input("input", {1, 1, 4}, 1);
        ArgmaxPoolAttrs arg;
        arg.kernel = {index_kernel};
        arg.stride = {index_kernel};
        const int64_t i = m.op("arg", arg, {x}, 2);
        SampleAttrs s;
        s.kernel = {2};
        s.stride = {2};
        m.out(m.op("sample", s, {x, i}, 3));
        return m;
      };
    };
    add(t, "shape.sample.index-shape", "an index [1, 1, 4] for an output [1, 1, 2]", sampled(1), sampled(2), {"sample", 3});
    const auto desampled = [](int64_t up) {
      return [up] {
        Model m;
        const int64_t x = m.input("input", {1, 1, 3}, 1);
        ArgmaxPoolAttrs arg;
        arg.kernel = {1};
        const int64_t i = m.op("arg", arg, {x}, 2);
        SampleAttrs d;
        d.op = SampleOp::Desample;
        d.kernel = {2};
        d.stride = {2};
        d.output_shape = {1, 1, up};
        m.out(m.op("desample", d, {x, i}, 3));
        return m;
      };
    };
    add(t, "shape.desample.output-shape", "output_shape 4 down-scales to 2, not 3", desampled(4), desampled(6),
        {"desample", 3});
  }
  // avg_roi_pool of x [1, 2, 4, 4] with rois [3, 4] and batch_index [3] to output_size [2, 2]; each
  // bad case changes one of them.
  {
    struct Roi {
      std::vector<int64_t> x{1, 2, 4, 4}, rois{3, 4}, index{3}, output_size{2, 2};
    };
    const auto roi = [](Roi r) {
      return [r] {
        Model m;
        const int64_t x = m.input("input", r.x, 1);
        const int64_t rois = m.input("rois", r.rois, 2);
        const int64_t index = m.g.add("index", InputAttrs{r.index, ElemKind::Integer}, {}, at(3));
        RoiAttrs a;
        a.output_size = r.output_size;
        m.out(m.op("roi", a, {x, rois, index}, 4));
        return m;
      };
    };
    Roi zero_size, rank_3, short_rows, few_indices;
    zero_size.output_size = {0, 2};
    rank_3.x = {1, 2, 4};
    short_rows.rois = {3, 2};
    few_indices.index = {2};
    add(t, "attr.roi.output-size", "output_size [0, 2]", roi(zero_size), roi({}), {"roi", 4});
    add(t, "shape.roi.input-rank", "an input [1, 2, 4] for output_size [2, 2]", roi(rank_3), roi({}), {"roi", 4});
    add(t, "shape.roi.rois", "rois [3, 2] for two spatial axes", roi(short_rows), roi({}), {"roi", 4});
    add(t, "shape.roi.batch-index", "batch_index [2] for rois [3, 4]", roi(few_indices), roi({}), {"roi", 4});
  }
  // interpolate of x [1, 4] along axis 1 with tap indices [3, 2] and weights [3, 2]; the bad case's
  // weights are [3, 1].
  {
    const auto interpolated = [](int64_t weight_taps) {
      return [weight_taps] {
        Model m;
        const int64_t x = m.input("input", {1, 4}, 1);
        const int64_t indices = m.g.add("indices", InputAttrs{{3, 2}, ElemKind::Integer}, {}, at(2));
        const int64_t weights = m.input("weights", {3, weight_taps}, 3);
        m.out(m.op("interpolate", InterpolateAttrs{{1}}, {x, indices, weights}, 4));
        return m;
      };
    };
    add(t, "shape.interpolate.taps", "weights [3, 1] for tap indices [3, 2]", interpolated(1), interpolated(2),
        {"interpolate", 4});
  }
  return t;
}

}  // namespace nnref::test
