#include "formats/write_support.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>

#include "formats/interpolate_expansion.hpp"
#include "semantics/size_names.hpp"

namespace nnref::convert {

Result<Prepared> prepare(const Model& model, const WriteOptions& options, std::string_view format, bool concrete) {
  Prepared p{model.graph, {}, {}};
  if (Status s = set_input_extents(p.graph, model.size_names, options.dims); !s) return std::move(s).error();
  for (const SizeName& n : model.size_names) {
    if (!n.symbolic) continue;
    const bool given = std::any_of(options.dims.begin(), options.dims.end(), [&](const auto& d) { return d.first == n.name; });
    if (given) continue;
    if (concrete)
      return make_error("usage.dim-required",
                        std::string(format) + " declares every input extent, and size '" + n.name + "' (axis " +
                            std::to_string(n.axis) + " of input '" + model.graph.nodes[static_cast<size_t>(n.node)].name +
                            "') is symbolic: give it with --dim " + n.name + "=SIZE");
    p.open_sizes.push_back(n);
  }
  Result<GraphInfo> info = check_graph(p.graph, model.payload, 0, 0, model.param_keys);
  if (!info) return std::move(info).error();
  const auto interpolates = [](const Node& n) { return std::holds_alternative<InterpolateAttrs>(n.op); };
  if (std::any_of(p.graph.nodes.begin(), p.graph.nodes.end(), interpolates)) {
    p.graph = expand_interpolate(p.graph, *info);
    info = check_graph(p.graph, model.payload, 0, 0, model.param_keys);
    if (!info) return std::move(info).error();
  }
  p.info = std::move(info).value();
  return p;
}

void unexpressible(std::string_view format, const Node& node, const std::string& why) {
  Diagnostic d = make_error("convert.unexpressible", std::string(format) + " cannot express node '" + node.name + "' (" +
                                                         op_name(node.op) + "): " + why,
                            node.loc);
  d.node = node.name;
  throw Unexpressible{std::move(d)};
}

void require_stored_params(std::string_view format, const Graph& g, const Node& node) {
  if (node.param_values.empty()) return;
  const ParamValue& p = node.param_values.front();
  unexpressible(format, node, "its parameter '" + p.role + "' is computed in the graph (by '" +
                                  g.nodes[static_cast<size_t>(p.value.node)].name + "'), and " + std::string(format) +
                                  " holds parameters as stored tensors only");
}

int64_t tensor_axis(int64_t axis, size_t rank, size_t batch_axes) {
  return axis < 0 ? axis + static_cast<int64_t>(rank) : axis + static_cast<int64_t>(batch_axes);
}

std::vector<int64_t> tensor_axes(const std::vector<int64_t>& axes, size_t rank, size_t batch_axes) {
  std::vector<int64_t> out;
  for (int64_t a : axes) out.push_back(tensor_axis(a, rank, batch_axes));
  return out;
}

std::vector<int64_t> to_channels_first(size_t rank) {
  std::vector<int64_t> p{0, static_cast<int64_t>(rank) - 1};
  for (size_t k = 1; k + 1 < rank; ++k) p.push_back(static_cast<int64_t>(k));
  return p;
}

std::vector<int64_t> to_channels_last(size_t rank) {
  std::vector<int64_t> p{0};
  for (size_t k = 2; k < rank; ++k) p.push_back(static_cast<int64_t>(k));
  p.push_back(1);
  return p;
}

std::vector<int64_t> axis_to_1(size_t rank, int64_t axis) {
  std::vector<int64_t> p;
  for (int64_t k = 0; k < static_cast<int64_t>(rank); ++k)
    if (k != axis) p.push_back(k);
  p.insert(p.begin() + 1, axis);
  return p;
}

std::vector<int64_t> inverse(const std::vector<int64_t>& perm) {
  std::vector<int64_t> inv(perm.size());
  for (size_t k = 0; k < perm.size(); ++k) inv[static_cast<size_t>(perm[k])] = static_cast<int64_t>(k);
  return inv;
}

std::vector<int64_t> iota(int64_t from, int64_t to) {
  std::vector<int64_t> v;
  for (int64_t k = from; k < to; ++k) v.push_back(k);
  return v;
}

std::vector<int64_t> or_ones(const std::vector<int64_t>& v, size_t n) {
  return v.empty() ? std::vector<int64_t>(n, 1) : v;
}

int64_t ceil_padding_after(int64_t in, const window::Axis& a) {
  const CDim padded = window::padded(CDim(in), a, PadMode::ExplicitCeil);
  const CDim out = window::output_extent(CDim(in), padded, a, PadMode::ExplicitCeil);
  return dim_max((out - 1) * a.s + window::extent(a) - in - a.before, 0).v;
}

std::string identifier(const std::string& name, bool (*reserved)(const std::string&)) {
  std::string id;
  for (char c : name) id += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0]))) id = "t_" + id;
  if (reserved(id)) id += "_";
  return id;
}

std::string int_list(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t k = 0; k < v.size(); ++k) s += (k ? ", " : "") + std::to_string(v[k]);
  return s + "]";
}

bool decimal_literal(const std::string& s, bool* real) {
  size_t i = s.starts_with("-") ? 1 : 0;
  const auto digits = [&] {
    const size_t from = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    return i > from;
  };
  bool point_or_exponent = false;
  if (!digits()) return false;
  if (i < s.size() && s[i] == '.') {
    ++i, point_or_exponent = true;
    if (!digits()) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i, point_or_exponent = true;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  if (real) *real = point_or_exponent;
  return i == s.size();
}

Diagnostic write_failed(const std::string& what, const std::string& why) {
  return make_error("io.write", "cannot write " + what + ": " + why);
}

std::string model_name(const std::string& path) {
  std::filesystem::path p = std::filesystem::path(path).lexically_normal();
  const std::string stem = p.stem().string();
  if (p.filename().empty() || stem == "main" || stem == "graph" || stem == "model") p = p.parent_path();
  const std::string name = p.stem().string();
  return name.empty() ? "G" : name;
}

std::optional<Diagnostic> make_folder(const std::string& out_dir) {
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (!std::filesystem::is_directory(out_dir, ec))
    return write_failed("folder '" + out_dir + "'", ec ? ec.message() : "it is not a folder");
  return std::nullopt;
}

std::optional<Diagnostic> write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return write_failed("'" + path.string() + "'", ec ? ec.message() : "the file cannot be written");
  return std::nullopt;
}

}  // namespace nnref::convert
