// A standard operation's arguments by name, as the lowerings read them (lower_ops.cpp,
// lower_resample.cpp, lower_roi.cpp): the composer has checked each one's type against the
// operation's declaration before any lowering runs.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "formats/nnef/composer.hpp"

namespace nnref::nnef::args {

using Args = Composer::Args;

inline int64_t integer(const Args& a, const char* name) { return a.at(name).i; }
inline std::vector<int64_t> integers(const Args& a, const char* name) {
  std::vector<int64_t> out;
  for (const Value& v : a.at(name).items) out.push_back(v.i);
  return out;
}
inline std::vector<std::pair<int64_t, int64_t>> pairs(const Args& a, const char* name) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const Value& v : a.at(name).items) out.emplace_back(v.items[0].i, v.items[1].i);
  return out;
}
inline Real scalar(const Args& a, const char* name) { return a.at(name).r; }
inline const std::string& text(const Args& a, const char* name) { return a.at(name).s; }
inline bool logical(const Args& a, const char* name) { return a.at(name).b; }

}  // namespace nnref::nnef::args
