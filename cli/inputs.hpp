// The --input arguments of run, conform, bench and hw run: read, then matched to the model's Input
// nodes. They are read before the model, since a front-end whose file records no input shape (NAC
// v1.6) takes the arrays' (formats/model.hpp, LoadOptions::input_shapes).
#pragma once

#include <string>
#include <vector>

#include "formats/model.hpp"
#include "semantics/graph.hpp"
#include "semantics/size_names.hpp"
#include "spec/host_tensor.hpp"
#include "spec/result.hpp"

namespace nnref {

// One array given: the input it names (empty: the next input no named array binds) and its values.
struct GivenInput {
  std::string name;
  HostTensor tensor;
};

// Reads every argument: NAME=X.npy, a bare X.npy (any file formats/tensor_file.hpp reads), or a
// bare X.npz whose members bind the inputs of their names.
Result<std::vector<GivenInput>> read_input_files(const std::vector<std::string>& args);

// The arrays' shapes and kinds, for the front-end (LoadOptions::input_shapes).
std::vector<GivenInputShape> given_shapes(const std::vector<GivenInput>& given);

// By name, then the unnamed ones in order, aligned with g.input_ids(). A per-sample array given for
// an input whose axis 0 is 1 gets that axis, when each other axis is the declared extent or one a
// size name in `names` stands for (the array then gives that size).
Result<std::vector<HostTensor>> match_inputs(const Graph& g, const std::vector<SizeName>& names,
                                             std::vector<GivenInput> given);

}  // namespace nnref
