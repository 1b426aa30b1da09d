// The extension _nnref of the Python module nnref (docs/python.md): a model loaded, checked, run and
// judged through the library code the CLI calls (cli/sizes.hpp, cli/outputs.hpp, cli/verdict.hpp,
// check_findings), with NumPy arrays in and out. Every diagnostic becomes a DiagnosticError, which
// the translator below raises as nnref.Error; the GIL is released while nnref computes.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <exception>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "checker/report.hpp"
#include "cli/commands.hpp"
#include "cli/inputs.hpp"
#include "cli/outputs.hpp"
#include "cli/sizes.hpp"
#include "cli/verdict.hpp"
#include "formats/model.hpp"
#include "formats/onnx/onnx.hpp"
#include "semantics/evaluate.hpp"
#include "semantics/wellformed.hpp"

namespace py = pybind11;

namespace nnref {
namespace {

// A diagnostic on its way to Python as nnref.Error.
struct DiagnosticError : std::exception {
  explicit DiagnosticError(Diagnostic diag) : d(std::move(diag)) {}
  const char* what() const noexcept override { return d.message.c_str(); }
  Diagnostic d;
};

template <class T>
T value_or_raise(Result<T> r) {
  if (!r) throw DiagnosticError(std::move(r).error());
  return std::move(r).value();
}

// The first error of a load (the CLI prints them all and exits with the worst code).
Model model_or_raise(LoadResult r, const std::string& path) {
  for (Diagnostic& d : r.diagnostics)
    if (d.severity == Severity::Error) throw DiagnosticError(std::move(d));
  if (!r.model) throw DiagnosticError(make_error("internal.load", "the front-end gave no model for " + path));
  return std::move(*r.model);
}

// A NumPy array as a HostTensor (values as double, as every tensor file reader gives them). The
// dtypes a tensor file may hold; another is an npy.dtype error, as an .npy file of it is.
HostTensor to_host(const py::array& given, const std::string& what) {
  const py::array a = py::array::ensure(given, py::array::c_style);
  const py::dtype dt = a.dtype();
  const char kind = dt.kind();
  const auto size = static_cast<int>(dt.itemsize());
  DType t;
  if (kind == 'f' && size == 2) t = DType::F16;
  else if (kind == 'f' && size == 4) t = DType::F32;
  else if (kind == 'f' && size == 8) t = DType::F64;
  else if (kind == 'b') t = DType::Bool;
  else if (kind == 'i' && size == 1) t = DType::I8;
  else if (kind == 'i' && size == 2) t = DType::I16;
  else if (kind == 'i' && size == 4) t = DType::I32;
  else if (kind == 'i' && size == 8) t = DType::I64;
  else if (kind == 'u' && size == 1) t = DType::U8;
  else if (kind == 'u' && size == 2) t = DType::U16;
  else if (kind == 'u' && size == 4) t = DType::U32;
  else if (kind == 'u' && size == 8) t = DType::U64;
  else
    throw DiagnosticError(make_error("npy.unsupported-dtype", what + ": NumPy dtype '" + py::str(dt.attr("name")).cast<std::string>() +
                                                      "' is not one nnref reads (float16/32/64, integers, bool)"));
  std::vector<int64_t> dims(a.shape(), a.shape() + a.ndim());
  HostTensor h{t, value_or_raise(Shape::make(dims)), {}};
  const auto n = static_cast<size_t>(a.size());
  h.values.resize(n);
  // float16: NumPy converts it; every other dtype is read directly.
  const py::array widened = t == DType::F16 ? py::array(a.attr("astype")("float64")) : a;
  const void* p = widened.data();
  auto copy = [&]<class S>(S*) {
    const S* s = static_cast<const S*>(p);
    for (size_t k = 0; k < n; ++k) h.values[k] = static_cast<double>(s[k]);
  };
  switch (t) {
    case DType::F16: case DType::F64: copy(static_cast<double*>(nullptr)); break;
    case DType::F32: copy(static_cast<float*>(nullptr)); break;
    case DType::Bool: copy(static_cast<bool*>(nullptr)); break;
    case DType::I8: copy(static_cast<int8_t*>(nullptr)); break;
    case DType::I16: copy(static_cast<int16_t*>(nullptr)); break;
    case DType::I32: copy(static_cast<int32_t*>(nullptr)); break;
    case DType::I64: copy(static_cast<int64_t*>(nullptr)); break;
    case DType::U8: copy(static_cast<uint8_t*>(nullptr)); break;
    case DType::U16: copy(static_cast<uint16_t*>(nullptr)); break;
    case DType::U32: copy(static_cast<uint32_t*>(nullptr)); break;
    case DType::U64: copy(static_cast<uint64_t*>(nullptr)); break;
    case DType::BF16: break;  // NumPy has no bfloat16: never chosen above
  }
  // As the tensor file readers: an integer beyond 2^53 would not survive the conversion to double.
  if (!dtype_is_float(t) && t != DType::Bool)
    for (double v : h.values)
      if (std::fabs(v) > 9007199254740992.0)
        throw DiagnosticError(make_error("npy.integer-out-of-range", what + ": an integer of magnitude beyond 2^53"));
  return h;
}

py::array to_numpy(const HostTensor& h) {
  std::vector<py::ssize_t> dims(h.shape.dims().begin(), h.shape.dims().end());
  if (h.dtype == DType::F32) {
    py::array_t<float> a(dims);
    float* p = a.mutable_data();
    for (size_t k = 0; k < h.values.size(); ++k) p[k] = static_cast<float>(h.values[k]);
    return a;
  }
  py::array_t<double> a(dims);
  double* p = a.mutable_data();
  for (size_t k = 0; k < h.values.size(); ++k) p[k] = h.values[k];
  return a;
}

std::vector<GivenInput> given_inputs(const py::dict& inputs) {
  std::vector<GivenInput> out;
  for (const auto& [key, value] : inputs) {
    const std::string name = py::str(key);
    out.push_back({name, to_host(py::array::ensure(value), "input '" + name + "'")});
  }
  return out;
}

std::vector<std::string> dim_texts(const std::vector<std::pair<std::string, std::string>>& dims) {
  std::vector<std::string> out;
  for (const auto& [name, value] : dims) out.push_back(name + "=" + value);
  return out;
}

// A model with the arrays to run it on, as run and conform read them: the front-end sees the
// arrays' shapes, then bind_inputs sets the sizes.
ModelWithInputs model_with_inputs(const std::string& path, const py::dict& inputs,
                                  const std::vector<std::pair<std::string, std::string>>& dims, int64_t max_memory) {
  std::vector<GivenInput> given = given_inputs(inputs);
  LoadOptions options{WeightsPolicy::Required, max_memory};
  options.input_shapes = given_shapes(given);
  options.enclose_constants = enclose_constants;
  Model model;
  {
    py::gil_scoped_release release;
    model = model_or_raise(load_binding(path, options, given), path);  // as run and conform bind
  }
  return value_or_raise(bind_inputs(std::move(model), dim_texts(dims), std::move(given), true));
}

// Raises an error about the model found at sizes the arrays gave, with the note run prints.
[[noreturn]] void raise_at_sizes(Diagnostic d, const ModelWithInputs& m) {
  note_given_sizes(d, m.model.graph, m.sizes);
  throw DiagnosticError(std::move(d));
}

class PyModel {
 public:
  // bind_inputs: a model that needs graph inputs' values to load (LoadResult::inputs_read_at_load),
  // or sizes as numbers (sizes_needed_at_load), is read again by each run and conform with their
  // arrays bound and their sizes fixed; until then every other use raises the load's first error.
  PyModel(std::string path, int64_t max_memory, bool bind_inputs) : path_(std::move(path)), max_memory_(max_memory) {
    py::gil_scoped_release release;
    LoadOptions options{WeightsPolicy::IfPresent, max_memory_};
    options.enclose_constants = enclose_constants;
    LoadResult r = load_model(path_, options);
    if (bind_inputs && r.has_errors() && !(r.inputs_read_at_load.empty() && r.sizes_needed_at_load.empty())) {
      for (Diagnostic& d : r.diagnostics)
        if (d.severity == Severity::Error && !deferred_) deferred_ = std::move(d);
      return;
    }
    model_ = model_or_raise(std::move(r), path_);
  }

  const std::string& path() const { return path_; }
  const std::string& format() const { return model().format; }
  const std::string& precision() const { return model().precision; }
  bool weights_loaded() const { return model().weights_loaded; }
  std::vector<std::string> size_names() const {
    std::vector<std::string> out;
    for (const SizeName& n : model().size_names)
      if (std::find(out.begin(), out.end(), n.name) == out.end()) out.push_back(n.name);
    return out;
  }

  // Each input: its name, its shape with every extent a size name stands for as that name, its kind.
  py::list inputs() const {
    py::list out;
    const Graph& g = model().graph;
    for (int64_t id : g.input_ids()) {
      const Node& node = g.nodes[static_cast<size_t>(id)];
      const auto& attrs = std::get<InputAttrs>(node.op);
      py::list shape;
      for (size_t axis = 0; axis < attrs.dims.size(); ++axis) {
        auto named = std::find_if(model().size_names.begin(), model().size_names.end(),
                                  [&](const SizeName& n) { return n.node == id && n.axis == axis; });
        if (named != model().size_names.end()) shape.append(named->name);
        else shape.append(attrs.dims[axis]);
      }
      out.append(py::make_tuple(node.name, py::tuple(shape), elem_kind_name(attrs.kind)));
    }
    return out;
  }

  // Each output: its name, its shape at the model's declared sizes, its kind.
  // An empty output (Model::empty_outputs) is real, as nnref's outputs are.
  py::list outputs() const {
    const auto listed = [](const std::string& name, const Shape& s, ElemKind kind) {
      py::list shape;
      for (int64_t d : s.dims()) shape.append(d);
      return py::make_tuple(name, py::tuple(shape), elem_kind_name(kind));
    };
    py::list out;
    if (!model().graph.outputs.empty()) {
      ConcreteCheck c;
      {
        py::gil_scoped_release release;
        c = check_concrete(model().graph, nullptr, model().param_keys, 0, max_memory_);
      }
      if (!c.ok()) throw DiagnosticError(c.diagnostics.front());
      for (const GraphOutput& o : model().graph.outputs) {
        const NodeInfo& info = c.info->nodes[static_cast<size_t>(o.value.node)];
        out.append(listed(o.name, info.outputs[static_cast<size_t>(o.value.output)], info.kind));
      }
    }
    for (const EmptyOutput& o : model().empty_outputs) out.append(listed(o.name, o.shape, ElemKind::Real));
    return out;
  }

  // The opsets the file imports, by domain, for a format that has them (ONNX); empty otherwise.
  std::map<std::string, int64_t> opsets() const {
    if (model().format != "onnx") return {};
    py::gil_scoped_release release;
    return value_or_raise(read_onnx_opsets(path_, max_memory_));
  }

  // The node that computes each output, in the graph's output order.
  std::vector<std::string> output_nodes() const {
    std::vector<std::string> out;
    for (const GraphOutput& o : model().graph.outputs) out.push_back(model().graph.nodes[static_cast<size_t>(o.value.node)].name);
    return out;
  }

  // check --format json's report, as text.
  std::string check(const std::vector<std::pair<std::string, std::string>>& dims, const std::vector<std::string>& assume,
                    unsigned solver_budget) const {
    CheckOptions o;
    o.model = path_;
    o.max_memory = max_memory_;
    o.dims = dim_texts(dims);
    o.assumes = assume;
    o.solver_budget = solver_budget;
    Result<CheckReport> r = [&] {
      py::gil_scoped_release release;
      return check_findings(o);
    }();
    CheckReport report = value_or_raise(std::move(r));
    if (!report.model_read)
      for (Diagnostic& d : report.diagnostics)
        if (d.severity == Severity::Error) throw DiagnosticError(std::move(d));
    return report_json(report, path_);
  }

  // {name: array}, or for an enclosure {name: (lower, upper)}.
  py::dict run(const py::dict& inputs, const std::string& precision,
               const std::vector<std::pair<std::string, std::string>>& dims, const std::string& runtime_precision,
               double ulps) const {
    ModelWithInputs m = model_with_inputs(path_, inputs, dims, max_memory_);
    OutputBounds bounds;
    Result<NamedTensors> outputs = [&]() -> Result<NamedTensors> {
      if (m.model.graph.outputs.empty()) {  // every output is empty
        if (Status checked = check_inputs_only(m.model, m.inputs); !checked) return std::move(checked).error();
        return NamedTensors{};
      }
      py::gil_scoped_release release;
      return evaluate_at_precision(m.model, m.inputs, precision, runtime_precision, ulps, max_memory_, &bounds);
    }();
    if (!outputs) raise_at_sizes(std::move(outputs).error(), m);
    const DType type = precision == "f32" ? DType::F32 : DType::F64;
    append_empty_outputs(m.model, *outputs, type);
    append_empty_outputs(m.model, bounds.lower, DType::F64);
    append_empty_outputs(m.model, bounds.upper, DType::F64);
    py::dict out;
    const bool enclosure = precision == "interval" || precision == "envelope";
    for (size_t k = 0; k < outputs->size(); ++k) {
      const auto& [name, t] = (*outputs)[k];
      if (enclosure) out[py::str(name)] = py::make_tuple(to_numpy(bounds.lower[k].second), to_numpy(bounds.upper[k].second));
      else out[py::str(name)] = to_numpy(t);
    }
    return out;
  }

  // conform --format json's verdict and its text.
  // With `intermediates` ({ONNX value or SkriptND component name: array}), as conform --intermediates;
  // `exact` as conform --exact.
  std::pair<std::string, std::string> conform(const py::dict& inputs, const py::object& actual,
                                              const std::string& runtime_precision, double ulps,
                                              const std::vector<std::pair<std::string, std::string>>& dims,
                                              const py::object& intermediates, bool exact) const {
    ModelWithInputs m = model_with_inputs(path_, inputs, dims, max_memory_);
    const std::optional<RuntimeModel> runtime = runtime_model(runtime_precision, ulps);
    if (!runtime)
      throw DiagnosticError(make_error("usage.runtime-precision",
                                       "runtime precision '" + runtime_precision + "': give f32, f16 or bf16"));
    std::vector<std::string> notes;
    std::optional<std::vector<Cut>> cuts;
    int64_t budget = max_memory_;
    if (!intermediates.is_none()) {
      NamedTensors given;
      for (const auto& [key, value] : intermediates.cast<py::dict>()) {
        const std::string name = py::str(key);
        given.emplace_back(name, to_host(py::array::ensure(value), "intermediate value '" + name + "'"));
      }
      cuts = value_or_raise(cuts_of(std::move(given), "the intermediate values", m.model, notes));
      for (const Cut& c : *cuts) budget -= static_cast<int64_t>(c.value.values.size() * sizeof(double));
    }
    Result<Enclosures> enclosures = [&] {
      py::gil_scoped_release release;
      return enclose_outputs(m.model, m.inputs, *runtime, budget, cuts ? &*cuts : nullptr,
                             exact ? ExactValue::Computed : ExactValue::WhenNeeded);
    }();
    if (!enclosures) raise_at_sizes(std::move(enclosures).error(), m);
    // One array for a model with one output, as --actual Y.npy; otherwise {output name: array}.
    NamedTensors given;
    if (py::isinstance<py::dict>(actual)) {
      for (const auto& [key, value] : actual.cast<py::dict>()) {
        const std::string name = py::str(key);
        given.emplace_back(name, to_host(py::array::ensure(value), "actual output '" + name + "'"));
      }
    } else {
      const std::vector<std::string> names = output_names(m.model);
      if (names.size() != 1)
        throw DiagnosticError(make_error(
            "usage.actual-format",
            "the model has " + std::to_string(names.size()) + " outputs; give them as a dict keyed by output name"));
      const std::string& name = names[0];
      given.emplace_back(name, to_host(py::array::ensure(actual), "actual output '" + name + "'"));
    }
    NamedTensors ordered = value_or_raise(match_actual(std::move(given), "the actual outputs", m.model, enclosures->shapes()));
    std::string json, text;
    {
      py::gil_scoped_release release;
      const std::vector<OutputVerdict> verdicts = judge_outputs(*enclosures, ordered);
      enclosures->cuts.notes.insert(enclosures->cuts.notes.begin(), notes.begin(), notes.end());
      const CutVerdicts* shown = cuts ? &enclosures->cuts : nullptr;
      json = verdicts_json(verdicts, *runtime, &enclosures->exact_precision, shown);
      std::ostringstream out;
      print_verdicts(out, verdicts, *runtime, &enclosures->exact_precision, shown);
      text = out.str();
    }
    return {json, text};
  }

 private:
  std::string path_;
  int64_t max_memory_;
  const Model& model() const {
    if (!model_) throw DiagnosticError(*deferred_);
    return *model_;
  }
  std::optional<Model> model_;
  std::optional<Diagnostic> deferred_;  // the load's error, when model_ waits for run's inputs
};

}  // namespace
}  // namespace nnref

PYBIND11_MODULE(_nnref, m) {
  using nnref::PyModel;
  m.doc() = "nnref's extension: use the package nnref (docs/python.md)";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const nnref::DiagnosticError& e) {
      const nnref::Diagnostic& d = e.d;
      py::object error_class = py::module_::import("nnref").attr("Error");
      py::object error = error_class(d.code, d.message, d.loc.file, d.loc.line, d.loc.column, d.node, d.notes,
                                     nnref::format_diagnostic(d));
      PyErr_SetObject(error_class.ptr(), error.ptr());
    }
  });
  m.attr("default_max_memory") = nnref::kDefaultMaxMemory;
  m.attr("default_solver_budget") = nnref::kDefaultSolverBudget;
  py::class_<PyModel>(m, "Model")
      .def(py::init<std::string, int64_t, bool>(), py::arg("path"), py::arg("max_memory"), py::arg("bind_inputs"))
      .def_property_readonly("path", &PyModel::path)
      .def_property_readonly("format", &PyModel::format)
      .def_property_readonly("precision", &PyModel::precision)
      .def_property_readonly("weights_loaded", &PyModel::weights_loaded)
      .def_property_readonly("size_names", &PyModel::size_names)
      .def("inputs", &PyModel::inputs)
      .def("outputs", &PyModel::outputs)
      .def("output_nodes", &PyModel::output_nodes)
      .def("opsets", &PyModel::opsets)
      .def("check", &PyModel::check, py::arg("dims"), py::arg("assume"), py::arg("solver_budget"))
      .def("run", &PyModel::run, py::arg("inputs"), py::arg("precision"), py::arg("dims"), py::arg("runtime_precision"),
           py::arg("ulps"))
      .def("conform", &PyModel::conform, py::arg("inputs"), py::arg("actual"), py::arg("runtime_precision"),
           py::arg("ulps"), py::arg("dims"), py::arg("intermediates"), py::arg("exact"));
}
