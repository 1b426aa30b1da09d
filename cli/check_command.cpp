// nnref check: everything short of evaluation, with every problem found reported.
#include <ostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"

namespace nnref {

int check_command(const CheckOptions& o, std::ostream& out, std::ostream& err) {
  int exit = kExitOk;
  auto model = load_reporting(o.model, LoadOptions{true, o.max_memory}, err, exit);
  if (!model) return exit;
  auto info = shapes_reporting(*model, err, exit);
  if (!info) return exit;

  auto diags = check_bindings(model->graph, *info, model->payload, model->param_keys);
  if (auto mem = check_memory(model->graph, *info, sizeof(double), o.max_memory); !mem) diags.push_back(mem.error());
  print_diagnostics(err, diags);
  exit = exit_code_for(diags);
  if (exit != kExitOk) return exit;

  int64_t params = 0;
  for (const auto& n : info->nodes)
    for (const auto& p : n.params) params += p.shape.count();
  out << o.model << ": ok (" << model->graph.nodes.size() << " nodes, " << params << " parameters";
  for (const auto& output : model->graph.outputs)
    out << ", output " << output.name << " "
        << info->nodes[static_cast<size_t>(output.value.node)].outputs[static_cast<size_t>(output.value.output)].str();
  out << ")\n";
  return kExitOk;
}

}  // namespace nnref
