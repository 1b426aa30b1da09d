// The attributes of sizes: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/sizes.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/size_program.hpp"

namespace nnref {

struct SizesAttrs {
  std::vector<int64_t> program;    // leaves one value per element of the result
  std::vector<ElemKind> sources;   // the operands' kinds: only their extents are read
};

// Its one obligation, kSizeProgram, is shared with reshape (semantics/catalogue.cpp).
template <>
struct OpInfo<SizesAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
};

inline std::string op_name(const SizesAttrs&) { return "sizes"; }
inline Arity arity(const SizesAttrs& a) {
  const int n = static_cast<int>(a.sources.size());
  return {n, n};
}
inline Signature signature(const SizesAttrs& a) { return {a.sources, ElemKind::Real, ElemKind::Integer}; }

}  // namespace nnref
