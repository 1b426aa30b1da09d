// The table of checker_obligations_test: a minimal model that violates each obligation and one that
// satisfies it, with the builders they share. The table is split over two units compiled into the
// one test executable (checker_obligations_test.cpp and checker_obligations_test_shapes.cpp), so
// that neither takes long to compile.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "checker/check_model.hpp"
#include "semantics/graph.hpp"
#include "semantics/op.hpp"
#include "semantics/payload.hpp"

namespace nnref::test {

constexpr const char* kFile = "m.nnl";
constexpr int kColumn = 5;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

inline SourceLoc at(int line) { return {kFile, line, kColumn}; }

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
inline Build one_op(std::vector<int64_t> in_dims, OpAttrs a, const std::string& name = "op") {
  return [=] {
    Model m;
    const int64_t x = m.input("input", in_dims, 1);
    m.out(m.op(name, a, {x}, 2));
    return m;
  };
}

// input (line 1), relu r (line 2), output r: the well-formed graph of the structure cases.
inline Model relu_model() {
  Model m;
  const int64_t x = m.input("input", {1, 4}, 1);
  m.out(m.op("r", UnaryAttrs{UnaryOp::Relu}, {x}, 2));
  return m;
}

// Channels-last (NHWC, as NNL) window attributes; empty lists mean the defaults.
inline ConvAttrs conv_attrs(int64_t out_channels, std::vector<int64_t> kernel, std::vector<int64_t> stride = {},
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
inline PoolAttrs pool_attrs(std::vector<int64_t> kernel, std::vector<int64_t> stride = {},
                            std::vector<int64_t> dilation = {},
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
inline Build conv(ConvAttrs a, std::vector<int64_t> weight = {}, std::vector<int64_t> in_dims = {1, 8, 8, 4}) {
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
inline ConvAttrs conv3() { return conv_attrs(4, {3, 3}); }
const std::vector<int64_t> kConv3Weight = {4, 4, 3, 3};

inline DeconvAttrs deconv_attrs(int64_t out_channels, std::vector<int64_t> kernel, std::vector<int64_t> stride = {},
                                int64_t groups = 1, std::vector<std::pair<int64_t, int64_t>> padding = {}) {
  DeconvAttrs a;
  a.out_channels = out_channels;
  a.kernel = std::move(kernel);
  a.stride = std::move(stride);
  a.groups = groups;
  a.padding = std::move(padding);
  a.has_bias = false;
  return a;
}
// A deconv "deconv" (line 2) of a channels-first input `in_dims` (line 1), with its weight
// [C, out_channels/groups, k...] bound.
inline Build deconv_op(DeconvAttrs a, std::vector<int64_t> in_dims) {
  return [=] {
    Model m;
    const int64_t x = m.input("input", in_dims, 1);
    m.out(m.op("deconv", a, {x}, 2));
    std::vector<int64_t> w{in_dims[1], a.groups >= 1 ? a.out_channels / a.groups : a.out_channels};
    w.insert(w.end(), a.kernel.begin(), a.kernel.end());
    m.param("deconv", "weight", w);
    return m;
  };
}

inline Build pool(PoolAttrs a, std::vector<int64_t> in_dims = {1, 8, 8, 4}) {
  return one_op(std::move(in_dims), a, "pool");
}
inline PoolAttrs pool3() { return pool_attrs({3, 3}); }

// input [1, 8] (line 1) -> linear "fc" (line 2) with 3 units, and the weights given.
inline Build linear(LinearAttrs a, bool weight, bool bias, DType weight_type = DType::F32,
                    std::vector<int64_t> in = {1, 8}) {
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
inline Build two_inputs(std::vector<int64_t> a_dims, std::vector<int64_t> b_dims, OpAttrs a,
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
inline Build sym_op(std::vector<int64_t> in_dims, OpAttrs a, std::vector<DimRange> dims,
                    std::vector<std::string> assume = {}, const std::string& name = "op") {
  return [=] {
    Model m = one_op(in_dims, a, name)();
    m.s.dims = dims;
    m.s.assumptions = assume;
    return m;
  };
}

constexpr int64_t kTwo60 = int64_t{1} << 60;
constexpr int64_t kTwo62 = int64_t{1} << 62;

inline void add(std::vector<Case>& t, std::string code, std::string label, Build bad, Build good, Expect e) {
  t.push_back(Case{std::move(code), std::move(label), std::move(bad), std::move(good), std::move(e)});
}
// A case whose violation is an error at the node `node` on line 2, without a counterexample.
inline void attr(std::vector<Case>& t, std::string code, std::string label, Build bad, Build good,
                 std::string node = "op") {
  add(t, std::move(code), std::move(label), std::move(bad), std::move(good), Expect{std::move(node), 2});
}

// The graph, rank, axis and attribute cases (checker_obligations_test.cpp).
std::vector<Case> graph_and_attribute_cases();
// The extent, binding and size cases (checker_obligations_test_shapes.cpp).
std::vector<Case> shape_binding_and_size_cases();

}  // namespace nnref::test
