// Obligations (DESIGN idea 3): each precondition of a rule is stated as
// sink.require(pred, kSomeObligation, message). The obligation is a typed constant declared next
// to the rule that raises it: its code (a stable SARIF rule id), its kind, a one-line summary,
// the formula and an example. The catalogue (semantics/catalogue.hpp) and docs/obligations.md are
// generated from these constants. The concrete sink (here) checks each obligation at once; the
// checker's symbolic sink hands it to Z3.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "spec/diagnostic.hpp"
#include "spec/dim.hpp"

namespace nnref {

// What an obligation constrains; its code starts with the kind's prefix.
enum class ObligationKind { Graph, Attribute, Shape, Kind, Binding, Size };

constexpr std::string_view kind_prefix(ObligationKind k) {
  switch (k) {
    case ObligationKind::Graph: return "graph.";
    case ObligationKind::Attribute: return "attr.";
    case ObligationKind::Shape: return "shape.";
    case ObligationKind::Kind: return "kind.";
    case ObligationKind::Binding: return "bind.";
    case ObligationKind::Size: return "size.";
  }
  return "";
}

// "graph", "attribute", "shape", "kind", "binding", "size": the names of docs/obligations.md.
constexpr std::string_view kind_name(ObligationKind k) {
  switch (k) {
    case ObligationKind::Graph: return "graph";
    case ObligationKind::Attribute: return "attribute";
    case ObligationKind::Shape: return "shape";
    case ObligationKind::Kind: return "kind";
    case ObligationKind::Binding: return "binding";
    case ObligationKind::Size: return "size";
  }
  return "";
}

struct ObligationSpec {
  // consteval: a code whose prefix does not match its kind does not compile.
  consteval ObligationSpec(ObligationKind k, std::string_view c, std::string_view s, std::string_view f,
                           std::string_view e)
      : kind(k), code(c), summary(s), formula(f), example(e) {
    if (!code.starts_with(kind_prefix(kind))) throw std::logic_error("obligation code does not match its kind");
  }

  ObligationKind kind;
  std::string_view code;     // "shape.window.exceeds-input"
  std::string_view summary;  // one sentence: what must hold
  std::string_view formula;  // the condition, in --assume syntax where it is arithmetic
  std::string_view example;  // a model fragment that violates it, and the diagnostic
};

// An obligation that failed, with the message that names the values involved.
struct Failure {
  const ObligationSpec* obligation;
  std::string message;
};

// Where the obligations of a rule go. PredOf<CDim> is bool; the checker's symbolic predicate
// converts from bool, so structural facts (ranks, axis indices) are stated the same way.
template <class Dim>
class ObligationSink {
 public:
  virtual ~ObligationSink() = default;
  virtual void require(const PredOf<Dim>& holds, const ObligationSpec& obligation, std::string message) = 0;

  // How a message names input k of the op being checked: "input 3", or, once the caller has named
  // the inputs (the graph walk names each by the node that produces it), "'conv1' (input 3)".
  std::string operand(size_t k) const {
    const std::string index = "input " + std::to_string(k);
    if (k >= operand_names_.size() || operand_names_[k].empty()) return index;
    return "'" + operand_names_[k] + "' (" + index + ")";
  }
  // The names of the inputs of the op checked next (empty: unnamed).
  void name_operands(std::vector<std::string> names) { operand_names_ = std::move(names); }

 private:
  std::vector<std::string> operand_names_;
};

// Checks each obligation at once and keeps the ones that fail, in order.
class ConcreteSink final : public ObligationSink<CDim> {
 public:
  void require(const bool& holds, const ObligationSpec& obligation, std::string message) override {
    if (!holds) failures_.push_back({&obligation, std::move(message)});
  }
  bool ok() const { return failures_.empty(); }
  const std::vector<Failure>& failures() const { return failures_; }
  // The first failure as an error, the others as notes. Only when !ok().
  Diagnostic first_failure() const;

 private:
  std::vector<Failure> failures_;
};

Diagnostic to_diagnostic(const Failure& f);

}  // namespace nnref
