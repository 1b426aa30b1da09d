// The NNL entry points: text → tokens → Program → Model (+ weights).
#include "formats/nnl/nnl.hpp"

#include <exception>
#include <fstream>
#include <sstream>

#include "formats/nnl/lexer.hpp"
#include "formats/nnl/lower.hpp"
#include "formats/nnl/parser.hpp"
#include "formats/nnl/weights.hpp"

namespace nnref {

LoadResult load_nnl_text(const std::string& text, const std::string& filename, const LoadOptions& options) {
  LoadResult result;
  nnl::Diags diags;
  try {
    std::vector<nnl::Token> tokens = nnl::lex(text, filename, diags);
    nnl::Program program = nnl::parse(tokens, diags);
    tokens.clear();
    std::optional<nnl::Lowered> lowered = nnl::lower(program, diags);
    if (lowered) {
      Model& m = lowered->model;
      m.path = filename;
      m.weights_path = nnl::resolve_weights_path(lowered->config.weights, filename);
      m.weights_loc = lowered->config.weights_loc;
      if (options.weights != WeightsPolicy::Skip)
        nnl::load_weights(m, program, options.max_memory, options.weights == WeightsPolicy::IfPresent, diags);
      if (!diags.has_errors()) result.model = std::move(m);
    }
  } catch (const std::bad_alloc&) {
    diags.error("size.out-of-memory", "ran out of memory while reading the model", SourceLoc{filename, 0, 0});
  } catch (const std::exception& e) {
    diags.error("nnl.internal", std::string("internal error while reading the model: ") + e.what(),
                SourceLoc{filename, 0, 0});
  }
  result.diagnostics = diags.take();
  return result;
}

LoadResult load_nnl_file(const std::string& path, const LoadOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    LoadResult r;
    r.diagnostics.push_back(make_error("io.open-failed", "cannot open model file '" + path + "'", SourceLoc{path, 0, 0}));
    return r;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    LoadResult r;
    r.diagnostics.push_back(make_error("io.read-failed", "cannot read model file '" + path + "'", SourceLoc{path, 0, 0}));
    return r;
  }
  return load_nnl_text(ss.str(), path, options);
}

}  // namespace nnref
