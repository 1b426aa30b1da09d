// §4.6's operations on the IR roi op (spec/ops/roi.hpp). avg_roi_align and max_roi_align are
// §4.6.2's bodies: roi_resample to output_size·sampling_rate, then avg_pool or max_pool of size
// and stride sampling_rate. The body passes the pool a window of the spatial axes only (the pool's
// own rule asks for every axis): nnref reads it as the window over the spatial axes, the IR pool's,
// with the pool's default automatic padding, which is none here (the extent p·s is a multiple of
// the stride s and the window is s). The batch index is [R] (the reference implementation) or
// (R, 1) (§4.6's text), squeezed to [R].
#include "formats/nnef/lower_roi.hpp"

#include <cstdint>
#include <utility>

#include "formats/nnef/lower_args.hpp"

namespace nnref::nnef {

namespace {

using namespace args;

RoiMethod method(Composer& c, const std::string& op, const std::string& m, const SourceLoc& loc) {
  for (RoiMethod r : kRoiMethods)
    if (m == roi_method_name(r)) return r;
  c.fail("nnef.argument.value", op + ": method '" + m + "' is none of 'symmetric', 'asymmetric', 'aligned'", loc);
}

// The batch index as the IR op takes it, [R]: §4.6's text gives it the shape (R, 1), squeezed here;
// the reference implementation's [R] is read as it is.
Value batch_index(Composer& c, const Value& index, const SourceLoc& loc) {
  const std::vector<int64_t>& shape = c.info(index).shape;
  if (shape.size() != 2 || shape[1] != 1) return index;
  return c.add_node1("squeeze", SqueezeAttrs{{1}, c.info(index).kind}, {index}, loc);
}

Value roi_node(Composer& c, const std::string& op, const RoiAttrs& attrs, const Args& a, const SourceLoc& loc) {
  return c.add_node1(op, attrs, {a.at("input"), a.at("rois"), batch_index(c, a.at("batch_index"), loc)}, loc);
}

}  // namespace

std::optional<std::vector<Value>> lower_roi(Composer& c, const std::string& name, Args& a, const SourceLoc& loc) {
  RoiAttrs attrs;
  if (name == "avg_roi_pool" || name == "max_roi_pool") {
    attrs.op = name == "avg_roi_pool" ? RoiOp::AvgPool : RoiOp::MaxPool;
    attrs.output_size = integers(a, "output_size");
    return std::vector<Value>{roi_node(c, name, attrs, a, loc)};
  }
  if (name == "roi_resample") {
    attrs.op = RoiOp::Resample;
    attrs.output_size = integers(a, "output_size");
    attrs.method = method(c, name, a.at("method").s, loc);
    return std::vector<Value>{roi_node(c, name, attrs, a, loc)};
  }
  if (name != "avg_roi_align" && name != "max_roi_align") return std::nullopt;
  const std::vector<int64_t> size = integers(a, "output_size"), rate = integers(a, "sampling_rate");
  if (rate.size() != size.size())
    c.fail("nnef.argument.value", name + ": sampling_rate has " + std::to_string(rate.size()) + " entries and output_size " +
                                      std::to_string(size.size()), loc);
  attrs.op = RoiOp::Resample;
  attrs.method = method(c, name, a.at("resize_method").s, loc);
  for (size_t k = 0; k < size.size(); ++k) {
    int64_t product = 0;
    if (rate[k] < 1 || __builtin_mul_overflow(size[k], rate[k], &product))
      c.fail("nnef.argument.value", name + ": sampling_rate " + std::to_string(rate[k]) + " is not a positive factor of "
                                        "output_size " + std::to_string(size[k]), loc);
    attrs.output_size.push_back(product);
  }
  const Value resized = roi_node(c, "roi_resample", attrs, a, loc);
  PoolAttrs pool;
  pool.op = name == "avg_roi_align" ? PoolOp::Avg : PoolOp::Max;
  pool.kernel = rate;
  pool.stride = rate;
  pool.padding.assign(rate.size(), {0, 0});
  return std::vector<Value>{c.add_node1(name == "avg_roi_align" ? "avg_pool" : "max_pool", pool, {resized}, loc)};
}

}  // namespace nnref::nnef
