// The ONNX ops that move elements: Reshape, Flatten, Transpose, Concat, Split, Slice, Squeeze,
// Unsqueeze, Pad, Expand, Tile, Gather, DepthToSpace, SpaceToDepth.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"

namespace nnref::onnx_format {

namespace {

// Reshape to a shape computed from symbolic extents (Shape, Gather, Concat): IR reshape's
// computed dims, with the values whose extents they read as its further operands.
void reshape_computed(Ctx& c, const SizeTerms& shape) {
  if (shape.shape.rank() != 1) c.refuse("onnx.input-type", "the shape must be a 1-D integer tensor");
  const bool allow_zero = c.attr_int("allowzero", 0) != 0;
  for (const auto& e : shape.elements)
    if (allow_zero && e == std::vector<int64_t>{size_code::kConstant, 0})
      c.refuse("onnx.attribute-unsupported", "allowzero 1 with a 0 in the shape (an empty tensor) is not supported");
  const ElemKind kind = c.kind(0);
  c.set_output(0, reshaped(c, "", c.operand(0, kind), kind, shape), kind, c.type(0));
}

// Reshape with allowzero 1 to a shape with an entry 0 (an empty extent, not the input's, which the
// IR reshape reads it as): the empty value of that shape, when the input is one too.
void reshape_to_empty(Ctx& c, const std::vector<int64_t>& dims) {
  if (!c.is_empty(0))
    c.refuse("onnx.shape-unsupported",
             "allowzero 1 with a 0 in the shape of a tensor with elements (it cannot be reshaped to an empty one)");
  for (int64_t d : dims)
    if (d < 0) c.refuse("onnx.attribute-value", "allowzero 1 with a 0 and a negative entry in the shape");
  c.set_output_empty(0, dims, 0);
}

void reshape(Ctx& c) {
  // An empty value's reshape is known at load only from a constant shape (run and conform bind an
  // input that gives it).
  if (c.is_empty(0) && c.opset() >= 5) c.require_constant(1, "the shape of an empty tensor's reshape");
  if (c.opset() >= 5 && c.sizes(1) != nullptr) return reshape_computed(c, *c.sizes(1));
  if (c.opset() >= 5)
    if (const SizesPtr t = c.data_terms(1)) {
      // allowzero 1: a 0 is an empty extent, not the input's. Each entry e is then written e + 0,
      // which the reshape reads as a computed extent (at least 1) rather than as a number (0:
      // the input's extent, −1: inferred): a 0 or a −1 is refused at run time, never misread.
      if (c.attr_int("allowzero", 0) == 0) return reshape_computed(c, *t);
      SizeTerms s = *t;
      for (auto& e : s.elements) e.insert(e.end(), {size_code::kConstant, 0, size_code::kAdd});
      return reshape_computed(c, s);
    }
  std::vector<int64_t> dims = c.opset() < 5 ? c.attr_ints("shape") : c.int_list(1, "shape");
  if (c.opset() < 5 && c.has_attr("consumed_inputs"))
    c.refuse("onnx.attribute-unsupported", "consumed_inputs (before opset 5) is not supported");
  const bool zero = std::find(dims.begin(), dims.end(), 0) != dims.end();
  if (c.attr_int("allowzero", 0) != 0 && zero) return reshape_to_empty(c, dims);
  if (c.is_empty(0) && std::find(dims.begin(), dims.end(), -1) != dims.end())
    c.refuse("onnx.shape-unsupported", "a −1 in the shape of an empty tensor's reshape has no single value");
  moved(c, ReshapeAttrs{dims});
}

// Flatten to [d0·…·d(axis−1), d(axis)·…]: IR flatten keeps the leading axes, so axis 1 is one
// node; axis 0 is a reshape to [1, -1]; another axis moves the trailing product first
// (flatten, transpose), collapses the leading axes behind it (flatten at 1) and moves it back:
// data movement only, for any extents.
void flatten(Ctx& c) {
  const int64_t r = static_cast<int64_t>(c.rank(0));
  int64_t axis = c.attr_int("axis", 1);
  if (axis < 0) axis += r;
  if (axis < 0 || axis > r) c.refuse("onnx.attribute-value", "axis is outside 0 .. rank");
  const ValueRef x = c.data(0);
  if (axis == 1) {
    c.set_output(0, c.emit("", FlattenAttrs{1}, {x}));
  } else if (axis == 0) {
    c.set_output(0, c.emit("", ReshapeAttrs{{1, -1}}, {x}));
  } else {
    ValueRef y = c.emit("trailing", FlattenAttrs{axis}, {x});
    std::vector<int64_t> perm{axis};
    for (int64_t k = 0; k < axis; ++k) perm.push_back(k);
    y = c.emit("trailing-first", TransposeAttrs{perm}, {y});
    y = c.emit("leading", FlattenAttrs{1}, {y});
    c.set_output(0, c.emit("", TransposeAttrs{{1, 0}}, {y}));
  }
}

void transpose(Ctx& c) {
  std::vector<int64_t> perm = c.attr_ints("perm");
  if (perm.empty())
    for (int64_t k = static_cast<int64_t>(c.rank(0)) - 1; k >= 0; --k) perm.push_back(k);
  moved(c, TransposeAttrs{perm});
}

// An operand known at load to be empty (a slice of a shape that keeps nothing, as ONNX's expanded
// LayerNormalization makes) adds nothing to the concatenation: it is left out; when every operand
// is, the result is the empty value of the concatenated shape.
void concat(Ctx& c) {
  const int64_t axis = c.attr_int("axis", 1);
  if (c.opset() >= 4 && !c.has_attr("axis")) c.refuse("onnx.attribute-value", "axis is required");
  const ElemKind kind = c.kind(0);  // every input's (onnx.type-unsupported otherwise)
  std::vector<ValueRef> in;
  for (size_t k = 0; k < c.input_count(); ++k)
    if (const ExactTensor* t = c.exact(k); !t || t->tensor.shape.count() > 0) in.push_back(c.operand(k, kind));
  if (in.empty())  // every operand empty: the empty value the concatenation's rule gives
    for (size_t k = 0; k < c.input_count(); ++k) in.push_back(c.operand(k, kind));
  c.set_output(0, in.size() == 1 ? in[0] : c.emit("", ConcatAttrs{axis, 0, kind}, in), kind, c.type(0));
}

// Split where a part is empty (a size 0, or an input with an extent 0), over fixed extents: each
// empty part an empty value, the others the IR split into them (one alone: the whole input).
void split_with_empty_parts(Ctx& c, int64_t axis, std::vector<int64_t> sizes, bool equal_parts) {
  if (!c.extents_fixed() && !c.exact(0))
    c.refuse("onnx.shape-unsupported",
             "a part of size 0 is an empty tensor, which nnref holds only where the input's shape is known when the "
             "model is read (fixed extents)");
  const std::vector<int64_t> s = c.shape(0);
  const int64_t r = static_cast<int64_t>(s.size()), k = axis < 0 ? axis + r : axis;
  if (k < 0 || k >= r) c.refuse("onnx.attribute-value", "axis " + std::to_string(axis) + " is outside the input");
  const int64_t extent = s[static_cast<size_t>(k)], n = static_cast<int64_t>(sizes.size());
  if (equal_parts && extent % n == 0) sizes.assign(sizes.size(), extent / n);
  if (std::accumulate(sizes.begin(), sizes.end(), int64_t{0}) != extent)
    c.refuse("onnx.split-sizes", "the split sizes do not add up to the axis extent " + std::to_string(extent));
  std::vector<int64_t> kept;
  std::vector<size_t> kept_outputs;
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::vector<int64_t> dims = s;
    dims[static_cast<size_t>(k)] = sizes[i];
    if (std::find(dims.begin(), dims.end(), 0) != dims.end()) {
      c.set_output_empty(i, dims, 0);
      continue;
    }
    kept.push_back(sizes[i]);
    kept_outputs.push_back(i);
  }
  if (kept.empty()) return;
  const ElemKind kind = c.kind(0);
  const ValueRef x = c.operand(0, kind);
  if (kept.size() == 1) return c.set_output(kept_outputs[0], x, kind, c.type(0));
  const int64_t id = c.emit_node("", SplitAttrs{axis, kept, kind}, {x});
  for (size_t j = 0; j < kept.size(); ++j) c.set_output(kept_outputs[j], {id, static_cast<int>(j)}, kind, c.type(0));
}

// Split into parts of the given sizes: IR split's ratios are the sizes, which it splits the axis
// into exactly when the extent is their sum; with fixed extents that is checked here.
void split(Ctx& c) {
  const int64_t axis = c.attr_int("axis", 0);
  std::vector<int64_t> sizes = c.opset() < 13 ? c.attr_ints("split") : std::vector<int64_t>{};
  if (c.opset() >= 13 && c.has_input(1)) sizes = c.int_list(1, "split");
  if (c.opset() < 2 && c.has_input(1)) c.refuse("onnx.input-unsupported", "the split input (opset 1) is not supported");
  const size_t n = static_cast<size_t>(c.proto().output_size());
  if (c.opset() >= 18 && c.has_attr("num_outputs")) {
    if (c.attr_int("num_outputs", 0) != static_cast<int64_t>(n))
      c.refuse("onnx.attribute-value", "num_outputs is not the node's " + std::to_string(n) + " outputs");
    if (!sizes.empty()) c.refuse("onnx.attribute-value", "num_outputs and split are both given");
    // Parts of ⌈X/n⌉, the last smaller: with fixed extents, sizes; else equal parts (the IR
    // split's rule then asks that n divide the extent).
    if (c.extents_fixed()) {
      const std::vector<int64_t> s = c.shape(0);
      const int64_t r = static_cast<int64_t>(s.size()), k = axis < 0 ? axis + r : axis;
      if (k < 0 || k >= r) c.refuse("onnx.attribute-value", "axis " + std::to_string(axis) + " is outside the input");
      const int64_t x = s[static_cast<size_t>(k)], chunk = (x + static_cast<int64_t>(n) - 1) / static_cast<int64_t>(n);
      sizes.assign(n, chunk);
      sizes.back() = x - chunk * static_cast<int64_t>(n - 1);
    }
  }
  const bool equal_parts = sizes.empty();  // ratios 1: n parts of equal size
  if (equal_parts) sizes.assign(n, 1);
  if (sizes.size() != n)
    c.refuse("onnx.attribute-value", std::to_string(sizes.size()) + " split sizes for " + std::to_string(n) + " outputs");
  for (int64_t part : sizes)
    if (part < 0) c.refuse("onnx.attribute-value", "a negative split size " + std::to_string(part));
  if (c.extents_fixed()) {
    const std::vector<int64_t> s = c.shape(0);
    const int64_t r = static_cast<int64_t>(s.size());
    const int64_t k = axis < 0 ? axis + r : axis;
    const bool given = c.opset() < 13 ? c.has_attr("split") : c.has_input(1);
    if (k >= 0 && k < r && given &&
        std::accumulate(sizes.begin(), sizes.end(), int64_t{0}) != s[static_cast<size_t>(k)])
      c.refuse("onnx.split-sizes", "the split sizes do not add up to the axis extent " +
                                       std::to_string(s[static_cast<size_t>(k)]));
  }
  if (c.is_empty(0) || std::find(sizes.begin(), sizes.end(), 0) != sizes.end())
    return split_with_empty_parts(c, axis, sizes, equal_parts);
  const ElemKind kind = c.kind(0);
  const int64_t id = c.emit_node("", SplitAttrs{axis, sizes, kind}, {c.operand(0, kind)});
  for (size_t k = 0; k < n; ++k) c.set_output(k, {id, static_cast<int>(k)}, kind, c.type(0));
}

// Slice with step 1: ONNX clamps starts and ends as IR slice does, except that an end of 0 is
// empty in ONNX and "to the extent" in the IR. Where the input's shape is known at load (fixed
// extents, or a value known at load), an empty result is an empty value (docs/onnx.md, "Empty
// values"); over symbolic extents an end of 0 is refused.
// Slice whose starts or ends are computed from symbolic extents: IR slice's computed bounds (every
// start, then every end), with the values whose extents they read as its further operands.
void slice_computed(Ctx& c) {
  const SizesPtr starts = c.terms(1), ends = c.terms(2);
  if (!starts || !ends || starts->shape.rank() != 1 || ends->shape.rank() != 1)
    c.refuse("onnx.input-type", "starts and ends must be 1-D integer tensors");
  std::vector<int64_t> axes, steps;
  if (c.has_input(3)) axes = c.int_list(3, "axes");
  if (c.has_input(4)) steps = c.int_list(4, "steps");
  for (int64_t s : steps)
    if (s < 1)
      c.refuse("onnx.attribute-unsupported", "a step below 1 with starts or ends computed from symbolic extents is not "
                                             "supported (a negative step clamps a start to 0, the IR's to −1)");
  if (axes.empty())
    for (size_t k = 0; k < starts->elements.size(); ++k) axes.push_back(static_cast<int64_t>(k));
  SizeTerms bounds{Shape::make({static_cast<int64_t>(starts->elements.size() + ends->elements.size())}).value(),
                   starts->elements};
  constexpr int64_t kFar = int64_t{1} << 62;  // beyond every extent: clamps as INT64_MAX does
  for (auto e : ends->elements) {
    if (e.size() == 2 && e[0] == size_code::kConstant) e[1] = std::clamp(e[1], -kFar, kFar);
    bounds.elements.push_back(std::move(e));
  }
  const ElemKind kind = c.kind(0);
  SizeProgram p = c.program(bounds);
  const std::vector<ValueRef> in = with_sources(c.operand(0, kind), p);
  c.set_output(0, c.emit("", SliceAttrs{axes, {}, {}, steps, kind, std::move(p.code), std::move(p.kinds)}, in), kind,
               c.type(0));
}

void slice(Ctx& c) {
  std::vector<int64_t> starts, ends, axes, steps;
  if (c.opset() >= 10 && (c.sizes(1) != nullptr || c.sizes(2) != nullptr)) return slice_computed(c);
  if (c.opset() < 10) {
    starts = c.attr_ints("starts"), ends = c.attr_ints("ends"), axes = c.attr_ints("axes");
  } else {
    starts = c.int_list(1, "starts"), ends = c.int_list(2, "ends");
    if (c.has_input(3)) axes = c.int_list(3, "axes");
    if (c.has_input(4)) steps = c.int_list(4, "steps");
  }
  if (axes.empty())
    for (size_t k = 0; k < starts.size(); ++k) axes.push_back(static_cast<int64_t>(k));
  if (!steps.empty() && steps.size() != axes.size())
    c.refuse("onnx.attribute-value", "steps has " + std::to_string(steps.size()) + " entries for " +
                                         std::to_string(axes.size()) + " axes");
  const auto step = [&](size_t k) { return steps.empty() ? int64_t{1} : steps[k]; };
  constexpr int64_t kFar = int64_t{1} << 62;  // beyond every extent: clamps as INT64_MAX does
  for (auto* v : {&starts, &ends})
    for (int64_t& x : *v) x = std::clamp(x, -kFar, kFar);
  const bool known = c.exact(0) != nullptr || c.sizes(0) != nullptr;  // a value known at load: fixed extents
  const std::optional<std::vector<int64_t>> shape =
      known || c.extents_fixed() ? std::optional(c.shape(0)) : std::nullopt;
  std::vector<int64_t> result = shape.value_or(std::vector<int64_t>{});
  for (size_t k = 0; k < axes.size() && k < starts.size() && k < ends.size(); ++k) {
    const auto r = static_cast<int64_t>(c.rank(0));
    const int64_t axis = axes[k] < 0 ? axes[k] + r : axes[k];
    if (axis < 0 || axis >= r || step(k) == 0) continue;  // the IR rule reports it
    if (!shape) {
      // Going forward, an end of 0 keeps nothing (the IR reads an end of 0 as "to the extent" when
      // every step is 1: never that meaning here).
      if (ends[k] == 0 && step(k) > 0)
        c.refuse("onnx.shape-unsupported", "an end of 0 gives an empty tensor, which nnref does not hold");
      // Going backward ONNX clamps a start to [0, x − 1], the IR to [−1, x − 1]: they differ only
      // where x + start < 0, which a start of −1 or more never gives.
      if (step(k) < 0 && starts[k] < -1)
        c.refuse("onnx.shape-unsupported", "a negative step from a start below −1 over symbolic extents is not "
                                           "supported (ONNX clamps x + start to 0 where the IR clamps it to −1)");
      continue;
    }
    const int64_t x = (*shape)[static_cast<size_t>(axis)];
    const auto index = [x](int64_t v, int64_t lo, int64_t hi) { return std::clamp<int64_t>(v < 0 ? v + x : v, lo, hi); };
    int64_t count = 0;
    if (step(k) > 0) {
      count = (index(ends[k], 0, x) - index(starts[k], 0, x) + step(k) - 1) / step(k);
    } else {
      starts[k] = index(starts[k], 0, x - 1);  // ONNX's clamp, written as the index it gives
      count = (starts[k] - index(ends[k], -1, x - 1) - step(k) - 1) / -step(k);
    }
    result[static_cast<size_t>(axis)] = std::max<int64_t>(count, 0);
  }
  if (std::find(result.begin(), result.end(), 0) != result.end()) return c.set_output_empty(0, result, 0);
  moved(c, SliceAttrs{axes, starts, ends, steps});
}

// A size term: the number n, an extent of the operand (one element of extents_of), or a term
// times, or floor-divided by, a number.
std::vector<int64_t> number(int64_t n) { return {size_code::kConstant, n}; }
std::vector<int64_t> with(std::vector<int64_t> t, int64_t op, int64_t n) {
  t.insert(t.end(), {size_code::kConstant, n, op});
  return t;
}

// DepthToSpace and SpaceToDepth of x [N, C, H, W] with blocksize b, as ONNX defines them: a
// reshape to rank 6, a transpose and a reshape back, over the extents x has at run time.
//   DepthToSpace DCR: [N, b, b, C/b², H, W], perm [0, 3, 4, 1, 5, 2], [N, C/b², H·b, W·b]
//   DepthToSpace CRD: [N, C/b², b, b, H, W], perm [0, 1, 4, 2, 5, 3], the same result shape
//   SpaceToDepth:     [N, C, H/b, b, W/b, b], perm [0, 3, 5, 1, 2, 4], [N, C·b², H/b, W/b]
// A C that b² does not divide (an H or W that b does not) makes the first reshape change the
// element count, which its obligation refutes.
void block_rearrange(Ctx& c, bool to_space) {
  const int64_t b = c.attr_int("blocksize", 0);
  if (b < 1) c.refuse("onnx.attribute-value", "blocksize must be at least 1");
  if (c.rank(0) != 4) c.refuse("onnx.input-shape", "the input must be 4-D [N, C, H, W]");
  const std::string mode = to_space ? c.attr_string("mode", "DCR") : "";
  if (to_space && mode != "DCR" && mode != "CRD") c.refuse("onnx.attribute-value", "mode must be DCR or CRD");
  const SizeTerms x = c.extents_of(0, 0, 4);
  const auto& e = x.elements;
  SizeTerms split, merged;
  std::vector<int64_t> perm;
  if (!to_space) {
    split = size_terms({e[0], e[1], with(e[2], size_code::kDiv, b), number(b), with(e[3], size_code::kDiv, b), number(b)});
    perm = {0, 3, 5, 1, 2, 4};
    merged = size_terms({e[0], with(e[1], size_code::kMul, b * b), with(e[2], size_code::kDiv, b), with(e[3], size_code::kDiv, b)});
  } else {
    const std::vector<int64_t> depth = with(e[1], size_code::kDiv, b * b);
    split = mode == "DCR" ? size_terms({e[0], number(b), number(b), depth, e[2], e[3]})
                          : size_terms({e[0], depth, number(b), number(b), e[2], e[3]});
    perm = mode == "DCR" ? std::vector<int64_t>{0, 3, 4, 1, 5, 2} : std::vector<int64_t>{0, 1, 4, 2, 5, 3};
    merged = size_terms({e[0], depth, with(e[2], size_code::kMul, b), with(e[3], size_code::kMul, b)});
  }
  const ElemKind kind = c.kind(0);
  ValueRef y = reshaped(c, "blocks", c.operand(0, kind), kind, split);
  y = c.emit("moved", TransposeAttrs{perm, kind}, {y});
  c.set_output(0, reshaped(c, "", y, kind, merged), kind, c.type(0));
}
void depth_to_space(Ctx& c) { block_rearrange(c, true); }
void space_to_depth(Ctx& c) { block_rearrange(c, false); }

void squeeze(Ctx& c) {
  std::vector<int64_t> axes = c.opset() < 13 ? c.attr_ints("axes") : std::vector<int64_t>{};
  if (c.opset() >= 13 && c.has_input(1)) axes = c.int_list(1, "axes");
  if (axes.empty()) {
    if (!c.extents_fixed())
      c.refuse("onnx.shape-unsupported", "Squeeze without axes needs fixed extents, and the model has symbolic ones");
    const std::vector<int64_t> s = c.shape(0);
    for (size_t k = 0; k < s.size(); ++k)
      if (s[k] == 1) axes.push_back(static_cast<int64_t>(k));
  }
  moved(c, SqueezeAttrs{axes});
}

void unsqueeze(Ctx& c) {
  std::vector<int64_t> axes = c.opset() < 13 ? c.attr_ints("axes") : c.int_list(1, "axes");
  moved(c, UnsqueezeAttrs{axes});
}

// Pad's mode as the IR's border.
PadBorder pad_border(Ctx& c) {
  const std::string mode = c.attr_string("mode", "constant");
  if (mode == "constant") return PadBorder::Constant;
  if (mode == "reflect") return PadBorder::Reflect;
  if (mode == "edge") return PadBorder::Replicate;
  c.refuse("onnx.attribute-unsupported", "mode '" + mode + "' is not supported");
}

// Pad's pads (every begin, then every end, for `axes` or every axis) as terms of every axis's
// begin then end, 0 on the axes not listed.
SizeTerms pads_per_axis(Ctx& c, const SizeTerms& pads, const std::vector<int64_t>& axes, size_t r) {
  if (pads.shape.rank() != 1 || pads.elements.size() != 2 * axes.size())
    c.refuse("onnx.attribute-value", "pads has " + std::to_string(pads.elements.size()) + " entries, " +
                                         std::to_string(2 * axes.size()) + " expected");
  SizeTerms out{Shape::make({static_cast<int64_t>(2 * r)}).value(),
                std::vector<std::vector<int64_t>>(2 * r, std::vector<int64_t>{size_code::kConstant, 0})};
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t k = axes[i] < 0 ? axes[i] + static_cast<int64_t>(r) : axes[i];
    if (k < 0 || k >= static_cast<int64_t>(r))
      c.refuse("onnx.attribute-value", "axis " + std::to_string(axes[i]) + " is outside the input's axes");
    out.elements[static_cast<size_t>(k)] = pads.elements[i];
    out.elements[static_cast<size_t>(k) + r] = pads.elements[i + axes.size()];
  }
  return out;
}

// Pad: the IR pad, its padding the pads' numbers, or computed from symbolic extents (the IR pad's
// computed padding).
void pad(Ctx& c) {
  SizeTerms pads;
  double value = 0;
  if (c.opset() < 11) {
    const std::vector<int64_t> v = c.attr_ints(c.opset() < 2 ? "paddings" : "pads");
    pads.shape = Shape::make({static_cast<int64_t>(v.size())}).value();
    for (int64_t p : v) pads.elements.push_back({size_code::kConstant, p});
    value = c.attr_float("value", 0.0);
  } else {
    if (const SizesPtr t = c.data_terms(1)) {
      pads = *t;
    } else {
      if (c.sizes(1) == nullptr) c.int_list(1, "pads");  // a constant 1-D integer tensor, else refused
      pads = *c.terms(1);
    }
    if (c.has_input(2)) {
      const HostTensor& v = c.require_constant(2, "constant_value");
      if (v.values.size() != 1) c.refuse("onnx.input-type", "constant_value must hold one value");
      value = v.values[0];
    }
  }
  PadAttrs a;
  a.border = pad_border(c);
  a.value = Real(value);
  const size_t r = c.rank(0);
  // From opset 18 the pads may be for the listed axes only; the others are not padded.
  std::vector<int64_t> axes;
  if (c.opset() >= 18 && c.has_input(3)) axes = c.int_list(3, "axes");
  else
    for (size_t i = 0; i < r; ++i) axes.push_back(static_cast<int64_t>(i));
  const SizeTerms widths = pads_per_axis(c, pads, axes, r);
  a.kind = c.kind(0);  // pad moves elements of any kind; the value is then one of that kind
  const ValueRef x = c.operand(0, a.kind);
  std::vector<int64_t> numbers;
  for (const auto& e : widths.elements)
    if (e.size() == 2 && e[0] == size_code::kConstant) numbers.push_back(e[1]);
  if (numbers.size() == widths.elements.size()) {
    for (size_t k = 0; k < r; ++k) a.padding.emplace_back(numbers[k], numbers[k + r]);
    return c.set_output(0, c.emit("", a, {x}), a.kind, c.type(0));
  }
  SizeProgram p = c.program(widths);
  a.computed = PadComputed{std::move(p.code), std::move(p.kinds)};
  c.set_output(0, c.emit("", a, with_sources(x, p)), a.kind, c.type(0));
}

// Expand where the model's extents are symbolic, to a shape of constants or of terms (computed
// from extents): the output's extents as terms, ONNX's two-way broadcast of the input's and the
// shape's (an entry 1, and an axis the shape lacks, keep the input's extent; any other entry is
// the target, which the input's extent must be or be 1), read as IR broadcast_to's computed dims.
void expand_computed(Ctx& c, const SizeTerms& shape) {
  if (shape.shape.rank() != 1) c.refuse("onnx.input-type", "the shape must be a 1-D integer tensor");
  const size_t r = c.rank(0), m = shape.elements.size(), n = std::max(r, m);
  const SizeTerms x = c.extents_of(0, 0, static_cast<int64_t>(r));
  const std::vector<int64_t> one{size_code::kConstant, 1};
  SizeTerms out{Shape::make({static_cast<int64_t>(n)}).value(), {}};
  for (size_t i = 0; i < n; ++i) {
    const std::vector<int64_t>& t = i + m >= n ? shape.elements[i + m - n] : one;
    if (reads_elements(t) && i + r >= n) {
      // An entry computed from data may be 1 at run time: t + (x − 1)·(1 − min(|t − 1|, 1)) is
      // x where t is 1 and t elsewhere, ONNX's two-way broadcast (x must then be t or 1).
      const std::vector<int64_t>& e = x.elements[i + r - n];
      std::vector<int64_t> v = t;
      v.insert(v.end(), e.begin(), e.end());
      v.insert(v.end(), {size_code::kConstant, 1, size_code::kSub, size_code::kConstant, 1});
      v.insert(v.end(), t.begin(), t.end());
      v.insert(v.end(), {size_code::kConstant, 1, size_code::kSub, size_code::kConstant, 1});
      v.insert(v.end(), t.begin(), t.end());
      v.insert(v.end(), {size_code::kSub, size_code::kMax, size_code::kConstant, 1, size_code::kMin, size_code::kSub,
                         size_code::kMul, size_code::kAdd});
      out.elements.push_back(std::move(v));
      continue;
    }
    out.elements.push_back(t != one ? t : i + r >= n ? x.elements[i + r - n] : one);
  }
  SizeProgram p = c.program(out);
  const ElemKind kind = c.kind(0);
  const std::vector<ValueRef> in = with_sources(c.operand(0, kind), p);
  const BroadcastToAttrs a{{}, Broadcast::NumpyRight, std::move(p.code), std::move(p.kinds), kind};
  c.set_output(0, c.emit("", a, in), kind, c.type(0));
}

// Expand: the NumPy broadcast of the input with the given shape, a broadcast_to to that shape
// (both read at import where the model's extents are fixed). It repeats elements, so an integer
// or bool input stays one (Swin's attention mask is an int64 tensor expanded to the windows; If's
// condition under symbolic extents, control.cpp).
void expand(Ctx& c) {
  if (!c.extents_fixed())
    if (const SizesPtr t = c.terms(1)) return expand_computed(c, *t);
  if (const SizesPtr t = c.data_terms(1)) return expand_computed(c, *t);
  const std::vector<int64_t> shape = c.int_list(1, "shape");
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported", "Expand's shape must be a constant or computed from extents where the "
                                       "model's extents are symbolic");
  const std::vector<int64_t> s = c.shape(0);
  const size_t r = std::max(s.size(), shape.size());
  std::vector<int64_t> out(r);
  for (size_t i = 0; i < r; ++i) {
    const int64_t x = i + s.size() >= r ? s[i + s.size() - r] : 1;
    const int64_t y = i + shape.size() >= r ? shape[i + shape.size() - r] : 1;
    if (x != y && x != 1 && y != 1) c.refuse("onnx.shape-unsupported", "the input does not broadcast to the shape");
    out[i] = x == 1 ? y : x;
  }
  const ElemKind kind = c.kind(0);
  c.set_output(0, c.emit("", BroadcastToAttrs{out, Broadcast::NumpyRight, {}, {}, kind}, {c.operand(0, kind)}), kind,
               c.type(0));
}

// Tile by repeats computed from symbolic extents (real data): x [d0, d1, ...] unsqueezed to
// [1, d0, 1, d1, ...], broadcast to [r0, d0, r1, d1, ...] and reshaped to [r0·d0, r1·d1, ...]
// (computed dims): row-major, position a·dk + j of axis k reads x's j, which is Tile's formula.
void tile_computed(Ctx& c, const SizeTerms& repeats) {
  const size_t r = c.rank(0);
  if (repeats.shape.rank() != 1 || repeats.elements.size() != r)
    c.refuse("onnx.attribute-value", "repeats must be a 1-D tensor of one entry per axis of the input (rank " +
                                         std::to_string(r) + ")");
  const SizeTerms x = c.extents_of(0, 0, static_cast<int64_t>(r));
  SizeTerms wide{Shape::make({static_cast<int64_t>(2 * r)}).value(), {}}, tiled{Shape::make({static_cast<int64_t>(r)}).value(), {}};
  std::vector<int64_t> spread;
  for (size_t k = 0; k < r; ++k) {
    const std::vector<int64_t>& t = repeats.elements[k];
    if (t.size() == 2 && t[0] == size_code::kConstant && t[1] < 1)
      c.refuse("onnx.shape-unsupported", "a repeat below 1 gives an empty tensor");
    wide.elements.insert(wide.elements.end(), {t, x.elements[k]});
    std::vector<int64_t> product = t;
    product.insert(product.end(), x.elements[k].begin(), x.elements[k].end());
    product.push_back(size_code::kMul);
    tiled.elements.push_back(std::move(product));
    spread.push_back(static_cast<int64_t>(2 * k));
  }
  ValueRef y = c.emit("spread", UnsqueezeAttrs{spread}, {c.data(0)});
  SizeProgram pw = c.program(wide), pt = c.program(tiled);
  y = c.emit("copies", BroadcastToAttrs{{}, Broadcast::NumpyRight, pw.code, pw.kinds}, with_sources(y, pw));
  c.set_output(0, c.emit("", ReshapeAttrs{{}, ElemKind::Real, pt.code, pt.kinds}, with_sources(y, pt)));
}

// Tile: each axis with r repeats is the concat of r copies along it: data movement only.
void tile(Ctx& c) {
  if (c.sizes(1) != nullptr) return tile_computed(c, *c.sizes(1));
  if (const SizesPtr t = c.data_terms(1)) return tile_computed(c, *t);
  const std::vector<int64_t> repeats = c.int_list(1, "repeats");
  if (repeats.size() != c.rank(0))
    c.refuse("onnx.attribute-value", "repeats has " + std::to_string(repeats.size()) + " entries for an input of rank " +
                                         std::to_string(c.rank(0)));
  const ElemKind kind = c.kind(0);
  ValueRef y = c.operand(0, kind);
  size_t last = repeats.size();
  for (size_t k = 0; k < repeats.size(); ++k) {
    if (repeats[k] < 1) c.refuse("onnx.shape-unsupported", "a repeat below 1 gives an empty tensor");
    if (repeats[k] > 1) last = k;
  }
  if (last == repeats.size())  // no repeats: a copy, for any kind a reshape keeping every extent
    y = c.emit("", ReshapeAttrs{std::vector<int64_t>(repeats.size(), 0), kind}, {y});
  for (size_t k = 0; k < repeats.size(); ++k) {
    if (repeats[k] == 1) continue;
    y = c.emit(k == last ? "" : "axis" + std::to_string(k), ConcatAttrs{static_cast<int64_t>(k), 0, kind},
               std::vector<ValueRef>(static_cast<size_t>(repeats[k]), y));
  }
  c.set_output(0, y, kind, c.type(0));
}

// Gather with constant indices of rank 0 or 1: each index i is the slice [i, i + 1) of the axis
// (for i = -1, [-1, 0): IR slice reads an end of 0 as the extent), the scalar index's axis
// squeezed away, several indices concatenated in their order: data movement only. Computed
// indices, and constant ones of higher rank (which the ONNX writer writes for an IR gather of a
// constant), are IR gather's (gather_computed).
void gather(Ctx& c) {
  const int64_t axis = c.attr_int("axis", 0);
  const ExactTensor* constant = c.exact(1);
  if (c.has_input(1) &&
      (!constant || (constant->tensor.shape.rank() > 1 && !dtype_is_float(constant->tensor.dtype))))
    return gather_computed(c, axis);
  const HostTensor& idx = c.require_constant(1, "indices");
  if (dtype_is_float(idx.dtype)) c.refuse("onnx.input-unsupported", "only integer indices are supported");
  const std::vector<int64_t>& indices = constant->ints;
  if (indices.empty()) c.refuse("onnx.shape-unsupported", "no indices give an empty tensor");
  const ElemKind kind = c.kind(0);
  const ValueRef x = c.operand(0, kind);
  std::vector<ValueRef> parts;
  for (size_t k = 0; k < indices.size(); ++k) {
    // ±2^62 and beyond are outside every extent; the slice's own rule refuses them.
    const int64_t i = std::clamp(indices[k], -(int64_t{1} << 62), int64_t{1} << 62);
    const bool one = indices.size() == 1;
    parts.push_back(c.emit(one && idx.shape.rank() == 1 ? "" : "index" + std::to_string(k),
                           SliceAttrs{{axis}, {i}, {i + 1}, {}, kind}, {x}));
  }
  if (idx.shape.rank() == 0) c.set_output(0, c.emit("", SqueezeAttrs{{axis}, kind}, {parts[0]}), kind, c.type(0));
  else if (parts.size() == 1) c.set_output(0, parts[0], kind, c.type(0));
  else c.set_output(0, c.emit("", ConcatAttrs{axis, 0, kind}, parts), kind, c.type(0));
}

}  // namespace

void add_movement_ops(OpTable& table) {
  add_ops(table, {
      {"Concat", concat},
      {"DepthToSpace", depth_to_space},
      {"Expand", expand},
      {"Flatten", flatten},
      {"Gather", gather},
      {"Pad", pad},
      {"Reshape", reshape},
      {"Slice", slice},
      {"SpaceToDepth", space_to_depth},
      {"Split", split},
      {"Squeeze", squeeze},
      {"Tile", tile},
      {"Transpose", transpose},
      {"Unsqueeze", unsqueeze},
  });
}

}  // namespace nnref::onnx_format
