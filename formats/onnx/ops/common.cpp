// The helpers more than one family of ONNX ops uses (handlers.hpp).
#include <stdexcept>

#include "formats/onnx/ops/handlers.hpp"
#include "formats/onnx/tensor_proto.hpp"

namespace nnref::onnx_format {

void add_ops(OpTable& table, std::initializer_list<std::pair<const char*, OpHandler>> ops) {
  for (const auto& [name, handler] : ops)
    if (!table.emplace(name, handler).second) throw std::logic_error(std::string("ONNX op listed twice: ") + name);
}

HostTensor scalar_tensor(double v) { return HostTensor{DType::F64, Shape(), {v}}; }

ValueRef binary(Ctx& c, const std::string& suffix, BinaryOp op, ValueRef a, ValueRef b) {
  return c.emit(suffix, BinaryAttrs{op, Broadcast::NumpyRight}, {a, b});
}

std::vector<ValueRef> with_sources(ValueRef x, const SizeProgram& p) {
  std::vector<ValueRef> in{x};
  in.insert(in.end(), p.sources.begin(), p.sources.end());
  return in;
}

SizeTerms size_terms(std::vector<std::vector<int64_t>> terms) {
  return SizeTerms{Shape::make({static_cast<int64_t>(terms.size())}).value(), std::move(terms)};
}

ValueRef reshaped(Ctx& c, const std::string& suffix, ValueRef x, ElemKind kind, const SizeTerms& shape) {
  SizeProgram p = c.program(shape);
  const std::vector<ValueRef> in = with_sources(x, p);
  return c.emit(suffix, ReshapeAttrs{{}, kind, std::move(p.code), std::move(p.kinds)}, in);
}

ValueRef integer_range(Ctx& c, const std::string& suffix, const std::vector<int64_t>& start,
                       const std::vector<int64_t>& limit) {
  RangeAttrs a;
  a.kind = ElemKind::Integer;
  SizeProgram p = c.program(size_terms({start, limit}));
  a.computed = std::move(p.code), a.sources = std::move(p.kinds);
  return c.emit(suffix, a, std::move(p.sources));
}

ValueRef index_in_range(Ctx& c, ValueRef j, int64_t d) {
  const ValueRef real = c.emit("index-real", CastAttrs{ElemKind::Integer, ElemKind::Real}, {j});
  const ValueRef negative = c.emit("index-negative", CompareAttrs{CompareOp::Lt, Broadcast::NumpyRight},
                                   {real, c.literal("zero", scalar_tensor(0.0))});
  const ValueRef shifted = c.emit("index-shifted", IntegerBinaryAttrs{IntegerOp::Add, Broadcast::NumpyRight, {}},
                                  {j, c.literal("extent", integer_tensor(Shape(), {d}))});
  return c.emit("index", SelectAttrs{Broadcast::NumpyRight, ElemKind::Integer}, {negative, shifted, j});
}

void copy(Ctx& c) {
  const ElemKind kind = c.kind(0);
  if (c.exact(0) != nullptr || kind == ElemKind::Real)
    return c.set_output(0, c.emit("", UnaryAttrs{UnaryOp::Copy}, {c.operand(0, kind)}), kind, c.type(0));
  moved(c, ReshapeAttrs{std::vector<int64_t>(c.rank(0), 0)});
}

}  // namespace nnref::onnx_format
