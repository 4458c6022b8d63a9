#include "util/go_format.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace kube {

namespace {

// One UTF-8 sequence at s[i]: the code point and its length, or length 0 when the bytes there are
// not valid UTF-8 (Go then treats the single byte as an error rune).
std::pair<char32_t, size_t> DecodeRune(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return {c, 1};
  size_t n = 0;
  char32_t r = 0;
  char32_t min = 0;
  if ((c & 0xE0) == 0xC0) {
    n = 2, r = c & 0x1F, min = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3, r = c & 0x0F, min = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4, r = c & 0x07, min = 0x10000;
  } else {
    return {0, 0};
  }
  if (i + n > s.size()) return {0, 0};
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return {0, 0};
    r = (r << 6) | (b(i + k) & 0x3F);
  }
  if (r < min || r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF)) return {0, 0};
  return {r, n};
}

// unicode.IsPrint for runes >= 0x80, close enough for the categories that occur in object text:
// C1 controls, the soft hyphen, line/paragraph separators, the BOM and non-characters are not
// printable.
bool IsPrintNonAscii(char32_t r) {
  if (r < 0xA0) return false;
  if (r == 0xAD || r == 0x2028 || r == 0x2029 || r == 0xFEFF) return false;
  if ((r & 0xFFFE) == 0xFFFE) return false;
  if (r >= 0xE000 && r <= 0xF8FF) return false;  // private use
  return true;
}

void AppendHex(std::string* out, const char* prefix, unsigned v, int width) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%s%0*x", prefix, width, v);
  *out += buf;
}

void AppendJsonString(std::string* out, std::string_view s) {
  out->push_back('"');
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': *out += "\\\""; break;
        case '\\': *out += "\\\\"; break;
        case '\b': *out += "\\b"; break;
        case '\f': *out += "\\f"; break;
        case '\n': *out += "\\n"; break;
        case '\r': *out += "\\r"; break;
        case '\t': *out += "\\t"; break;
        case '<':
        case '>':
        case '&': AppendHex(out, "\\u", c, 4); break;
        default:
          if (c < 0x20) {
            AppendHex(out, "\\u", c, 4);
          } else {
            out->push_back(static_cast<char>(c));
          }
      }
      ++i;
      continue;
    }
    auto [r, n] = DecodeRune(s, i);
    if (n == 0) {
      *out += "\\ufffd";
      ++i;
    } else if (r == 0x2028 || r == 0x2029) {
      AppendHex(out, "\\u", r, 4);
      i += n;
    } else {
      out->append(s.substr(i, n));
      i += n;
    }
  }
  out->push_back('"');
}

void AppendJson(std::string* out, const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::null:
    case nlohmann::json::value_t::discarded: *out += "null"; break;
    case nlohmann::json::value_t::boolean: *out += v.get<bool>() ? "true" : "false"; break;
    case nlohmann::json::value_t::number_integer: *out += std::to_string(v.get<int64_t>()); break;
    case nlohmann::json::value_t::number_unsigned: *out += std::to_string(v.get<uint64_t>()); break;
    case nlohmann::json::value_t::number_float: *out += GoJsonFloat(v.get<double>()); break;
    case nlohmann::json::value_t::string: AppendJsonString(out, v.get_ref<const std::string&>()); break;
    case nlohmann::json::value_t::array: {
      out->push_back('[');
      bool first = true;
      for (const auto& e : v) {
        if (!first) out->push_back(',');
        first = false;
        AppendJson(out, e);
      }
      out->push_back(']');
      break;
    }
    case nlohmann::json::value_t::object: {
      out->push_back('{');
      bool first = true;
      for (const auto& [k, e] : v.items()) {
        if (!first) out->push_back(',');
        first = false;
        AppendJsonString(out, k);
        out->push_back(':');
        AppendJson(out, e);
      }
      out->push_back('}');
      break;
    }
    case nlohmann::json::value_t::binary: *out += "null"; break;
  }
}

std::string ToChars(double f, std::chars_format fmt) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, f, fmt);
  return std::string(buf, res.ptr);
}

}  // namespace

char GoControlEscape(char c) {
  switch (c) {
    case 'a': return '\a';
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case 'v': return '\v';
    default: return '\0';
  }
}

std::string GoQuote(std::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\a': out += "\\a"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\v': out += "\\v"; break;
        default:
          if (c < 0x20 || c == 0x7f) {
            AppendHex(&out, "\\x", c, 2);
          } else {
            out.push_back(static_cast<char>(c));
          }
      }
      ++i;
      continue;
    }
    auto [r, n] = DecodeRune(s, i);
    if (n == 0) {
      AppendHex(&out, "\\x", c, 2);
      ++i;
      continue;
    }
    if (IsPrintNonAscii(r)) {
      out.append(s.substr(i, n));
    } else if (r < 0x10000) {
      AppendHex(&out, "\\u", r, 4);
    } else {
      AppendHex(&out, "\\U", r, 8);
    }
    i += n;
  }
  return out + "\"";
}

bool GoIsPrint(char32_t r) { return r < 0x80 ? r >= 0x20 && r < 0x7F : IsPrintNonAscii(r); }

std::pair<char32_t, size_t> GoDecodeRune(std::string_view s, size_t i) {
  auto [r, n] = DecodeRune(s, i);
  if (n == 0) return {0xFFFD, 1};
  return {r, n};
}

std::string GoJsonMarshal(const nlohmann::json& value) {
  std::string out;
  AppendJson(&out, value);
  return out;
}

std::string GoJsonFloat(double f) {
  const double abs = std::fabs(f);
  if (abs != 0 && (abs < 1e-6 || abs >= 1e21)) {
    std::string s = ToChars(f, std::chars_format::scientific);
    // Go writes one-digit negative exponents without the leading zero ("1e-7", not "1e-07").
    const size_t n = s.size();
    if (n >= 4 && s[n - 4] == 'e' && s[n - 3] == '-' && s[n - 2] == '0') s.erase(n - 2, 1);
    return s;
  }
  return ToChars(f, std::chars_format::fixed);
}

std::string GoFormatFloat(double f) {
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "+Inf" : "-Inf";
  if (f == 0) return std::signbit(f) ? "-0" : "0";
  // strconv's 'g' with the shortest precision: exponent form when the decimal exponent is below
  // -4 or at least 6 (Go uses 6, not the digit count, as the threshold for shortest output).
  const std::string sci = ToChars(f, std::chars_format::scientific);
  const size_t e = sci.find('e');
  const int exp = std::atoi(sci.c_str() + e + 1);
  if (exp < -4 || exp >= 6) return sci;
  return ToChars(f, std::chars_format::fixed);
}

}  // namespace kube
