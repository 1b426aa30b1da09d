#include "cli/fuzz_campaign.hpp"

#include <cctype>
#include <limits>

namespace nnref {

namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A non-negative decimal integer taking all of `text` from `pos` up to a non-digit; false when
// there are no digits or it overflows.
bool read_number(const std::string& text, size_t& pos, int64_t& value) {
  const size_t start = pos;
  value = 0;
  while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
    const int digit = text[pos++] - '0';
    if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) return false;
    value = value * 10 + digit;
  }
  return pos > start;
}

}  // namespace

uint64_t seed_of(uint64_t campaign, int64_t k) { return splitmix64(splitmix64(campaign) + static_cast<uint64_t>(k)); }

Result<Shard> parse_shard(const std::string& text) {
  const auto bad = make_error("usage.shard", "--shard must be i/n with 0 <= i < n (0/4, 3/4): '" + text + "'");
  Shard s;
  size_t pos = 0;
  if (!read_number(text, pos, s.index) || pos >= text.size() || text[pos++] != '/') return bad;
  if (!read_number(text, pos, s.count) || pos != text.size() || s.count < 1 || s.index >= s.count) return bad;
  return s;
}

Result<double> parse_duration(const std::string& text) {
  const auto bad =
      make_error("usage.time", "--time must be a duration of at least 1 s: 90, 90s, 10m, 2h or 1h30m: '" + text + "'");
  double seconds = 0;
  size_t pos = 0;
  std::string units = "hms";  // each at most once, in this order
  while (pos < text.size()) {
    int64_t n = 0;
    if (!read_number(text, pos, n)) return bad;
    if (pos == text.size() && units != "hms") return bad;  // a bare number only alone: "1h30" is ambiguous
    const char unit = pos < text.size() ? text[pos++] : 's';
    const size_t at = units.find(unit);
    if (at == std::string::npos) return bad;
    units.erase(0, at + 1);
    seconds += static_cast<double>(n) * (unit == 'h' ? 3600 : unit == 'm' ? 60 : 1);
  }
  if (seconds < 1) return bad;
  return seconds;
}

}  // namespace nnref
