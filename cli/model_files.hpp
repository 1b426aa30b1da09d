// A model written as a file another program reads: in a format a runtime under `nnref fuzz
// --runtime` takes, or as a reproducer's model. NAC through formats/nac's encoder (weights inside
// the file), every other format through the writer registry (formats/writers.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "formats/model.hpp"
#include "spec/result.hpp"

namespace nnref {

// The formats a model can be written in: nac and each registered writer's name.
std::vector<std::string> model_file_formats();

// The formats a reproducer's model is tried in, first the preferred: NNL (the project's own text
// format) when a writer named nnl is registered, then NAC, which expresses every IR op.
std::vector<std::string> reproducer_formats();

// Writes `m` into `dir` (which exists) in `format`; the path that names the model for load_model
// and for a runtime's {model}: dir/model.nac, dir/model.onnx, the folder dir/model.nnef, or
// dir/model/model.nnl, replacing what is there. A model the format cannot express is the writer's
// error.
Result<std::filesystem::path> write_model_file(const Model& m, const std::string& format,
                                               const std::filesystem::path& dir);

}  // namespace nnref
