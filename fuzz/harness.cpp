// The libFuzzer entry point of one harness: <target>_fuzz runs the body fuzz/targets.hpp names
// NNREF_FUZZ_TARGET on each input and aborts when the reader breaks an invariant, so libFuzzer keeps
// the input as a crash (ASan and UBSan report the rest). fuzz/CMakeLists.txt builds one per target.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz/targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const nnref::fuzz::Target* target = nnref::fuzz::find_target(NNREF_FUZZ_TARGET);
  if (!target) {
    std::fprintf(stderr, "no fuzz target named '%s' in fuzz/targets.cpp\n", NNREF_FUZZ_TARGET);
    std::abort();
  }
  const nnref::fuzz::Outcome outcome = target->run(std::span<const uint8_t>(data, size));
  if (!outcome.broken.empty()) {
    std::fprintf(stderr, "%s_fuzz: the reader of %s broke an invariant: %s\n", target->name, target->reader,
                 outcome.broken.c_str());
    std::abort();
  }
  return 0;
}
