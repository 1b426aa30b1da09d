#include "fastpath/targets.hpp"

#include <hwy/targets.h>

namespace nnref::fastpath {

namespace {

// The targets as the machine and binary have them, before any is disabled.
const std::vector<int64_t>& all_targets() {
  static const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
  return targets;
}

}  // namespace

std::vector<std::string> available_targets() {
  std::vector<std::string> names;
  for (const int64_t t : all_targets()) names.emplace_back(hwy::TargetName(t));
  return names;
}

Status force_target(const std::string& name) {
  for (const int64_t t : all_targets())
    if (name == hwy::TargetName(t)) {
      hwy::DisableTargets(t - 1);  // Highway numbers better targets with lower bits
      return {};
    }
  std::string known;
  for (const auto& n : available_targets()) known += (known.empty() ? "" : ", ") + n;
  return make_error("usage.target", "no target '" + name + "' on this machine; available: " + known);
}

}  // namespace nnref::fastpath
