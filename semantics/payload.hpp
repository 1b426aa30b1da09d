// Payload: the parameters of a graph, keyed by node name and role (conv1/weight), as read from
// files. Structure (Graph) and parameters (Payload) are separate artifacts (TorchLean's Payload).
#pragma once

#include <map>
#include <string>
#include <utility>

#include "spec/host_tensor.hpp"

namespace nnref {

struct ParamEntry {
  HostTensor tensor;
  std::string source;  // where it came from, for diagnostics: "weights/fc1.weight.npy"
  // The decimal the model states for each value, when it states them in text (NNL's
  // preprocess_mean): the 50-digit and interval readings use it, not the double nearest to it.
  // Empty: the doubles are the values (tensor files hold binary numbers).
  std::vector<std::string> decimals = {};
};

class Payload {
 public:
  void set(const std::string& node, const std::string& role, ParamEntry entry);
  const ParamEntry* find(const std::string& node, const std::string& role) const;
  // The entries of node `from` become node `to`'s (a front-end renaming a node it made).
  void rename(const std::string& from, const std::string& to);
  const std::map<std::pair<std::string, std::string>, ParamEntry>& entries() const { return entries_; }

 private:
  std::map<std::pair<std::string, std::string>, ParamEntry> entries_;
};

}  // namespace nnref
