#include "util/base64.h"

#include <array>
#include <cstdint>
#include <string>

namespace kube {

namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

constexpr std::array<int8_t, 256> MakeReverse() {
  std::array<int8_t, 256> r{};
  for (auto& v : r) v = -1;
  for (size_t i = 0; i < kAlphabet.size(); ++i) r[static_cast<uint8_t>(kAlphabet[i])] = static_cast<int8_t>(i);
  return r;
}
constexpr std::array<int8_t, 256> kReverse = MakeReverse();

}  // namespace

std::string Base64UrlEncode(std::string_view data) {
  std::string out;
  out.reserve((data.size() * 4 + 2) / 3);
  size_t i = 0;
  for (; i + 3 <= data.size(); i += 3) {
    uint32_t n = (static_cast<uint8_t>(data[i]) << 16) | (static_cast<uint8_t>(data[i + 1]) << 8) |
                 static_cast<uint8_t>(data[i + 2]);
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(kAlphabet[(n >> 6) & 63]);
    out.push_back(kAlphabet[n & 63]);
  }
  size_t rest = data.size() - i;
  if (rest == 1) {
    uint32_t n = static_cast<uint8_t>(data[i]) << 16;
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
  } else if (rest == 2) {
    uint32_t n = (static_cast<uint8_t>(data[i]) << 16) | (static_cast<uint8_t>(data[i + 1]) << 8);
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(kAlphabet[(n >> 6) & 63]);
  }
  return out;
}

std::optional<std::string> Base64UrlDecode(std::string_view text) {
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(text.size() * 3 / 4);
  uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    int8_t v = kReverse[static_cast<uint8_t>(c)];
    if (v < 0) return std::nullopt;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  // Leftover bits must be zero, as Go's strict decoder requires.
  if ((acc & ((1u << bits) - 1)) != 0) return std::nullopt;
  return out;
}

namespace {
constexpr char kStdAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
}  // namespace

std::string Base64StdEncode(std::string_view data) {
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < data.size(); i += 3) {
    const uint32_t v = (static_cast<uint8_t>(data[i]) << 16) |
                       (static_cast<uint8_t>(data[i + 1]) << 8) | static_cast<uint8_t>(data[i + 2]);
    for (int k = 18; k >= 0; k -= 6) out.push_back(kStdAlphabet[(v >> k) & 63]);
  }
  if (i + 1 == data.size()) {
    const uint32_t v = static_cast<uint8_t>(data[i]) << 16;
    out += {kStdAlphabet[v >> 18], kStdAlphabet[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == data.size()) {
    const uint32_t v = (static_cast<uint8_t>(data[i]) << 16) | (static_cast<uint8_t>(data[i + 1]) << 8);
    out += {kStdAlphabet[v >> 18], kStdAlphabet[(v >> 12) & 63], kStdAlphabet[(v >> 6) & 63], '='};
  }
  return out;
}

std::optional<std::string> Base64StdDecode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  size_t pad = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '=') {
      if (i + 2 < text.size() || ++pad > 2) return std::nullopt;
      continue;
    }
    if (pad > 0) return std::nullopt;
    const char* p = std::char_traits<char>::find(kStdAlphabet, 64, c);
    if (p == nullptr) return std::nullopt;
    acc = (acc << 6) | static_cast<uint32_t>(p - kStdAlphabet);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return out;
}

}  // namespace kube
