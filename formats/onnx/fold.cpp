// Constants are what is computed from constants: an op whose every operand is known when the model
// is read, and whose result does not depend on the precision of a run, is evaluated then, by its
// own IR formula (the oracle's kernel), and its result is a constant: PyTorch's shape arithmetic
// (Shape, Gather, Unsqueeze, Concat feeding a Reshape) and the weights it passes through Identity
// or Transpose. Real arithmetic is never folded: it is computed in the run's precision, as a node.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "formats/onnx/importer.hpp"
#include "semantics/memory.hpp"
#include "spec/truth.hpp"

namespace nnref::onnx_format {

namespace {

template <class A, class... B>
constexpr bool is_one_of = (std::is_same_v<A, B> || ...);

// The IR ops whose result is the same in every precision: those that move elements (of any kind),
// and those whose result is an integer or logical value (the latter read reals: see reads_reals);
// cumsum of integers. Only their kernels are run here (fuzz/CMakeLists.txt links the same list into
// the harnesses).
template <class A>
constexpr bool kFoldable = is_one_of<A, UnaryAttrs, ReshapeAttrs, FlattenAttrs, TransposeAttrs, ConcatAttrs, SliceAttrs,
                                     SqueezeAttrs, UnsqueezeAttrs, GatherAttrs, BroadcastToAttrs, CastAttrs,
                                     CompareAttrs, LogicalAttrs, ArgReduceAttrs, IntegerBinaryAttrs, CumsumAttrs,
                                     RangeAttrs, ReduceAttrs>;

bool exact_op(const OpAttrs& op) {
  return std::visit(
      [](const auto& a) {
        using A = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<A, UnaryAttrs>)
          return a.op == UnaryOp::Copy;
        else if constexpr (is_one_of<A, CumsumAttrs, RangeAttrs, ReduceAttrs>)
          return a.kind == ElemKind::Integer;  // a real one computes in the run's precision
        else
          return kFoldable<A>;
      },
      op);
}

// Whether the op computes with the values of its real operands (compares, casts to an integer,
// finds an extremum) rather than moving them.
bool reads_reals(const OpAttrs& op) {
  return std::holds_alternative<CastAttrs>(op) || std::holds_alternative<CompareAttrs>(op) ||
         std::holds_alternative<ArgReduceAttrs>(op);
}

bool float32_exact(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) {
    return std::isnan(v) || static_cast<double>(static_cast<float>(v)) == v;
  });
}

nnref::Value<double> to_value(const ExactTensor& t, ElemKind kind) {
  const Shape& s = t.tensor.shape;
  switch (kind) {
    case ElemKind::Integer: {
      Tensor<int64_t> v(s);
      std::copy(t.ints.begin(), t.ints.end(), v.data().begin());
      return v;
    }
    case ElemKind::Logical: {
      Tensor<uint8_t> v(s);
      std::transform(t.ints.begin(), t.ints.end(), v.data().begin(), [](int64_t x) { return x != 0 ? 1 : 0; });
      return v;
    }
    case ElemKind::Real: break;
  }
  Tensor<double> v(s);
  std::copy(t.tensor.values.begin(), t.tensor.values.end(), v.data().begin());
  return v;
}

// `real_dtype`: the element type of a real result, that of the data moved; a real made from
// integers (a cast) is a float32 where every value is one, else a float64.
ExactTensor to_exact(const nnref::Value<double>& v, std::optional<DType> real_dtype) {
  ExactTensor out;
  out.tensor.shape = nnref::shape_of(v);
  if (const auto* r = std::get_if<Tensor<double>>(&v)) {
    out.tensor.values.assign(r->data().begin(), r->data().end());
    out.tensor.dtype = real_dtype.value_or(float32_exact(out.tensor.values) ? DType::F32 : DType::F64);
    return out;
  }
  if (const auto* i = std::get_if<Tensor<int64_t>>(&v)) {
    out.tensor.dtype = DType::I64;
    out.ints.assign(i->data().begin(), i->data().end());
  } else {
    const auto& b = std::get<Tensor<uint8_t>>(v);
    out.tensor.dtype = DType::Bool;
    out.ints.assign(b.data().begin(), b.data().end());
  }
  for (int64_t x : out.ints) out.tensor.values.push_back(exact_double(x));
  return out;
}

// The ops that move every operand's elements unchanged (no operand indexes the others): those a
// size term goes through as it is.
bool moves_only(const OpAttrs& op) {
  return std::visit(
      [](const auto& a) {
        using A = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<A, UnaryAttrs>)
          return a.op == UnaryOp::Copy;
        else if constexpr (std::is_same_v<A, RangeAttrs>)
          return a.kind == ElemKind::Integer;  // a real range computes in the run's precision
        else if constexpr (std::is_same_v<A, CastAttrs>)
          return a.from == a.to;
        else
          return is_one_of<A, ReshapeAttrs, FlattenAttrs, TransposeAttrs, ConcatAttrs, SliceAttrs, SqueezeAttrs,
                           UnsqueezeAttrs, BroadcastToAttrs>;
      },
      op);
}

}  // namespace

// Terms move as their positions do: each operand's elements are numbered (one numbering across
// the operands), the op's own formula moves the numbers as a constant, and each number it gives
// brings its term.
std::optional<SizeTerms> Importer::fold_sizes(const OpAttrs& op, const std::vector<ValueRef>& inputs) {
  if (inputs.empty() || !moves_only(op)) return std::nullopt;
  bool any = false;
  std::vector<std::vector<int64_t>> terms;
  std::vector<ValueRef> numbered;
  for (const ValueRef& r : inputs) {
    const SizesPtr t = handle_sizes(r);
    if (!t) return std::nullopt;
    any = any || handles_[static_cast<size_t>(-r.node - 1)].sizes != nullptr;
    std::vector<int64_t> ids;
    for (const auto& e : t->elements) {
      ids.push_back(static_cast<int64_t>(terms.size()));
      terms.push_back(e);
    }
    numbered.push_back(handle(std::make_shared<const ExactTensor>(integer_tensor(t->shape, std::move(ids))),
                              ElemKind::Integer, nullptr, ""));
  }
  if (!any) return std::nullopt;  // constants alone: fold()
  const std::optional<ExactTensor> moved = fold(op, numbered);
  if (!moved) return std::nullopt;
  SizeTerms out{moved->tensor.shape, {}};
  for (int64_t id : moved->ints) out.elements.push_back(terms[static_cast<size_t>(id)]);
  return out;
}

std::optional<ExactTensor> Importer::fold(const OpAttrs& op, const std::vector<ValueRef>& inputs) {
  // A range of constants reads no operand (its numbers are attributes) and folds all the same.
  if ((inputs.empty() && !std::holds_alternative<RangeAttrs>(op)) || !exact_op(op)) return std::nullopt;
  std::vector<nnref::Value<double>> values;
  std::vector<Shape> shapes;
  std::vector<ElemKind> kinds;
  std::optional<DType> real_dtype;
  for (const ValueRef& r : inputs) {
    if (r.node >= 0) return std::nullopt;
    const Handle& h = handles_[static_cast<size_t>(-r.node - 1)];
    if (!h.constant) return std::nullopt;  // terms: fold_sizes
    const ExactTensor& t = *h.constant;
    // An integer read as a real must be one a double holds (|v| <= 2^53).
    if (h.kind == ElemKind::Integer && std::holds_alternative<CastAttrs>(op) &&
        std::any_of(t.tensor.values.begin(), t.tensor.values.end(), [](double v) { return std::isnan(v); }))
      return std::nullopt;
    if (h.kind == ElemKind::Real) {
      // A real that is not a float32 is rounded when a float32 run reads it: what the op computes
      // from its value may differ between precisions.
      if (reads_reals(op) && !float32_exact(t.tensor.values)) return std::nullopt;
      if (!real_dtype) real_dtype = t.tensor.dtype;
    }
    values.push_back(to_value(t, h.kind));
    shapes.push_back(t.tensor.shape);
    kinds.push_back(h.kind);
  }
  return std::visit(
      [&](const auto& a) -> std::optional<ExactTensor> {
        using A = std::decay_t<decltype(a)>;
        if constexpr (!kFoldable<A>) {
          return std::nullopt;
        } else {
          auto checked = Checked<A>::check(a, shapes, kinds);
          // Not folded: the node is emitted, and the walk reports what its rule found.
          if (!checked || checked.value().outputs().size() != 1) return std::nullopt;
          const Shape& s = checked.value().outputs()[0];
          const int64_t bytes = tensor_bytes(CDim(s.count()), sizeof(double)).v;
          if (bytes > budget_left_) return std::nullopt;
          budget_left_ -= bytes;
          nnref::Value<double> out = zeros<double>(checked.value().output_kind(), s);
          OpIO<double> io;
          for (const auto& v : values) io.inputs.push_back(&v);
          io.outputs.push_back(&out);
          run_kernel(checked.value(), io);
          // An integer the kernel leaves unknown (integer_binary's zero divisor) is no constant: the
          // node is emitted, and gives the same unknown when it runs.
          if (const auto* z = std::get_if<Tensor<int64_t>>(&out);
              z && std::find(z->data().begin(), z->data().end(), kUnknownInteger) != z->data().end())
            return std::nullopt;
          return to_exact(out, real_dtype);
        }
      },
      op);
}

}  // namespace nnref::onnx_format
