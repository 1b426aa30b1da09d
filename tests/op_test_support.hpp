// Helpers shared by the spec_*_test.cpp op tests: build tensors from doubles, check and
// evaluate an op through its explicitly instantiated kernel, read a failing check's diagnostic,
// and compare values within a per-type tolerance.
#pragma once

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "semantics/catalogue.hpp"
#include "spec/ops/op_list.hpp"

namespace nnref::test {

// A Tensor<T> of the given shape holding the given values, converted from double.
template <class T = double>
Tensor<T> tensor(Shape s, const std::vector<double>& values) {
  std::vector<T> data;
  for (double d : values) data.push_back(from_double<T>(d));
  return std::move(Tensor<T>::from(std::move(s), std::move(data))).value();
}

// A logical tensor of the given shape (each value 0 or 1).
inline Tensor<uint8_t> logical(Shape s, const std::vector<int>& values) {
  std::vector<uint8_t> data(values.begin(), values.end());
  return std::move(Tensor<uint8_t>::from(std::move(s), std::move(data))).value();
}

// An integer tensor of the given shape.
inline Tensor<int64_t> integers(Shape s, std::vector<int64_t> v) { return Tensor<int64_t>::from(std::move(s), std::move(v)).value(); }

template <class T>
std::vector<double> doubles(const Tensor<T>& t) {
  std::vector<double> out;
  for (const T& x : t.values()) out.push_back(sc::to_double(x));
  return out;
}

// The fast path's differential test on one op case (tests/fastpath_op_test_support.hpp): its
// lowering on every Highway target, judged by the spec's float32 envelope.
template <class A>
void check_fast_op(const A& attrs, const std::vector<Value<double>>& ins, const std::vector<Tensor<double>>& ps = {});

// The witness of attrs for the input values' shapes and kinds; the check must pass.
template <class A, class T>
Checked<A> checked_for(const A& attrs, const std::vector<Value<T>>& ins) {
  std::vector<Shape> shapes;
  std::vector<ElemKind> kinds;
  for (const auto& x : ins) {
    shapes.push_back(shape_of(x));
    kinds.push_back(kind_of(x));
  }
  auto c = Checked<A>::check(attrs, shapes, kinds);
  INFO((c ? std::string() : c.error().code + ": " + c.error().message));
  REQUIRE(c.ok());
  return std::move(c).value();
}

// Checks attrs against the input values' shapes and kinds (the check must pass), requires the
// given parameters to have the shapes the check promised, and returns the outputs, allocated with
// the witnessed shapes and written by the op's kernel.
template <class T, class A>
std::vector<Value<T>> run_values(const A& attrs, const std::vector<Value<T>>& ins, const std::vector<Tensor<T>>& ps = {}) {
  const auto c = checked_for(attrs, ins);
  REQUIRE(c.params().size() == ps.size());
  for (size_t i = 0; i < ps.size(); ++i) REQUIRE(c.params()[i].shape == ps[i].shape());
  std::vector<Value<T>> out;
  for (const Shape& s : c.outputs()) out.push_back(zeros<T>(c.output_kind(), s));
  OpIO<T> io;
  for (const auto& v : ins) io.inputs.push_back(&v);
  for (const auto& p : ps) io.params.push_back(&p);
  for (auto& v : out) io.outputs.push_back(&v);
  run_kernel<A, T>(c, io);
  // Every op test case evaluated in double also runs through the fast path (issue 12's
  // differential test "every op test case").
  if constexpr (std::is_same_v<T, double>) check_fast_op(attrs, ins, ps);
  return out;
}

// run_values for an op that takes and gives reals.
template <class T = double, class A>
std::vector<Tensor<T>> run(const A& attrs, const std::vector<Tensor<T>>& ins, const std::vector<Tensor<T>>& ps = {}) {
  std::vector<Value<T>> values(ins.begin(), ins.end());
  std::vector<Tensor<T>> reals;
  for (auto& v : run_values<T>(attrs, values, ps)) reals.push_back(std::get<Tensor<T>>(std::move(v)));
  return reals;
}

// The diagnostic of a check that must fail; its code is an obligation of the catalogue.
template <class A>
Diagnostic failure(const A& attrs, std::vector<Shape> shapes, std::vector<ElemKind> kinds = {}) {
  auto c = Checked<A>::check(attrs, std::move(shapes), std::move(kinds));
  REQUIRE_FALSE(c.ok());
  INFO(c.error().code << " is not in the obligation catalogue");
  CHECK(find_obligation(c.error().code) != nullptr);
  return c.error();
}

// "ok" when the check passes, else the failing diagnostic's code (an obligation of the catalogue).
template <class A>
std::string code_of(const A& attrs, std::vector<Shape> shapes, std::vector<ElemKind> kinds = {}) {
  auto c = Checked<A>::check(attrs, std::move(shapes), std::move(kinds));
  if (c) return "ok";
  INFO(c.error().code << " is not in the obligation catalogue");
  CHECK(find_obligation(c.error().code) != nullptr);
  return c.error().code;
}

// The output shape of a check that must pass.
template <class A>
Shape out_shape(const A& a, std::vector<Shape> shapes, size_t i = 0) {
  auto c = Checked<A>::check(a, std::move(shapes));
  REQUIRE(c.ok());
  return c->outputs()[i];
}

// 0, 1, 2, ... n−1
inline std::vector<double> iota(int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(i);
  return v;
}

// Absolute and relative tolerance: float keeps ~7 digits, double and mp50 (fed double
// constants) ~16.
template <class T>
constexpr double tol() {
  return std::is_same_v<T, float> ? 1e-6 : 1e-12;
}

template <class T>
void check_values(const Tensor<T>& t, const std::vector<double>& expected) {
  REQUIRE(t.size() == static_cast<int64_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    INFO("element " << i);
    CHECK(sc::to_double(t[static_cast<int64_t>(i)]) == Approx(expected[i]).epsilon(tol<T>()).margin(tol<T>()));
  }
}

inline constexpr double kLn2 = 0.693147180559945309417;
inline constexpr double kLn3 = 1.098612288668109691396;

}  // namespace nnref::test

#include "fastpath_op_test_support.hpp"  // defines check_fast_op, after run_values which it uses
