// The helpers more than one family of ONNX ops uses (handlers.hpp).
#include <stdexcept>

#include "formats/onnx/ops/handlers.hpp"

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

void copy(Ctx& c) {
  const ElemKind kind = c.kind(0);
  if (c.exact(0) != nullptr || kind == ElemKind::Real)
    return c.set_output(0, c.emit("", UnaryAttrs{UnaryOp::Copy}, {c.operand(0, kind)}), kind, c.type(0));
  moved(c, ReshapeAttrs{std::vector<int64_t>(c.rank(0), 0)});
}

}  // namespace nnref::onnx_format
