#include "semantics/param_names.hpp"

#include <algorithm>
#include <unordered_set>

#include "semantics/spelling.hpp"

namespace nnref {

std::string param_name(const ParamNames& names, const std::string& node, const std::string& role) {
  auto it = names.find({node, role});
  if (it != names.end()) return it->second;
  return role.empty() ? node : node + "/" + role;
}

SpareEntries::SpareEntries(const Graph& g, const Payload& payload, const ParamNames& names)
    : payload_(payload), names_(names) {
  std::unordered_set<std::string> nodes;
  for (const Node& n : g.nodes) nodes.insert(n.name);
  for (const auto& [key, entry] : payload.entries())
    if (!nodes.count(key.first)) orphans_.push_back(param_name(names, key.first, key.second));
}

std::string SpareEntries::lookalike(const std::string& node, const std::vector<std::string>& roles,
                                    const std::string& wanted) {
  if (searches_ >= kMaxLookalikeSearches) return "";
  ++searches_;
  std::vector<std::string> spare = orphans_;
  const auto& entries = payload_.entries();
  for (auto it = entries.lower_bound({node, ""}); it != entries.end() && it->first.first == node; ++it)
    if (std::find(roles.begin(), roles.end(), it->first.second) == roles.end())
      spare.push_back(param_name(names_, node, it->first.second));
  return lookalike_param(wanted, spare).value_or("");
}

std::vector<std::string> absent_params(const Payload& payload, const ParamNames& names) {
  std::vector<std::string> out;
  for (const auto& [key, name] : names)
    if (payload.find(key.first, key.second) == nullptr) out.push_back(name);
  return out;
}

}  // namespace nnref
