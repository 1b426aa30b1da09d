#include "semantics/payload.hpp"

namespace nnref {

void Payload::set(const std::string& node, const std::string& role, ParamEntry entry) {
  entries_[{node, role}] = std::move(entry);
}

const ParamEntry* Payload::find(const std::string& node, const std::string& role) const {
  auto it = entries_.find({node, role});
  return it == entries_.end() ? nullptr : &it->second;
}

}  // namespace nnref
