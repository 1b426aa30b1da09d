#include "formats/writers.hpp"

#include "formats/nnef/writer.hpp"
#include "formats/nnef2_model/writer.hpp"
#include "formats/nnl/writer.hpp"
#include "formats/onnx/writer.hpp"

namespace nnref {

const std::vector<Writer>& writers() {
  static const std::vector<Writer> all = {
      {"nnef", "a folder: graph.nnef and one .dat file per parameter", write_nnef},
      {"nnef2", "a folder: main.sknd and one .dat file per variable", write_nnef2},
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
