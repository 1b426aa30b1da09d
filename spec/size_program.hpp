// Size programs: integers computed from the extents of an op's operands. An exported model
// computes its shapes (PyTorch's x.view(x.size(0), -1) is Shape, Gather, Unsqueeze, Concat and a
// Reshape); a front-end reads that arithmetic as terms over the extents of graph values, and an op
// that takes such sizes (reshape's computed dims, the sizes op) holds them as one program and
// reads those values as extra operands. One rule reads the program over concrete extents (run)
// and over size symbols (check), so the shape obligations of a dynamic export are proved for
// every size.
//
// A program is postfix code over int64 tokens; running it leaves its values on a stack, in order:
//   kConstant v          push v
//   kExtent j k          push extent k of operand j
//   kElement j i         push element i (row-major) of operand j's value, an integer value the
//                        graph computes from the data of its inputs (an ONNX ArgMax feeding a
//                        Reshape): no rule reads it (kDataDependentSize); the plan, given the
//                        run's inputs, evaluates that value and writes its element into the code
//                        as a kConstant before any rule runs (semantics/plan.cpp)
//   kAdd kSub kMul       pop b, a; push a + b, a − b, a · b
//   kDiv kMod kFmod      pop b, a (b ≥ 1); push a / b truncated toward zero, a − b·⌊a/b⌋ (the
//                        divisor's sign, ONNX's Mod), a − b·trunc(a/b) (the dividend's, fmod 1)
//   kMin kMax            pop b, a; push min(a, b), max(a, b)
//   kFloorDiv kCeilDiv   pop b, a (b >= 1); push floor(a / b), ceil(a / b) (SkriptND's `/` and `\`)
//   kLess kLessEqual kEqual kNotEqual
//                        pop b, a; push 1 when a < b (a <= b, a == b, a != b), else 0
//   kAnd kOr             pop b, a; push 1 when a and b (a or b) are not 0, else 0
//   kNot                 pop a; push 1 when a is 0, else 0
//   kSelect              pop b, a, c; push a when c is not 0, else b
// The comparisons, kAnd, kOr, kNot and kSelect let a program state a condition on extents (a
// SkriptND @assert, semantics/graph.hpp's SizeGuard): 1 when it holds.
// A value whose code is one kConstant is constant: rules may read it as a number (reshape's −1).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/dim.hpp"
#include "spec/obligation.hpp"

namespace nnref {

namespace size_code {
inline constexpr int64_t kConstant = 0, kExtent = 1, kAdd = 2, kSub = 3, kMul = 4, kDiv = 5, kMod = 6, kFmod = 7,
                         kMin = 8, kMax = 9, kElement = 10, kFloorDiv = 11, kCeilDiv = 12, kLess = 13,
                         kLessEqual = 14, kEqual = 15, kNotEqual = 16, kAnd = 17, kOr = 18, kNot = 19, kSelect = 20;
}

inline constexpr ObligationSpec kSizeProgram{
    ObligationKind::Shape, "shape.size-program",
    "A size computed from the extents of an op's operands reads only axes its operands have, divides only by a "
    "number of at least 1, and its program is well formed.",
    "0 <= k < rank(operand j) for every extent read; b >= 1 for every a / b, a mod b",
    "An ONNX Reshape whose shape is Div(Shape(x)[0], Shape(x)[1] - 1) over x [N, 1]: error[shape.size-program] "
    "(the divisor is 0)."};

inline constexpr ObligationSpec kDataDependentSize{
    ObligationKind::Shape, "shape.data-dependent-size",
    "A size an op takes is computed from extents, not from the data of the graph's inputs: check proves shapes only "
    "for sizes computed from extents; run evaluates such a size from the inputs it is given.",
    "no kElement token in a size program",
    "An ONNX Reshape of x [2, 6] to the shape Concat(ArgMax(y), [-1]): error[shape.data-dependent-size] in check; "
    "run computes ArgMax(y) first and reshapes to it."};

// The number of int64s of a token whose code is `op`: the code and its arguments.
inline size_t token_width(int64_t op) {
  return op == size_code::kConstant ? 2 : op == size_code::kExtent || op == size_code::kElement ? 3 : 1;
}

// Whether `code` reads an element of an operand's value (kElement), at a token boundary.
inline bool reads_elements(const std::vector<int64_t>& code) {
  for (size_t i = 0; i < code.size(); i += token_width(code[i]))
    if (code[i] == size_code::kElement) return true;
  return false;
}

template <class Dim>
struct SizeValue {
  Dim value;
  std::optional<int64_t> constant;  // the number, when its code is one kConstant
};

namespace size_detail {

template <class Dim>
Dim trunc_div(const Dim& a, const Dim& b) {
  const Dim zero(int64_t{0});
  return dim_select(a >= zero, floor_div(a, b), zero - floor_div(zero - a, b));
}

// Written with the few operations every Dim type has (==, >=, <, dim_select, dim_max, floor_div):
// a condition is the number 1 or 0.
template <class Dim>
Dim truth(const PredOf<Dim>& p) {
  return dim_select(p, Dim(int64_t{1}), Dim(int64_t{0}));
}
template <class Dim>
Dim is_zero(const Dim& a) {
  return truth<Dim>(a == Dim(int64_t{0}));
}

template <class Dim>
Dim apply(int64_t op, const Dim& a, const Dim& b) {
  const Dim zero(int64_t{0}), one(int64_t{1});
  switch (op) {
    case size_code::kAdd: return a + b;
    case size_code::kSub: return a - b;
    case size_code::kMul: return a * b;
    case size_code::kDiv: return trunc_div(a, b);
    case size_code::kMod: return a - b * floor_div(a, b);
    case size_code::kFmod: return a - b * trunc_div(a, b);
    case size_code::kMin: return dim_select(a < b, a, b);
    case size_code::kFloorDiv: return floor_div(a, b);
    case size_code::kCeilDiv: return zero - floor_div(zero - a, b);
    case size_code::kLess: return truth<Dim>(a < b);
    case size_code::kLessEqual: return truth<Dim>(b >= a);
    case size_code::kEqual: return truth<Dim>(a == b);
    case size_code::kNotEqual: return one - truth<Dim>(a == b);
    case size_code::kAnd: return one - dim_max(is_zero(a), is_zero(b));
    case size_code::kOr: return dim_max(one - is_zero(a), one - is_zero(b));
    default: return dim_max(a, b);
  }
}

}  // namespace size_detail

// The values `code` leaves, in order; nullopt, with kSizeProgram failed, when it is malformed or
// reads an axis its operand lacks (a divisor below 1 fails the obligation but still gives values),
// and with kDataDependentSize failed when it reads an element. Operand j is the op's input
// first_input + j (how messages name it).
template <class Dim>
std::optional<std::vector<SizeValue<Dim>>> run_size_program(const std::vector<int64_t>& code,
                                                            const std::vector<Dims<Dim>>& operands,
                                                            ObligationSink<Dim>& sink, const std::string& op,
                                                            size_t first_input = 0) {
  std::vector<SizeValue<Dim>> stack;
  auto malformed = [&](const std::string& why) {
    sink.require(false, kSizeProgram, op + ": computed sizes " + why);
    return std::nullopt;
  };
  for (size_t i = 0; i < code.size(); ++i) {
    const int64_t t = code[i];
    if (t == size_code::kConstant) {
      if (i + 1 >= code.size()) return malformed("end inside a constant");
      stack.push_back({Dim(code[i + 1]), code[i + 1]});
      i += 1;
    } else if (t == size_code::kExtent) {
      if (i + 2 >= code.size()) return malformed("end inside an extent");
      const int64_t j = code[i + 1], k = code[i + 2];
      if (j < 0 || static_cast<size_t>(j) >= operands.size() || k < 0 ||
          static_cast<size_t>(k) >= operands[static_cast<size_t>(j)].size())
        return malformed("read extent " + std::to_string(k) + " of operand " + std::to_string(j + 1) +
                         ", which it does not have");
      stack.push_back({operands[static_cast<size_t>(j)][static_cast<size_t>(k)], std::nullopt});
      i += 2;
    } else if (t == size_code::kElement) {
      if (i + 2 >= code.size()) return malformed("end inside an element");
      sink.require(false, kDataDependentSize,
                   op + ": a computed size is element " + std::to_string(code[i + 2]) + " of " +
                       sink.operand(first_input + static_cast<size_t>(std::max<int64_t>(code[i + 1], 0))) +
                       ", a value computed from the data of the graph's inputs; check proves shapes only for sizes "
                       "computed from extents; `run` evaluates it");
      return std::nullopt;
    } else if (t == size_code::kNot) {
      if (stack.empty()) return malformed("negate no value");
      stack.back() = {size_detail::is_zero(stack.back().value), std::nullopt};
    } else if (t == size_code::kSelect) {
      if (stack.size() < 3) return malformed("select among fewer than three values");
      const Dim b = stack.back().value;
      stack.pop_back();
      const Dim a = stack.back().value;
      stack.pop_back();
      stack.back() = {dim_select(stack.back().value == Dim(int64_t{0}), b, a), std::nullopt};
    } else if ((t >= size_code::kAdd && t <= size_code::kMax) || (t >= size_code::kFloorDiv && t <= size_code::kOr)) {
      if (stack.size() < 2) return malformed("apply an operation to fewer than two values");
      const SizeValue<Dim> b = stack.back();
      stack.pop_back();
      SizeValue<Dim>& a = stack.back();
      if (t == size_code::kDiv || t == size_code::kMod || t == size_code::kFmod || t == size_code::kFloorDiv ||
          t == size_code::kCeilDiv)
        sink.require(b.value >= Dim(int64_t{1}), kSizeProgram,
                     op + ": computed sizes divide " + dim_str(a.value) + " by " + dim_str(b.value) +
                         ", which may be below 1");
      a.value = size_detail::apply(t, a.value, b.value);
      a.constant = std::nullopt;
    } else {
      return malformed("hold an unknown token " + std::to_string(t));
    }
  }
  return stack;
}

// An op's size entries: its attribute's numbers (each constant), or, when `computed` is not empty,
// the values of that program over the operands after the first (nullopt when it fails).
template <class Dim>
std::optional<std::vector<SizeValue<Dim>>> size_entries(const std::vector<int64_t>& numbers,
                                                        const std::vector<int64_t>& computed,
                                                        const std::vector<Dims<Dim>>& inputs,
                                                        ObligationSink<Dim>& sink, const std::string& op) {
  if (!computed.empty())
    return run_size_program(computed, std::vector<Dims<Dim>>(inputs.begin() + 1, inputs.end()), sink, op, 1);
  std::vector<SizeValue<Dim>> out;
  for (int64_t v : numbers) out.push_back({Dim(v), v});
  return out;
}

}  // namespace nnref
