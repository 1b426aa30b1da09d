// libFuzzer harness for the NAC front-end: any bytes must decode to a Program or a located
// FormatError, never a crash or a read outside the buffer; a Program then goes through the MMAP
// verifier, the lowering to the IR (internal weights, a 16 MiB budget) and shape inference.
// Build: cmake -DCMAKE_CXX_COMPILER=clang++ -DNNREF_FUZZ=ON; run on fuzz/corpus/nac.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "formats/nac/decode.hpp"
#include "formats/nac/lower.hpp"
#include "formats/nac/schedule.hpp"
#include "semantics/wellformed.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto decoded = nnref::nac::decode(bytes);
  const auto* program = std::get_if<nnref::nac::Program>(&decoded);
  if (!program) return 0;
  (void)nnref::nac::verify_schedule(*program, {});
  const auto store = nnref::nac::WeightStore::internal(*program, bytes);
  nnref::LoadOptions options;
  options.max_memory = int64_t{1} << 24;
  auto lowered = nnref::nac::lower(*program, store, "fuzz.nac", options);
  if (const auto* model = std::get_if<nnref::Model>(&lowered)) (void)nnref::infer_shapes(model->graph);
  return 0;
}
