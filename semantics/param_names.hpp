// Parameters in the model's own terms: the name each (node, role) has in its source, and the
// weights entries a missing parameter may have been saved as.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "semantics/graph.hpp"
#include "semantics/payload.hpp"

namespace nnref {

// The name a (node, role) parameter or weights entry has in its source, e.g. (bn1, scale) →
// "bn1.gamma"; absent entries are named "node/role" ("node" when the role is empty).
using ParamNames = std::map<std::pair<std::string, std::string>, std::string>;
std::string param_name(const ParamNames& names, const std::string& node, const std::string& role);

// The name of a weights entry that no layer can use, because the graph has no node of its name or
// `node` (whose parameter roles are `roles`) has no parameter of its role, and that looks like the
// missing parameter `wanted` (semantics/spelling.hpp); "" when there is none.
std::string unbindable_lookalike(const Graph& g, const Payload& payload, const ParamNames& names,
                                 const std::string& node, const std::vector<std::string>& roles,
                                 const std::string& wanted);

// The names of the parameters `names` lists that `payload` does not hold (the front-end's
// parameters that are missing), for pairing with the unused entries.
std::vector<std::string> absent_params(const Payload& payload, const ParamNames& names);

}  // namespace nnref
