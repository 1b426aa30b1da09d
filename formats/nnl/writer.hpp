// The IR → NNL printer (nnref convert --to nnl): a Model as NNL v0.2 text and the weights the text
// names, for the graphs NNL's layers lower into (formats/nnl/lower.cpp, layers.cpp). Each layer is
// recognised by the IR node(s) its lowering emits and printed back; what NNL cannot state (an op,
// an attribute, a graph shape) is convert.unexpressible at the node, naming it and its op, never an
// approximation (docs/nnl.md, "The printer").
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "formats/writers.hpp"
#include "spec/host_tensor.hpp"
#include "spec/result.hpp"

namespace nnref {

// What write_nnl writes into its folder: model.nnl (whose config names "./weights.npz") and the
// archive's members, "<layer>.<file>" (fc1.weight, bn1.running_var) in the parameters' own dtype.
struct NnlFiles {
  std::string text;
  std::vector<std::pair<std::string, HostTensor>> weights;
};

inline constexpr const char* kNnlModelFile = "model.nnl";
inline constexpr const char* kNnlWeightsFile = "weights.npz";

// The model as NNL, or the first convert.unexpressible (or usage.*, from --dim) error.
Result<NnlFiles> print_nnl(const Model& model, const WriteOptions& options = {});

// Writes folder `out_dir` (created when absent): model.nnl and weights.npz. Nothing is written when
// the model cannot be printed; an I/O failure is io.write (exit code 2).
std::vector<Diagnostic> write_nnl(const Model& model, const std::string& out_dir, const WriteOptions& options = {});

}  // namespace nnref
