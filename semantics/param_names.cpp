#include "semantics/param_names.hpp"

#include <algorithm>

#include "semantics/spelling.hpp"

namespace nnref {

std::string param_name(const ParamNames& names, const std::string& node, const std::string& role) {
  auto it = names.find({node, role});
  if (it != names.end()) return it->second;
  return role.empty() ? node : node + "/" + role;
}

std::string unbindable_lookalike(const Graph& g, const Payload& payload, const ParamNames& names,
                                 const std::string& node, const std::vector<std::string>& roles,
                                 const std::string& wanted) {
  std::vector<std::string> spare;
  for (const auto& [key, entry] : payload.entries()) {
    const bool other_role = key.first == node && std::find(roles.begin(), roles.end(), key.second) == roles.end();
    if (other_role || g.find(key.first) == nullptr) spare.push_back(param_name(names, key.first, key.second));
  }
  return lookalike_param(wanted, spare).value_or("");
}

std::vector<std::string> absent_params(const Payload& payload, const ParamNames& names) {
  std::vector<std::string> out;
  for (const auto& [key, name] : names)
    if (payload.find(key.first, key.second) == nullptr) out.push_back(name);
  return out;
}

}  // namespace nnref
