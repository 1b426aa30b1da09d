#include "semantics/payload.hpp"

namespace nnref {

void Payload::set(const std::string& node, const std::string& role, ParamEntry entry) {
  entries_[{node, role}] = std::move(entry);
}

void Payload::rename(const std::string& from, const std::string& to) {
  for (auto it = entries_.lower_bound({from, ""}); it != entries_.end() && it->first.first == from;) {
    entries_[{to, it->first.second}] = std::move(it->second);
    it = entries_.erase(it);
  }
}

const ParamEntry* Payload::find(const std::string& node, const std::string& role) const {
  auto it = entries_.find({node, role});
  return it == entries_.end() ? nullptr : &it->second;
}

}  // namespace nnref
