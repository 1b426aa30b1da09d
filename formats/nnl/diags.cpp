#include "formats/nnl/diags.hpp"

#include <algorithm>
#include <climits>

namespace nnref::nnl {

void Diags::add(Diagnostic d) {
  if (d.severity == Severity::Error) {
    if (errors_ >= max_errors_) {
      truncated_ = true;
      ++errors_;
      return;
    }
    ++errors_;
  } else if (list_.size() >= 2 * max_errors_) {
    return;
  }
  list_.push_back(std::move(d));
}

void Diags::error(std::string code, std::string message, SourceLoc loc, std::string node,
                  std::vector<std::string> notes) {
  Diagnostic d = make_error(std::move(code), std::move(message), std::move(loc));
  d.node = std::move(node);
  d.notes = std::move(notes);
  add(std::move(d));
}

void Diags::warning(std::string code, std::string message, SourceLoc loc, std::string node) {
  Diagnostic d = make_warning(std::move(code), std::move(message), std::move(loc));
  d.node = std::move(node);
  add(std::move(d));
}

std::vector<Diagnostic> Diags::take() {
  auto key = [](const Diagnostic& d) {
    return std::pair<int, int>(d.loc.line > 0 ? d.loc.line : INT_MAX, d.loc.column);
  };
  std::stable_sort(list_.begin(), list_.end(),
                   [&](const Diagnostic& a, const Diagnostic& b) { return key(a) < key(b); });
  if (truncated_) {
    list_.push_back(make_error("nnl.too-many-errors",
                               "too many errors (" + std::to_string(errors_) + "); only the first " +
                                   std::to_string(max_errors_) + " are shown"));
    truncated_ = false;
  }
  return std::move(list_);
}

}  // namespace nnref::nnl
