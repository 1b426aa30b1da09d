// NNL → IR: checks the whole program (version, config, layers, connections) and, when it is
// free of errors, builds the Graph, the preprocessing constants and the parameter names.
#pragma once

#include <optional>

#include "formats/model.hpp"
#include "formats/nnl/ast.hpp"
#include "formats/nnl/config.hpp"
#include "formats/nnl/diags.hpp"

namespace nnref::nnl {

struct Lowered {
  Model model;    // graph, payload (preprocessing constants), precision, format, param_keys
  Config config;
};

std::optional<Lowered> lower(const Program& program, Diags& diags);

}  // namespace nnref::nnl
