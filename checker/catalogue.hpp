// The catalogue of obligation codes: what each means, its formula and an example. The single
// source of `nnref check --explain CODE` and of docs/obligations.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace nnref {

struct ObligationEntry {
  std::string code;     // "shape.conv.window-exceeds-input"
  std::string kind;     // "structure" | "shape" | "attribute" | "binding" | "size"
  std::string summary;  // one sentence: what must hold
  std::string formula;  // the condition, in --assume syntax where it is arithmetic
  std::string example;  // a model fragment or situation that violates it, and the diagnostic
};

const std::vector<ObligationEntry>& obligation_catalogue();
const ObligationEntry* find_obligation(std::string_view code);
// The text `--explain CODE` prints.
std::string explain(const ObligationEntry& e);

}  // namespace nnref
