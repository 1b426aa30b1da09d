// The catalogue of obligations: every typed obligation constant of every rule (the graph's, the
// shared rules of spec/rules/, each op's from the op list, the bindings'), grouped by kind. The
// single source of `nnref check --explain CODE`, of the SARIF rules, and of the generated part of
// docs/obligations.md (catalogue_markdown; the target obligations_doc, tools/, writes it).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "spec/obligation.hpp"

namespace nnref {

// In the order of docs/obligations.md: by kind, then graph, shared rules, ops in list order, bindings.
const std::vector<const ObligationSpec*>& obligation_catalogue();
const ObligationSpec* find_obligation(std::string_view code);
// The text `--explain CODE` prints.
std::string explain(const ObligationSpec& o);
// The catalogue as the Markdown sections of docs/obligations.md (one per kind).
std::string catalogue_markdown();

}  // namespace nnref
