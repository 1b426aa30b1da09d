// The NNL layer types: their parameters (types, defaults), weight files, input counts, and the
// checking of one declaration into IR attributes.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "formats/nnl/ast.hpp"
#include "formats/nnl/diags.hpp"
#include "semantics/op.hpp"

namespace nnref::nnl {

enum class ParamType { Integer, Number, String, Shape, IntegerOrShape };

struct ParamSpec {
  const char* name;
  ParamType type;
  bool required;
};

// A weight file `<id>.<file>` and the Payload role it is stored under.
struct WeightFile {
  const char* file;
  const char* role;
};

struct LayerSpec {
  const char* type;
  std::vector<ParamSpec> params;
  std::vector<WeightFile> weights;
  int min_inputs;
  int max_inputs;  // -1: unbounded
};

const LayerSpec* find_layer_spec(const std::string& type);

// A checked layer: the IR op of its main node, and for Dense with an activation the op of the
// node "<id>/<suffix>" that follows it.
struct LayerOps {
  OpAttrs main;
  std::optional<std::pair<std::string, OpAttrs>> activation;
  std::vector<int64_t> input_shape;  // Input: the per-sample shape
};

// Reports unknown types, unknown/duplicate/missing parameters, wrong types and bad values;
// nullopt when the layer has an error.
std::optional<LayerOps> check_layer(const LayerDecl& layer, Diags& diags);

}  // namespace nnref::nnl
