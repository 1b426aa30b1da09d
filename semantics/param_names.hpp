// Parameters in the model's own terms: the name each (node, role) has in its source, and the
// weights entries a missing parameter may have been saved as.
#pragma once

#include <cstddef>
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

// A model whose weights are all misnamed would pair every missing parameter with every entry
// (quadratic); the first this many pairings show the pattern.
inline constexpr size_t kMaxLookalikeSearches = 64;

// The weights entries that no layer can use, for suggesting one for a missing parameter: those of
// a node the graph lacks, and those of a node under a role it does not have. Built once per walk,
// when a parameter is first found missing.
class SpareEntries {
 public:
  SpareEntries(const Graph& g, const Payload& payload, const ParamNames& names);
  // An entry that looks like the missing parameter `wanted` of `node`, whose parameter roles are
  // `roles` (semantics/spelling.hpp); "" when none does, or after kMaxLookalikeSearches calls.
  std::string lookalike(const std::string& node, const std::vector<std::string>& roles, const std::string& wanted);

 private:
  const Payload& payload_;
  const ParamNames& names_;
  std::vector<std::string> orphans_;  // the names of entries of nodes the graph lacks
  size_t searches_ = 0;
};

// The names of the parameters `names` lists that `payload` does not hold (the front-end's
// parameters that are missing), for pairing with the unused entries.
std::vector<std::string> absent_params(const Payload& payload, const ParamNames& names);

}  // namespace nnref
