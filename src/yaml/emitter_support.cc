// Scalar analysis and key ordering of go-yaml v2's emitter (ports of libyaml's
// yaml_emitter_analyze_scalar and go-yaml's keyList.Less).

#include "yaml/emitter_support.h"

#include <algorithm>
#include <cstdint>

namespace kube::yaml::internal {

size_t Width(std::string_view s, size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  const size_t w = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 4;
  return std::min(w, s.size() - i);
}

namespace {

unsigned char At(std::string_view s, size_t i) {
  return i < s.size() ? static_cast<unsigned char>(s[i]) : 0;
}

}  // namespace

bool IsSpace(std::string_view s, size_t i) {
  return At(s, i) == ' ';
}

bool IsBreak(std::string_view s, size_t i) {
  const unsigned char c = At(s, i);
  return c == '\r' || c == '\n' || (c == 0xC2 && At(s, i + 1) == 0x85) ||
         (c == 0xE2 && At(s, i + 1) == 0x80 && (At(s, i + 2) == 0xA8 || At(s, i + 2) == 0xA9));
}

namespace {

bool IsBlankz(std::string_view s, size_t i) {
  return i >= s.size() || At(s, i) == ' ' || At(s, i) == '\t' || IsBreak(s, i);
}

}  // namespace

bool IsBom(std::string_view s, size_t i) {
  return At(s, i) == 0xEF && At(s, i + 1) == 0xBB && At(s, i + 2) == 0xBF;
}

bool IsPrintable(std::string_view s, size_t i) {
  const unsigned char c = At(s, i), c1 = At(s, i + 1), c2 = At(s, i + 2);
  return c == 0x0A || (c >= 0x20 && c <= 0x7E) || (c == 0xC2 && c1 >= 0xA0) ||
         (c > 0xC2 && c < 0xED) || (c == 0xED && c1 < 0xA0) || c == 0xEE ||
         (c == 0xEF && !(c1 == 0xBB && c2 == 0xBF) && !(c1 == 0xBF && (c2 == 0xBE || c2 == 0xBF)));
}

// yaml_emitter_analyze_scalar, for block context (this emitter never writes flow collections
// other than the empty {} and []).
Analysis Analyze(std::string_view s) {
  Analysis a;
  if (s.empty()) {
    a.block_allowed = false;
    return a;
  }
  bool block_indicators = false, special = false, line_breaks = false;
  bool leading_space = false, leading_break = false, trailing_space = false, trailing_break = false,
       break_space = false, space_break = false;
  bool previous_space = false, previous_break = false;
  if (s.substr(0, 3) == "---" || s.substr(0, 3) == "...") block_indicators = true;
  bool preceded_by_whitespace = true;
  bool followed_by_whitespace = IsBlankz(s, Width(s, 0));
  for (size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (i == 0) {
      if (std::string_view("#,[]{}&*!|>'\"%@`").find(c) != std::string_view::npos) {
        block_indicators = true;
      }
      if ((c == '?' || c == ':') && followed_by_whitespace) block_indicators = true;
      if (c == '-' && followed_by_whitespace) block_indicators = true;
    } else {
      if (c == ':' && followed_by_whitespace) block_indicators = true;
      if (c == '#' && preceded_by_whitespace) block_indicators = true;
    }
    if (!IsPrintable(s, i)) special = true;
    if (IsBreak(s, i)) line_breaks = true;
    const size_t w = Width(s, i);
    if (IsSpace(s, i)) {
      if (i == 0) leading_space = true;
      if (i + w == s.size()) trailing_space = true;
      if (previous_break) break_space = true;
      previous_space = true;
      previous_break = false;
    } else if (IsBreak(s, i)) {
      if (i == 0) leading_break = true;
      if (i + w == s.size()) trailing_break = true;
      if (previous_space) space_break = true;
      previous_space = false;
      previous_break = true;
    } else {
      previous_space = false;
      previous_break = false;
    }
    preceded_by_whitespace = IsBlankz(s, i);
    i += w;
    if (i < s.size()) followed_by_whitespace = IsBlankz(s, i + Width(s, i));
  }
  a.multiline = line_breaks;
  if (leading_space || leading_break || trailing_space || trailing_break) {
    a.block_plain_allowed = false;
  }
  if (trailing_space) a.block_allowed = false;
  if (break_space) a.block_plain_allowed = a.single_quoted_allowed = false;
  if (space_break || special) {
    a.block_plain_allowed = a.single_quoted_allowed = a.block_allowed = false;
  }
  if (line_breaks) a.block_plain_allowed = false;
  if (block_indicators) a.block_plain_allowed = false;
  return a;
}

namespace {

// go-yaml's key order (keyList.Less) for string keys: letters after other characters, runs of
// digits compared numerically. Non-ASCII code points count as letters.
std::u32string Runes(std::string_view s) {
  std::u32string out;
  for (size_t i = 0; i < s.size();) {
    const size_t w = Width(s, i);
    const unsigned char c = static_cast<unsigned char>(s[i]);
    char32_t cp = w == 1 ? c : w == 2 ? (c & 0x1F) : w == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t k = 1; k < w; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    out.push_back(cp);
    i += w;
  }
  return out;
}

bool IsLetter(char32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}
bool IsDigitRune(char32_t c) {
  return c >= '0' && c <= '9';
}

bool KeyLess(const std::u32string& a, const std::u32string& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] == b[i]) continue;
    const bool al = IsLetter(a[i]), bl = IsLetter(b[i]);
    if (al && bl) return a[i] < b[i];
    if (al || bl) return bl;
    // Go's int64 arithmetic wraps on absurdly long digit runs; mirror it without UB.
    uint64_t an = 0, bn = 0;
    if (a[i] == '0' || b[i] == '0') {
      for (size_t j = i; j-- > 0 && IsDigitRune(a[j]);) {
        if (a[j] != '0') {
          an = bn = 1;
          break;
        }
      }
    }
    size_t ai = i, bi = i;
    for (; ai < a.size() && IsDigitRune(a[ai]); ++ai) an = an * 10 + (a[ai] - '0');
    for (; bi < b.size() && IsDigitRune(b[bi]); ++bi) bn = bn * 10 + (b[bi] - '0');
    if (an != bn) return static_cast<int64_t>(an) < static_cast<int64_t>(bn);
    if (ai != bi) return ai < bi;
    return a[i] < b[i];
  }
  return a.size() < b.size();
}

}  // namespace

// A bottom-up merge sort: stays in bounds even if KeyLess is not a strict weak order on some
// pathological input (std::sort would not).
std::vector<std::string> SortedKeys(const nlohmann::json& obj) {
  std::vector<std::pair<std::u32string, std::string>> keys;
  for (auto it = obj.begin(); it != obj.end(); ++it) keys.emplace_back(Runes(it.key()), it.key());
  std::vector<std::pair<std::u32string, std::string>> tmp(keys.size());
  for (size_t width = 1; width < keys.size(); width *= 2) {
    for (size_t lo = 0; lo < keys.size(); lo += 2 * width) {
      const size_t mid = std::min(lo + width, keys.size());
      const size_t hi = std::min(lo + 2 * width, keys.size());
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        tmp[k++] = KeyLess(keys[j].first, keys[i].first) ? keys[j++] : keys[i++];
      while (i < mid) tmp[k++] = keys[i++];
      while (j < hi) tmp[k++] = keys[j++];
    }
    keys.swap(tmp);
  }
  std::vector<std::string> out;
  for (auto& k : keys) out.push_back(std::move(k.second));
  return out;
}

}  // namespace kube::yaml::internal
