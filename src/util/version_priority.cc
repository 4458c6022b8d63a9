#include "util/version_priority.h"

#include <cstdint>
#include <optional>
#include <tuple>

namespace kube {
namespace {

struct KubeVersion {
  uint64_t major = 0;
  int stability = 0;  // 2 GA, 1 beta, 0 alpha
  uint64_t minor = 0;
};

// Digits only, no leading zero, not empty (kube's parser accepts "v1", not "v01").
std::optional<uint64_t> Number(std::string_view s) {
  if (s.empty() || s.size() > 18 || (s.size() > 1 && s[0] == '0')) return std::nullopt;
  uint64_t n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  return n;
}

std::optional<KubeVersion> Parse(std::string_view v) {
  if (v.size() < 2 || v[0] != 'v') return std::nullopt;
  v.remove_prefix(1);
  size_t digits = 0;
  while (digits < v.size() && v[digits] >= '0' && v[digits] <= '9') ++digits;
  auto major = Number(v.substr(0, digits));
  if (!major) return std::nullopt;
  KubeVersion out{.major = *major, .stability = 2};
  std::string_view rest = v.substr(digits);
  if (rest.empty()) return out;
  for (auto [word, stability] : {std::pair{std::string_view("alpha"), 0}, std::pair{std::string_view("beta"), 1}}) {
    if (rest.starts_with(word)) {
      auto minor = Number(rest.substr(word.size()));
      if (!minor) return std::nullopt;
      out.stability = stability;
      out.minor = *minor;
      return out;
    }
  }
  return std::nullopt;
}

}  // namespace

bool VersionHasPriority(std::string_view a, std::string_view b) {
  auto va = Parse(a), vb = Parse(b);
  if (va && vb) {
    // Higher stability first, then higher major, then higher minor.
    return std::tuple(va->stability, va->major, va->minor) > std::tuple(vb->stability, vb->major, vb->minor);
  }
  if (va || vb) return va.has_value();
  return a < b;
}

}  // namespace kube
