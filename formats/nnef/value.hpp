// The values an NNEF document computes with while it is composed into a graph (§3.3.1): the
// compile-time primitives (integer, scalar, logical, string), arrays and tuples of values, and
// tensors, which stand for values of the IR graph being built.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/nnef/ast.hpp"
#include "semantics/graph.hpp"
#include "semantics/payload.hpp"
#include "spec/real.hpp"
#include "spec/value.hpp"

namespace nnref::nnef {

struct Value {
  enum class Kind { Integer, Scalar, Logical, String, Array, Tuple, Tensor };
  Kind kind = Kind::Integer;
  int64_t i = 0;             // Integer
  Real r;                    // Scalar: the double, and the decimal a literal spells
  bool b = false;            // Logical
  std::string s;             // String
  std::vector<Value> items;  // Array, Tuple
  size_t tensor = 0;         // Tensor: an index into the composer's tensor table

  static Value integer(int64_t v) { Value x; x.kind = Kind::Integer; x.i = v; return x; }
  static Value scalar(Real v) { Value x; x.kind = Kind::Scalar; x.r = std::move(v); return x; }
  static Value logical(bool v) { Value x; x.kind = Kind::Logical; x.b = v; return x; }
  static Value string(std::string v) { Value x; x.kind = Kind::String; x.s = std::move(v); return x; }
  static Value array(std::vector<Value> v) { Value x; x.kind = Kind::Array; x.items = std::move(v); return x; }
  static Value tuple(std::vector<Value> v) { Value x; x.kind = Kind::Tuple; x.items = std::move(v); return x; }
  static Value of_tensor(size_t t) { Value x; x.kind = Kind::Tensor; x.tensor = t; return x; }
  bool is_primitive() const { return kind == Kind::Integer || kind == Kind::Scalar || kind == Kind::Logical || kind == Kind::String; }
};

// One tensor of the graph being built. A variable or a literal becomes an IR value only when an
// op reads it as an operand (a Const node); an op that takes it as a parameter (conv's filter)
// copies its data into the payload instead.
struct TensorInfo {
  std::optional<ValueRef> ref;  // the IR value, once there is one
  std::vector<int64_t> shape;   // extents at the sizes the document declares
  ElemKind kind = ElemKind::Real;
  std::optional<ParamEntry> data;  // a variable's data (when read) or a literal's value
  std::string label;               // a variable's label
  std::string identifier;          // a constant's graph identifier, which names its Const node
  bool is_literal = false;
  bool dequantized = false;        // a variable stored as quantized items, read through graph.quant
  SourceLoc loc;
};

// The Shape of extents already checked positive and of a count that fits int64.
inline Shape shape_from(const std::vector<int64_t>& dims) { return Shape::make(dims).value(); }

// "integer", "scalar[]", "tensor<scalar>", ... for messages.
std::string type_text(const Type& t);
std::string value_type_text(const Value& v, const std::vector<TensorInfo>& tensors);
// The value as NNEF text: 3, 1.5, 'x', [1, 2], (0, 1), or the tensor's shape.
std::string value_text(const Value& v);
bool values_equal(const Value& a, const Value& b);

}  // namespace nnref::nnef
