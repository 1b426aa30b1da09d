// The ONNX losses: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss, as their ONNX function
// bodies compute them, from gathers, products and sums.
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"
#include "formats/onnx/tensor_proto.hpp"

namespace nnref::onnx_format {

namespace {

// NegativeLogLikelihoodLoss of x [N, C, d1..dk] at the classes target [N, d1..dk] (int64), with the
// class weights w [C] (input `weight_input` when present), ONNX's definition:
//   loss[n, d] = −x[n, target[n, d], d] · w[target[n, d]], 0 where target = ignore_index;
//   reduction none: loss; sum: Σ loss; mean: Σ loss / Σ w[target] (over the elements not ignored;
//   without weights and ignore_index, the mean over every element).
// An ignored element's class is read as 0 (any class would do: its weight is multiplied by 0), so
// an ignore_index outside [0, C) never reaches the gathers. x's gather is GatherElements along
// axis 1 (fixed extents), w's an IR gather of the classes.
ValueRef nll_loss(Ctx& c, ValueRef x, size_t target_input, std::optional<size_t> weight_input,
                  const std::string& suffix) {
  const std::vector<int64_t> d = c.shape(0), t = c.shape(target_input);
  if (d.size() < 2 || t.size() + 1 != d.size())
    c.refuse("onnx.input-shape", "the input must be [N, C, d1..dk] and the target [N, d1..dk]");
  const std::string reduction = c.attr_string("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    c.refuse("onnx.attribute-value", "reduction must be none, sum or mean");
  const auto name = [&](const std::string& n) { return suffix + n; };
  ValueRef target = c.operand(target_input, ElemKind::Integer);
  std::optional<ValueRef> kept;  // 1 where the element counts, 0 where ignored
  if (c.has_attr("ignore_index")) {
    const ValueRef real = c.emit(name("target-real"), CastAttrs{ElemKind::Integer, ElemKind::Real}, {target});
    const ValueRef ignored = c.emit(
        name("ignored"), CompareAttrs{CompareOp::Eq, Broadcast::NumpyRight},
        {real, c.literal(name("ignore-index"), scalar_tensor(static_cast<double>(c.attr_int("ignore_index", 0))))});
    target = c.emit(name("class"), SelectAttrs{Broadcast::NumpyRight, ElemKind::Integer},
                    {ignored, c.literal(name("class-zero"), integer_tensor(Shape(), {0})), target});
    kept = c.emit(name("kept"), CastAttrs{ElemKind::Logical, ElemKind::Real},
                  {c.emit(name("counted"), LogicalAttrs{LogicalOp::Not, Broadcast::NumpyRight}, {ignored})});
  }
  std::vector<int64_t> at_class = t;
  at_class.insert(at_class.begin() + 1, 1);
  const ValueRef classes = c.emit(name("class-axis"), UnsqueezeAttrs{{1}, ElemKind::Integer}, {target});
  const ValueRef picked = c.emit(name("picked"), SqueezeAttrs{{1}},
                                 {gathered_elements(c, x, d, classes, at_class, 1, name("picked-element"))});
  std::optional<ValueRef> weight = kept;  // the weight each element's loss carries, when not 1
  if (weight_input) {
    const ValueRef w = c.emit(name("class-weight"), GatherAttrs{0}, {c.data(*weight_input), target});
    weight = kept ? binary(c, name("weight"), BinaryOp::Mul, w, *kept) : w;
  }
  ValueRef loss = c.emit(name("negated"), UnaryAttrs{UnaryOp::Neg}, {picked});
  if (weight) loss = binary(c, name("weighted"), BinaryOp::Mul, loss, *weight);
  if (reduction == "none") return loss;
  std::vector<int64_t> all(t.size());
  std::iota(all.begin(), all.end(), 0);
  const ValueRef total = c.emit(name("total"), ReduceAttrs{ReduceOp::Sum, all, false}, {loss});
  if (reduction == "sum") return total;
  if (!weight) return c.emit(name("mean"), ReduceAttrs{ReduceOp::Mean, all, false}, {loss});
  const ValueRef weights = c.emit(name("total-weight"), ReduceAttrs{ReduceOp::Sum, all, false}, {*weight});
  return binary(c, name("mean"), BinaryOp::Div, total, weights);
}

std::optional<size_t> weight_input(Ctx& c) { return c.has_input(2) ? std::optional<size_t>(2) : std::nullopt; }

void nll_loss_op(Ctx& c) {
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported",
             "NegativeLogLikelihoodLoss needs fixed extents (its gather's flat indices are "
             "computed at load time), and the model's inputs have symbolic ones");
  c.set_output(0, nll_loss(c, c.data(0), 1, weight_input(c), ""));
}

// SoftmaxCrossEntropyLoss: NegativeLogLikelihoodLoss of log_softmax(scores) over axis 1, with the
// same weights, ignore_index and reduction (ONNX's function body); its second output is that
// log_softmax.
void softmax_cross_entropy_loss(Ctx& c) {
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported",
             "SoftmaxCrossEntropyLoss needs fixed extents (its gather's flat indices are "
             "computed at load time), and the model's inputs have symbolic ones");
  SoftmaxAttrs a;
  a.log = true;
  a.axes = {1};
  const ValueRef log_prob = c.emit("log-prob", a, {c.data(0)});
  c.set_output(0, nll_loss(c, log_prob, 1, weight_input(c), "nll-"));
  c.set_output(1, log_prob);
}

}  // namespace

void add_loss_ops(OpTable& table) {
  add_ops(table, {
                     {"NegativeLogLikelihoodLoss", nll_loss_op},
                     {"SoftmaxCrossEntropyLoss", softmax_cross_entropy_loss},
                 });
}

}  // namespace nnref::onnx_format
