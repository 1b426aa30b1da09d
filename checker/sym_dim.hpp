// The symbolic reading of a dimension (DESIGN idea 3): SymDim is either a known int64 extent,
// folded with CDim's saturating arithmetic exactly as the concrete reading computes it, or a Z3
// integer term over the size symbols. SymPred is likewise a known bool or a Z3 boolean. The shape
// rules of spec/ run unchanged over SymDim; constant facts never reach Z3.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <z3++.h>

#include "spec/dim.hpp"

namespace nnref {

class SymPred {
 public:
  SymPred(bool b) : known_(b) {}  // NOLINT: implicit, rules mix structural bools and predicates
  explicit SymPred(z3::expr e);

  bool is_known() const { return known_.has_value(); }
  bool known() const { return *known_; }
  // The predicate as a Z3 boolean in context c (a literal when known).
  z3::expr term(z3::context& c) const;
  const z3::expr& term() const { return *term_; }  // only when !is_known()

 private:
  std::optional<bool> known_;
  std::optional<z3::expr> term_;
};

class SymDim {
 public:
  SymDim(int64_t v) : known_(v) {}  // NOLINT: implicit by design, as CDim
  SymDim(CDim v) : known_(v.v) {}   // NOLINT
  explicit SymDim(z3::expr e);

  bool is_known() const { return known_.has_value(); }
  int64_t known() const { return *known_; }
  z3::expr term(z3::context& c) const;
  const z3::expr& term() const { return *term_; }  // only when !is_known()

 private:
  std::optional<int64_t> known_;
  std::optional<z3::expr> term_;
};

SymDim operator+(const SymDim& a, const SymDim& b);
SymDim operator-(const SymDim& a, const SymDim& b);
SymDim operator*(const SymDim& a, const SymDim& b);
SymPred operator==(const SymDim& a, const SymDim& b);
SymPred operator!=(const SymDim& a, const SymDim& b);
SymPred operator<(const SymDim& a, const SymDim& b);
SymPred operator<=(const SymDim& a, const SymDim& b);
SymPred operator>(const SymDim& a, const SymDim& b);
SymPred operator>=(const SymDim& a, const SymDim& b);
SymPred operator&&(const SymPred& a, const SymPred& b);
SymPred operator||(const SymPred& a, const SymPred& b);
SymPred operator!(const SymPred& a);

// As CDim: ⌊a/b⌋ and ⌈a/b⌉ for b ≥ 1, and 0 for b ≤ 0.
SymDim floor_div(const SymDim& a, const SymDim& b);
SymDim ceil_div(const SymDim& a, const SymDim& b);
SymDim dim_max(const SymDim& a, const SymDim& b);
SymDim dim_select(const SymPred& c, const SymDim& a, const SymDim& b);
// Infix text in the syntax of --assume ("/" is floor division): "(input.0 - 3) / 2 + 1".
std::string dim_str(const SymDim& a);
std::string pred_str(const SymPred& p);

}  // namespace nnref
