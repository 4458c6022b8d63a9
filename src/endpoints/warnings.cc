#include "endpoints/warnings.h"

#include <algorithm>
#include <cstdint>
#include <set>

namespace kube::endpoints {

namespace {

constexpr size_t kTruncateAtTotalRunes = 4 * 1024;
constexpr size_t kTruncateItemRunes = 256;

// Code points of valid UTF-8 text; npos when it is not valid UTF-8 or has a control character
// (C0, DEL, C1), which net.NewWarningHeader refuses.
size_t HeaderRunes(std::string_view s) {
  size_t runes = 0;
  for (size_t i = 0; i < s.size(); ++runes) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return std::string_view::npos;
    uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t k = 1; k < n; ++k) {
      const unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return std::string_view::npos;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
        (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
      return std::string_view::npos;
    }
    if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) return std::string_view::npos;
    i += n;
  }
  return runes;
}

// The first `runes` code points of valid UTF-8 text.
std::string_view FirstRunes(std::string_view s, size_t runes) {
  size_t i = 0;
  for (; i < s.size() && runes > 0; --runes) {
    ++i;
    while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
  }
  return s.substr(0, i);
}

std::string Header(std::string_view text) {
  std::string out = "299 - \"";
  for (char c : text) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out + '"';
}

}  // namespace

std::vector<std::string> WarningHeaders(const std::vector<std::string>& texts) {
  struct Item {
    std::string_view text;
    size_t runes;
  };
  std::vector<Item> items;
  std::set<std::string_view> seen;
  for (const auto& t : texts) {
    if (t.empty() || !seen.insert(t).second) continue;
    const size_t runes = HeaderRunes(t);
    if (runes != std::string_view::npos) items.push_back({t, runes});
  }
  // Written as they come until the total would pass the limit; from then on every warning
  // (those already written included) is cut, and nothing more is added past the limit.
  std::vector<std::string> headers;
  size_t written = 0;
  bool truncating = false;
  for (const Item& item : items) {
    if (truncating && written >= kTruncateAtTotalRunes) break;
    if (!truncating && written + item.runes > kTruncateAtTotalRunes) {
      truncating = true;
      headers.clear();
      written = 0;
      for (const Item& earlier : items) {
        if (&earlier == &item) break;
        const size_t runes = std::min(earlier.runes, kTruncateItemRunes);
        headers.push_back(Header(FirstRunes(earlier.text, runes)));
        written += runes;
      }
    }
    const size_t runes = truncating ? std::min(item.runes, kTruncateItemRunes) : item.runes;
    headers.push_back(Header(FirstRunes(item.text, runes)));
    written += runes;
  }
  return headers;
}

std::vector<std::string> SplitYamlWarnings(std::string_view text) {
  for (std::string_view prefix :
       {std::string_view("yaml: unmarshal errors:\n"),
        std::string_view("error converting YAML to JSON: yaml: unmarshal errors:\n")}) {
    if (!text.starts_with(prefix)) continue;
    std::vector<std::string> lines;
    std::string_view rest = text.substr(prefix.size());
    while (true) {
      const size_t nl = rest.find('\n');
      std::string_view line = rest.substr(0, nl);
      const size_t b = line.find_first_not_of(" \t\r");
      const size_t e = line.find_last_not_of(" \t\r");
      lines.emplace_back(b == std::string_view::npos ? "" : line.substr(b, e - b + 1));
      if (nl == std::string_view::npos) break;
      rest.remove_prefix(nl + 1);
    }
    return lines;
  }
  return {std::string(text)};
}

}  // namespace kube::endpoints
