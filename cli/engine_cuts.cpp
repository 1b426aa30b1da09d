#include "cli/engine_cuts.hpp"

#include <algorithm>
#include <utility>
#include <variant>

#include "semantics/wellformed.hpp"

namespace nnref {

namespace {

bool leaf(const Node& n) { return std::holds_alternative<InputAttrs>(n.op) || std::holds_alternative<ConstAttrs>(n.op); }

// Every real output of an op node that is not a graph output, named as its node (":k" after the first).
std::vector<GraphOutput> real_intermediates(const Graph& g) {
  auto info = infer_shapes(g);
  if (!info) return {};
  std::vector<GraphOutput> out;
  for (const Node& n : g.nodes) {
    const NodeInfo& ni = info->nodes[static_cast<size_t>(n.id)];
    if (leaf(n) || ni.kind != ElemKind::Real) continue;
    for (size_t k = 0; k < ni.outputs.size(); ++k) {
      const ValueRef at{n.id, static_cast<int>(k)};
      const bool output = std::any_of(g.outputs.begin(), g.outputs.end(), [&](const GraphOutput& o) {
        return o.value.node == at.node && o.value.output == at.output;
      });
      if (!output) out.push_back({k == 0 ? n.name : n.name + ":" + std::to_string(k), at});
    }
  }
  return out;
}

}  // namespace

Result<EngineAnswer> engine_answer(Model& m, const std::vector<HostTensor>& inputs, int64_t max_memory,
                                   const EngineChoice& e) {
  const size_t n = m.graph.outputs.size();
  std::vector<GraphOutput> extra = is_hw(e) ? std::vector<GraphOutput>{} : real_intermediates(m.graph);
  m.graph.outputs.insert(m.graph.outputs.end(), extra.begin(), extra.end());
  auto run = run_float32(m, inputs, max_memory, e);
  m.graph.outputs.resize(n);
  if (!run && run.error().code == "size.budget" && !extra.empty()) {  // every value held does not fit: outputs alone
    extra.clear();
    run = run_float32(m, inputs, max_memory, e);
  }
  if (!run) return std::move(run).error();
  EngineAnswer answer;
  for (size_t k = 0; k < extra.size(); ++k)
    answer.cuts.push_back(Cut{extra[k].name, extra[k].value, float32_host((*run)[n + k])});
  run->resize(n);
  answer.outputs = named_outputs(m.graph, *run);
  return answer;
}

}  // namespace nnref
