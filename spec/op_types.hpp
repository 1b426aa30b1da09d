// The vocabulary of an op's rule: how many inputs it takes, the kinds of its operands and
// results, and what its shape rule gives (output shapes and the implied parameter shapes).
#pragma once

#include <string>
#include <vector>

#include "spec/dim.hpp"
#include "spec/value.hpp"

namespace nnref {

struct Arity {
  int min = 1;
  int max = 1;  // -1: no upper bound
};

// The element kinds an op takes and gives. Input i has kind operands[i]; inputs past the list
// (variadic ops) have kind `rest`; every output has kind `result`. An op that states no
// signature takes and gives reals (op_signature in spec/op_rule.hpp).
struct Signature {
  std::vector<ElemKind> operands;
  ElemKind rest = ElemKind::Real;
  ElemKind result = ElemKind::Real;

  ElemKind operand(size_t i) const { return i < operands.size() ? operands[i] : rest; }
};

template <class Dim>
struct ParamShape {
  std::string role;  // "weight", "bias", "mean", ...
  Dims<Dim> dims;    // the exact shape the op implies
  bool required = true;
};

template <class Dim>
struct ShapeOut {
  std::vector<Dims<Dim>> outputs;
  std::vector<ParamShape<Dim>> params;
};

}  // namespace nnref
