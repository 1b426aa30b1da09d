// libFuzzer harness for the ONNX front-end: any bytes must yield a model or diagnostics, never a
// crash; a model then goes through structure and shape inference. External data resolves in a
// folder that does not exist, so nothing outside the process is read. Build: cmake
// -DCMAKE_CXX_COMPILER=clang++ -DNNREF_FUZZ=ON; run on fuzz/corpus/onnx.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "formats/onnx/onnx.hpp"
#include "semantics/wellformed.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  nnref::LoadOptions options;
  options.max_memory = int64_t{1} << 26;  // the fuzzer's memory limit, not the default 4 GiB
  nnref::LoadResult r = nnref::load_onnx_bytes(bytes, "/nonexistent-nnref-fuzz/fuzz.onnx", options);
  if (r.has_errors() && r.model) std::abort();
  if (r.model) {
    if (!nnref::check_structure(r.model->graph).empty()) std::abort();  // front-ends emit valid structure
    (void)nnref::infer_shapes(r.model->graph);
  }
  return 0;
}
