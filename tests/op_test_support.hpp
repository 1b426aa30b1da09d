// Helpers shared by the spec_*_test.cpp op tests: build tensors from doubles, check and
// evaluate an op through its explicitly instantiated kernel (checking parameter shapes against
// the witness's; outputs are allocated with the witnessed shapes), read a failing
// check's diagnostic, and compare values within a per-type tolerance.
#pragma once

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "spec/ops/op_list.hpp"

namespace nnref::test {

// A Tensor<T> of the given shape holding the given values, converted from double.
template <class T = double>
Tensor<T> tensor(Shape s, const std::vector<double>& values) {
  std::vector<T> data;
  for (double d : values) data.push_back(from_double<T>(d));
  return std::move(Tensor<T>::from(std::move(s), std::move(data))).value();
}

template <class T>
std::vector<double> doubles(const Tensor<T>& t) {
  std::vector<double> out;
  for (const T& x : t.values()) out.push_back(sc::to_double(x));
  return out;
}

// Checks attrs against the input shapes (the check must pass), requires the given parameters
// and the evaluated outputs to have the shapes the check promised, and returns the outputs.
// T comes first so that run<float>(attrs, ...) names the element type; it defaults to double.
template <class T = double, class A>
std::vector<Tensor<T>> run(const A& attrs, const std::vector<Tensor<T>>& ins, const std::vector<Tensor<T>>& ps = {}) {
  std::vector<Shape> shapes;
  std::vector<Value<T>> in;
  for (const auto& x : ins) {
    shapes.push_back(x.shape());
    in.emplace_back(x);
  }
  auto c = Checked<A>::check(attrs, shapes);
  INFO((c ? std::string() : c.error().code + ": " + c.error().message));
  REQUIRE(c.ok());
  REQUIRE(c->params().size() == ps.size());
  for (size_t i = 0; i < ps.size(); ++i) REQUIRE(c->params()[i].shape == ps[i].shape());
  std::vector<Value<T>> out;
  for (const Shape& s : c->outputs()) out.push_back(zeros<T>(c->output_kind(), s));
  OpIO<T> io;
  for (const auto& v : in) io.inputs.push_back(&v);
  for (const auto& p : ps) io.params.push_back(&p);
  for (auto& v : out) io.outputs.push_back(&v);
  run_kernel<A, T>(*c, io);
  std::vector<Tensor<T>> reals;
  for (auto& v : out) reals.push_back(std::get<Tensor<T>>(std::move(v)));
  return reals;
}

// The diagnostic of a check that must fail.
template <class A>
Diagnostic failure(const A& attrs, std::vector<Shape> shapes) {
  auto c = Checked<A>::check(attrs, std::move(shapes));
  REQUIRE_FALSE(c.ok());
  return c.error();
}

// "ok" when the check passes, else the failing diagnostic's code.
template <class A>
std::string code_of(const A& attrs, std::vector<Shape> shapes) {
  auto c = Checked<A>::check(attrs, std::move(shapes));
  return c ? "ok" : c.error().code;
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
