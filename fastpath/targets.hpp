// The Highway targets the fast path can run on this machine, and forcing one (`--target`): every
// kernel dispatches to the best target that is both compiled and supported, unless the better ones
// are disabled. Force a target before preparing an engine: weights are packed for the target in use.
#pragma once

#include <string>
#include <vector>

#include "spec/result.hpp"

namespace nnref::fastpath {

// The names of the targets this machine runs and the binary has, best first ("AVX3", "AVX2", ...).
std::vector<std::string> available_targets();

// From now on, dispatch uses the named target: every better one is disabled. An error naming the
// available targets if this machine or binary has no target of that name.
Status force_target(const std::string& name);

}  // namespace nnref::fastpath
