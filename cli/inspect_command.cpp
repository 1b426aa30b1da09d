// nnref inspect: a table of the model's nodes. Needs no weights.
#include <cstdio>
#include <ostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/model_stats.hpp"
#include "semantics/memory.hpp"

namespace nnref {

namespace {

constexpr int64_t kBytesPerElement = 4;  // memory is reported for float32 tensors

std::string row(const std::string& name, const std::string& op, const std::string& shape, const std::string& params,
                const std::string& macs, const std::string& bytes) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%-24s %-20s %-22s %12s %14s %14s\n", name.c_str(), op.c_str(), shape.c_str(),
                params.c_str(), macs.c_str(), bytes.c_str());
  return buf;
}

}  // namespace

int inspect_command(const InspectOptions& o, std::ostream& out, std::ostream& err) {
  int exit = kExitOk;
  auto model = load_reporting(o.model, LoadOptions{false, kDefaultMaxMemory}, err, exit);
  if (!model) return exit;
  auto info = shapes_reporting(*model, 0, err, exit);
  if (!info) return exit;

  out << row("node", "op", "output shape", "parameters", "MACs", "memory (f32)");
  int64_t total_params = 0, total_macs = 0, total_bytes = 0;
  for (const Node& node : model->graph.nodes) {
    const NodeInfo& ni = info->nodes[static_cast<size_t>(node.id)];
    std::vector<Shape> inputs;
    for (const auto& r : node.inputs)
      inputs.push_back(info->nodes[static_cast<size_t>(r.node)].outputs[static_cast<size_t>(r.output)]);
    int64_t params = 0, elements = 0;
    for (const auto& p : ni.params) params += p.shape.count();
    for (const auto& s : ni.outputs) elements += s.count();
    int64_t macs = node_macs(node, ni, inputs);
    const int64_t bytes = tensor_bytes(CDim(elements) + params, kBytesPerElement).v;
    std::string shapes;
    for (const auto& s : ni.outputs) shapes += (shapes.empty() ? "" : " ") + s.str();
    out << row(node.name, op_name(node.op), shapes, std::to_string(params), std::to_string(macs),
               std::to_string(bytes));
    total_params += params, total_macs += macs, total_bytes += bytes;
  }
  out << row("total", "", "", std::to_string(total_params), std::to_string(total_macs), std::to_string(total_bytes));
  return kExitOk;
}

}  // namespace nnref
