#include "formats/nnl/diags.hpp"

#include <algorithm>
#include <climits>
#include <tuple>

namespace nnref::nnl {

size_t Diags::add(Diagnostic d) {
  if (d.severity == Severity::Error) {
    if (errors_ >= max_errors_) {
      if (!truncated_) dropped_file_ = d.loc.file;
      truncated_ = true;
      ++errors_;
      return kNone;
    }
    ++errors_;
  } else if (list_.size() >= 2 * max_errors_) {
    return kNone;
  }
  list_.push_back({std::move(d), list_.size()});
  return list_.size() - 1;
}

size_t Diags::error(std::string code, std::string message, SourceLoc loc, std::string node,
                    std::vector<std::string> notes) {
  Diagnostic d = make_error(std::move(code), std::move(message), std::move(loc));
  d.node = std::move(node);
  d.notes = std::move(notes);
  return add(std::move(d));
}

size_t Diags::warning(std::string code, std::string message, SourceLoc loc, std::string node) {
  Diagnostic d = make_warning(std::move(code), std::move(message), std::move(loc));
  d.node = std::move(node);
  return add(std::move(d));
}

void Diags::follows(size_t effect, size_t cause) {
  if (effect >= list_.size() || cause >= list_.size() || effect == cause) return;
  list_[effect].cause = list_[cause].cause;  // a follow-on of a follow-on stays with the first cause
}

std::vector<Diagnostic> Diags::take() {
  // A diagnostic sorts at its cause's position, after the cause and in the order reported.
  auto key = [&](size_t id) {
    const Entry& e = list_[id];
    const SourceLoc& at = list_[e.cause].d.loc;
    return std::make_tuple(at.line > 0 ? at.line : INT_MAX, at.column, e.cause, id != e.cause, id);
  };
  std::vector<size_t> order(list_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
  std::vector<Diagnostic> out;
  out.reserve(list_.size() + 1);
  for (size_t id : order) out.push_back(std::move(list_[id].d));
  list_.clear();
  if (truncated_) {
    out.push_back(make_error("nnl.too-many-errors",
                             "too many errors (" + std::to_string(errors_) + "); only the first " +
                                 std::to_string(max_errors_) + " are shown",
                             SourceLoc{dropped_file_, 0, 0}));
    truncated_ = false;
  }
  return out;
}

}  // namespace nnref::nnl
