// The NNEF entry points: folder → graph.nnef text → tokens → Document → (with the standard
// fragments, graph.quant and the .dat files) Model.
#include "formats/nnef/nnef.hpp"

#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "formats/nnef/composer.hpp"
#include "formats/nnef/dat.hpp"
#include "formats/nnef/parser.hpp"
#include "formats/nnef/quant.hpp"
#include "formats/nnef/standard_fragments.hpp"

namespace nnref {

namespace fs = std::filesystem;

namespace {

using nnef::Diags;

constexpr const char* kGraphFile = "graph.nnef";
constexpr const char* kQuantFile = "graph.quant";

// The standard fragments, parsed once; the diagnostics of that parse are empty unless the
// prelude's text and the parser disagree (a bug in nnref, reported as such).
struct Prelude {
  std::vector<nnef::Fragment> fragments;
  std::vector<Diagnostic> diagnostics;
};
const Prelude& standard_fragments() {
  static const Prelude all = [] {
    Diags d;
    const std::vector<nnef::Token> t = nnef::lex(nnef::standard_fragments_text(), nnef::kStandardFragmentsFile, d);
    Prelude p{nnef::parse(t, d, true).fragments, {}};
    p.diagnostics = d.take();
    return p;
  }();
  return all;
}

std::optional<std::string> read_text(const std::string& path, std::vector<Diagnostic>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    out.push_back(make_error("io.open-failed", "cannot open model file '" + path + "'", SourceLoc{path, 0, 0}));
    return std::nullopt;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    out.push_back(make_error("io.read-failed", "cannot read model file '" + path + "'", SourceLoc{path, 0, 0}));
    return std::nullopt;
  }
  return ss.str();
}

// The .dat file of a label inside the folder, or nullopt when the label leads outside it: an
// absolute path, a '..' component, or a link out of the folder. Never opens anything.
std::optional<fs::path> label_path(const fs::path& folder, std::string label) {
  for (char& c : label)
    if (c == '\\') c = '/';
  const fs::path rel(label + ".dat");
  if (rel.is_absolute() || label.starts_with("/")) return std::nullopt;
  for (const fs::path& part : rel)
    if (part == "..") return std::nullopt;
  std::error_code ec;
  const fs::path base = fs::weakly_canonical(folder, ec);
  const fs::path full = fs::weakly_canonical(folder / rel, ec);
  if (ec) return std::nullopt;
  const auto [b, f] = std::mismatch(base.begin(), base.end(), full.begin(), full.end());
  if (b != base.end()) return std::nullopt;
  return folder / rel;
}

// `batch` for axis 0 of every external, `<id>.<k>` for its axis k ≥ 1.
std::vector<SizeName> nnef_size_names(const Graph& g) {
  std::vector<SizeName> out;
  for (int64_t id : g.input_ids()) {
    const auto& in = std::get<InputAttrs>(g.nodes[static_cast<size_t>(id)].op);
    for (size_t k = 0; k < in.dims.size(); ++k)
      out.push_back(SizeName{k == 0 ? "batch" : g.nodes[static_cast<size_t>(id)].name + "." + std::to_string(k), id, k});
  }
  return out;
}

class Loader {
 public:
  Loader(const std::string& folder, const LoadOptions& options, Diags& diags,
         const std::map<std::string, nnef::QuantEntry>& quant)
      : folder_(folder), options_(options), diags_(diags), quant_(quant) {}

  nnef::VariableData operator()(const std::string& label, const std::vector<int64_t>& shape, ElemKind kind,
                                const std::string& id, const SourceLoc& loc) {
    nnef::VariableData out;
    const std::optional<fs::path> path = label_path(folder_, label);
    if (!path) {
      diags_.error("nnef.label.escapes", "variable '" + id + "' has label '" + label +
                                             "', which leads outside the model folder: refused, nothing was opened", loc, id);
      throw nnef::ComposeError{};
    }
    if (options_.weights == WeightsPolicy::Skip) return out;
    std::error_code ec;
    if (!fs::is_regular_file(*path, ec)) {
      missing_ = true;
      if (options_.weights == WeightsPolicy::IfPresent) return out;
      diags_.error("nnef.dat.missing", "variable '" + id + "' has label '" + label + "' but '" + path->string() +
                                           "' does not exist", loc, id);
      throw nnef::ComposeError{};
    }
    std::optional<nnef::DatTensor> dat = nnef::read_dat(path->string(), label, shape, kind, loc, diags_);
    if (!dat) throw nnef::ComposeError{};
    if (dat->quantized) {
      const auto q = quant_.find(id);
      if (q == quant_.end()) {
        diags_.error("nnef.dat.quant-missing", "variable '" + id + "' is stored as quantized items in '" + path->string() +
                                                   "' but graph.quant gives no algorithm for '" + id + "' to read them", loc, id);
        throw nnef::ComposeError{};
      }
      if (!nnef::dequantize(q->second, *dat, label, loc, diags_)) throw nnef::ComposeError{};
      out.dequantized = true;
    }
    out.tensor = std::move(dat->tensor);
    out.source = path->string();
    return out;
  }
  bool missing() const { return missing_; }

 private:
  fs::path folder_;
  const LoadOptions& options_;
  Diags& diags_;
  const std::map<std::string, nnef::QuantEntry>& quant_;
  bool missing_ = false;
};

void read_quant(const std::string& folder, nnef::Composer& composer, std::map<std::string, nnef::QuantEntry>& quant,
                Diags& diags) {
  const fs::path path = fs::path(folder) / kQuantFile;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return;
  std::vector<Diagnostic> io;
  const std::optional<std::string> text = read_text(path.string(), io);
  for (Diagnostic& d : io) diags.add(std::move(d));
  if (!text) return;
  const std::vector<nnef::Token> tokens = nnef::lex(*text, path.string(), diags);
  for (const nnef::QuantLine& line : nnef::parse_quant(tokens, diags)) {
    nnef::QuantEntry e{line.algorithm, {}, line.loc};
    for (const nnef::Argument& a : line.args) e.args[a.name] = composer.constant_expression(a.value);
    if (!quant.emplace(line.id, std::move(e)).second) {
      diags.error("nnef.quant.duplicate", "graph.quant gives '" + line.id + "' twice", line.loc, line.id);
      throw nnef::ComposeError{};
    }
  }
}

}  // namespace

LoadResult load_nnef_text(const std::string& text, const std::string& filename, const std::string& folder,
                          const LoadOptions& options) {
  LoadResult result;
  Diags diags;
  try {
    const std::vector<nnef::Token> tokens = nnef::lex(text, filename, diags);
    const nnef::Document doc = nnef::parse(tokens, diags);
    if (!diags.has_errors()) {
      Model m;
      std::map<std::string, nnef::QuantEntry> quant;
      Loader loader(folder, options, diags, quant);
      nnef::Composer composer(m, diags, options.max_memory, std::ref(loader), quant);
      try {
        read_quant(folder, composer, quant, diags);
        for (const Diagnostic& d : standard_fragments().diagnostics)
          diags.error("nnef.internal", "the standard fragments do not parse: " + d.message, d.loc);
        if (!diags.has_errors()) composer.compose(standard_fragments().fragments, doc);
        for (const auto& [id, q] : quant)
          if (!diags.has_errors() && !composer.graph_identifiers().count(id))
            diags.error("nnef.quant.unknown-tensor", "graph.quant names '" + id + "', which is no identifier of the graph's body",
                        q.loc, id);
      } catch (const nnef::ComposeError&) {
      }
      if (!diags.has_errors()) {
        m.path = filename;
        m.format = "nnef";
        m.weights_path = folder;
        m.weights_loaded = options.weights != WeightsPolicy::Skip && !loader.missing();
        if (composer.used_shape_of()) {
          diags.warning("nnef.shape-of.fixed", "the document reads extents with shape_of, which fixes them at the sizes it "
                                               "declares: its inputs get no size names, so --dim cannot vary them",
                        SourceLoc{filename, 0, 0});
        } else if (!composer.extents_fixed_by().empty()) {
          diags.warning("nnef.extents.fixed", composer.extents_fixed_by() + " is lowered at the extents the document "
                                              "declares: its inputs get no size names, and the graph computes the "
                                              "document's values at those extents only",
                        composer.extents_fixed_at());
        } else {
          m.size_names = nnef_size_names(m.graph);
        }
        result.model = std::move(m);
      }
    }
  } catch (const std::bad_alloc&) {
    diags.error("size.out-of-memory", "ran out of memory while reading the model", SourceLoc{filename, 0, 0});
  }
  result.diagnostics = diags.take();
  if (result.has_errors()) result.model.reset();
  return result;
}

LoadResult load_nnef(const std::string& path, const LoadOptions& options) {
  std::error_code ec;
  const bool folder = fs::is_directory(path, ec);
  const fs::path graph = folder ? fs::path(path) / kGraphFile : fs::path(path);
  std::string dir = folder ? path : graph.parent_path().string();
  if (dir.empty()) dir = ".";
  LoadResult r;
  const std::optional<std::string> text = read_text(graph.string(), r.diagnostics);
  if (!text) return r;
  return load_nnef_text(*text, graph.string(), dir, options);
}

}  // namespace nnref
