// The ONNX front-end's codes, for `check --explain` (docs/onnx.md explains each).
#include <array>

#include "formats/onnx/onnx.hpp"

namespace nnref {

std::span<const CodeInfo> onnx_codes() {
  static constexpr std::array kCodes = {
      CodeInfo{"onnx.parse", "the .onnx file is not a ModelProto (the protobuf does not parse) or holds no graph",
                 "onnx"},
      CodeInfo{"onnx.opset-unsupported", "the model imports an ai.onnx opset beyond 21", "onnx"},
      CodeInfo{"onnx.domain-unsupported", "a node of an operator domain other than ai.onnx", "onnx"},
      CodeInfo{"onnx.op-unsupported", "a node whose op nnref does not read (docs/onnx.md lists the ops)", "onnx"},
      CodeInfo{"onnx.attribute-unsupported", "an attribute, or an attribute value, that nnref does not read", "onnx"},
      CodeInfo{"onnx.attribute-type", "an attribute of the wrong type (an int where a float is meant, ...)", "onnx"},
      CodeInfo{"onnx.attribute-value", "an attribute value the op does not allow (pads of the wrong length, ...)",
                 "onnx"},
      CodeInfo{"onnx.input-missing", "a required input of a node is not given", "onnx"},
      CodeInfo{"onnx.input-not-constant", "an input nnref reads at load time (a weight, a shape, axes) is not an "
                                            "initializer or a Constant", "onnx"},
      CodeInfo{"onnx.value-undecided", "a value nnref reads at load time (a Loop's trip count or cond) is computed "
                                         "from constants by real arithmetic, and correct float32 runtimes need not "
                                         "compute one integer for it", "onnx"},
      CodeInfo{"onnx.input-bound-mismatch", "the value given with --input for a graph input that the model reads at load "
                                     "time does not have the input's declared element type or extents", "onnx"},
      CodeInfo{"onnx.size-needed-at-load", "a translation needs as a number, when the model is read, an extent that "
                                             "depends on a size the file leaves open (an LSTM's sequence length, a "
                                             "Loop's trip count): run and conform read the model at the sizes their "
                                             "inputs give, check enumerates the --dim range", "onnx"},
      CodeInfo{"onnx.sizes-fixed", "(a note) the model is read with sizes the file leaves open fixed to the extents "
                                   "of the arrays given (run, conform)", "onnx"},
      CodeInfo{"onnx.input-bound", "(a note) a graph input read at load time (a shape, a weight) is bound to the "
                                          "value given with --input; the model is specialized to it (run, conform)",
                 "onnx", true},
      CodeInfo{"onnx.empty-output", "(a note) a graph output is an empty tensor known when the model is read: run "
                                    "writes it as an empty array, conform checks the answer's shape, check has "
                                    "nothing to prove for it (docs/onnx.md, \"Empty values\")",
                 "onnx", true},
      CodeInfo{"onnx.input-type", "an input read at load time has the wrong element type or rank", "onnx"},
      CodeInfo{"onnx.input-unsupported", "an input form of an old opset nnref does not read", "onnx"},
      CodeInfo{"onnx.input-shape", "a graph input declares no shape, or a negative extent", "onnx"},
      CodeInfo{"onnx.type-unsupported", "a tensor that is not float where data is computed (nnref computes with real "
                                          "numbers)", "onnx"},
      CodeInfo{"onnx.shape-unknown", "a node needs the shape of an input whose shape the rules do not give",
                 "onnx"},
      CodeInfo{"onnx.shape-unsupported", "a shape nnref cannot translate: an empty tensor read as data or made "
                                           "non-empty (MatMul [2, 0] x [0, 3]), a broadcast or fold that needs fixed "
                                           "extents when the inputs have symbolic ones", "onnx"},
      CodeInfo{"onnx.unroll-limit", "a Loop or Scan whose unrolled steps would exceed the nodes nnref unrolls "
                                      "(65536)", "onnx"},
      CodeInfo{"onnx.output-unsupported", "a node output nnref does not compute (a mask, indices) is read", "onnx"},
      CodeInfo{"onnx.value-undefined", "a node or the graph reads a name nothing defines", "onnx"},
      CodeInfo{"onnx.split-sizes", "the sizes of a Split do not add up to the extent of its axis", "onnx"},
      CodeInfo{"onnx.tensor-type-unsupported", "a tensor of an element type nnref does not read (string, complex, "
                                                 "bfloat16, sparse, segmented)", "onnx"},
      CodeInfo{"onnx.tensor-shape", "a tensor with a negative extent or an element count beyond 64 bits", "onnx"},
      CodeInfo{"onnx.tensor-data-size", "a tensor whose stored data does not match its shape", "onnx"},
      CodeInfo{"onnx.tensor-integer-range", "an integer beyond 2^53 in magnitude read as data (nnref reads it exactly "
                                              "only as a shape, axis or bound), or a uint64 beyond int64", "onnx"},
      CodeInfo{"onnx.integer-range", "an integer result nnref does not hold: a uint64 of 2^63 or more", "onnx"},
      CodeInfo{"onnx.integer-division-by-zero", "an integer Div or Mod of constants by 0, which ONNX leaves "
                                                  "undefined", "onnx"},
      CodeInfo{"onnx.external-data", "external data that is malformed, outside the model's folder, or past the end "
                                       "of its file", "onnx"},
      CodeInfo{"onnx.internal", "an unexpected failure while reading the model (a bug in nnref)", "onnx"},
      CodeInfo{"pb.parse", "a .pb tensor file is not a serialized TensorProto", "onnx"},
      CodeInfo{"pb.tensor-type-unsupported", "a .pb tensor file of an element type nnref does not read", "onnx"},
      CodeInfo{"pb.tensor-shape", "a .pb tensor file with a negative extent or too many elements", "onnx"},
      CodeInfo{"pb.tensor-data-size", "a .pb tensor file whose data does not match its shape", "onnx"},
      CodeInfo{"pb.tensor-integer-range", "a .pb tensor file with an integer beyond 2^53 in magnitude", "onnx"},
      CodeInfo{"pb.external-data", "a .pb tensor file that refers to external data", "onnx"},
  };
  return kCodes;
}

}  // namespace nnref
