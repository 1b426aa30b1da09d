#include "fastpath/targets.hpp"

#include <hwy/targets.h>

namespace nnref::fastpath {

std::vector<std::string> available_targets() {
  std::vector<std::string> names;
  for (const int64_t t : hwy::SupportedAndGeneratedTargets()) names.emplace_back(hwy::TargetName(t));
  return names;
}

Status force_target(const std::string& name) {
  for (const int64_t t : hwy::SupportedAndGeneratedTargets())
    if (name == hwy::TargetName(t)) {
      hwy::DisableTargets(t - 1);  // Highway numbers better targets with lower bits
      return {};
    }
  std::string known;
  for (const auto& n : available_targets()) known += (known.empty() ? "" : ", ") + n;
  return make_error("usage.target", "no target '" + name + "' on this machine; available: " + known);
}

}  // namespace nnref::fastpath
