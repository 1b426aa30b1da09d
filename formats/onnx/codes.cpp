// The ONNX front-end's codes, for `check --explain` (docs/onnx.md explains each).
#include <array>

#include "formats/onnx/onnx.hpp"

namespace nnref {

std::span<const FormatCode> onnx_codes() {
  static constexpr std::array kCodes = {
      FormatCode{"onnx.parse", "the .onnx file is not a ModelProto (the protobuf does not parse) or holds no graph",
                 "onnx"},
      FormatCode{"onnx.opset-unsupported", "the model imports an ai.onnx opset beyond 17 (ONNX 1.12)", "onnx"},
      FormatCode{"onnx.domain-unsupported", "a node of an operator domain other than ai.onnx", "onnx"},
      FormatCode{"onnx.op-unsupported", "a node whose op nnref does not read (docs/onnx.md lists the ops)", "onnx"},
      FormatCode{"onnx.attribute-unsupported", "an attribute, or an attribute value, that nnref does not read", "onnx"},
      FormatCode{"onnx.attribute-type", "an attribute of the wrong type (an int where a float is meant, ...)", "onnx"},
      FormatCode{"onnx.attribute-value", "an attribute value the op does not allow (pads of the wrong length, ...)",
                 "onnx"},
      FormatCode{"onnx.input-missing", "a required input of a node is not given", "onnx"},
      FormatCode{"onnx.input-not-constant", "an input nnref reads at load time (a weight, a shape, axes) is not an "
                                            "initializer or a Constant", "onnx"},
      FormatCode{"onnx.input-type", "an input read at load time has the wrong element type or rank", "onnx"},
      FormatCode{"onnx.input-unsupported", "an input form of an old opset nnref does not read", "onnx"},
      FormatCode{"onnx.input-shape", "a graph input declares no shape, or a negative extent", "onnx"},
      FormatCode{"onnx.type-unsupported", "a tensor that is not float where data is computed (nnref computes with real "
                                          "numbers)", "onnx"},
      FormatCode{"onnx.shape-unknown", "a node needs the shape of an input whose shape the rules do not give",
                 "onnx"},
      FormatCode{"onnx.shape-unsupported", "a shape nnref cannot translate: an empty slice, a broadcast or fold that "
                                           "needs fixed extents when the inputs have symbolic ones", "onnx"},
      FormatCode{"onnx.output-unsupported", "a node output nnref does not compute (a mask, indices) is read", "onnx"},
      FormatCode{"onnx.value-undefined", "a node or the graph reads a name nothing defines", "onnx"},
      FormatCode{"onnx.split-sizes", "the sizes of a Split do not add up to the extent of its axis", "onnx"},
      FormatCode{"onnx.tensor-type-unsupported", "a tensor of an element type nnref does not read (string, complex, "
                                                 "bfloat16, sparse, segmented)", "onnx"},
      FormatCode{"onnx.tensor-shape", "a tensor with a negative extent or an element count beyond 64 bits", "onnx"},
      FormatCode{"onnx.tensor-data-size", "a tensor whose stored data does not match its shape", "onnx"},
      FormatCode{"onnx.tensor-integer-range", "an integer tensor with a value beyond 2^53 in magnitude", "onnx"},
      FormatCode{"onnx.external-data", "external data that is malformed, outside the model's folder, or past the end "
                                       "of its file", "onnx"},
      FormatCode{"onnx.internal", "an unexpected failure while reading the model (a bug in nnref)", "onnx"},
      FormatCode{"pb.parse", "a .pb tensor file is not a serialized TensorProto", "onnx"},
      FormatCode{"pb.tensor-type-unsupported", "a .pb tensor file of an element type nnref does not read", "onnx"},
      FormatCode{"pb.tensor-shape", "a .pb tensor file with a negative extent or too many elements", "onnx"},
      FormatCode{"pb.tensor-data-size", "a .pb tensor file whose data does not match its shape", "onnx"},
      FormatCode{"pb.tensor-integer-range", "a .pb tensor file with an integer beyond 2^53 in magnitude", "onnx"},
      FormatCode{"pb.external-data", "a .pb tensor file that refers to external data", "onnx"},
  };
  return kCodes;
}

}  // namespace nnref
