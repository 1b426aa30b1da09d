// A fast-path judgement for inputs the Envelope scalar reads as "anything": a NaN operand (an
// envelope with a NaN side bounds nothing, so its comparisons are unknown) or a subnormal one (the
// envelope allows flushing it to zero). There the spec is evaluated in float, a point scalar that
// decides every comparison, and the fast answers must equal it bit for bit, on every target with
// 1 and 2 threads.
#pragma once

#include <cstring>
#include <vector>

#include "fastpath_op_test_support.hpp"

namespace nnref::test {

// The bytes of a value, for a bitwise comparison of any kind.
inline std::vector<unsigned char> bytes_of(const Value<float>& v) {
  return std::visit(
      [](const auto& t) {
        std::vector<unsigned char> out(t.data().size_bytes());
        std::memcpy(out.data(), t.data().data(), out.size());
        return out;
      },
      v);
}

template <class A>
void check_fast_op_in_float(const A& attrs, const std::vector<Value<double>>& ins) {
  std::vector<Value<float>> float_ins;
  for (const auto& v : ins) float_ins.push_back(value_as<float>(v));
  const auto expected = run_values<float>(attrs, float_ins);
  for_each_target([&] {
    for (int threads : {1, 2}) {
      INFO(op_name(attrs) << " on target " << fastpath::current_target() << " with " << threads << " thread(s)");
      const auto fast = run_fast(attrs, ins, {}, threads);
      REQUIRE(fast.size() == expected.size());
      for (size_t k = 0; k < fast.size(); ++k) CHECK(bytes_of(fast[k]) == bytes_of(expected[k]));
    }
  });
}

}  // namespace nnref::test
