// Helpers shared by the fuzz targets: the input as text, splitting it into the parts a parser
// takes, and the property check. Header-only so each target stays one translation unit.
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

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
