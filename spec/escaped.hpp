// Bytes of an input as a message shows them, so that a diagnostic never prints raw control or
// non-ASCII bytes to a terminal: printable ASCII as is, any other byte as \xNN.
#pragma once

#include <string>
#include <string_view>

namespace nnref {

// At most `max` bytes of `bytes`, escaped; "..." when some were left off.
inline std::string escaped(std::string_view bytes, size_t max = std::string_view::npos) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < bytes.size() && i < max; ++i) {
    const auto u = static_cast<unsigned char>(bytes[i]);
    if (u >= 0x20 && u < 0x7f) {
      out += static_cast<char>(u);
    } else {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  if (bytes.size() > max) out += "...";
  return out;
}

}  // namespace nnref
