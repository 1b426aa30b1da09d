// The helpers more than one family of ONNX ops uses (handlers.hpp).
#include <stdexcept>

#include "formats/onnx/ops/handlers.hpp"
#include "formats/onnx/tensor_proto.hpp"

namespace nnref::onnx_format {

void add_ops(OpTable& table, std::initializer_list<std::pair<const char*, OpHandler>> ops) {
  for (const auto& [name, handler] : ops)
    if (!table.emplace(name, handler).second) throw std::logic_error(std::string("ONNX op listed twice: ") + name);
}

void require_fixed_extents(Ctx& c, const std::string& why) {
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported",
             c.proto().op_type() + " needs fixed extents (" + why + "), and the model's inputs have symbolic ones");
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

ValueRef element_flat_index(Ctx& c, const std::vector<int64_t>& d, ValueRef idx, const std::vector<int64_t>& s,
                            int64_t axis, const std::string& suffix) {
  const auto r = static_cast<int64_t>(d.size());
  if (static_cast<int64_t>(s.size()) != r) c.refuse("onnx.input-shape", "indices must have the rank of data");
  std::vector<int64_t> stride(static_cast<size_t>(r), 1);
  for (int64_t a = r - 2; a >= 0; --a)
    stride[static_cast<size_t>(a)] = stride[static_cast<size_t>(a + 1)] * d[static_cast<size_t>(a + 1)];
  int64_t count = 1;
  for (size_t a = 0; a < s.size(); ++a) {
    if (a != static_cast<size_t>(axis) && s[a] > d[a])
      c.refuse("onnx.input-shape", "indices' extent " + std::to_string(s[a]) + " on axis " + std::to_string(a) +
                                       " exceeds data's " + std::to_string(d[a]));
    count *= s[a];
  }
  c.charge(count);
  std::vector<int64_t> base(static_cast<size_t>(count));
  std::vector<int64_t> at(s.size(), 0);  // the position i, counted row-major
  for (int64_t& b : base) {
    b = 0;
    for (size_t a = 0; a < s.size(); ++a)
      if (a != static_cast<size_t>(axis)) b += at[a] * stride[a];
    for (size_t a = s.size(); a-- > 0 && ++at[a] == s[a];) at[a] = 0;
  }
  const auto name = [&](const std::string& n) { return suffix.empty() ? n : suffix + "-" + n; };
  const auto integer = [&](const std::string& n, int64_t v) {
    return c.literal(name(n), integer_tensor(Shape(), {v}));
  };
  const auto integer_op = [&](const std::string& n, IntegerOp op, ValueRef a, ValueRef b) {
    return c.emit(name(n), IntegerBinaryAttrs{op, Broadcast::NumpyRight, {}}, {a, b});
  };
  const int64_t extent = d[static_cast<size_t>(axis)];
  const ValueRef j_real = c.emit(name("index-as-real"), CastAttrs{ElemKind::Integer, ElemKind::Real}, {idx});
  const auto compare = [&](const std::string& n, CompareOp op, int64_t v) {
    return c.emit(name(n), CompareAttrs{op, Broadcast::NumpyRight},
                  {j_real, c.literal(name(n + "-bound"), scalar_tensor(static_cast<double>(v)))});
  };
  const ValueRef in_range =
      c.emit(name("index-in-range"), LogicalAttrs{LogicalOp::And, Broadcast::NumpyRight},
             {compare("index-above", CompareOp::Ge, -extent), compare("index-below", CompareOp::Lt, extent)});
  const ValueRef along = integer_op("along-axis", IntegerOp::Mul, index_in_range(c, idx, extent),
                                    integer("stride", stride[static_cast<size_t>(axis)]));
  const ValueRef flat = integer_op("flat", IntegerOp::Add, along,
                                   c.literal(name("base"), integer_tensor(Shape::make(s).value(), std::move(base))));
  return c.emit(name("flat-index"), SelectAttrs{Broadcast::NumpyRight, ElemKind::Integer},
                {in_range, flat, integer("outside", -1)});
}

ValueRef gathered_elements(Ctx& c, ValueRef data, const std::vector<int64_t>& d, ValueRef idx,
                           const std::vector<int64_t>& s, int64_t axis, const std::string& suffix) {
  const ValueRef index = element_flat_index(c, d, idx, s, axis, suffix);
  const auto name = [&](const std::string& n) { return suffix.empty() ? n : suffix + "-" + n; };
  const ValueRef flattened = c.emit(name("flattened"), ReshapeAttrs{{-1}}, {data});
  return c.emit(suffix, GatherAttrs{0}, {flattened, index});
}

void copy(Ctx& c) {
  const ElemKind kind = c.kind(0);
  // An integer or bool constant is itself (the IR copy takes reals only).
  if (c.exact(0) != nullptr && kind != ElemKind::Real) return c.set_output(0, c.operand(0, kind));
  if (c.exact(0) != nullptr || kind == ElemKind::Real)
    return c.set_output(0, c.emit("", UnaryAttrs{UnaryOp::Copy}, {c.operand(0, kind)}), kind, c.type(0));
  moved(c, ReshapeAttrs{std::vector<int64_t>(c.rank(0), 0)});
}

}  // namespace nnref::onnx_format
