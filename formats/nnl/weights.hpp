// Loading NNL weights into the Payload: a directory of `<id>.<param>.npy` files or an .npz
// archive of `<id>.<param>` members. Existence and shapes of parameters are checked later, by
// the generic binding check in semantics; here every file is loaded and keyed.
#pragma once

#include <string>

#include "formats/model.hpp"
#include "formats/nnl/ast.hpp"
#include "formats/nnl/diags.hpp"

namespace nnref::nnl {

// The weights location written in the config, resolved against the model file's directory.
std::string resolve_weights_path(const std::string& weights, const std::string& model_file);

// Loads model.weights_path into model.payload. `loc` is the config entry, for diagnostics.
void load_weights(Model& model, const Program& program, const SourceLoc& loc, int64_t max_memory, Diags& diags);

}  // namespace nnref::nnl
