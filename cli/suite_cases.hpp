// The cases of `nnref suite` (docs/suite.md): what each MODEL_OR_TEST_DIR argument stands for. An
// ONNX backend test folder (model.onnx, test_data_set_*/input_*.pb) gives one case per data set;
// any other path is a model with its inputs beside it (input.npy, or input.npz keyed by input name).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "spec/diagnostic.hpp"
#include "spec/result.hpp"

namespace nnref {

struct SuiteCase {
  std::string name;                 // its folder under --out, unique in the suite
  std::string source;               // the test folder's data set, or the model, as given
  std::string model;                // the model file or folder
  std::vector<std::string> inputs;  // the input files, bound in the model's input order (an .npz by name)
  std::optional<Diagnostic> problem;  // why it cannot be made (no inputs beside the model), or none
};

// Every case of the arguments, in order: the arguments' order, then the data sets' numbers. A path
// that does not exist is io.suite-source (the whole command stops: nothing is written).
Result<std::vector<SuiteCase>> suite_cases(const std::vector<std::string>& sources);

}  // namespace nnref
