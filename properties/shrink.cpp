#include "properties/shrink.hpp"

#include <algorithm>

namespace nnref::properties {

namespace {

// A candidate's choices rebuilt into a model, or nullopt when they build none.
std::optional<GeneratedModel> rebuild(std::vector<uint64_t> choices, const GenOptions& options) {
  Choices replay = Choices::replay(std::move(choices));
  auto g = generate(replay, options);
  if (!g) return std::nullopt;
  return std::move(g).value();
}

}  // namespace

// Passes until one changes nothing (or the attempts run out): delete runs of choices, longest
// first (fewer nodes, fewer leaves); lower a choice by one and delete a run after it; lower each
// choice to 0, 1, half of it, one less.
GeneratedModel shrink(const GeneratedModel& failing, const GenOptions& options,
                      const std::function<bool(const GeneratedModel&)>& fails, int max_attempts) {
  GeneratedModel best = failing;
  int attempts = 0;
  // Whether the edited choices still fail with no more op nodes (an edit of the choices may build
  // a larger model: never kept); if so they become the best.
  auto keep_if_fails = [&](std::vector<uint64_t> edited) {
    if (attempts >= max_attempts || edited == best.choices) return false;
    ++attempts;
    auto g = rebuild(std::move(edited), options);
    if (!g || op_node_count(g->model.graph) > op_node_count(best.model.graph) || !fails(*g)) return false;
    best = std::move(*g);
    return true;
  };
  bool progress = true;
  while (progress && attempts < max_attempts) {
    progress = false;
    for (size_t run = std::max<size_t>(1, best.choices.size() / 2); run >= 1; run /= 2) {
      for (size_t at = 0; at + run <= best.choices.size();) {
        std::vector<uint64_t> edited = best.choices;
        edited.erase(edited.begin() + static_cast<ptrdiff_t>(at), edited.begin() + static_cast<ptrdiff_t>(at + run));
        if (keep_if_fails(std::move(edited))) progress = true;
        else at += run;
        if (attempts >= max_attempts) return best;
      }
    }
    // A count lowered by one together with the run of choices its last item read (a step of the
    // generator, an operand): neither edit alone keeps the failure.
    for (size_t at = 0; at < best.choices.size(); ++at) {
      if (best.choices[at] == 0) continue;
      for (size_t run = 1; run <= 32 && at + 1 + run <= best.choices.size(); run += run < 8 ? 1 : run) {  // 1..8, 16, 32
        std::vector<uint64_t> edited = best.choices;
        edited[at] -= 1;
        edited.erase(edited.begin() + static_cast<ptrdiff_t>(at + 1), edited.begin() + static_cast<ptrdiff_t>(at + 1 + run));
        if (keep_if_fails(std::move(edited))) {
          progress = true;
          break;
        }
        if (attempts >= max_attempts) return best;
      }
    }
    for (size_t at = 0; at < best.choices.size(); ++at) {
      const uint64_t v = best.choices[at];
      for (uint64_t lower : {uint64_t{0}, uint64_t{1}, v / 2, v - 1}) {
        if (v == 0 || lower >= v) continue;
        std::vector<uint64_t> edited = best.choices;
        edited[at] = lower;
        if (keep_if_fails(std::move(edited))) {
          progress = true;
          break;
        }
        if (attempts >= max_attempts) return best;
      }
    }
  }
  return best;
}

}  // namespace nnref::properties
