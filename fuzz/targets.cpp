#include "fuzz/targets.hpp"

#include <unistd.h>

#include <array>
#include <fstream>

#include "fuzz/target_support.hpp"
#include "semantics/graph_obligations.hpp"
#include "semantics/wellformed.hpp"

namespace nnref::fuzz {

namespace {

constexpr std::array kTargets{
    Target{"npy", ".npy tensor file", run_npy},
    Target{"npz", ".npz archive of .npy members", run_npz},
    Target{"onnx_pb", "serialized ONNX TensorProto (.pb)", run_onnx_pb},
    Target{"nnl", "NNL model text", run_nnl},
    Target{"nnef", "NNEF graph.nnef text", run_nnef},
    Target{"onnx", "ONNX ModelProto (.onnx)", run_onnx},
    Target{"nac", "NAC v1.6 file with internal weights", run_nac},
    Target{"nnef_dat", "NNEF tensor file (.dat)", run_nnef_dat},
    Target{"nnef_quant", "NNEF graph.quant over a quantized .dat", run_nnef_quant},
    Target{"nac_safetensors", "NAC external weights (.safetensors)", run_nac_safetensors},
    Target{"sknd", "SkriptND (NNEF 2.0) text, parsed only", run_sknd},
};

// Created on first use, removed when the process ends.
struct ScratchFolder {
  std::filesystem::path path = std::filesystem::temp_directory_path() / ("nnref_fuzz_" + std::to_string(::getpid()));
  ScratchFolder() {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~ScratchFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
};

}  // namespace

std::span<const Target> targets() { return kTargets; }

const Target* find_target(std::string_view name) {
  for (const Target& t : kTargets)
    if (name == t.name) return &t;
  return nullptr;
}

void require(Outcome& o, bool holds, const char* invariant) {
  if (!holds && o.broken.empty()) o.broken = invariant;
}

void add_error(Outcome& o, const Diagnostic& d) {
  require(o, !d.code.empty(), "every error has a code");
  require(o, !d.loc.file.empty(), "every error names its file");
  o.codes.push_back(d.code);
}

void add_errors(Outcome& o, const std::vector<Diagnostic>& diagnostics) {
  for (const Diagnostic& d : diagnostics)
    if (d.severity == Severity::Error) add_error(o, d);
}

Outcome model_outcome(const LoadResult& r) {
  Outcome o;
  add_errors(o, r.diagnostics);
  o.accepted = r.model.has_value();
  require(o, !(r.has_errors() && r.model), "errors and a model never together");
  require(o, r.has_errors() || r.model, "a load without a model reports an error");
  if (!r.model) return o;
  const auto& nodes = r.model->graph.nodes;
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const auto& in : nodes[i].inputs)
      require(o, in.node >= 0 && in.node < static_cast<int64_t>(i), "a model's nodes are in topological order");
  // A model whose every output is an empty value (docs/onnx.md, "Empty values") has a graph without outputs.
  const bool only_empty_outputs = r.model->graph.outputs.empty() && !r.model->empty_outputs.empty();
  for (const Diagnostic& d : check_structure(r.model->graph))
    require(o, only_empty_outputs && d.code == kNoOutputs.code, "a model passes check_structure");
  const Result<GraphInfo> shapes = infer_shapes(r.model->graph);
  if (!shapes) require(o, !shapes.error().code.empty(), "a shape error has a code");
  return o;
}

Outcome nac_error_outcome(const nac::FormatError& e) {
  Outcome o;
  require(o, !e.code.empty(), "every error has a code");
  o.codes.push_back(e.code);
  return o;
}

Outcome nac_lowered_outcome(std::variant<Model, nac::FormatError> lowered) {
  if (const auto* e = std::get_if<nac::FormatError>(&lowered)) return nac_error_outcome(*e);
  LoadResult r;
  r.model = std::move(std::get<Model>(lowered));
  return model_outcome(r);
}

const std::filesystem::path& scratch_folder() {
  static const ScratchFolder folder;
  return folder.path;
}

void write_bytes(const std::filesystem::path& path, std::span<const uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace nnref::fuzz
