#include "spec/obligation.hpp"

namespace nnref {

Diagnostic to_diagnostic(const Failure& f) { return make_error(std::string(f.obligation->code), f.message); }

Diagnostic ConcreteSink::first_failure() const {
  Diagnostic d = to_diagnostic(failures_[0]);
  for (size_t i = 1; i < failures_.size(); ++i)
    d.notes.push_back("also [" + std::string(failures_[i].obligation->code) + "]: " + failures_[i].message);
  return d;
}

}  // namespace nnref
