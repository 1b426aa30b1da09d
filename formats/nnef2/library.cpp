#include "formats/nnef2/library.hpp"

#include "formats/nnef2/parser.hpp"
#include "formats/nnef2/stdlib.hpp"

namespace nnref::nnef2 {

namespace {

struct Parsed {
  std::vector<Module> modules;
  std::vector<Diagnostic> errors;
};

const Parsed& parsed() {
  static const Parsed all = [] {
    Parsed p;
    for (const StdlibModule& m : stdlib_modules()) {
      Diags d;
      Module module{std::string(m.name), std::string(m.name) + ".sknd", m.text, {}};
      module.doc = parse_text(m.text, module.file, d);
      p.errors.insert(p.errors.end(), d.list().begin(), d.list().end());
      p.modules.push_back(std::move(module));
    }
    return p;
  }();
  return all;
}

}  // namespace

const std::vector<Module>& standard_modules() { return parsed().modules; }
const std::vector<Diagnostic>& standard_module_errors() { return parsed().errors; }

const Module* find_module(std::string_view name) {
  for (const Module& m : standard_modules())
    if (m.name == name) return &m;
  return nullptr;
}

const OpDef* find_operator(const Module& module, std::string_view name) {
  for (const OpDef& op : module.doc.ops)
    if (op.name == name) return &op;
  return nullptr;
}

}  // namespace nnref::nnef2
