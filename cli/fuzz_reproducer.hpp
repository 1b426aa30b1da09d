// A reproducer folder of `nnref fuzz` (docs/testing.md, "nnref fuzz"): everything needed to see a
// failure again without the fuzzer: the (shrunk) model, its input, each subject's output, the
// verdicts, the choices that regenerate the model, and reproduce.sh, the one command that
// reproduces the verdict (exit 0 once the failure is gone).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/fuzz_judge.hpp"
#include "properties/generate.hpp"

namespace nnref {

// Where the model came from: enough to regenerate it (choices.json).
struct FailureOrigin {
  uint64_t campaign_seed = 0;
  int64_t index = 0;         // model k of the campaign
  std::vector<uint64_t> original_choices;
  int original_nodes = 0;    // op nodes of the model before shrinking
  properties::GenOptions options;
};

using properties::op_node_count;  // properties/generate.hpp

// Writes the folder `dir` (which exists) for `failing`, judged again by `subjects` on the model as
// written to its file (so that the verdict is the one reproduce.sh gives). The model and the input
// are written before any subject runs, and each verdict as soon as it is known, so that a subject
// that crashes the process leaves a folder that shows it; `nnref_binary` is what reproduce.sh runs.
// Returns what could not be written.
Status write_reproducer(const std::filesystem::path& dir, const FailureOrigin& origin,
                        const properties::GeneratedModel& failing, const std::vector<Subject>& subjects,
                        const std::string& nnref_binary, int64_t max_memory);

}  // namespace nnref
