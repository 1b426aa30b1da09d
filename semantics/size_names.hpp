// The names by which --dim and --assume refer to input extents. A front-end chooses them (NNL:
// `batch` for axis 0 of every input, `<input id>.<k>` for axis k of the declared per-sample shape);
// one name may stand for several extents (`batch`), which then vary together.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "semantics/graph.hpp"
#include "spec/result.hpp"

namespace nnref {

struct SizeName {
  std::string name;
  int64_t node = 0;  // an Input node
  size_t axis = 0;   // an axis of its shape
  // The source leaves this extent open (ONNX dim_param): the Input's extent is a placeholder until
  // --dim gives one. Writers keep it open (ONNX) or need a value for it (NNEF).
  bool symbolic = false;
};

// `batch` for axis 0 of every input, `<input id>.<k>` for axis k + 1 (axis k of the per-sample
// shape): the names of a front-end whose inputs declare per-sample shapes and get a batch axis
// prepended (NNL), and of graphs built by hand.
std::vector<SizeName> batched_size_names(const Graph& g);

// Sets every input extent a name stands for to its value (run --dim NAME=SIZE). A name that no
// extent has, or that is given twice, is a "usage.dim" error listing the names.
Status set_input_extents(Graph& g, const std::vector<SizeName>& names,
                         const std::vector<std::pair<std::string, int64_t>>& values);

}  // namespace nnref
