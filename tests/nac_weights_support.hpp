// A model's parameters by their names in the weights, as the NAC writer stores them: the tests of
// a write followed by a read compare weights under these names (node names change on the way).
#pragma once

#include <map>
#include <string>

#include "formats/model.hpp"

namespace nnref::test {

// Every parameter of `m`, by its name in the weights (param_keys).
inline std::map<std::string, const HostTensor*> weights_by_name(const Model& m) {
  std::map<std::string, const HostTensor*> out;
  for (const auto& [key, entry] : m.payload.entries()) {
    auto name = m.param_keys.find(key);
    // unnamed in the source: the writer names it <node>.<role> (docs/nac.md)
    out[name != m.param_keys.end() ? name->second : key.first + "." + key.second] = &entry.tensor;
  }
  return out;
}

}  // namespace nnref::test
