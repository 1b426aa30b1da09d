// --dim NAME=SIZE of run and conform: a model evaluated at other input extents than it declares.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "formats/model.hpp"
#include "spec/host_tensor.hpp"
#include "spec/result.hpp"

namespace nnref {

// Sets each named size's extent (set_input_extents) before the plan checks the model at them; a
// usage error for a malformed option or a name the model does not have.
Status apply_dims(Model& m, const std::vector<std::string>& dims);

// For an input whose shape differs from the declared one only in extents that have size names:
// the --dim options that evaluate the model at the given shape ("--dim batch=2").
std::optional<std::string> dim_hint(const Model& m, const std::vector<HostTensor>& inputs, const std::string& node);

}  // namespace nnref
