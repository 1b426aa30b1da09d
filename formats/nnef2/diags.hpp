// The diagnostics of one SkriptND read, in the order found. Header-only, so that the reader links
// nothing (nnl::Diags lives in nnref_formats); capped, so that a file of garbage gives a bounded list.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "spec/diagnostic.hpp"

namespace nnref::nnef2 {

// A place in SkriptND text as the messages write it: file:line:column.
inline std::string located(const SourceLoc& loc) {
  return loc.file + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

class Diags {
 public:
  static constexpr size_t kMaxErrors = 100;

  void error(std::string code, std::string message, SourceLoc loc) {
    if (list_.size() >= kMaxErrors) return;
    Diagnostic d;
    d.code = std::move(code);
    d.message = std::move(message);
    d.loc = std::move(loc);
    list_.push_back(std::move(d));
  }
  bool has_errors() const { return !list_.empty(); }
  const std::vector<Diagnostic>& list() const { return list_; }

 private:
  std::vector<Diagnostic> list_;
};

}  // namespace nnref::nnef2
