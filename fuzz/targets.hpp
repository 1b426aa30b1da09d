// The bodies of the libFuzzer harnesses, one per reader, as plain functions: the harness
// executables (fuzz/harness.cpp, built with the fuzzer and sanitizers) call them on each input, and
// tests/fuzz_regressions_test.cpp calls them, uninstrumented, on the crashing inputs kept in
// fuzz/regressions/<target>/, so that every finding replays in the normal ctest. docs/testing.md
// ("Hardened readers") lists the targets and how to run them.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nnref::fuzz {

// What a reader did with one input.
struct Outcome {
  bool accepted = false;           // it returned a value (a tensor, a model)
  std::vector<std::string> codes;  // the codes of its error diagnostics, in order
  std::string broken;              // the invariant it broke ("" : none); the harness aborts on it
};

struct Target {
  const char* name;    // the harness is <name>_fuzz, its seeds fuzz/corpus/<name>/
  const char* reader;  // what it reads, for docs and messages
  Outcome (*run)(std::span<const uint8_t> input);
};

std::span<const Target> targets();
const Target* find_target(std::string_view name);

// The bodies (fuzz/target_tensors.cpp, target_models.cpp, target_weights.cpp).
Outcome run_npy(std::span<const uint8_t> input);
Outcome run_npz(std::span<const uint8_t> input);
Outcome run_onnx_pb(std::span<const uint8_t> input);
Outcome run_nnl(std::span<const uint8_t> input);
Outcome run_nnef(std::span<const uint8_t> input);
Outcome run_onnx(std::span<const uint8_t> input);
Outcome run_nac(std::span<const uint8_t> input);
Outcome run_nnef_dat(std::span<const uint8_t> input);
Outcome run_nnef_quant(std::span<const uint8_t> input);
Outcome run_nac_safetensors(std::span<const uint8_t> input);
Outcome run_sknd(std::span<const uint8_t> input);  // fuzz/target_sknd.cpp

}  // namespace nnref::fuzz
