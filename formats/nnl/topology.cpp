#include "formats/nnl/topology.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <queue>
#include <string>

#include "formats/nnl/layers.hpp"
#include "semantics/spelling.hpp"

namespace nnref::nnl {

namespace {

std::string cycle_text(const Program& p, const std::vector<size_t>& cycle) {
  std::string s;
  for (size_t i : cycle) s += p.layers[i].id + " -> ";
  return s + p.layers[cycle.front()].id;
}

// Finds and reports the cycles among the layers Kahn's algorithm could not order.
void report_cycles(const Program& p, const std::vector<std::vector<size_t>>& consumers,
                   const std::vector<bool>& left, Diags& d) {
  size_t n = p.layers.size();
  std::vector<int> color(n, 0);  // 0 unseen, 1 on the stack, 2 done
  std::vector<bool> reported(n, false);
  for (size_t root = 0; root < n; ++root) {
    if (!left[root] || color[root] != 0) continue;
    // Iterative DFS along feeds-into edges: a back edge closes a cycle.
    std::vector<std::pair<size_t, size_t>> stack{{root, 0}};
    color[root] = 1;
    while (!stack.empty()) {
      auto& [u, next] = stack.back();
      if (next < consumers[u].size()) {
        size_t v = consumers[u][next++];
        if (!left[v]) continue;
        if (color[v] == 0) {
          color[v] = 1;
          stack.push_back({v, 0});
        } else if (color[v] == 1) {
          std::vector<size_t> cycle;
          size_t k = stack.size();
          while (k > 0 && stack[k - 1].first != v) --k;
          for (size_t j = k - 1; j < stack.size(); ++j) cycle.push_back(stack[j].first);
          bool fresh = std::none_of(cycle.begin(), cycle.end(), [&](size_t c) { return reported[c]; });
          if (fresh) {
            // Start the cycle at its earliest declaration, for a stable message.
            auto first = std::min_element(cycle.begin(), cycle.end());
            std::rotate(cycle.begin(), first, cycle.end());
            for (size_t c : cycle) reported[c] = true;
            const LayerDecl& L = p.layers[cycle.front()];
            d.error("nnl.graph.cycle", "the connections form a cycle: " + cycle_text(p, cycle), L.loc, L.id);
          }
        }
      } else {
        color[u] = 2;
        stack.pop_back();
      }
    }
  }
}

}  // namespace

Topology connect(const Program& p, Diags& d) {
  Topology t;
  size_t n = p.layers.size();
  t.inputs.assign(n, {});
  t.feeds_other.assign(n, false);
  size_t errors_before = d.error_count();

  std::map<size_t, size_t> broken_edge;  // a layer → the error about an unknown name in an edge into it
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < n; ++i) index.emplace(p.layers[i].id, i);  // first declaration wins
  auto is_input = [&](size_t i) { return p.layers[i].type == "Input"; };
  bool explicit_edges = p.connection_blocks > 0;

  if (p.connection_blocks > 1)
    d.error("nnl.connection.duplicate-block", "model '" + p.model_name + "' has more than one connections block",
            p.connections_loc);

  if (!explicit_edges) {
    for (size_t i = 0; i < n; ++i) {
      if (index.at(p.layers[i].id) != i || is_input(i)) continue;
      if (i > 0) t.inputs[i].push_back(index.at(p.layers[i - 1].id));
    }
  } else {
    std::vector<std::string> ids;
    for (const LayerDecl& L : p.layers) ids.push_back(L.id);
    // "connection to unknown layer 'dens1'", with "did you mean 'dense1'?"; the id of the error.
    const auto unknown = [&](const NameRef& name, const char* direction) {
      const auto meant = closest_spelling(name.name, ids);
      std::vector<std::string> notes;
      if (meant) notes.push_back("did you mean '" + *meant + "'?");
      const size_t id = d.error("nnl.connection.unknown-layer",
                                std::string("connection ") + direction + " unknown layer '" + name.name + "'",
                                name.loc, name.name, std::move(notes));
      return std::pair{id, meant};
    };
    for (const Edge& e : p.edges) {
      auto to = index.find(e.to.name);
      if (to == index.end()) {
        // The layer meant is likely left without inputs: its error follows from this one.
        const auto [id, meant] = unknown(e.to, "to");
        if (meant) broken_edge.emplace(index.at(*meant), id);
      }
      for (const NameRef& f : e.from) {
        auto from = index.find(f.name);
        if (from == index.end()) {
          const size_t id = unknown(f, "from").first;
          if (to != index.end()) broken_edge.emplace(to->second, id);
          continue;
        }
        if (to != index.end()) t.inputs[to->second].push_back(from->second);
      }
    }
  }
  // Input count errors of a layer an unknown name was meant for follow from that name's error.
  const auto report = [&](size_t layer, size_t id) {
    if (auto cause = broken_edge.find(layer); cause != broken_edge.end()) d.follows(id, cause->second);
  };

  // Input counts.
  for (size_t i = 0; i < n; ++i) {
    const LayerDecl& L = p.layers[i];
    if (index.at(L.id) != i) continue;
    const LayerSpec* spec = find_layer_spec(L.type);
    if (!spec) continue;
    int count = static_cast<int>(t.inputs[i].size());
    if (spec->min_inputs == 0 && count > 0) {
      report(i, d.error("nnl.layer.arity",
                        "Input layer '" + L.id + "' cannot have inputs, but " + std::to_string(count) +
                            (count == 1 ? " connection leads" : " connections lead") + " into it",
                        L.loc, L.id));
    } else if (count == 0 && spec->min_inputs > 0) {
      if (explicit_edges)
        report(i, d.error("nnl.graph.unreachable",
                          "layer '" + L.id + "' is not reachable from an Input: no connection leads into it", L.loc,
                          L.id));
      else
        d.error("nnl.layer.arity", "layer '" + L.id + "' has no input: the first layer must be an Input", L.loc,
                L.id);
    } else if (count < spec->min_inputs) {
      std::vector<std::string> notes;
      if (!explicit_edges) notes.push_back("Add and Concat need an explicit connections block, e.g. [a, b] -> " + L.id + ";");
      report(i, d.error("nnl.layer.arity",
                        std::string(spec->type) + " layer '" + L.id + "' needs at least " +
                            std::to_string(spec->min_inputs) + " inputs, but has " + std::to_string(count),
                        L.loc, L.id, std::move(notes)));
    } else if (spec->max_inputs >= 0 && count > spec->max_inputs) {
      d.error("nnl.layer.arity",
              std::string(spec->type) + " layer '" + L.id + "' takes exactly " + std::to_string(spec->max_inputs) +
                  " input, but has " + std::to_string(count),
              L.loc, L.id, {"only Add and Concat take several inputs"});
    }
  }

  // Consumers and a topological order (Kahn, smallest declaration index first).
  std::vector<std::vector<size_t>> consumers(n);
  std::vector<size_t> indegree(n, 0);
  for (size_t i = 0; i < n; ++i) {
    for (size_t j : t.inputs[i]) {
      consumers[j].push_back(i);
      t.feeds_other[j] = true;
      ++indegree[i];
    }
  }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
  std::vector<bool> left(n, false);
  for (size_t i = 0; i < n; ++i) {
    if (index.at(p.layers[i].id) != i) continue;  // duplicates take no part
    left[i] = true;
    if (indegree[i] == 0) ready.push(i);
  }
  while (!ready.empty()) {
    size_t u = ready.top();
    ready.pop();
    left[u] = false;
    t.order.push_back(u);
    for (size_t v : consumers[u])
      if (--indegree[v] == 0) ready.push(v);
  }
  if (std::any_of(left.begin(), left.end(), [](bool b) { return b; })) report_cycles(p, consumers, left, d);

  t.ok = d.error_count() == errors_before;
  return t;
}

}  // namespace nnref::nnl
