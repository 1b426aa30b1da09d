#include "formats/interpolate_expansion.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "spec/rules/axes.hpp"

namespace nnref::convert {

namespace {

const Shape& shape_of(const GraphInfo& info, ValueRef v) {
  return info.nodes[static_cast<size_t>(v.node)].outputs[static_cast<size_t>(v.output)];
}

// Appends node n's composition to `out`, its inputs already in `out` as `in`; returns its value.
// `names`: every name taken, the graph's and the compositions' so far.
ValueRef expanded(Graph& out, const Node& n, const InterpolateAttrs& a, const std::vector<ValueRef>& in,
                  const GraphInfo& info, std::set<std::string>& names) {
  const size_t r = shape_of(info, n.inputs[0]).rank(), axes = a.axes.size();
  const auto add = [&](const std::string& what, OpAttrs op, std::vector<ValueRef> operands) {
    std::string name = what.empty() ? n.name : n.name + "/" + what;
    for (int k = 2; !what.empty() && names.count(name); ++k) name = n.name + "/" + what + "-" + std::to_string(k);
    names.insert(name);
    return ValueRef{out.add(name, std::move(op), std::move(operands), n.loc), 0};
  };
  // Per axis and tap: the tap's indices [L], and its weights laid along the axis [L, 1, ..., 1].
  std::vector<std::vector<ValueRef>> index(axes), weight(axes);
  std::vector<int64_t> axis(axes);
  for (size_t k = 0; k < axes; ++k) {
    axis[k] = normalize_axis(a.axes[k], r);
    std::vector<int64_t> laid(r - static_cast<size_t>(axis[k]), 1);
    laid[0] = -1;
    for (int64_t t = 0; t < shape_of(info, n.inputs[1 + 2 * k])[1]; ++t) {
      const std::string tap = "axis" + std::to_string(axis[k]) + "-tap" + std::to_string(t);
      const SliceAttrs indices{{1}, {t}, {t + 1}, {}, ElemKind::Integer},
          weights{{1}, {t}, {t + 1}, {}, ElemKind::Real};
      index[k].push_back(add(tap + "-index", ReshapeAttrs{{-1}, ElemKind::Integer},
                             {add(tap + "-indices", indices, {in[1 + 2 * k]})}));
      weight[k].push_back(add(tap + "-weight", ReshapeAttrs{laid}, {add(tap + "-weights", weights, {in[2 + 2 * k]})}));
    }
  }
  // Every choice of taps, the last axis fastest.
  std::vector<size_t> t(axes, 0);
  std::optional<ValueRef> sum;
  for (int64_t term = 0;; ++term) {
    const std::string name = "term" + std::to_string(term);
    ValueRef x = in[0], w = weight[0][t[0]];
    for (size_t k = 0; k < axes; ++k) {
      x = add(name + "-axis" + std::to_string(axis[k]), GatherAttrs{axis[k]}, {x, index[k][t[k]]});
      if (k > 0)
        w = add(name + "-weight" + std::to_string(k), BinaryAttrs{BinaryOp::Mul, Broadcast::NumpyRight},
                {w, weight[k][t[k]]});
    }
    size_t k = axes;
    while (k-- > 0 && ++t[k] == weight[k].size()) t[k] = 0;
    const bool last = k == static_cast<size_t>(-1);
    const ValueRef product = add(last && !sum ? "" : name, BinaryAttrs{BinaryOp::Mul, Broadcast::NumpyRight}, {x, w});
    sum =
        !sum ? product : add(last ? "" : name + "-sum", BinaryAttrs{BinaryOp::Add, Broadcast::Equal}, {*sum, product});
    if (last) return *sum;
  }
}

}  // namespace

Graph expand_interpolate(const Graph& graph, const GraphInfo& info) {
  Graph out;
  out.outputs = graph.outputs;
  std::map<int64_t, ValueRef> moved;  // an old node's first output → its value in `out`
  std::set<std::string> names;
  for (const Node& n : graph.nodes) names.insert(n.name);
  const auto remap = [&](ValueRef v) {
    const auto it = moved.find(v.node);
    return it == moved.end() ? v : ValueRef{it->second.node, v.output + it->second.output};
  };
  for (const Node& n : graph.nodes) {
    std::vector<ValueRef> in;
    for (const ValueRef& v : n.inputs) in.push_back(remap(v));
    const int64_t id = static_cast<int64_t>(out.nodes.size());
    if (const auto* a = std::get_if<InterpolateAttrs>(&n.op)) {
      moved[n.id] = expanded(out, n, *a, in, info, names);
      continue;
    }
    Node copy = n;
    copy.id = id;
    copy.inputs = std::move(in);
    for (ParamValue& p : copy.param_values) p.value = remap(p.value);
    for (SizeGuard& g : copy.guards)
      for (ValueRef& v : g.values) v = remap(v);
    out.nodes.push_back(std::move(copy));
    if (id != n.id) moved[n.id] = {id, 0};
  }
  for (GraphOutput& o : out.outputs) o.value = remap(o.value);
  return out;
}

}  // namespace nnref::convert
