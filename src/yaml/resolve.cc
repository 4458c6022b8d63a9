#include "yaml/resolve.h"

#include <locale.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace kube::yaml::internal {

namespace {

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

// Go's strconv errors, which decide the fall-through order in resolve().
enum class NumErr { kOk, kSyntax, kRange };

int DigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

// strconv.ParseUint(s, base, 64); base 0 detects 0x/0o/0b/0 prefixes as Go does. Underscores are
// never present here (resolve() strips them first).
NumErr ParseUint(std::string_view s, int base, uint64_t* out) {
  if (s.empty()) return NumErr::kSyntax;
  if (base == 0) {
    base = 10;
    if (s[0] == '0') {
      const char p = s.size() >= 3 ? static_cast<char>(s[1] | 0x20) : '\0';
      if (p == 'b') {
        base = 2;
        s.remove_prefix(2);
      } else if (p == 'o') {
        base = 8;
        s.remove_prefix(2);
      } else if (p == 'x') {
        base = 16;
        s.remove_prefix(2);
      } else {
        base = 8;
        s.remove_prefix(1);
      }
    }
  }
  uint64_t n = 0;
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  for (char c : s) {
    const int d = DigitValue(c);
    if (d >= base) return NumErr::kSyntax;
    if (n > (max - static_cast<uint64_t>(d)) / static_cast<uint64_t>(base)) return NumErr::kRange;
    n = n * base + d;
  }
  *out = n;
  return NumErr::kOk;
}

// strconv.ParseInt(s, base, 64).
NumErr ParseInt(std::string_view s, int base, int64_t* out) {
  if (s.empty()) return NumErr::kSyntax;
  bool neg = false;
  if (s[0] == '+' || s[0] == '-') {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  uint64_t un = 0;
  NumErr err = ParseUint(s, base, &un);
  if (err != NumErr::kOk) return err;
  constexpr uint64_t kCutoff = uint64_t{1} << 63;
  if (!neg && un >= kCutoff) return NumErr::kRange;
  if (neg && un > kCutoff) return NumErr::kRange;
  *out = neg ? static_cast<int64_t>(0 - un) : static_cast<int64_t>(un);
  return NumErr::kOk;
}

// strconv.ParseFloat for the decimal syntax the callers have already checked. Only overflow is
// an error: Go returns underflowing values (zero or subnormal) without one.
bool ParseFloat(std::string_view s, double* out) {
  // strtod_l with a private C locale, so a process-wide setlocale() cannot change the decimal
  // point.
  static const locale_t c_locale = newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(0));
  if (c_locale == static_cast<locale_t>(0)) {
    // No locale object: from_chars is locale-independent but also fails on underflow.
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    double v = 0;
    const std::from_chars_result r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return false;
    *out = v;
    return true;
  }
  std::string buf(s);
  char* end = nullptr;
  const double v = strtod_l(buf.c_str(), &end, c_locale);
  if (end != buf.c_str() + buf.size() || std::isinf(v)) return false;
  *out = v;
  return true;
}

// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool IsYamlStyleFloat(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  auto digits = [&] {
    size_t start = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    return i - start;
  };
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  } else {
    if (digits() == 0) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

// Go's getnum(s, false): one or two digits.
bool Num12(std::string_view s, size_t* pos, int* out) {
  if (*pos >= s.size() || !IsDigit(s[*pos])) return false;
  int v = s[(*pos)++] - '0';
  if (*pos < s.size() && IsDigit(s[*pos])) v = v * 10 + (s[(*pos)++] - '0');
  *out = v;
  return true;
}

bool Num2(std::string_view s, size_t pos, int* out) {
  if (pos + 2 > s.size() || !IsDigit(s[pos]) || !IsDigit(s[pos + 1])) return false;
  *out = (s[pos] - '0') * 10 + (s[pos + 1] - '0');
  return true;
}

int DaysIn(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// go-yaml's parseTimestamp: time.Parse with "2006-1-2T15:4:5.999999999Z07:00" (also with a
// lower-case t), "2006-1-2 15:4:5.999999999" or "2006-1-2".
bool IsTimestamp(std::string_view s) {
  if (s.size() < 5 || !IsDigit(s[0]) || !IsDigit(s[1]) || !IsDigit(s[2]) || !IsDigit(s[3]) ||
      s[4] != '-') {
    return false;
  }
  const int year = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
  size_t pos = 5;
  int month, day;
  if (!Num12(s, &pos, &month) || pos >= s.size() || s[pos++] != '-' || !Num12(s, &pos, &day)) {
    return false;
  }
  if (month < 1 || month > 12 || day < 1 || day > DaysIn(year, month)) return false;
  if (pos == s.size()) return true;  // date only
  const char sep = s[pos++];
  if (sep != 'T' && sep != 't' && sep != ' ') return false;
  int hour, minute, second;
  if (!Num12(s, &pos, &hour) || pos >= s.size() || s[pos++] != ':' || !Num12(s, &pos, &minute) ||
      pos >= s.size() || s[pos++] != ':' || !Num12(s, &pos, &second)) {
    return false;
  }
  if (hour > 23 || minute > 59 || second > 59) return false;
  if (pos + 1 < s.size() && (s[pos] == '.' || s[pos] == ',') && IsDigit(s[pos + 1])) {
    ++pos;
    while (pos < s.size() && IsDigit(s[pos])) ++pos;
  }
  if (sep == ' ') return pos == s.size();
  if (pos < s.size() && s[pos] == 'Z') return pos + 1 == s.size();
  int oh, om;
  return pos + 6 == s.size() && (s[pos] == '+' || s[pos] == '-') && Num2(s, pos + 1, &oh) &&
         s[pos + 3] == ':' && Num2(s, pos + 4, &om);
}

struct MapItem {
  std::string_view text;
  Scalar::Kind kind;
  bool b;
  double f;
};

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// go-yaml v2's resolve map (YAML 1.1 booleans included).
constexpr MapItem kMap[] = {
    {"y", Scalar::Kind::kBool, true, 0},           {"Y", Scalar::Kind::kBool, true, 0},
    {"yes", Scalar::Kind::kBool, true, 0},         {"Yes", Scalar::Kind::kBool, true, 0},
    {"YES", Scalar::Kind::kBool, true, 0},         {"true", Scalar::Kind::kBool, true, 0},
    {"True", Scalar::Kind::kBool, true, 0},        {"TRUE", Scalar::Kind::kBool, true, 0},
    {"on", Scalar::Kind::kBool, true, 0},          {"On", Scalar::Kind::kBool, true, 0},
    {"ON", Scalar::Kind::kBool, true, 0},          {"n", Scalar::Kind::kBool, false, 0},
    {"N", Scalar::Kind::kBool, false, 0},          {"no", Scalar::Kind::kBool, false, 0},
    {"No", Scalar::Kind::kBool, false, 0},         {"NO", Scalar::Kind::kBool, false, 0},
    {"false", Scalar::Kind::kBool, false, 0},      {"False", Scalar::Kind::kBool, false, 0},
    {"FALSE", Scalar::Kind::kBool, false, 0},      {"off", Scalar::Kind::kBool, false, 0},
    {"Off", Scalar::Kind::kBool, false, 0},        {"OFF", Scalar::Kind::kBool, false, 0},
    {"", Scalar::Kind::kNull, false, 0},           {"~", Scalar::Kind::kNull, false, 0},
    {"null", Scalar::Kind::kNull, false, 0},       {"Null", Scalar::Kind::kNull, false, 0},
    {"NULL", Scalar::Kind::kNull, false, 0},       {".nan", Scalar::Kind::kFloat, false, kNaN},
    {".NaN", Scalar::Kind::kFloat, false, kNaN},   {".NAN", Scalar::Kind::kFloat, false, kNaN},
    {".inf", Scalar::Kind::kFloat, false, kInf},   {".Inf", Scalar::Kind::kFloat, false, kInf},
    {".INF", Scalar::Kind::kFloat, false, kInf},   {"+.inf", Scalar::Kind::kFloat, false, kInf},
    {"+.Inf", Scalar::Kind::kFloat, false, kInf},  {"+.INF", Scalar::Kind::kFloat, false, kInf},
    {"-.inf", Scalar::Kind::kFloat, false, -kInf}, {"-.Inf", Scalar::Kind::kFloat, false, -kInf},
    {"-.INF", Scalar::Kind::kFloat, false, -kInf}, {"<<", Scalar::Kind::kMerge, false, 0},
};

std::string_view TagOf(Scalar::Kind k) {
  switch (k) {
    case Scalar::Kind::kNull:
      return kNullTag;
    case Scalar::Kind::kBool:
      return kBoolTag;
    case Scalar::Kind::kInt:
    case Scalar::Kind::kUint:
    case Scalar::Kind::kBigInt:
      return kIntTag;
    case Scalar::Kind::kFloat:
      return kFloatTag;
    case Scalar::Kind::kMerge:
      return kMergeTag;
    case Scalar::Kind::kString:
      break;
  }
  return kStrTag;
}

bool SetInt(std::string_view plain, Scalar* out) {
  int64_t i;
  if (ParseInt(plain, 0, &i) == NumErr::kOk) {
    out->kind = Scalar::Kind::kInt;
    out->i = i;
    return true;
  }
  return false;
}

// Everything resolve() does before its deferred tag check. Returns the resolved tag.
std::string_view ResolveUntyped(std::string_view tag, std::string_view in, Scalar* out) {
  out->kind = Scalar::Kind::kString;
  out->s = std::string(in);
  const char c = in.empty() ? 'N' : in[0];
  char hint = 0;
  if (in.empty()) {
    hint = 'N';
  } else if (c == '+' || c == '-') {
    hint = 'S';
  } else if (IsDigit(c)) {
    hint = 'D';
  } else if (std::string_view("yYnNtTfFoO~").find(c) != std::string_view::npos) {
    hint = 'M';
  } else if (c == '.') {
    hint = '.';
  }
  if (hint == 0 || tag == kStrTag || tag == kBinaryTag) return kStrTag;

  for (const MapItem& m : kMap) {
    if (m.text != in) continue;
    out->kind = m.kind;
    out->b = m.b;
    out->f = m.f;
    return TagOf(m.kind);
  }
  if (hint == '.') {
    // Not in the map, so maybe a plain float like ".5".
    double f;
    if (IsYamlStyleFloat(in) && in[0] == '.' && ParseFloat(in, &f)) {
      out->kind = Scalar::Kind::kFloat;
      out->f = f;
      return kFloatTag;
    }
    return kStrTag;
  }
  if (hint != 'D' && hint != 'S') return kStrTag;

  if ((tag.empty() || tag == kTimestampTag) && IsTimestamp(in)) return kTimestampTag;
  std::string plain;
  for (char ch : in) {
    if (ch != '_') plain += ch;
  }
  if (SetInt(plain, out)) return kIntTag;
  uint64_t u;
  const NumErr uint_err = ParseUint(plain, 0, &u);
  if (uint_err == NumErr::kOk) {
    out->kind = Scalar::Kind::kUint;
    out->u = u;
    return kIntTag;
  }
  double f;
  if (IsYamlStyleFloat(plain) && ParseFloat(plain, &f)) {
    out->kind = Scalar::Kind::kFloat;
    out->f = f;
    return kFloatTag;
  }
  std::string_view p = plain;
  int64_t i;
  if (p.substr(0, 2) == "0b") {
    if (ParseInt(p.substr(2), 2, &i) == NumErr::kOk) {
      out->kind = Scalar::Kind::kInt;
      out->i = i;
      return kIntTag;
    }
    if (ParseUint(p.substr(2), 2, &u) == NumErr::kOk) {
      out->kind = Scalar::Kind::kUint;
      out->u = u;
      return kIntTag;
    }
  } else if (p.substr(0, 3) == "-0b") {
    if (ParseInt("-" + std::string(p.substr(3)), 2, &i) == NumErr::kOk) {
      out->kind = Scalar::Kind::kInt;
      out->i = i;
      return kIntTag;
    }
  }
  if (uint_err == NumErr::kRange) {
    // big.Int.SetString(plain, 0) accepts exactly what overflowed ParseUint: an unsigned,
    // prefixed integer. Its value only matters approximately (see Scalar::Kind::kBigInt).
    std::string_view digits = p;
    int base = 10;
    if (digits.size() >= 3 && digits[0] == '0') {
      const char pc = static_cast<char>(digits[1] | 0x20);
      base = pc == 'x' ? 16 : pc == 'o' ? 8 : pc == 'b' ? 2 : 10;
      if (base != 10) digits.remove_prefix(2);
    }
    if (base == 10 && digits.size() > 1 && digits[0] == '0') {
      base = 8;
      digits.remove_prefix(1);
    }
    double v = 0;
    for (char ch : digits) v = v * base + DigitValue(ch);
    out->kind = Scalar::Kind::kBigInt;
    out->f = v;
    return kIntTag;
  }
  return kStrTag;
}

}  // namespace

std::string ShortTag(std::string_view tag) {
  constexpr std::string_view kPrefix = "tag:yaml.org,2002:";
  if (tag.substr(0, kPrefix.size()) == kPrefix)
    return "!!" + std::string(tag.substr(kPrefix.size()));
  return std::string(tag);
}

std::optional<std::string> Resolve(std::string_view tag, std::string_view in, Scalar* out) {
  const bool resolvable = tag.empty() || tag == kStrTag || tag == kBoolTag || tag == kIntTag ||
                          tag == kFloatTag || tag == kNullTag || tag == kTimestampTag;
  if (!resolvable) {
    out->kind = Scalar::Kind::kString;
    out->tag = std::string(tag);
    out->s = std::string(in);
    return std::nullopt;
  }
  std::string_view rtag = ResolveUntyped(tag, in, out);
  out->tag = std::string(rtag);
  if (tag.empty() || tag == rtag || tag == kStrTag || tag == kBinaryTag) {
    if (tag == kStrTag) {
      out->kind = Scalar::Kind::kString;
      out->s = std::string(in);
    }
    return std::nullopt;
  }
  if (tag == kFloatTag && rtag == kIntTag &&
      (out->kind == Scalar::Kind::kInt || out->kind == Scalar::Kind::kUint)) {
    out->f =
        out->kind == Scalar::Kind::kInt ? static_cast<double>(out->i) : static_cast<double>(out->u);
    out->kind = Scalar::Kind::kFloat;
    out->tag = std::string(kFloatTag);
    return std::nullopt;
  }
  return "cannot decode " + ShortTag(rtag) + " `" + std::string(in) + "` as a " + ShortTag(tag);
}

std::string FormatFloatG(double v, int bits) {
  // Go rounds to float32 first: beyond its range (from halfway between its largest value and
  // 2^128 on) that is an infinity. Doing it here also keeps the float cast below in range.
  if (bits == 32 && std::fabs(v) >= 0x1.ffffffp127) v = v > 0 ? HUGE_VAL : -HUGE_VAL;
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  // Shortest round-trip digits from to_chars in scientific form: "d.ddde[+-]xx".
  char buf[64];
  std::to_chars_result r =
      bits == 32 ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v),
                                 std::chars_format::scientific)
                 : std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string_view sci(buf, static_cast<size_t>(r.ptr - buf));
  std::string out;
  if (!sci.empty() && sci[0] == '-') {
    out += '-';
    sci.remove_prefix(1);
  }
  const size_t e = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e)) {
    if (c != '.') digits += c;
  }
  int exp = 0;
  std::from_chars(sci.data() + e + 1 + (sci[e + 1] == '+' ? 1 : 0), sci.data() + sci.size(), exp);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  if (digits == "0") exp = 0;
  if (exp < -4 || exp >= 6) {
    out += digits[0];
    if (digits.size() > 1) out += "." + digits.substr(1);
    out += exp < 0 ? "e-" : "e+";
    const int a = exp < 0 ? -exp : exp;
    if (a < 10) out += '0';
    out += std::to_string(a);
    return out;
  }
  const int dp = exp + 1;  // digits before the decimal point
  if (dp <= 0) {
    out += "0." + std::string(static_cast<size_t>(-dp), '0') + digits;
  } else if (static_cast<size_t>(dp) >= digits.size()) {
    out += digits + std::string(static_cast<size_t>(dp) - digits.size(), '0');
  } else {
    out += digits.substr(0, static_cast<size_t>(dp)) + "." + digits.substr(static_cast<size_t>(dp));
  }
  return out;
}

std::string SanitizeUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = n > 0 && i + n <= s.size();
    uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t k = 1; ok && k < n; ++k) {
      const unsigned char cc = static_cast<unsigned char>(s[i + k]);
      ok = (cc & 0xC0) == 0x80;
      cp = (cp << 6) | (cc & 0x3F);
    }
    // Reject overlong forms, surrogates and values above U+10FFFF, as Go does.
    if (ok && ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
               (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)) {
      ok = false;
    }
    if (ok) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

bool IsBase60Float(std::string_view s) {
  // ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$
  if (s.empty() || s.find(':') == std::string_view::npos) return false;
  size_t i = 0;
  if (s[i] == '+' || s[i] == '-') ++i;
  if (i >= s.size() || !IsDigit(s[i])) return false;
  ++i;
  while (i < s.size() && (IsDigit(s[i]) || s[i] == '_')) ++i;
  size_t groups = 0;
  while (i < s.size() && s[i] == ':') {
    ++i;
    // [0-5]?[0-9]: one digit, or two with the first in 0-5.
    if (i + 1 < s.size() && s[i] >= '0' && s[i] <= '5' && IsDigit(s[i + 1])) {
      i += 2;
    } else if (i < s.size() && IsDigit(s[i])) {
      ++i;
    } else {
      return false;
    }
    ++groups;
  }
  if (groups == 0) return false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && (IsDigit(s[i]) || s[i] == '_')) ++i;
  }
  return i == s.size();
}

}  // namespace kube::yaml::internal
