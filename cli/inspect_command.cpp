// nnref inspect: a table of the model's nodes, with what evaluation holds while each runs. Needs no
// weights.
#include <cstdio>
#include <ostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/model_stats.hpp"
#include "cli/sizes.hpp"
#include "semantics/memory.hpp"

namespace nnref {

namespace {

std::string row(const std::string& name, const std::string& op, const std::string& shape, const std::string& params,
                const std::string& macs, const std::string& bytes) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%-24s %-20s %-22s %12s %14s %14s\n", name.c_str(), op.c_str(), shape.c_str(),
                params.c_str(), macs.c_str(), bytes.c_str());
  return buf;
}

// What evaluation holds while each node runs, at `scalar_size` bytes per element: the same
// reading of memory as the budget of run and check (semantics/memory.hpp).
MemoryUse<CDim> memory_of(const Graph& g, const GraphInfo& info, int64_t scalar_size, const ParamNames& names) {
  std::vector<std::vector<CDim>> outputs;
  std::vector<std::vector<std::pair<std::string, CDim>>> params;
  for (const NodeInfo& ni : info.nodes) {
    outputs.emplace_back();
    params.emplace_back();
    for (const Shape& s : ni.outputs) outputs.back().push_back(CDim(s.count()));
    for (const ParamInfo& p : ni.params) params.back().emplace_back(p.role, CDim(p.shape.count()));
  }
  return memory_use(g, outputs, params, scalar_size, names, ParamHolding::WhileNodeRuns);
}

}  // namespace

int inspect_command(const InspectOptions& o, std::ostream& out, std::ostream& err) {
  int exit = kExitOk;
  std::vector<std::string> dims = o.dims;
  auto model =
      model_reporting(load_at_dims(o.model, LoadOptions{WeightsPolicy::Skip, kDefaultMaxMemory}, dims), err, exit);
  if (!model) return exit;
  if (auto set = apply_dims(*model, dims); !set) {
    print_diagnostics(err, {set.error()});
    return kExitUsage;
  }
  auto info = shapes_reporting(*model, 0, err, exit);
  if (!info) return exit;

  const int64_t scalar_size = bytes_per_element(o.precision);
  const MemoryUse<CDim> use = memory_of(model->graph, *info, scalar_size, model->param_keys);
  const std::vector<CDim> live = use.totals();
  out << row("node", "op", "output shape", "parameters", "MACs", "live (" + o.precision + ")");
  int64_t total_params = 0, total_macs = 0;
  for (const Node& node : model->graph.nodes) {
    const NodeInfo& ni = info->nodes[static_cast<size_t>(node.id)];
    std::vector<Shape> inputs;
    for (const auto& r : node.inputs)
      inputs.push_back(info->nodes[static_cast<size_t>(r.node)].outputs[static_cast<size_t>(r.output)]);
    int64_t params = 0;
    for (const auto& p : ni.params) params += p.shape.count();
    const int64_t macs = node_macs(node, ni, inputs);
    std::string shapes;
    for (const auto& s : ni.outputs) shapes += (shapes.empty() ? "" : " ") + s.str();
    out << row(node.name, op_name(node.op), shapes, std::to_string(params), std::to_string(macs),
               std::to_string(live[static_cast<size_t>(node.id)].v));
    total_params += params, total_macs += macs;
  }
  const Peak<CDim> peak = find_peak(use, live, [](const CDim& b) { return b.v; });
  out << row("total", "", "", std::to_string(total_params), std::to_string(total_macs), "");
  out << "peak: " << peak.bytes << " bytes while '" << model->graph.nodes[peak.step].name << "' runs (" << o.precision
      << ", " << scalar_size
      << " bytes per element, a node's parameters converted while it runs, and 8 for each parameter's value as "
         "read): what run at this precision, and check at "
         "f64, compare with --max-memory\n";
  return kExitOk;
}

}  // namespace nnref
