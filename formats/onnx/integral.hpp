// Whether an IR op's real result is an integer for every input (Floor, Ceil, Round; a cast from
// an integer or logical value): ONNX's Cast to an integer type, which truncates, and the IR's
// cast, which floors, agree on it. The reader and the writer use it so that a float-to-integer
// cast reads back as the graph it was written from.
#pragma once

#include <variant>

#include "semantics/op.hpp"

namespace nnref::onnx_format {

inline bool integral(const OpAttrs* op) {
  if (op == nullptr) return false;
  if (const auto* u = std::get_if<UnaryAttrs>(op))
    return u->op == UnaryOp::Floor || u->op == UnaryOp::Ceil || u->op == UnaryOp::Round || u->op == UnaryOp::RoundEven;
  if (const auto* c = std::get_if<CastAttrs>(op)) return c->from != ElemKind::Real && c->to == ElemKind::Real;
  return false;
}

}  // namespace nnref::onnx_format
