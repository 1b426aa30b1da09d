// Helpers for the fastpath_op_*_test.cpp tests: run one op through its fast-path lowering
// (fastpath/lower.hpp) on a scratch arena, and judge its answers with the spec's op evaluated over
// the Envelope scalar, the rule of nnref conform. Integer and logical outputs must equal the
// spec's exactly.
#pragma once

#include <catch2/catch.hpp>
#include <hwy/aligned_allocator.h>

#include <cstring>
#include <string>
#include <vector>

#include "fastpath/gemm.hpp"
#include "fastpath/lower.hpp"
#include "fastpath/memory_plan.hpp"
#include "fastpath/threads.hpp"
#include "fastpath_test_support.hpp"
#include "op_test_support.hpp"

namespace nnref::test {

// A value given as doubles, read in scalar T (reals through from_double, integers and logical
// values unchanged).
template <Scalar T>
Value<T> value_as(const Value<double>& v) {
  if (const auto* t = std::get_if<Tensor<double>>(&v)) {
    std::vector<T> data;
    for (double x : t->values()) data.push_back(from_double<T>(x));
    return std::move(Tensor<T>::from(t->shape(), std::move(data))).value();
  }
  if (const auto* t = std::get_if<Tensor<int64_t>>(&v)) return *t;
  return std::get<Tensor<uint8_t>>(v);
}

template <Scalar T>
std::vector<Tensor<T>> params_as(const std::vector<Tensor<double>>& ps) {
  std::vector<Tensor<T>> out;
  for (const auto& p : ps) out.push_back(std::get<Tensor<T>>(value_as<T>(Value<double>(p))));
  return out;
}

// The outputs of the op's fast step on these inputs and parameters, with `threads` threads and the
// given epilogue (conv and linear only).
template <class A>
std::vector<Value<float>> run_fast(const A& attrs, const std::vector<Value<double>>& ins,
                                   const std::vector<Tensor<double>>& ps, int threads = 1,
                                   const fastpath::Epilogue& epilogue = {}) {
  std::vector<Shape> shapes;
  std::vector<ElemKind> kinds;
  for (const auto& x : ins) {
    shapes.push_back(shape_of(x));
    kinds.push_back(kind_of(x));
  }
  auto c = Checked<A>::check(attrs, shapes, kinds);
  INFO((c ? std::string() : c.error().code + ": " + c.error().message));
  REQUIRE(c.ok());
  const auto bytes = [](ElemKind k) -> int64_t { return k == ElemKind::Real ? 4 : k == ElemKind::Integer ? 8 : 1; };
  int64_t end = 0;
  const auto place = [&](const Shape& s, ElemKind k) {
    fastpath::Slot slot{end, s, k};
    end += (s.count() * bytes(k) + fastpath::kSlotAlignment) / fastpath::kSlotAlignment * fastpath::kSlotAlignment;
    return slot;
  };
  fastpath::NodeLowering node;
  for (size_t i = 0; i < ins.size(); ++i) node.inputs.push_back(place(shapes[i], kinds[i]));
  for (const Shape& s : c->outputs()) node.outputs.push_back(place(s, c->output_kind()));
  if (fastpath::is_view(CheckedOp(*c))) node.outputs[0].offset = node.inputs[0].offset;
  const auto floats = params_as<float>(ps);
  for (const auto& p : floats) node.params.push_back(&p);
  while (node.params.size() < c->params().size()) node.params.push_back(nullptr);
  node.epilogue = epilogue;

  auto arena = hwy::AllocateAligned<std::byte>(static_cast<size_t>(end + 1));
  fastpath::ThreadPool pool(threads);
  const fastpath::Frame frame{arena.get(), &pool};
  for (size_t i = 0; i < ins.size(); ++i) {
    const Value<float> v = value_as<float>(ins[i]);
    std::visit([&](const auto& t) { std::memcpy(arena.get() + node.inputs[i].offset, t.data().data(), t.data().size_bytes()); }, v);
  }
  const fastpath::Step step = fastpath::lower_op(*c, node);
  if (step) step(frame);
  std::vector<Value<float>> out;
  for (const fastpath::Slot& s : node.outputs) {
    Value<float> v = zeros<float>(s.kind, s.shape);
    std::visit([&](auto& t) { std::memcpy(t.data().data(), arena.get() + s.offset, t.data().size_bytes()); }, v);
    out.push_back(std::move(v));
  }
  return out;
}

// On every Highway target and with 1 and 2 threads: the op's fast answers lie in the spec's float32
// envelope (real outputs) or equal the spec's (integer and logical outputs).
template <class A>
void check_fast_op(const A& attrs, const std::vector<Value<double>>& ins, const std::vector<Tensor<double>>& ps) {
  std::vector<Value<Envelope>> env_ins;
  for (const auto& v : ins) env_ins.push_back(value_as<Envelope>(v));
  const auto envelope = run_values<Envelope>(attrs, env_ins, params_as<Envelope>(ps));
  for_each_target([&] {
    for (int threads : {1, 2}) {
      INFO(op_name(attrs) << " on target " << fastpath::current_target() << " with " << threads << " thread(s)");
      const auto fast = run_fast(attrs, ins, ps, threads);
      REQUIRE(fast.size() == envelope.size());
      for (size_t k = 0; k < fast.size(); ++k) {
        INFO("output " << k);
        REQUIRE(shape_of(fast[k]) == shape_of(envelope[k]));
        if (const auto* y = std::get_if<Tensor<float>>(&fast[k])) {
          CHECK(rejected(std::get<Tensor<Envelope>>(envelope[k]), y->values()) == 0);
        } else if (const auto* y = std::get_if<Tensor<int64_t>>(&fast[k])) {
          CHECK(y->values() == std::get<Tensor<int64_t>>(envelope[k]).values());
        } else {
          CHECK(std::get<Tensor<uint8_t>>(fast[k]).values() == std::get<Tensor<uint8_t>>(envelope[k]).values());
        }
      }
    }
  });
}

}  // namespace nnref::test
