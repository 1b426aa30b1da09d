// nnref convert: a model in another format, through the writer registry (formats/writers.hpp).
#include <ostream>

#include "checker/size_symbols.hpp"
#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "formats/writers.hpp"

namespace nnref {

int convert_command(const ConvertOptions& o, std::ostream& out, std::ostream& err) {
  const Writer* writer = writer_for(o.to);  // CLI11 checked --to against writers()
  WriteOptions options;
  for (const auto& text : o.dims) {
    auto d = parse_dim_value(text);
    if (!d) {
      print_diagnostics(err, {d.error()});
      return kExitUsage;
    }
    options.dims.emplace_back(d->name, d->lo);
  }
  int exit = kExitOk;
  auto model = load_reporting(o.model, LoadOptions{WeightsPolicy::Required, o.max_memory}, err, exit);
  if (!model) return exit;
  // An empty output is no node of the graph (docs/onnx.md, "Empty values"): the writers do not express it.
  if (!model->empty_outputs.empty()) {
    const Diagnostic d = make_error("convert.unexpressible", "output '" + model->empty_outputs.front().name +
                                                                 "' is an empty tensor (shape " +
                                                                 model->empty_outputs.front().shape.str() +
                                                                 "), which the writers do not express");
    print_diagnostics(err, {d});
    return exit_code_for(d);
  }
  const std::vector<Diagnostic> diags = writer->write(*model, o.out, options);
  print_diagnostics(err, diags);
  for (const Diagnostic& d : diags)
    if (d.severity == Severity::Error) return exit_code_for(diags);
  out << "wrote " << o.out << " (" << writer->name << ", " << model->graph.nodes.size() << " nodes)\n";
  return kExitOk;
}

}  // namespace nnref
