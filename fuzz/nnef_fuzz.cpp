// libFuzzer harness for the NNEF front-end (formats/nnef/): any bytes as graph.nnef must yield a
// model or diagnostics, never a crash, a hang or an allocation beyond the budget; a model then
// goes through structure and shape inference. Weights are skipped, so no file is opened. Build:
// cmake -DCMAKE_CXX_COMPILER=clang++ -DNNREF_FUZZ=ON; run on fuzz/corpus/nnef.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "formats/nnef/nnef.hpp"
#include "semantics/wellformed.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  nnref::LoadOptions options;
  options.weights = nnref::WeightsPolicy::Skip;
  options.max_memory = int64_t{1} << 28;
  nnref::LoadResult r = nnref::load_nnef_text(text, "graph.nnef", "/nonexistent-nnef-fuzz-folder", options);
  if (r.has_errors() && r.model) std::abort();
  if (r.model) {
    if (!nnref::check_structure(r.model->graph).empty()) std::abort();
    (void)nnref::infer_shapes(r.model->graph);
  }
  return 0;
}
