// Random well-formed models (NNSmith's aim, built constructively): a graph over the IR's ops with
// attributes and sizes that satisfy every obligation, parameters and inputs whose values keep every
// op in its domain (no log of a non-positive value, no overflow in exp), all read from a Choices
// stream so that the same seed gives the same model and a shrunk stream a smaller one.
// Shared by the property tests (tests/properties_*_test.cpp) and `nnref fuzz` (cli/fuzz_command.cpp).
// docs/testing.md says how to add an op.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/model.hpp"
#include "properties/choices.hpp"
#include "spec/host_tensor.hpp"
#include "spec/result.hpp"

namespace nnref::properties {

struct GenOptions {
  int max_nodes = 10;             // op nodes (inputs and constants not counted); at least 1
  std::vector<std::string> ops;   // op names as op_name gives them, or composites; empty: every op and composite
  int max_rank = 4;
  int64_t max_extent = 8;         // of any axis of any value
  int64_t max_elements = 4096;    // of any value or parameter
};

struct GeneratedModel {
  Model model;                      // graph and payload, well formed (check_graph accepts it)
  std::vector<HostTensor> inputs;   // one per Input node, in input_ids order
  std::vector<uint64_t> choices;    // what it was built from (Choices::replay rebuilds it)
};

// The op names the generator can build (the --ops vocabulary of nnref fuzz).
std::vector<std::string> generated_op_names();
// The composites it can build (small fixed sequences of ops added in one step, docs/testing.md):
// drawn among the ops when --ops is empty or allows every op of one; --ops may also name one.
std::vector<std::string> generated_composite_names();

// Op nodes of a graph (inputs and constants not counted), as GenOptions::max_nodes counts them.
int op_node_count(const Graph& g);

// An error only for options that admit no model (an unknown op name, max_nodes < 1...).
Result<GeneratedModel> generate(Choices& choices, const GenOptions& options);

}  // namespace nnref::properties
