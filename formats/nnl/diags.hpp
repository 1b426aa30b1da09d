// A collector of diagnostics for one NNL load: caps the number of errors so that a file of
// garbage yields a bounded report.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "spec/diagnostic.hpp"

namespace nnref::nnl {

class Diags {
 public:
  explicit Diags(size_t max_errors = 100) : max_errors_(max_errors) {}

  void error(std::string code, std::string message, SourceLoc loc, std::string node = {},
             std::vector<std::string> notes = {});
  void warning(std::string code, std::string message, SourceLoc loc, std::string node = {});
  void add(Diagnostic d);

  bool has_errors() const { return errors_ > 0; }
  size_t error_count() const { return errors_; }
  // All diagnostics, in source order (those without a line last), the cap note appended.
  std::vector<Diagnostic> take();

 private:
  std::vector<Diagnostic> list_;
  size_t errors_ = 0;
  size_t max_errors_;
  bool truncated_ = false;
};

}  // namespace nnref::nnl
