// Helpers shared by the fuzz targets: the input as text, splitting it into the parts a parser
// takes, and the property checks. Header-only so each target stays one translation unit.
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include <nlohmann/json.hpp>

// A property every input must keep (a round trip, an invariant a header promises). Failing one
// aborts, which libFuzzer and the replay driver both report as a crash with this message.
#define KUBE_FUZZ_CHECK(cond)                                                          \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      std::fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                    \
    }                                                                                  \
  } while (0)

namespace kube::fuzz {

// KUBE_FUZZ_CHECK(a == b) for JSON values, printing both (invalid UTF-8 replaced) on failure.
inline void CheckSameJson(const nlohmann::json& a, const nlohmann::json& b, const char* what) {
  if (a == b) return;
  constexpr auto kReplace = nlohmann::json::error_handler_t::replace;
  std::fprintf(stderr, "property failed: %s\n  %s\n  %s\n", what, a.dump(-1, ' ', false, kReplace).c_str(),
               b.dump(-1, ' ', false, kReplace).c_str());
  std::abort();
}

// The input as text (parsers take string_view; bytes are passed through unchanged).
inline std::string_view AsText(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Splits off the first line of `*rest` (without its '\n'); `*rest` keeps what follows. A text
// without '\n' is one line and leaves `*rest` empty. Corpus files stay readable this way.
inline std::string_view TakeLine(std::string_view* rest) {
  const size_t nl = rest->find('\n');
  const std::string_view line = rest->substr(0, nl);
  *rest = nl == std::string_view::npos ? std::string_view() : rest->substr(nl + 1);
  return line;
}

}  // namespace kube::fuzz
