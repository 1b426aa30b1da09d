#include "bench/peer_json.hpp"

#include <cstdio>

namespace nnref::bench {

std::optional<nlohmann::json> peer_json(const std::string& command, std::initializer_list<const char*> keys) {
  FILE* p = popen(command.c_str(), "r");
  if (!p) return std::nullopt;
  std::string text;
  char buf[4096];
  while (size_t n = std::fread(buf, 1, sizeof buf, p)) text.append(buf, n);
  if (pclose(p) != 0) return std::nullopt;
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  for (const char* key : keys)
    if (!j.contains(key)) return std::nullopt;
  return j;
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

}  // namespace nnref::bench
