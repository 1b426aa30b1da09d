// The NAC v1.6 front-end (seeds/nac-v1.6-spec.md; the reading rules where v1.6 is silent and the
// diagnostic codes are in docs/nac.md).
#pragma once

#include <span>
#include <string>

#include "formats/code_info.hpp"
#include "formats/model.hpp"
#include "formats/nac/encode.hpp"
#include "formats/nac/program.hpp"

namespace nnref {

// The codes the NAC front-end and `nnref nac` print (docs/nac.md).
std::span<const CodeInfo> nac_codes();

LoadResult load_nac_file(const std::string& path, const LoadOptions& options);

namespace nac {

// The file's bytes, decoded, and its MMAP schedule verified: the program when it decodes (even when
// its schedule is unsound), and every error, located at `path`.
struct DecodedFile {
  std::string bytes;
  std::optional<Program> program;
  std::vector<Diagnostic> diagnostics;
};
DecodedFile read_program(const std::string& path, int64_t max_memory);

// A program with the model it lowers to (instruction i is node v<i>) and each parameter's stored
// bytes (its DATA Length, or its elements at the header's quantization for external weights):
// what a hardware model executes.
struct LoadedProgram {
  Program program;
  Model model;
  std::map<uint16_t, int64_t> param_bytes;
};
using LoadedOrErrors = std::variant<LoadedProgram, std::vector<Diagnostic>>;

// A .nac file, read, verified and lowered with its weights as `options` asks.
LoadedOrErrors load_program(const std::string& path, const LoadOptions& options);

// A model of any format compiled to NAC in memory (internal weights) and read back, as
// `nnref nac compile` then a load would; diagnostics are located at the model's path.
LoadedOrErrors compile_program(const Model& m, const WriteOptions& w, const LoadOptions& options);

// The sibling weights file of a model: same folder, same stem, ".safetensors".
std::string external_weights_path(const std::string& nac_path);

}  // namespace nac

}  // namespace nnref
