#include "checker/bounds.hpp"

#include <algorithm>
#include <limits>

namespace nnref {

namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

bool unbounded(CDim v) { return v.v == kMin || v.v == kMax; }

}  // namespace

Bounds::Bounds(const SizeSymbols& symbols) {
  for (const auto& s : symbols.symbols()) symbols_[s.name] = {s.lo, s.hi};
}

Bounds::Bounds(const SizeSymbols& symbols, const Box& box) {
  for (size_t i = 0; i < symbols.symbols().size(); ++i)
    symbols_[symbols.symbols()[i].name] = {box[i].first, box[i].second};
}

Bounds::Range Bounds::range(const z3::expr& e) {
  if (auto it = memo_.find(e.id()); it != memo_.end()) return it->second.second;
  Range r{kMin, kMax};
  int64_t v = 0;
  const auto arg = [&](unsigned i) { return range(e.arg(i)); };
  if (e.is_numeral_i64(v)) {
    r = {v, v};
  } else if (e.is_app()) {
    switch (e.decl().decl_kind()) {
      case Z3_OP_UNINTERPRETED:
        if (auto it = symbols_.find(e.decl().name().str()); it != symbols_.end()) r = it->second;
        break;
      case Z3_OP_ADD:
      case Z3_OP_SUB: {
        r = arg(0);
        for (unsigned i = 1; i < e.num_args(); ++i) {
          const Range a = arg(i);
          if (e.decl().decl_kind() == Z3_OP_ADD) r = {r.lo + a.lo, r.hi + a.hi};
          else r = {r.lo - a.hi, r.hi - a.lo};
        }
        break;
      }
      case Z3_OP_UMINUS: {
        const Range a = arg(0);
        r = {CDim(0) - a.hi, CDim(0) - a.lo};
        break;
      }
      case Z3_OP_MUL: {
        r = arg(0);
        for (unsigned i = 1; i < e.num_args(); ++i) {
          const Range a = arg(i);
          const CDim c[4] = {r.lo * a.lo, r.lo * a.hi, r.hi * a.lo, r.hi * a.hi};
          r = {*std::min_element(c, c + 4, [](CDim x, CDim y) { return x.v < y.v; }),
               *std::max_element(c, c + 4, [](CDim x, CDim y) { return x.v < y.v; })};
        }
        break;
      }
      case Z3_OP_IDIV: {
        // ⌊a/d⌋ for a divisor known to be ≥ 1 is monotone in a, and in d for each sign of a.
        const Range a = arg(0), d = arg(1);
        if (d.lo.v >= 1 && !unbounded(d.hi)) {
          const CDim c[4] = {floor_div(a.lo, d.lo), floor_div(a.lo, d.hi), floor_div(a.hi, d.lo),
                             floor_div(a.hi, d.hi)};
          r = {*std::min_element(c, c + 4, [](CDim x, CDim y) { return x.v < y.v; }),
               *std::max_element(c, c + 4, [](CDim x, CDim y) { return x.v < y.v; })};
          if (unbounded(a.lo)) r.lo = kMin;
          if (unbounded(a.hi)) r.hi = kMax;
        }
        break;
      }
      case Z3_OP_MOD: {
        const Range a = arg(0), d = arg(1);
        if (d.lo.v >= 1 && !unbounded(d.hi)) r = {0, d.hi - int64_t{1}};
        // A known divisor and a dividend within one multiple of it: a mod d = a - d·⌊a/d⌋ is
        // exact (a single value for a single size).
        if (d.lo == d.hi && d.lo.v >= 1 && !unbounded(a.lo) && !unbounded(a.hi)) {
          const CDim q = floor_div(a.lo, d.lo);
          if (q == floor_div(a.hi, d.lo)) r = {a.lo - q * d.lo, a.hi - q * d.lo};
        }
        break;
      }
      case Z3_OP_ITE: {
        const std::optional<bool> c = truth(e.arg(0));
        const Range a = arg(1), b = arg(2);
        if (c) r = *c ? a : b;
        else r = {std::min(a.lo.v, b.lo.v), std::max(a.hi.v, b.hi.v)};
        break;
      }
      default: break;
    }
  }
  memo_.emplace(e.id(), std::pair{e, r});
  return r;
}

std::optional<bool> Bounds::truth(const z3::expr& p) {
  if (p.is_true()) return true;
  if (p.is_false()) return false;
  if (!p.is_app()) return std::nullopt;
  const auto cmp = [&](bool strict, bool flip) -> std::optional<bool> {
    // a <= b (or a < b); flip swaps the operands, for >= and >.
    const Range a = range(p.arg(flip ? 1 : 0)), b = range(p.arg(flip ? 0 : 1));
    if (strict ? a.hi < b.lo : a.hi <= b.lo) return true;
    if (strict ? a.lo >= b.hi : a.lo > b.hi) return false;
    return std::nullopt;
  };
  switch (p.decl().decl_kind()) {
    case Z3_OP_LE: return cmp(false, false);
    case Z3_OP_LT: return cmp(true, false);
    case Z3_OP_GE: return cmp(false, true);
    case Z3_OP_GT: return cmp(true, true);
    case Z3_OP_EQ:
    case Z3_OP_DISTINCT: {
      if (p.num_args() != 2 || !p.arg(0).is_int()) return std::nullopt;
      const bool eq = p.decl().decl_kind() == Z3_OP_EQ;
      const Range a = range(p.arg(0)), b = range(p.arg(1));
      if (a.lo == a.hi && b.lo == b.hi && a.lo == b.lo && !unbounded(a.lo)) return eq;
      if (a.hi < b.lo || b.hi < a.lo) return !eq;
      return std::nullopt;
    }
    case Z3_OP_NOT: {
      auto t = truth(p.arg(0));
      return t ? std::optional<bool>(!*t) : std::nullopt;
    }
    case Z3_OP_AND:
    case Z3_OP_OR: {
      const bool is_and = p.decl().decl_kind() == Z3_OP_AND;
      bool all_decided = true;
      for (unsigned i = 0; i < p.num_args(); ++i) {
        auto t = truth(p.arg(i));
        if (t && *t != is_and) return !is_and;  // a false conjunct, a true disjunct
        all_decided = all_decided && t.has_value();
      }
      return all_decided ? std::optional<bool>(is_and) : std::nullopt;
    }
    default: return std::nullopt;
  }
}

std::optional<bool> Bounds::holds_everywhere(const z3::expr& pred) {
  auto t = truth(pred);
  return t && *t ? t : std::nullopt;
}

}  // namespace nnref
