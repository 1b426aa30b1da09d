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

// Loads model.weights_path into model.payload and sets model.weights_loaded. A source that does
// not exist is an error unless `if_present`; then the model has no weights. Diagnostics point at
// model.weights_loc, the config entry.
void load_weights(Model& model, const Program& program, int64_t max_memory, bool if_present, Diags& diags);

}  // namespace nnref::nnl
