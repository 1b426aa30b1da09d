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

// A size an input array gave (run, conform, bench and hw run take the sizes from the arrays).
struct GivenSize {
  std::string name;
  int64_t value = 0;
  int64_t node = 0;       // the Input node whose array gave it first
  size_t axis = 0;        // the axis of that array
  int64_t declared = 0;   // the extent the model had there before (a placeholder when symbolic)
  bool symbolic = false;  // the source leaves this extent open (SizeName::symbolic)
  bool tied = true;       // false: the name does not tie its extents (below); this is `node`'s alone
};

// Sets every size name an axis of a given array carries to that array's extent. `shapes` are the
// arrays' shapes, aligned with g.input_ids() (a shorter list gives fewer); an array whose rank is
// not its input's gives no size (check_inputs reports it). `dims` are the sizes --dim gave (already
// set). A name ties the extents it stands for when the model has them equal (NNL's batch, an ONNX
// dim_param, any name --dim set): one name given two extents, by two arrays (or two axes of one)
// or by --dim and an array, is an "input.size-conflict" error located at the input, naming both
// sources, their axes and values. A name whose extents differ in the model (NNEF's batch over
// inputs declared [2, 3] and [1, 3]) does not tie them: each takes its own array's extent.
// Returns the sizes the arrays gave: one per tied name, one per extent of an untied name, in the
// order of `names`.
Result<std::vector<GivenSize>> set_sizes_from_inputs(Graph& g, const std::vector<SizeName>& names,
                                                     const std::vector<std::vector<int64_t>>& shapes,
                                                     const std::vector<std::pair<std::string, int64_t>>& dims);

}  // namespace nnref
