// The sizes a model runs at: --dim NAME=SIZE of run, conform and inspect, and the sizes the input
// arrays give (run, conform, bench, hw run).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "cli/inputs.hpp"
#include "formats/model.hpp"
#include "semantics/size_names.hpp"
#include "spec/host_tensor.hpp"
#include "spec/result.hpp"
#include "spec/scalar_envelope.hpp"

namespace nnref {

// Sets each named size's extent (set_input_extents) before the plan checks the model at them; a
// usage error for a malformed option or a name the model does not have. Returns the sizes set.
Result<std::vector<std::pair<std::string, int64_t>>> apply_dims(Model& m, const std::vector<std::string>& dims);

// A model with the arrays to run it on, at the sizes they give.
struct ModelWithInputs {
  Model model;
  std::vector<HostTensor> inputs;  // aligned with model.graph.input_ids()
  std::vector<GivenSize> sizes;    // the sizes the arrays gave
};

// The model at the --dim sizes and those the arrays give: the sizes set (apply_dims), the arrays
// matched to the model's inputs (match_inputs) and the sizes they give (set_sizes_from_inputs). An
// error reading the arrays (`given`) is returned after one in `dims`. Without `inputs_given`, only
// --dim sets sizes. What load_with_inputs does after the load, for callers that have the arrays in
// memory (the Python module).
Result<ModelWithInputs> bind_inputs(Model model, const std::vector<std::string>& dims,
                                    Result<std::vector<GivenInput>> given, bool inputs_given);

// The model loaded with the graph inputs it reads at load time bound to their arrays in `given`
// (moved to options.bound_inputs; the unnamed arrays are named by position), loading again while a
// load names another that `given` holds (docs/onnx.md, "Inputs bound at load"). The last load.
LoadResult load_binding(const std::string& path, LoadOptions& options, std::vector<GivenInput>& given);

// inspect's load: a model that needs sizes as numbers when it is read (LoadResult::sizes_needed_at_load)
// is read again with the values --dim gives them fixed, and those texts leave `dims` (the others
// still name sizes of the model, for apply_dims).
LoadResult load_at_dims(const std::string& path, LoadOptions options, std::vector<std::string>& dims);

// As run, conform, bench and hw run read a model and its inputs: the --input files first (so that a
// front-end whose file records no input shape takes the arrays'), then the model, the --dim sizes,
// the arrays matched to the model's inputs, and the sizes they give (set_sizes_from_inputs). Every
// problem is printed; nullopt, with `exit` set, on the first. No `input_args`: no inputs (bench's
// generated ones), and only --dim sets sizes. A value the model reads at load time from real
// arithmetic (a Loop's trip count) is taken where every correct runtime of `runtime`'s model
// (float32 when none is given) computes it alike.
std::optional<ModelWithInputs> load_with_inputs(const std::string& path, LoadOptions options,
                                                const std::vector<std::string>& dims,
                                                const std::vector<std::string>& input_args, std::ostream& err,
                                                int& exit, const RuntimeModel* runtime = nullptr);

// On an error about the model (not the files given) found at sizes the arrays gave: a note naming
// those that differ from the model's own extents, "the model was checked at the sizes the inputs
// give: batch = 2 (the model declares 1)" ("batch = 4 in input 'x' (...)" for an extent an untied
// name stands for alone), so that the reader knows at what size the model failed.
void note_given_sizes(Diagnostic& d, const Graph& g, const std::vector<GivenSize>& sizes);

}  // namespace nnref
