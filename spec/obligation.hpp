// Obligations: each precondition of a shape rule is stated as sink.require(pred, code, message).
// The concrete sink (here) checks it at once; the checker's symbolic sink hands it to Z3.
// Structural facts (ranks, axis indices, arity) are plain bools in every reading, so a sink
// accepts bool as well as its Dim's predicate type.
#pragma once

#include <concepts>
#include <string>
#include <string_view>
#include <vector>

#include "spec/diagnostic.hpp"
#include "spec/dim.hpp"

namespace nnref {

struct Obligation {
  std::string code;     // stable code, e.g. "shape.conv.window-exceeds-input"
  std::string message;  // explains what must hold, with the values involved
};

template <class S, class Dim>
concept ObligationSink = requires(S s, PredOf<Dim> p, bool b, std::string m) {
  s.require(p, std::string_view{}, m);
  s.require(b, std::string_view{}, m);
};

// Checks each obligation at once and keeps the ones that fail, in order.
class ConcreteSink {
 public:
  void require(bool holds, std::string_view code, std::string message) {
    if (!holds) failures_.push_back({std::string(code), std::move(message)});
  }
  bool ok() const { return failures_.empty(); }
  const std::vector<Obligation>& failures() const { return failures_; }
  // The first failure as an error, the others as notes. Only when !ok().
  Diagnostic first_failure() const {
    Diagnostic d = make_error(failures_[0].code, failures_[0].message);
    for (size_t i = 1; i < failures_.size(); ++i)
      d.notes.push_back("also [" + failures_[i].code + "]: " + failures_[i].message);
    return d;
  }

 private:
  std::vector<Obligation> failures_;
};

static_assert(ObligationSink<ConcreteSink, CDim>);

}  // namespace nnref
