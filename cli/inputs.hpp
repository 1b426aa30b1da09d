// The --input arguments of run and conform, read and matched to the model's Input nodes.
#pragma once

#include <string>
#include <vector>

#include "semantics/graph.hpp"
#include "spec/host_tensor.hpp"
#include "spec/result.hpp"

namespace nnref {

// By name (NAME=X.npy; any file formats/tensor_file.hpp reads), then the unnamed ones in order; a per-sample tensor given for a model
// declared with batch 1 gets the batch axis.
Result<std::vector<HostTensor>> read_inputs(const Graph& g, const std::vector<std::string>& args);

}  // namespace nnref
