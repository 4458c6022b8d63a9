#include "schema/go_values.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include <nlohmann/json.hpp>

#include "util/field_error.h"

namespace kube::schema {

namespace {

// The shortest decimal digits that round-trip `f` and its decimal exponent: f = 0.d1d2... x 10^exp.
struct Digits {
  std::string digits;  // no leading zeros, at least one digit
  int exp = 0;         // position of the decimal point relative to the digits
};

Digits Shortest(double f) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, std::fabs(f), std::chars_format::scientific);
  std::string s(buf, r.ptr);  // "1.2345e+06"
  const size_t e = s.find('e');
  Digits d;
  for (size_t i = 0; i < e; ++i) {
    if (s[i] != '.') d.digits.push_back(s[i]);
  }
  d.exp = std::stoi(s.substr(e + 1)) + 1;
  while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
  return d;
}

std::string Fixed(const Digits& d) {
  std::string out;
  if (d.exp <= 0) {
    out = "0." + std::string(-d.exp, '0') + d.digits;
  } else if (static_cast<size_t>(d.exp) >= d.digits.size()) {
    out = d.digits + std::string(d.exp - d.digits.size(), '0');
  } else {
    out = d.digits.substr(0, d.exp) + "." + d.digits.substr(d.exp);
  }
  return out;
}

std::string Exponent(const Digits& d, int min_exp_digits) {
  std::string out = d.digits.substr(0, 1);
  if (d.digits.size() > 1) out += "." + d.digits.substr(1);
  int e = d.exp - 1;
  out += e < 0 ? "e-" : "e+";
  std::string exp = std::to_string(std::abs(e));
  if (static_cast<int>(exp.size()) < min_exp_digits) exp.insert(0, min_exp_digits - exp.size(), '0');
  return out + exp;
}

std::string Sign(double f, std::string s) { return std::signbit(f) && f != 0 ? "-" + s : s; }

void AppendJsonString(const std::string& s, std::string* out) {
  static const char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = s[i];
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\r': *out += "\\r"; break;
      case '\t': *out += "\\t"; break;
      default:
        // Go escapes control characters and, for HTML safety, <, > and &; also U+2028/2029.
        if (c < 0x20 || c == '<' || c == '>' || c == '&') {
          *out += "\\u00";
          out->push_back(kHex[c >> 4]);
          out->push_back(kHex[c & 0xf]);
        } else if (c == 0xe2 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
                   (static_cast<unsigned char>(s[i + 2]) == 0xa8 ||
                    static_cast<unsigned char>(s[i + 2]) == 0xa9)) {
          *out += static_cast<unsigned char>(s[i + 2]) == 0xa8 ? "\\u2028" : "\\u2029";
          i += 2;
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
  }
  out->push_back('"');
}

void AppendJson(const nlohmann::json& v, std::string* out) {
  switch (v.type()) {
    case nlohmann::json::value_t::object: {
      out->push_back('{');
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {  // nlohmann keeps keys sorted, as Go does
        if (!first) out->push_back(',');
        first = false;
        AppendJsonString(it.key(), out);
        out->push_back(':');
        AppendJson(it.value(), out);
      }
      out->push_back('}');
      return;
    }
    case nlohmann::json::value_t::array: {
      out->push_back('[');
      for (size_t i = 0; i < v.size(); ++i) {
        if (i) out->push_back(',');
        AppendJson(v[i], out);
      }
      out->push_back(']');
      return;
    }
    case nlohmann::json::value_t::string: AppendJsonString(v.get_ref<const std::string&>(), out); return;
    case nlohmann::json::value_t::boolean: *out += v.get<bool>() ? "true" : "false"; return;
    case nlohmann::json::value_t::null: *out += "null"; return;
    default:
      if (IsGoInt(v)) {
        *out += std::to_string(GoInt(v));
        return;
      }
      {
        // encoding/json: 'f' format, 'e' below 1e-6 and from 1e21 on, exponent without padding.
        const double f = GoFloat(v);
        const double a = std::fabs(f);
        if (a != 0 && (a < 1e-6 || a >= 1e21)) {
          *out += Sign(f, Exponent(Shortest(f), 1));
        } else {
          *out += FormatFloatPlain(f);
        }
      }
  }
}

}  // namespace

bool IsGoInt(const nlohmann::json& v) {
  if (v.is_number_integer() && !v.is_number_unsigned()) return true;
  return v.is_number_unsigned() &&
         v.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
}

int64_t GoInt(const nlohmann::json& v) {
  return v.is_number_unsigned() ? static_cast<int64_t>(v.get<uint64_t>()) : v.get<int64_t>();
}

double GoFloat(const nlohmann::json& v) {
  if (v.is_number_unsigned()) return static_cast<double>(v.get<uint64_t>());
  if (v.is_number_integer()) return static_cast<double>(v.get<int64_t>());
  return v.is_number() ? v.get<double>() : 0;
}

std::string FormatGoFloat(double f) {
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "+Inf" : "-Inf";
  if (f == 0) return std::signbit(f) ? "-0" : "0";
  // %v is %g with the shortest digits: exponent form when the exponent is < -4 or >= 6.
  Digits d = Shortest(f);
  const int exp = d.exp - 1;
  return Sign(f, exp < -4 || exp >= 6 ? Exponent(d, 2) : Fixed(d));
}

std::string FormatFloatPlain(double f) {
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "+Inf" : "-Inf";
  if (f == 0) return std::signbit(f) ? "-0" : "0";
  return Sign(f, Fixed(Shortest(f)));
}

std::string GoJson(const nlohmann::json& v) {
  std::string out;
  AppendJson(v, &out);
  return out;
}

std::string GoValue(const nlohmann::json& v) {
  if (v.is_string()) return GoQuote(v.get_ref<const std::string&>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number()) return IsGoInt(v) ? std::to_string(GoInt(v)) : FormatGoFloat(GoFloat(v));
  return GoJson(v);
}

bool GoDeepEqual(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.is_number() && b.is_number()) {
    if (IsGoInt(a) != IsGoInt(b)) return false;
    return IsGoInt(a) ? GoInt(a) == GoInt(b) : GoFloat(a) == GoFloat(b);
  }
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto it = a.begin(); it != a.end(); ++it) {
      auto other = b.find(it.key());
      if (other == b.end() || !GoDeepEqual(it.value(), *other)) return false;
    }
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!GoDeepEqual(a[i], b[i])) return false;
    }
    return true;
  }
  return a == b;
}

}  // namespace kube::schema
