#include "cli/sizes.hpp"

#include <algorithm>
#include <set>

#include "checker/size_symbols.hpp"
#include "cli/app.hpp"
#include "cli/common.hpp"
#include "cli/inputs.hpp"
#include "semantics/evaluate.hpp"

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

namespace {

// The unnamed arrays named by their position among the file's inputs (as match_inputs would bind them).
void name_by_position(const LoadResult& r, std::vector<GivenInput>& given) {
  std::set<std::string> named;
  for (const GivenInput& g : given) named.insert(g.name);
  size_t next = 0;
  for (GivenInput& g : given) {
    if (!g.name.empty()) continue;
    while (next < r.declared_inputs.size() && named.count(r.declared_inputs[next])) ++next;
    if (next == r.declared_inputs.size()) break;  // more arrays than inputs: match_inputs says so
    g.name = r.declared_inputs[next++];
  }
}

// After a load that needed graph inputs' values (LoadResult::inputs_read_at_load): those given
// with --input move from `given` to options.bound_inputs. False when none is newly bound.
bool bind_given(const LoadResult& r, std::vector<GivenInput>& given, LoadOptions& options) {
  bool bound = false;
  for (const std::string& name : r.inputs_read_at_load) {
    auto it = std::find_if(given.begin(), given.end(), [&](const GivenInput& g) { return g.name == name; });
    if (it == given.end() || options.bound_inputs.count(name)) continue;
    options.bound_inputs.emplace(name, std::move(it->tensor));
    given.erase(it);
    bound = true;
  }
  options.input_shapes = given_shapes(given);
  return bound;
}

// After a load that needed sizes as numbers (LoadResult::sizes_needed_at_load): every size the file
// leaves open read as the extent of the array given for its input, so that the model is read at the
// sizes it runs at. False when none is newly fixed.
bool fix_given_sizes(const LoadResult& r, const std::vector<GivenInput>& given, LoadOptions& options) {
  if (r.sizes_needed_at_load.empty()) return false;
  bool fixed = false;
  for (const SizeAxis& a : r.size_axes) {
    auto it = std::find_if(given.begin(), given.end(), [&](const GivenInput& g) { return g.name == a.input; });
    if (it == given.end() || a.axis >= it->tensor.shape.rank() || options.fixed_sizes.count(a.name)) continue;
    options.fixed_sizes[a.name] = it->tensor.shape.dims()[a.axis];
    fixed = true;
  }
  return fixed;
}

// After a load that needed sizes as numbers: those --dim NAME=SIZE gives read as fixed too (inspect,
// run of a model whose arrays leave them open). False when none is newly fixed.
bool fix_dim_sizes(const LoadResult& r, const std::vector<std::string>& dims, LoadOptions& options) {
  if (r.sizes_needed_at_load.empty()) return false;
  bool fixed = false;
  for (const auto& text : dims) {
    auto d = parse_dim_value(text);
    if (!d || options.fixed_sizes.count(d->name) ||
        std::none_of(r.size_axes.begin(), r.size_axes.end(), [&](const SizeAxis& a) { return a.name == d->name; }))
      continue;
    options.fixed_sizes[d->name] = d->lo;
    fixed = true;
  }
  return fixed;
}

// The --dim texts that still name sizes of the model: one naming a size fixed at load is dropped,
// after it is checked to give the value the model was read at (input.size-conflict otherwise).
Result<std::vector<std::string>> dims_left(const Model& m, const std::vector<std::string>& dims) {
  std::vector<std::string> left;
  for (const auto& text : dims) {
    auto d = parse_dim_value(text);
    const auto& fixed = m.sizes_fixed_at_load;
    auto f = std::find_if(fixed.begin(), fixed.end(), [&](const auto& s) { return d && s.first == d->name; });
    if (f == fixed.end()) {
      left.push_back(text);
    } else if (f->second != d->lo) {
      return make_error("input.size-conflict",
                        "--dim " + text + ", but the model is read at " + f->first + " = " + std::to_string(f->second) +
                            ", the size the input gives",
                        SourceLoc{m.path, 0, 0});
    }
  }
  return left;
}

// The model read again with `options`; the one read before (r) is released first, so that the two
// are not held together (the memory budget bounds one).
LoadResult reload(LoadResult& r, const std::string& path, const LoadOptions& options) {
  r = LoadResult{};
  return load_model(path, options);
}

}  // namespace

LoadResult load_binding(const std::string& path, LoadOptions& options, std::vector<GivenInput>& given) {
  LoadResult r = load_model(path, options);
  // A load without errors may name inputs too: an empty value's, whose array binding checks, and
  // ConstantOfShape's shape (NodeCtx::bind_when_given).
  while (r.has_errors() || !r.inputs_read_at_load.empty()) {
    name_by_position(r, given);
    const bool bound = bind_given(r, given, options);
    if (!fix_given_sizes(r, given, options) && !bound) break;
    r = reload(r, path, options);
  }
  return r;
}

LoadResult load_at_dims(const std::string& path, LoadOptions options, std::vector<std::string>& dims) {
  LoadResult r = load_model(path, options);
  if (r.has_errors() && fix_dim_sizes(r, dims, options)) r = reload(r, path, options);
  if (r.model)
    if (auto left = dims_left(*r.model, dims)) dims = std::move(*left);  // their values are the --dim's own
  return r;
}

std::optional<ModelWithInputs> load_with_inputs(const std::string& path, LoadOptions options,
                                                const std::vector<std::string>& dims,
                                                const std::vector<std::string>& input_args, std::ostream& err,
                                                int& exit, const RuntimeModel* runtime) {
  std::optional<RuntimeScope> scope;
  if (runtime) scope.emplace(*runtime);
  // An input file that cannot be read is reported after the model's own problems, as before the
  // files were read first.
  auto given = read_input_files(input_args);
  if (given) options.input_shapes = given_shapes(*given);
  options.enclose_constants = enclose_constants;
  // A graph input the model reads at load time (a shape, a weight) and that --input gives: the
  // model again with it bound, until no load names another (docs/onnx.md, "Inputs bound at load").
  std::vector<GivenInput> none;
  LoadResult r = load_binding(path, options, given ? *given : none);
  if (r.has_errors() && fix_dim_sizes(r, dims, options)) {
    r = LoadResult{};  // the model read before is not held while it is read again
    r = load_binding(path, options, given ? *given : none);
  }
  print_diagnostics(err, r.diagnostics);
  if (r.has_errors() || !r.model) {
    exit = r.has_errors() ? exit_code_for(r.diagnostics) : kExitInvalid;
    return std::nullopt;
  }
  std::vector<Diagnostic> notes;
  for (const std::string& name : r.model->bound_inputs) {
    Diagnostic d = make_error("onnx.input-bound", "input '" + name + "' bound to its given value; the model is "
                                                  "specialized to it", SourceLoc{path, 0, 0});
    d.severity = Severity::Note;
    notes.push_back(std::move(d));
  }
  if (!r.model->sizes_fixed_at_load.empty()) {
    std::string list;
    for (const auto& [name, value] : r.model->sizes_fixed_at_load)
      list += (list.empty() ? "" : ", ") + name + " = " + std::to_string(value);
    Diagnostic d = make_error("onnx.sizes-fixed",
                              "the model is read at the sizes the inputs (or --dim) give, " + list +
                                  ": a translation needs them as numbers when it reads the model",
                              SourceLoc{path, 0, 0});
    d.severity = Severity::Note;
    notes.push_back(std::move(d));
  }
  print_diagnostics(err, notes);
  auto left = dims_left(*r.model, dims);
  if (!left) {
    print_diagnostics(err, {left.error()});
    exit = exit_code_for(left.error());
    return std::nullopt;
  }
  auto bound = bind_inputs(std::move(*r.model), *left, std::move(given), !input_args.empty());
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
