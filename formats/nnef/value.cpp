#include "formats/nnef/value.hpp"

#include <cstdio>

namespace nnref::nnef {

std::string type_text(const Type& t) {
  switch (t.kind) {
    case Type::Kind::Integer: return "integer";
    case Type::Kind::Scalar: return "scalar";
    case Type::Kind::Logical: return "logical";
    case Type::Kind::String: return "string";
    case Type::Kind::Generic: return "?";
    case Type::Kind::Tensor: return "tensor<" + (t.items.empty() ? std::string() : type_text(t.items[0])) + ">";
    case Type::Kind::Array: return type_text(t.items[0]) + "[]";
    case Type::Kind::Tuple: {
      std::string s = "(";
      for (size_t k = 0; k < t.items.size(); ++k) s += (k ? ", " : "") + type_text(t.items[k]);
      return s + ")";
    }
  }
  return "";
}

namespace {
const char* kind_type(ElemKind k) {
  switch (k) {
    case ElemKind::Real: return "scalar";
    case ElemKind::Integer: return "integer";
    case ElemKind::Logical: return "logical";
  }
  return "";
}
}  // namespace

std::string value_type_text(const Value& v, const std::vector<TensorInfo>& tensors) {
  switch (v.kind) {
    case Value::Kind::Integer: return "integer";
    case Value::Kind::Scalar: return "scalar";
    case Value::Kind::Logical: return "logical";
    case Value::Kind::String: return "string";
    case Value::Kind::Tensor: return std::string("tensor<") + kind_type(tensors[v.tensor].kind) + ">";
    case Value::Kind::Array:
      return v.items.empty() ? "[] (the empty array)" : value_type_text(v.items[0], tensors) + "[]";
    case Value::Kind::Tuple: {
      std::string s = "(";
      for (size_t k = 0; k < v.items.size(); ++k) s += (k ? ", " : "") + value_type_text(v.items[k], tensors);
      return s + ")";
    }
  }
  return "";
}

std::string value_text(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Integer: return std::to_string(v.i);
    case Value::Kind::Scalar: {
      if (!v.r.decimal.empty()) return v.r.decimal;
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", v.r.value);
      return buf;
    }
    case Value::Kind::Logical: return v.b ? "true" : "false";
    case Value::Kind::String: return "'" + v.s + "'";
    case Value::Kind::Tensor: return "a tensor";
    case Value::Kind::Array:
    case Value::Kind::Tuple: {
      const bool array = v.kind == Value::Kind::Array;
      std::string s = array ? "[" : "(";
      for (size_t k = 0; k < v.items.size(); ++k) s += (k ? ", " : "") + value_text(v.items[k]);
      return s + (array ? "]" : ")");
    }
  }
  return "";
}

bool values_equal(const Value& a, const Value& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Value::Kind::Integer: return a.i == b.i;
    case Value::Kind::Scalar: return a.r.value == b.r.value;
    case Value::Kind::Logical: return a.b == b.b;
    case Value::Kind::String: return a.s == b.s;
    case Value::Kind::Tensor: return a.tensor == b.tensor;
    case Value::Kind::Array:
    case Value::Kind::Tuple:
      if (a.items.size() != b.items.size()) return false;
      for (size_t k = 0; k < a.items.size(); ++k)
        if (!values_equal(a.items[k], b.items[k])) return false;
      return true;
  }
  return false;
}

}  // namespace nnref::nnef
