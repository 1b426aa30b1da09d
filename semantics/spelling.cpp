#include "semantics/spelling.hpp"

#include <algorithm>
#include <cctype>

namespace nnref {

namespace {

char fold(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// Edits that still read as a slip of the keyboard for a word of this length.
size_t slip_edits(const std::string& word) { return std::max<size_t>(1, word.size() / 3); }

struct Split {
  std::string layer, part;  // part is empty when the name has no separator
};

Split split_param(const std::string& name) {
  const size_t at = name.find_first_of("._-/");
  if (at == std::string::npos) return {name, ""};
  return {name.substr(0, at), name.substr(at + 1)};
}

bool contains_folded(const std::string& hay, const std::string& needle) {
  return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(),
                     [](char x, char y) { return fold(x) == fold(y); }) != hay.end();
}

}  // namespace

size_t edit_distance(const std::string& a, const std::string& b) {
  const size_t n = a.size(), m = b.size();
  // d[i][j]: the distance between the first i characters of a and the first j of b.
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1, 0));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = fold(a[i - 1]) == fold(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) && fold(a[i - 2]) == fold(b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::optional<std::string> closest_spelling(const std::string& word, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  size_t best_edits = slip_edits(word) + 1;
  for (const std::string& c : candidates) {
    if (c == word) continue;
    const size_t edits = edit_distance(word, c);
    if (edits < best_edits) {
      best = c;
      best_edits = edits;
    }
  }
  return best;
}

bool params_look_alike(const std::string& a, const std::string& b) {
  const Split x = split_param(a), y = split_param(b);
  if (!x.part.empty() && !y.part.empty() && edit_distance(x.layer, y.layer) == 0 &&
      (contains_folded(x.part, y.part) || contains_folded(y.part, x.part) ||
       edit_distance(x.part, y.part) <= std::max<size_t>(1, std::max(x.part.size(), y.part.size()) / 3)))
    return true;
  const size_t edits = std::max<size_t>(2, std::max(a.size(), b.size()) / 3);
  // Names whose lengths differ by more than that are that many edits apart at least.
  const size_t gap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  return gap <= edits && edit_distance(a, b) <= edits;
}

std::optional<std::string> lookalike_param(const std::string& name, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  size_t best_edits = 0;
  for (const std::string& c : candidates) {
    if (!params_look_alike(name, c)) continue;
    const size_t edits = edit_distance(name, c);
    if (!best || edits < best_edits) {
      best = c;
      best_edits = edits;
    }
  }
  return best;
}

}  // namespace nnref
