#include "cli/inputs.hpp"

#include <algorithm>
#include <optional>

#include "formats/tensor_file.hpp"
#include "formats/tensor_files/npy.hpp"

namespace nnref {

namespace {

// A per-sample array given for an input declared with a batch axis of 1 gets that axis: each other
// axis must be the declared extent, or one a size name stands for.
HostTensor with_batch_axis(HostTensor t, const Node& input, const std::vector<SizeName>& names) {
  const auto& declared = std::get<InputAttrs>(input.op).dims;
  if (declared.size() != t.shape.rank() + 1 || declared[0] != 1) return t;
  std::vector<int64_t> dims{1};
  for (size_t axis = 1; axis < declared.size(); ++axis) {
    const int64_t given = t.shape.dims()[axis - 1];
    const bool named = std::any_of(names.begin(), names.end(),
                                   [&](const SizeName& n) { return n.node == input.id && n.axis == axis; });
    if (given != declared[axis] && !named) return t;
    dims.push_back(given);
  }
  t.shape = Shape::make(dims).value();
  return t;
}

}  // namespace

Result<std::vector<GivenInput>> read_input_files(const std::vector<std::string>& args) {
  std::vector<GivenInput> out;
  for (const auto& a : args) {
    const auto eq = a.find('=');
    const std::string name = eq == std::string::npos ? "" : a.substr(0, eq);
    const std::string path = eq == std::string::npos ? a : a.substr(eq + 1);
    if (name.empty() && path.ends_with(".npz")) {  // every member binds the input of its name
      auto members = read_npz(path);
      if (!members) return std::move(members).error();
      for (auto& [member, t] : *members) out.push_back({member, std::move(t)});
      continue;
    }
    auto t = read_tensor_arg(path);
    if (!t) return std::move(t).error();
    out.push_back({name, std::move(t).value()});
  }
  return out;
}

std::vector<GivenInputShape> given_shapes(const std::vector<GivenInput>& given) {
  std::vector<GivenInputShape> out;
  for (const GivenInput& g : given) {
    const DType t = g.tensor.dtype;
    const ElemKind kind = t == DType::Bool ? ElemKind::Logical : dtype_is_float(t) ? ElemKind::Real : ElemKind::Integer;
    out.push_back({g.name, g.tensor.shape.dims(), kind});
  }
  return out;
}

Result<std::vector<HostTensor>> match_inputs(const Graph& g, const std::vector<SizeName>& names,
                                             std::vector<GivenInput> given) {
  const auto ids = g.input_ids();
  std::vector<std::optional<HostTensor>> bound(ids.size());
  for (GivenInput& in : given) {
    if (in.name.empty()) continue;
    size_t k = 0;
    while (k < ids.size() && g.nodes[static_cast<size_t>(ids[k])].name != in.name) ++k;
    if (k == ids.size()) return make_error("io.input-unknown", "the model has no input named '" + in.name + "'");
    if (bound[k]) return make_error("io.input-repeated", "input '" + in.name + "' is given twice");
    bound[k] = std::move(in.tensor);
  }
  size_t next = 0;
  for (GivenInput& in : given) {
    if (!in.name.empty()) continue;
    while (next < ids.size() && bound[next]) ++next;
    if (next == ids.size())
      return make_error("io.input-count", "more inputs given than the model's " + std::to_string(ids.size()));
    bound[next] = std::move(in.tensor);
  }
  std::vector<HostTensor> out;
  for (size_t k = 0; k < ids.size(); ++k) {
    const Node& node = g.nodes[static_cast<size_t>(ids[k])];
    if (!bound[k]) return make_error("io.input-missing", "no --input given for model input '" + node.name + "'");
    out.push_back(with_batch_axis(std::move(*bound[k]), node, names));
  }
  return out;
}

}  // namespace nnref
