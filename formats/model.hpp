// What every front-end produces: the structure (Graph), the parameters (Payload) and the facts
// of the source that engines and commands need.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "semantics/graph.hpp"
#include "semantics/payload.hpp"
#include "semantics/size_names.hpp"
#include "spec/diagnostic.hpp"
#include "spec/host_tensor.hpp"
#include "spec/result.hpp"

namespace nnref {

// A graph output that is an empty tensor known when the model is read (an ONNX value with an extent
// 0: docs/onnx.md, "Empty values"). The graph holds no such value (every extent is at least 1): run
// writes it as an empty array of its shape, conform checks that the answer has that shape, check has
// nothing to prove for it. Listed after the graph's outputs.
struct EmptyOutput {
  std::string name;
  Shape shape;
};

struct Model {
  Graph graph;
  Payload payload;
  std::string path;                    // the model file
  std::string format;                  // the front-end's name: "nnl"
  std::string precision = "float32";   // the precision the model is meant to run in
  std::string weights_path;            // resolved weights location ("" when none)
  SourceLoc weights_loc;               // where the source names its weights
  bool weights_loaded = false;         // the weights source was read into the payload
  // The names --dim and --assume give the input extents (semantics/size_names.hpp).
  std::vector<SizeName> size_names;
  // The name a (node, role) parameter has in the weights source, e.g. (bn1, scale) → "bn1.gamma".
  // Every parameter of every node the front-end creates has an entry, and so does every entry of
  // the weights (under its own name, "bn_var", when no layer declares it).
  std::map<std::pair<std::string, std::string>, std::string> param_keys;
  // The source's inputs that LoadOptions::bound_inputs specialized the model to, in source order:
  // constants now, no longer graph inputs.
  std::vector<std::string> bound_inputs;
  // The size names LoadOptions::fixed_sizes read as numbers, with their values, in source order:
  // no longer size names (docs/architecture.md, "Sizes fixed at load").
  std::vector<std::pair<std::string, int64_t>> sizes_fixed_at_load;
  std::vector<EmptyOutput> empty_outputs;  // in the source's order
  // The outputs the source declares int or bool (NNEF 2.0), read through a cast to reals: `run` writes
  // them as int64 and bool arrays where every value is a whole number (a point precision).
  std::map<std::string, DType> output_dtypes;
  // The ONNX reader's names of the values its top-level nodes compute, and the NNEF 2.0 reader's of
  // its @compose components' results (conform --intermediates): the IR node output that holds each,
  // or nullopt for one the reader folded to a constant or an empty value (a SkriptND variable),
  // which no IR node computes. An op translated into several IR ops maps to the last.
  std::map<std::string, std::optional<ValueRef>> source_values;
};

// What a load does with the weights the model names.
enum class WeightsPolicy {
  Required,   // read them; a source that does not exist is an error (run)
  IfPresent,  // read them when the source exists; otherwise the model loads without them (check)
  Skip,       // structure only (init-weights, inspect)
};

// An input array a command was given (run, conform, bench, hw run), for a source that records no
// shape for an input (NAC v1.6 without nnref.io.json, docs/nac.md): `name` is the input it binds,
// or empty for the next input, in declaration order, that no named array binds (as --input binds).
struct GivenInputShape {
  std::string name;
  std::vector<int64_t> dims;
  ElemKind kind = ElemKind::Real;  // the array's dtype: bool is logical, an integer dtype integer
};

struct ConstantEnclosures;  // semantics/evaluate.hpp

struct LoadOptions {
  LoadOptions() = default;
  LoadOptions(WeightsPolicy w, int64_t memory = int64_t{4} << 30) : weights(w), max_memory(memory) {}  // NOLINT
  WeightsPolicy weights = WeightsPolicy::Required;
  int64_t max_memory = int64_t{4} << 30;  // bytes; weights beyond it are a diagnostic
  // The arrays given to run the model on; front-ends whose files declare every input ignore them.
  std::vector<GivenInputShape> input_shapes;
  // Values of graph inputs known when the model loads (run and conform: the --input arrays of the
  // inputs a load named in LoadResult::inputs_read_at_load). A front-end that reads such an input at
  // load time (an ONNX Reshape's shape, Conv's weight) takes the value as it takes an initializer:
  // the model is specialized to it and the input is no longer one of the graph's inputs.
  std::map<std::string, HostTensor> bound_inputs;
  // Size names read as these numbers, as if the file gave them (run and conform: the extents of the
  // arrays given; check: each value of an enumerated --dim range), when a load named them in
  // LoadResult::sizes_needed_at_load. A front-end without symbolic extents ignores them.
  std::map<std::string, int64_t> fixed_sizes;
  // How a front-end encloses a value it computes from constants alone by real arithmetic and reads
  // at load (an ONNX Loop's trip count): semantics' enclose_constants, which the commands that read
  // models pass (cli/sizes.cpp). Without it (the fuzz harnesses, which do not link the oracle) such
  // a value is refused by name.
  using EncloseConstants = Result<ConstantEnclosures> (*)(const Graph&, const Payload&, int64_t);
  EncloseConstants enclose_constants = nullptr;
  // NNEF 2.0: build every standard operator from its definition, the natively mapped ones included
  // (run --sknd-kernels lowered): from its @lower body (a contraction program), else by composing its
  // @compose body; otherwise only those without a native mapping.
  bool sknd_lowered = false;
};

// A symbolic input extent of a source: its size name, the input (by the source's name) and axis.
struct SizeAxis {
  std::string name;
  std::string input;
  size_t axis = 0;
};

struct LoadResult {
  std::optional<Model> model;          // absent when an error made it meaningless
  std::vector<Diagnostic> diagnostics; // errors and warnings, in source order where possible
  // The graph inputs the front-end needed values of at load time and refused for lack of one (see
  // LoadOptions::bound_inputs), in the order it met them, and those it holds as empty values (an
  // ONNX input with an extent 0), whose given arrays a load binds so that their shapes are checked; and the file's own
  // inputs (initializers excluded, bound ones included) in order: the positions unnamed --input arrays take.
  std::vector<std::string> inputs_read_at_load;
  std::vector<std::string> declared_inputs;
  // The size names a translation needed as numbers when the model is read (an unrolled LSTM's
  // sequence length, a Loop's trip count from Shape(x)) and refused for lack of them
  // (onnx.size-needed-at-load), in the order met; LoadOptions::fixed_sizes gives them. And every
  // symbolic input extent of the source, whether or not the load succeeded.
  std::vector<std::string> sizes_needed_at_load;
  std::vector<SizeAxis> size_axes;
  bool has_errors() const;
};

// Chooses the front-end that recognises the file (formats/front_ends.hpp).
LoadResult load_model(const std::string& path, const LoadOptions& options);

}  // namespace nnref
