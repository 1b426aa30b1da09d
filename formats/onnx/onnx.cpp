// The ONNX entry points: bytes → ModelProto → opset imports → Importer → Model.
#include "formats/onnx/onnx.hpp"

#include <exception>
#include <functional>
#include <filesystem>
#include <fstream>
#include <map>

#include <onnx/onnx_pb.h>

#include "formats/onnx/importer.hpp"
#include "formats/onnx/tensor_proto.hpp"
#include "semantics/memory.hpp"
#include "semantics/wellformed.hpp"

namespace nnref {

namespace {

namespace fs = std::filesystem;

// The newest ai.onnx opset whose ops nnref knows (ONNX 1.16): each op whose signature changed
// after 17 is read in its new form or refused by name (docs/onnx.md, "Opsets").
constexpr int64_t kMaxOpset = 21;

Result<onnx::ModelProto> parse_bytes(const std::string& bytes, const std::string& path) {
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes))
    return make_error("onnx.parse", "'" + path + "' is not a valid ONNX model (the protobuf does not parse)",
                      SourceLoc{path, 0, 0});
  if (!model.has_graph()) return make_error("onnx.parse", "'" + path + "' holds no graph", SourceLoc{path, 0, 0});
  return model;
}

// The file's bytes parsed as a ModelProto. The bytes and the message coexist while it parses (the
// message about as large as the file: its raw_data), so a file of more than half the budget is
// refused before reading; the bytes are released once parsed.
Result<onnx::ModelProto> parse_model(const std::string& path, int64_t max_memory) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) return make_error("io.open-failed", "cannot open model file '" + path + "'", SourceLoc{path, 0, 0});
  if (size > static_cast<uint64_t>(max_memory / 2))
    return make_error("size.budget",
                      "model file '" + path + "' of " + std::to_string(size) +
                          " bytes, read and parsed (twice its size), exceeds the memory budget of " +
                          std::to_string(max_memory) + " bytes",
                      SourceLoc{path, 0, 0});
  std::ifstream in(path, std::ios::binary);
  std::string bytes(size, '\0');
  if (!in || !in.read(bytes.data(), static_cast<std::streamsize>(size)))
    return make_error("io.open-failed", "cannot read model file '" + path + "'", SourceLoc{path, 0, 0});
  return parse_bytes(bytes, path);
}

std::string base_dir_of(const std::string& path) {
  const fs::path dir = fs::path(path).parent_path();
  return dir.empty() ? std::string(".") : dir.string();
}

}  // namespace

namespace {

LoadResult load_parsed(const std::function<Result<onnx::ModelProto>()>& parse, const std::string& path,
                       const LoadOptions& options) {
  LoadResult result;
  try {
    Result<onnx::ModelProto> parsed = parse();
    if (!parsed) {
      result.diagnostics.push_back(std::move(parsed).error());
      return result;
    }
    onnx::ModelProto& proto = parsed.value();
    std::map<std::string, int64_t> opsets;
    for (const auto& o : proto.opset_import()) {
      const std::string domain = o.domain() == "ai.onnx" ? "" : o.domain();
      if (domain.empty() && (o.version() < 1 || o.version() > kMaxOpset)) {
        result.diagnostics.push_back(make_error("onnx.opset-unsupported",
                                                "the model imports ai.onnx opset " + std::to_string(o.version()) +
                                                    "; nnref reads opsets 1 to " + std::to_string(kMaxOpset),
                                                SourceLoc{path, 0, 0}));
        return result;
      }
      if (domain.empty()) opsets[domain] = o.version();
    }
    // A model without an ai.onnx import (IR version 2 and earlier) reads as opset 1.
    if (!opsets.count("")) opsets[""] = 1;
    Model m;
    m.path = path;
    m.format = "onnx";
    m.weights_path = path;
    m.weights_loc = SourceLoc{path, 0, 0};
    m.weights_loaded = true;
    onnx_format::Importer importer(m, result.diagnostics, &options.bound_inputs, &options.fixed_sizes,
                                   options.enclose_constants);
    importer.run(*proto.mutable_graph(), opsets, base_dir_of(path), options.max_memory);
    result.inputs_read_at_load = importer.inputs_read_at_load();
    result.declared_inputs = importer.declared_inputs();
    result.sizes_needed_at_load = importer.sizes_needed_at_load();
    result.size_axes = importer.size_axes();
    // A graph ONNX allows but the IR does not (no outputs): refused with the IR's own graph.* code;
    // but for a model whose every output is empty, which the graph does not hold.
    if (!result.has_errors())
      for (Diagnostic& d : check_structure(m.graph)) {
        if (d.code == "graph.no-outputs" && !m.empty_outputs.empty()) continue;
        d.loc = SourceLoc{path, 0, 0};
        result.diagnostics.push_back(std::move(d));
      }
    if (!result.has_errors()) result.model = std::move(m);
  } catch (const std::bad_alloc&) {
    result.diagnostics.push_back(
        make_error("size.out-of-memory", "ran out of memory while reading the model", SourceLoc{path, 0, 0}));
  } catch (const std::exception& e) {
    result.diagnostics.push_back(make_error(
        "onnx.internal", std::string("internal error while reading the model: ") + e.what(), SourceLoc{path, 0, 0}));
  }
  return result;
}

}  // namespace

LoadResult load_onnx_file(const std::string& path, const LoadOptions& options) {
  return load_parsed([&] { return parse_model(path, options.max_memory); }, path, options);
}

LoadResult load_onnx_bytes(const std::string& bytes, const std::string& path, const LoadOptions& options) {
  return load_parsed([&] { return parse_bytes(bytes, path); }, path, options);
}

Result<std::map<std::string, int64_t>> read_onnx_opsets(const std::string& path, int64_t max_memory) {
  try {
    Result<onnx::ModelProto> parsed = parse_model(path, max_memory);
    if (!parsed) return std::move(parsed).error();
    std::map<std::string, int64_t> opsets;
    for (const auto& o : parsed->opset_import()) opsets[o.domain().empty() ? "ai.onnx" : o.domain()] = o.version();
    if (!opsets.count("ai.onnx")) opsets["ai.onnx"] = 1;
    return opsets;
  } catch (const std::bad_alloc&) {
    return make_error("size.out-of-memory", "ran out of memory while reading the model", SourceLoc{path, 0, 0});
  }
}

Result<NamedTensors> read_onnx_initializers(const std::string& path, int64_t max_bytes) {
  Result<onnx::ModelProto> parsed = parse_model(path, max_bytes);
  if (!parsed) return std::move(parsed).error();
  NamedTensors out;
  int64_t left = max_bytes - static_cast<int64_t>(parsed->SpaceUsedLong());  // the parse, held while it is read
  for (auto& init : *parsed->mutable_graph()->mutable_initializer()) {
    Result<HostTensor> t = onnx_format::read_tensor(init, {path + ":" + init.name(), base_dir_of(path), left});
    if (!t) {
      Diagnostic d = std::move(t).error();
      d.loc = SourceLoc{path, 0, 0};
      return d;
    }
    left -= tensor_bytes(CDim(t.value().shape.count()), sizeof(double)).v;
    out.emplace_back(init.name(), std::move(t).value());
    left += onnx_format::release(init);
  }
  return out;
}

}  // namespace nnref
