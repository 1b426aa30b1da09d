#include "checker/box_search.hpp"

#include <queue>

#include "checker/bounds.hpp"

namespace nnref {

namespace {

// The corner of a box that comes first in the search's order: every size in the box comes at or
// after it lexicographically, since it is at least as small (large) on every symbol.
std::vector<int64_t> corner(const Box& box, bool maximise) {
  std::vector<int64_t> c;
  for (const auto& [lo, hi] : box) c.push_back(maximise ? hi : lo);
  return c;
}

struct Pending {
  std::vector<int64_t> corner;
  Box box;
};

}  // namespace

BoxSearch search_boxes(const SizeSymbols& symbols, const std::vector<z3::expr>& facts, const z3::expr& goal,
                       bool maximise, int64_t max_boxes) {
  // Disjoint boxes have distinct corners, so the order is strict.
  const auto later = [maximise](const Pending& a, const Pending& b) {
    return maximise ? a.corner < b.corner : a.corner > b.corner;
  };
  std::priority_queue<Pending, std::vector<Pending>, decltype(later)> queue(later);
  Box all;
  for (const auto& s : symbols.symbols()) all.emplace_back(s.lo, s.hi);
  queue.push({corner(all, maximise), all});

  BoxSearch out;
  while (!queue.empty()) {
    if (out.boxes == max_boxes) return out;  // OutOfBoxes
    ++out.boxes;
    Pending next = queue.top();
    queue.pop();
    Bounds bounds(symbols, next.box);
    bool everywhere = true, empty = false;
    const auto judge = [&](const z3::expr& p) {
      const std::optional<bool> t = bounds.truth(p);
      if (t && !*t) empty = true;
      if (!t) everywhere = false;
    };
    for (const auto& f : facts) {
      judge(f);
      if (empty) break;
    }
    if (!empty) judge(goal);
    if (empty) continue;
    if (everywhere) {
      out.end = BoxSearch::End::Found;
      for (size_t i = 0; i < next.corner.size(); ++i) out.sizes.emplace_back(symbols.symbols()[i].name, next.corner[i]);
      return out;
    }
    size_t widest = 0;
    for (size_t i = 1; i < next.box.size(); ++i)
      if (next.box[i].second - next.box[i].first > next.box[widest].second - next.box[widest].first) widest = i;
    const auto [lo, hi] = next.box[widest];
    if (lo == hi) {
      out.end = BoxSearch::End::CannotEvaluate;
      return out;
    }
    const int64_t mid = lo + (hi - lo) / 2;
    Box low = next.box, high = next.box;
    low[widest].second = mid;
    high[widest].first = mid + 1;
    queue.push({corner(low, maximise), std::move(low)});
    queue.push({corner(high, maximise), std::move(high)});
  }
  out.end = BoxSearch::End::None;
  return out;
}

}  // namespace nnref
