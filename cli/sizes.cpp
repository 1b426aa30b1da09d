#include "cli/sizes.hpp"

#include "checker/size_symbols.hpp"
#include "cli/app.hpp"
#include "cli/common.hpp"
#include "cli/inputs.hpp"

namespace nnref {

Result<std::vector<std::pair<std::string, int64_t>>> apply_dims(Model& m, const std::vector<std::string>& dims) {
  std::vector<std::pair<std::string, int64_t>> sizes;
  for (const auto& text : dims) {
    auto d = parse_dim_value(text);
    if (!d) return std::move(d).error();
    sizes.emplace_back(d->name, d->lo);
  }
  if (Status set = set_input_extents(m.graph, m.size_names, sizes); !set) return std::move(set).error();
  return sizes;
}

Result<ModelWithInputs> bind_inputs(Model model, const std::vector<std::string>& dims,
                                    Result<std::vector<GivenInput>> given, bool inputs_given) {
  auto set = apply_dims(model, dims);
  if (!set) return std::move(set).error();
  if (!given) return std::move(given).error();
  ModelWithInputs m{std::move(model), {}, {}};
  if (!inputs_given) return m;
  auto inputs = match_inputs(m.model.graph, m.model.size_names, std::move(*given));
  if (!inputs) return std::move(inputs).error();
  std::vector<std::vector<int64_t>> shapes;
  for (const HostTensor& t : *inputs) shapes.push_back(t.shape.dims());
  auto sizes = set_sizes_from_inputs(m.model.graph, m.model.size_names, shapes, *set);
  if (!sizes) return std::move(sizes).error();
  m.inputs = std::move(*inputs);
  m.sizes = std::move(*sizes);
  return m;
}

std::optional<ModelWithInputs> load_with_inputs(const std::string& path, LoadOptions options,
                                                const std::vector<std::string>& dims,
                                                const std::vector<std::string>& input_args, std::ostream& err,
                                                int& exit) {
  // An input file that cannot be read is reported after the model's own problems, as before the
  // files were read first.
  auto given = read_input_files(input_args);
  if (given) options.input_shapes = given_shapes(*given);
  auto model = load_reporting(path, options, err, exit);
  if (!model) return std::nullopt;
  auto bound = bind_inputs(std::move(*model), dims, std::move(given), !input_args.empty());
  if (!bound) {
    print_diagnostics(err, {bound.error()});
    exit = exit_code_for(bound.error());
    return std::nullopt;
  }
  return std::move(bound).value();
}

void note_given_sizes(Diagnostic& d, const Graph& g, const std::vector<GivenSize>& sizes) {
  if (exit_code_for(d) != kExitInvalid) return;
  std::string list;
  for (const GivenSize& s : sizes) {
    if (!s.symbolic && s.value == s.declared) continue;
    const std::string where = s.tied ? "" : " in input '" + g.nodes[static_cast<size_t>(s.node)].name + "'";
    list += (list.empty() ? "" : ", ") + s.name + " = " + std::to_string(s.value) + where +
            (s.symbolic ? " (the file leaves it open)" : " (the model declares " + std::to_string(s.declared) + ")");
  }
  if (!list.empty()) d.notes.push_back("the model was checked at the sizes the inputs give: " + list);
}

}  // namespace nnref
