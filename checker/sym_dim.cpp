#include "checker/sym_dim.hpp"

#include "checker/term_text.hpp"

namespace nnref {

namespace {

z3::context& ctx_of(const SymDim& a, const SymDim& b) { return a.is_known() ? b.term().ctx() : a.term().ctx(); }

// Folds with CDim when both are known, so that known extents read exactly as in the concrete
// reading; otherwise builds the Z3 term (exact integers: the ranges bound every product).
template <class Fold, class Build>
SymDim arith(const SymDim& a, const SymDim& b, Fold fold, Build build) {
  if (a.is_known() && b.is_known()) return SymDim(fold(CDim(a.known()), CDim(b.known())));
  z3::context& c = ctx_of(a, b);
  return SymDim(build(a.term(c), b.term(c)));
}

template <class Fold, class Build>
SymPred compare(const SymDim& a, const SymDim& b, Fold fold, Build build) {
  if (a.is_known() && b.is_known()) return SymPred(fold(CDim(a.known()), CDim(b.known())));
  z3::context& c = ctx_of(a, b);
  return SymPred(build(a.term(c), b.term(c)));
}

}  // namespace

SymPred::SymPred(z3::expr e) : term_(std::move(e)) {}

z3::expr SymPred::term(z3::context& c) const { return is_known() ? c.bool_val(known()) : *term_; }

SymDim::SymDim(z3::expr e) : term_(std::move(e)) {}

z3::expr SymDim::term(z3::context& c) const { return is_known() ? c.int_val(known()) : *term_; }

SymDim operator+(const SymDim& a, const SymDim& b) {
  if (b.is_known() && b.known() == 0) return a;
  if (a.is_known() && a.known() == 0) return b;
  return arith(a, b, [](CDim x, CDim y) { return x + y; }, [](const z3::expr& x, const z3::expr& y) { return x + y; });
}
SymDim operator-(const SymDim& a, const SymDim& b) {
  if (b.is_known() && b.known() == 0) return a;
  return arith(a, b, [](CDim x, CDim y) { return x - y; }, [](const z3::expr& x, const z3::expr& y) { return x - y; });
}
SymDim operator*(const SymDim& a, const SymDim& b) {
  if (b.is_known() && b.known() == 1) return a;
  if (a.is_known() && a.known() == 1) return b;
  return arith(a, b, [](CDim x, CDim y) { return x * y; }, [](const z3::expr& x, const z3::expr& y) { return x * y; });
}

SymPred operator==(const SymDim& a, const SymDim& b) {
  return compare(a, b, [](CDim x, CDim y) { return x == y; }, [](const z3::expr& x, const z3::expr& y) { return x == y; });
}
SymPred operator!=(const SymDim& a, const SymDim& b) {
  return compare(a, b, [](CDim x, CDim y) { return x != y; }, [](const z3::expr& x, const z3::expr& y) { return x != y; });
}
SymPred operator<(const SymDim& a, const SymDim& b) {
  return compare(a, b, [](CDim x, CDim y) { return x < y; }, [](const z3::expr& x, const z3::expr& y) { return x < y; });
}
SymPred operator<=(const SymDim& a, const SymDim& b) {
  return compare(a, b, [](CDim x, CDim y) { return x <= y; }, [](const z3::expr& x, const z3::expr& y) { return x <= y; });
}
SymPred operator>(const SymDim& a, const SymDim& b) {
  return compare(a, b, [](CDim x, CDim y) { return x > y; }, [](const z3::expr& x, const z3::expr& y) { return x > y; });
}
SymPred operator>=(const SymDim& a, const SymDim& b) {
  return compare(a, b, [](CDim x, CDim y) { return x >= y; }, [](const z3::expr& x, const z3::expr& y) { return x >= y; });
}

SymPred operator&&(const SymPred& a, const SymPred& b) {
  if (a.is_known()) return a.known() ? b : SymPred(false);
  if (b.is_known()) return b.known() ? a : SymPred(false);
  return SymPred(a.term() && b.term());
}
SymPred operator||(const SymPred& a, const SymPred& b) {
  if (a.is_known()) return a.known() ? SymPred(true) : b;
  if (b.is_known()) return b.known() ? SymPred(true) : a;
  return SymPred(a.term() || b.term());
}
SymPred operator!(const SymPred& a) { return a.is_known() ? SymPred(!a.known()) : SymPred(!a.term()); }

SymDim floor_div(const SymDim& a, const SymDim& b) {
  if (b.is_known()) {
    if (b.known() <= 0) return SymDim(0);
    if (b.known() == 1) return a;
  }
  if (a.is_known() && b.is_known()) return SymDim(floor_div(CDim(a.known()), CDim(b.known())));
  z3::context& c = ctx_of(a, b);
  // Z3's div is floor division for a positive divisor.
  z3::expr q = a.term(c) / b.term(c);
  return SymDim(b.is_known() ? q : z3::ite(b.term(c) >= 1, q, c.int_val(0)));
}

SymDim ceil_div(const SymDim& a, const SymDim& b) {
  if (b.is_known()) {
    if (b.known() <= 0) return SymDim(0);
    if (b.known() == 1) return a;
  }
  if (a.is_known() && b.is_known()) return SymDim(ceil_div(CDim(a.known()), CDim(b.known())));
  return floor_div(a + b - int64_t{1}, b);
}

SymDim dim_max(const SymDim& a, const SymDim& b) { return dim_select(a < b, b, a); }

SymDim dim_select(const SymPred& cond, const SymDim& a, const SymDim& b) {
  if (cond.is_known()) return cond.known() ? a : b;
  if (a.is_known() && b.is_known() && a.known() == b.known()) return a;
  z3::context& c = cond.term().ctx();
  return SymDim(z3::ite(cond.term(), a.term(c), b.term(c)));
}

std::string dim_str(const SymDim& a) { return a.is_known() ? std::to_string(a.known()) : term_text(a.term()); }
std::string pred_str(const SymPred& p) {
  if (p.is_known()) return p.known() ? "true" : "false";
  return term_text(p.term());
}

}  // namespace nnref
