// The data flow between NNL layers: implicit (declaration order) or the connections block;
// input counts, cycles, unreachable layers, and a topological order.
#pragma once

#include <cstddef>
#include <vector>

#include "formats/nnl/ast.hpp"
#include "formats/nnl/diags.hpp"

namespace nnref::nnl {

struct Topology {
  // Per layer (index into Program::layers): the layers feeding it, in the order the edges appear.
  std::vector<std::vector<size_t>> inputs;
  std::vector<bool> feeds_other;  // the layer is an input of some layer
  std::vector<size_t> order;      // topological, ties broken by declaration order
  bool ok = false;
};

Topology connect(const Program& program, Diags& diags);

}  // namespace nnref::nnl
