// What the round-trip properties compare (tests/properties_nac_test.cpp, properties_nnl_test.cpp):
// a graph up to the order of its nodes, and outputs bit for bit.
#pragma once

#include <rapidcheck.h>

#include <cstring>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "formats/model.hpp"
#include "semantics/evaluate.hpp"
#include "semantics/wellformed.hpp"

namespace nnref::properties {

// Canonical node ids shared by the graphs it numbers: two nodes get the same id when they have the
// same op, output shapes and kinds, parameters (by role, and by name in the weights unless the
// format renames them), input position (an Input) and inputs (by canonical id and output index).
struct Canon {
  bool weight_names = true;
  std::map<std::string, int> known;
  std::vector<int> ids(const Model& m) {
    auto info = infer_shapes(m.graph);
    RC_ASSERT(info.ok());
    std::vector<int> id(m.graph.nodes.size());
    int inputs = 0;
    for (size_t i = 0; i < m.graph.nodes.size(); ++i) {
      const Node& n = m.graph.nodes[i];
      std::string key = op_name(n.op) + " kind " + std::to_string(static_cast<int>(info->nodes[i].kind));
      for (const Shape& s : info->nodes[i].outputs) key += " " + dims_str(s.dims());
      if (std::holds_alternative<InputAttrs>(n.op)) key += " input " + std::to_string(inputs++);
      for (const auto& [k, e] : m.payload.entries())
        if (k.first == n.name) key += " " + k.second + (weight_names ? "=" + m.param_keys.at(k) : "");
      for (const ValueRef& r : n.inputs) key += " <" + std::to_string(id[static_cast<size_t>(r.node)]) + ":" + std::to_string(r.output);
      id[i] = known.emplace(key, static_cast<int>(known.size())).first->second;
    }
    return id;
  }
};

template <Scalar T>
void assert_same_outputs(const Model& a, const Model& b, const std::vector<HostTensor>& inputs) {
  auto ya = evaluate<T>(a.graph, a.payload, inputs, EvalOptions{int64_t{1} << 30, a.param_keys});
  auto yb = evaluate<T>(b.graph, b.payload, inputs, EvalOptions{int64_t{1} << 30, b.param_keys});
  RC_ASSERT((ya.ok() && yb.ok()));
  RC_ASSERT(ya->size() == yb->size());
  for (size_t k = 0; k < ya->size(); ++k) {
    RC_ASSERT((*ya)[k].shape() == (*yb)[k].shape());
    for (int64_t i = 0; i < (*ya)[k].size(); ++i) {
      const double p = sc::to_double((*ya)[k][i]), q = sc::to_double((*yb)[k][i]);
      RC_ASSERT(std::memcmp(&p, &q, sizeof p) == 0);  // bit for bit, signed zeros included
    }
  }
}

}  // namespace nnref::properties
