// Shrinking a failing generated model toward fewer nodes, smaller extents and simpler values:
// edits of its choice list (delete a run of choices, lower one toward 0), each rebuilt with
// generate(), kept while the failure persists.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "properties/generate.hpp"

namespace nnref::properties {

// The smallest failing model found within `max_attempts` rebuilds; `fails` is called on each
// candidate and must be deterministic.
GeneratedModel shrink(const GeneratedModel& failing, const GenOptions& options,
                      const std::function<bool(const GeneratedModel&)>& fails, int max_attempts = 500);

}  // namespace nnref::properties
