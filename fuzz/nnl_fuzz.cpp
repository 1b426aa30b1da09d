// libFuzzer harness for the NNL front-end and the shape rules behind it: any bytes must yield a
// model or diagnostics, never a crash; a model then goes through structure and shape inference,
// so hostile attributes (kernel 2^62, axis -10^6) reach every shape rule. No weight files are
// touched. Build: cmake -DCMAKE_CXX_COMPILER=clang++ -DNNREF_FUZZ=ON; run on fuzz/corpus/nnl.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "formats/nnl/nnl.hpp"
#include "semantics/wellformed.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  nnref::LoadOptions options;
  options.weights = nnref::WeightsPolicy::Skip;
  nnref::LoadResult r = nnref::load_nnl_text(text, "fuzz.nnl", options);
  // Invariants: errors and a model never come together; a model is in topological order.
  if (r.has_errors() && r.model) std::abort();
  if (r.model) {
    const auto& nodes = r.model->graph.nodes;
    for (size_t i = 0; i < nodes.size(); ++i)
      for (const auto& in : nodes[i].inputs)
        if (in.node < 0 || in.node >= static_cast<int64_t>(i)) std::abort();
    if (!nnref::check_structure(r.model->graph).empty()) std::abort();  // front-ends emit valid structure
    (void)nnref::infer_shapes(r.model->graph);
  }
  return 0;
}
