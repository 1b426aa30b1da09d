// Harness bodies for the model front-ends: NNL, NNEF (graph.nnef), ONNX and NAC, each from the
// file's bytes. Nothing outside the scratch folder is read: NNL and NNEF skip their weights,
// ONNX's external data resolves in a folder that does not exist, NAC's weights are internal.
#include <string>

#include "formats/nac/decode.hpp"
#include "formats/nac/lower.hpp"
#include "formats/nac/schedule.hpp"
#include "formats/nnef/nnef.hpp"
#include "formats/nnl/nnl.hpp"
#include "formats/onnx/onnx.hpp"
#include "fuzz/target_support.hpp"

namespace nnref::fuzz {

namespace {

std::string text_of(std::span<const uint8_t> input) { return std::string(reinterpret_cast<const char*>(input.data()), input.size()); }

// Hostile attributes (kernel 2^62, axis -10^6) reach every shape rule through the model.
LoadOptions structure_only(int64_t max_memory) {
  LoadOptions options;
  options.weights = WeightsPolicy::Skip;
  options.max_memory = max_memory;
  return options;
}

}  // namespace

Outcome run_nnl(std::span<const uint8_t> input) {
  return model_outcome(load_nnl_text(text_of(input), "fuzz.nnl", structure_only(int64_t{1} << 28)));
}

Outcome run_nnef(std::span<const uint8_t> input) {
  const std::string folder = (scratch_folder() / "nonexistent-nnef-folder").string();
  return model_outcome(load_nnef_text(text_of(input), "graph.nnef", folder, structure_only(int64_t{1} << 28)));
}

Outcome run_onnx(std::span<const uint8_t> input) {
  LoadOptions options;
  options.max_memory = int64_t{1} << 26;  // the fuzzer's memory limit, not the default 4 GiB
  const std::string path = (scratch_folder() / "nonexistent-onnx-folder" / "fuzz.onnx").string();
  return model_outcome(load_onnx_bytes(text_of(input), path, options));
}

// A Program or a FormatError; a Program then goes through the MMAP verifier and the lowering to the
// IR with its internal weights under a 16 MiB budget.
Outcome run_nac(std::span<const uint8_t> input) {
  const std::string bytes = text_of(input);
  auto decoded = nac::decode(bytes);
  if (const auto* e = std::get_if<nac::FormatError>(&decoded)) return nac_error_outcome(*e);
  const nac::Program& program = std::get<nac::Program>(decoded);
  (void)nac::verify_schedule(program, {});
  LoadOptions options;
  options.max_memory = int64_t{1} << 24;
  return nac_lowered_outcome(nac::lower(program, nac::WeightStore::internal(program, bytes), "fuzz.nac", options));
}

}  // namespace nnref::fuzz
