// Helpers for the fastpath_op_*_test.cpp tests: run one op through its fast-path lowering
// (fastpath/lower.hpp) on a scratch arena, and judge its answers with the spec's op evaluated over
// the Envelope scalar, the rule of nnref conform. Integer and logical outputs must equal the
// spec's exactly.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "fastpath/gemm.hpp"
#include "fastpath/lower.hpp"
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
// given epilogue (conv and linear only). Compiled once (fastpath_op_test_support.cpp), for every op.
std::vector<Value<float>> run_fast_checked(const CheckedOp& op, const std::vector<Value<double>>& ins,
                                           const std::vector<Tensor<double>>& ps, int threads,
                                           const fastpath::Epilogue& epilogue);

template <class A>
std::vector<Value<float>> run_fast(const A& attrs, const std::vector<Value<double>>& ins,
                                   const std::vector<Tensor<double>>& ps, int threads = 1,
                                   const fastpath::Epilogue& epilogue = {}) {
  return run_fast_checked(CheckedOp(checked_for(attrs, ins)), ins, ps, threads, epilogue);
}

// On every Highway target and with 1 and 2 threads: the op's fast answers lie in the spec's float32
// envelope (real outputs) or equal the spec's (integer and logical outputs). Compiled once.
void check_fast_against(const CheckedOp& op, const std::vector<Value<double>>& ins,
                        const std::vector<Tensor<double>>& ps, const std::vector<Value<Envelope>>& envelope);

template <class A>
void check_fast_op(const A& attrs, const std::vector<Value<double>>& ins, const std::vector<Tensor<double>>& ps) {
  std::vector<Value<Envelope>> env_ins;
  for (const auto& v : ins) env_ins.push_back(value_as<Envelope>(v));
  const auto envelope = run_values<Envelope>(attrs, env_ins, params_as<Envelope>(ps));
  check_fast_against(CheckedOp(checked_for(attrs, ins)), ins, ps, envelope);
}

}  // namespace nnref::test
