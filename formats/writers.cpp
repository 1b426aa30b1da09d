#include "formats/writers.hpp"

#include "formats/nnef/writer.hpp"
#include "formats/nnl/writer.hpp"
#include "formats/onnx/writer.hpp"

namespace nnref {

const std::vector<Writer>& writers() {
  static const std::vector<Writer> all = {
      {"nnef", "a folder: graph.nnef and one .dat file per parameter", write_nnef},
      {"onnx", "an .onnx file (ModelProto, opset 17)", write_onnx},
      {"nnl", "a folder: model.nnl and weights.npz", write_nnl},
  };
  return all;
}

const Writer* writer_for(std::string_view name) {
  for (const Writer& w : writers())
    if (w.name == name) return &w;
  return nullptr;
}

}  // namespace nnref
