// What the harness bodies share: the invariants every reader keeps on any input, and a scratch
// folder for the readers that take a path (a .dat, graph.quant, a .safetensors, a .pb).
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "formats/model.hpp"
#include "formats/nac/bytes.hpp"
#include "fuzz/targets.hpp"
#include "spec/diagnostic.hpp"
#include "spec/result.hpp"

namespace nnref::fuzz {

// Records the first invariant that does not hold.
void require(Outcome& o, bool holds, const char* invariant);

// Every error has a code and names the file it is about.
void add_errors(Outcome& o, const std::vector<Diagnostic>& diagnostics);
void add_error(Outcome& o, const Diagnostic& d);

// A model front-end's result: errors and a model never together; a model's nodes in topological
// order with a valid structure; its shapes then inferred (a failure is a diagnostic, not a crash).
Outcome model_outcome(const LoadResult& r);

// A NAC reader's refusal (its code), and the lowering's Model through model_outcome.
Outcome nac_error_outcome(const nac::FormatError& e);
Outcome nac_lowered_outcome(std::variant<Model, nac::FormatError> lowered);

// A folder of this process's own (several fuzzing jobs run at once), created on first use and
// removed when the process ends.
const std::filesystem::path& scratch_folder();
// Writes `bytes` to `path`, replacing it.
void write_bytes(const std::filesystem::path& path, std::span<const uint8_t> bytes);

}  // namespace nnref::fuzz
