// Small string helpers shared across layers.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace kube {

// The parts joined with `sep` between them ("a,b,c").
inline std::string Join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += sep;
    out += parts[i];
  }
  return out;
}

// A hash of a document for ETags and OpenAPI hashes: 16 upper-case hex digits (FNV-1a 64). It
// only has to change when the text does; it is not a cryptographic digest.
inline std::string ContentHash(std::string_view text) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llX", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace kube
