// Logical values as the interpretations compute them. A point scalar decides every comparison, so
// its logical values are 0 (false) and 1 (true). An enclosure (Interval, Envelope) holds a set of
// reals; a comparison of two sets may hold for some of their values and fail for others, and then
// its value is kUnknown: Kleene's strong three-valued logic, in which an unknown operand decides a
// result only when the other operands decide it anyway (false ∧ unknown = false).
#pragma once

#include <cstdint>

namespace nnref {

inline constexpr uint8_t kFalse = 0, kTrue = 1, kUnknown = 2;
// The integer an enclosure leaves undecided (argmax over sets that overlap, floor of a set that
// spans an integer), or a real with no integer (NaN, beyond int64): a value no index or cast
// result within range has. Ops reading integers treat it as "any".
inline constexpr int64_t kUnknownInteger = INT64_MIN;

inline uint8_t truth_of(bool b) { return b ? kTrue : kFalse; }

inline uint8_t truth_not(uint8_t a) { return a == kUnknown ? kUnknown : truth_of(a == kFalse); }
inline uint8_t truth_and(uint8_t a, uint8_t b) {
  if (a == kFalse || b == kFalse) return kFalse;
  return a == kTrue && b == kTrue ? kTrue : kUnknown;
}
inline uint8_t truth_or(uint8_t a, uint8_t b) {
  if (a == kTrue || b == kTrue) return kTrue;
  return a == kFalse && b == kFalse ? kFalse : kUnknown;
}

// The orderings two scalars can stand in (sc::orderings): a set of these bits. A point has
// exactly one; an enclosure has every ordering some pair of its values has.
enum Ordering : uint8_t { kLess = 1, kEqual = 2, kGreater = 4, kUnordered = 8 };
inline constexpr uint8_t kAnyOrdering = kLess | kEqual | kGreater | kUnordered;

// Whether a relation that holds exactly for the orderings in `holds` is true, false or unknown for
// operands standing in one of the orderings `possible`.
inline uint8_t truth_for(uint8_t possible, uint8_t holds) {
  if ((possible & holds) == 0) return kFalse;
  return (possible & ~holds) == 0 ? kTrue : kUnknown;
}

}  // namespace nnref
