// Helpers shared by the parts of nnl_test: NNL text in, LoadResult and Model inspected.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <variant>
#include <vector>

#include "formats/model.hpp"
#include "formats/nnl/nnl.hpp"

namespace nnref::test {

inline const std::string kDataDir = std::string(NNREF_SOURCE_DIR) + "/tests/data/nnl";

inline LoadOptions structure_only() {
  LoadOptions o;
  o.weights = WeightsPolicy::Skip;
  return o;
}

inline LoadResult parse(const std::string& text) { return load_nnl_text(text, "t.nnl", structure_only()); }

inline LoadResult parse_file(const std::string& name) { return load_nnl_file(kDataDir + "/" + name, structure_only()); }

inline std::string dump(const LoadResult& r) {
  std::string s;
  for (const auto& d : r.diagnostics) s += format_diagnostic(d) + "\n";
  return s;
}

// A diagnostic with this code at this line (and column, when col > 0).
inline const Diagnostic* find_diag(const LoadResult& r, const std::string& code, int line, int col = 0) {
  for (const auto& d : r.diagnostics)
    if (d.code == code && d.loc.line == line && (col == 0 || d.loc.column == col)) return &d;
  return nullptr;
}

inline bool has_diag(const LoadResult& r, const std::string& code, int line, int col = 0) {
  return find_diag(r, code, line, col) != nullptr;
}

// version on line 1, model on 2, config on 3: the text given starts on line 4.
inline std::string wrap(const std::string& body, const std::string& config = "weights: \"w\";") {
  return "version 0.2;\nmodel m {\nconfig { " + config + " }\n" + body + "}\n";
}

inline const Node& node(const Model& m, const std::string& name) {
  const Node* n = m.graph.find(name);
  INFO("node " << name);
  REQUIRE(n != nullptr);
  return *n;
}

inline std::vector<std::string> names(const Model& m) {
  std::vector<std::string> v;
  for (const auto& n : m.graph.nodes) v.push_back(n.name);
  return v;
}

inline std::vector<std::string> input_names(const Model& m, const std::string& name) {
  std::vector<std::string> v;
  for (const auto& in : node(m, name).inputs) v.push_back(m.graph.nodes.at(in.node).name);
  return v;
}

inline void check_topological(const Model& m) {
  for (size_t i = 0; i < m.graph.nodes.size(); ++i) {
    REQUIRE(m.graph.nodes[i].id == static_cast<int64_t>(i));
    for (const auto& in : m.graph.nodes[i].inputs) REQUIRE(in.node < static_cast<int64_t>(i));
  }
}

// A copy, so that `const Model& m = ok_model(parse(...))` does not dangle.
inline Model ok_model(const LoadResult& r) {
  INFO(dump(r));
  REQUIRE_FALSE(r.has_errors());
  REQUIRE(r.model.has_value());
  check_topological(*r.model);
  return *r.model;
}

template <class A>
const A& attrs(const Model& m, const std::string& name) {
  const Node& n = node(m, name);
  REQUIRE(std::holds_alternative<A>(n.op));
  return std::get<A>(n.op);
}

// The model of a single layer after an Input of the given shape.
inline LoadResult one_layer(const std::string& decl, const std::string& shape = "[8, 8, 3]") {
  return parse(wrap("layer input = Input(shape: " + shape + ");\nlayer x = " + decl + ";\n"));
}

}  // namespace nnref::test
