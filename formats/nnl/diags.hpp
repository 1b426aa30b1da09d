// A collector of diagnostics for one NNL load: caps the number of errors so that a file of
// garbage yields a bounded report, and lists them in source order, each follow-on error right
// after its cause.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "spec/diagnostic.hpp"

namespace nnref::nnl {

class Diags {
 public:
  // The id of a diagnostic the cap dropped (or of none).
  static constexpr size_t kNone = static_cast<size_t>(-1);

  explicit Diags(size_t max_errors = 100) : max_errors_(max_errors) {}

  // Each returns the diagnostic's id, for follows(), or kNone when the cap dropped it.
  size_t error(std::string code, std::string message, SourceLoc loc, std::string node = {},
               std::vector<std::string> notes = {});
  size_t warning(std::string code, std::string message, SourceLoc loc, std::string node = {});
  size_t add(Diagnostic d);

  // Diagnostic `effect` follows from diagnostic `cause` (a typo reported later in the file that
  // makes an earlier layer unreachable): it is listed right after its cause, wherever it is.
  void follows(size_t effect, size_t cause);

  bool has_errors() const { return errors_ > 0; }
  size_t error_count() const { return errors_; }
  // All diagnostics, in source order (those without a line last; a follow-on after its cause), the
  // cap note appended.
  std::vector<Diagnostic> take();

 private:
  struct Entry {
    Diagnostic d;
    size_t cause;  // its own id unless it follows from another
  };
  std::vector<Entry> list_;
  size_t errors_ = 0;
  size_t max_errors_;
  bool truncated_ = false;
  std::string dropped_file_;  // the file of the first error the cap dropped: where the cap note points
};

}  // namespace nnref::nnl
