#include "cli/inputs.hpp"

#include <algorithm>
#include <optional>

#include "formats/tensor_file.hpp"
#include "formats/tensor_files/npy.hpp"

namespace nnref {

namespace {

struct NamedInput {
  std::string name;  // empty: positional
  std::string path;
};

NamedInput split_input(const std::string& arg) {
  auto eq = arg.find('=');
  if (eq == std::string::npos) return {"", arg};
  return {arg.substr(0, eq), arg.substr(eq + 1)};
}

// A per-sample tensor given for a model declared with batch 1 gets the batch axis.
HostTensor with_batch_axis(HostTensor t, const std::vector<int64_t>& declared) {
  if (declared.size() == t.shape.rank() + 1 && declared[0] == 1 &&
      std::equal(t.shape.dims().begin(), t.shape.dims().end(), declared.begin() + 1)) {
    t.shape = Shape::make(declared).value();
  }
  return t;
}

}  // namespace

Result<std::vector<HostTensor>> read_inputs(const Graph& g, const std::vector<std::string>& args) {
  auto ids = g.input_ids();
  std::vector<std::optional<HostTensor>> bound(ids.size());
  const auto bind = [&](const std::string& name, HostTensor t) -> Status {
    size_t k = 0;
    while (k < ids.size() && g.nodes[static_cast<size_t>(ids[k])].name != name) ++k;
    if (k == ids.size()) return make_error("io.input-unknown", "the model has no input named '" + name + "'");
    if (bound[k]) return make_error("io.input-repeated", "input '" + name + "' is given twice");
    bound[k] = std::move(t);
    return {};
  };
  std::vector<NamedInput> positional;
  for (const auto& a : args) {
    NamedInput in = split_input(a);
    if (in.name.empty() && in.path.ends_with(".npz")) {  // every member binds the input of its name
      auto members = read_npz(in.path);
      if (!members) return std::move(members).error();
      for (auto& [name, t] : *members)
        if (Status s = bind(name, std::move(t)); !s) return s.error();
      continue;
    }
    if (in.name.empty()) {
      positional.push_back(in);
      continue;
    }
    auto t = read_tensor_arg(in.path);
    if (!t) return std::move(t).error();
    if (Status s = bind(in.name, std::move(t).value()); !s) return s.error();
  }
  size_t next = 0;
  for (const auto& in : positional) {
    while (next < ids.size() && bound[next]) ++next;
    if (next == ids.size())
      return make_error("io.input-count", "more inputs given than the model's " + std::to_string(ids.size()));
    auto t = read_tensor_arg(in.path);
    if (!t) return std::move(t).error();
    bound[next] = std::move(t).value();
  }
  std::vector<HostTensor> out;
  for (size_t k = 0; k < ids.size(); ++k) {
    const Node& node = g.nodes[static_cast<size_t>(ids[k])];
    if (!bound[k]) return make_error("io.input-missing", "no --input given for model input '" + node.name + "'");
    out.push_back(with_batch_axis(std::move(*bound[k]), std::get<InputAttrs>(node.op).dims));
  }
  return out;
}


}  // namespace nnref
