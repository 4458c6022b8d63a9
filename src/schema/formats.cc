#include "schema/formats.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include <re2/re2.h>

namespace kube::schema {

namespace {

std::string Normalize(std::string_view format) {
  std::string out;
  for (char c : format) {
    if (c != '-') out.push_back(c);
  }
  return out;
}

// Every format of kube-openapi's default registry; all of them are supported in CRDs since 1.34.
constexpr std::array<std::string_view, 26> kKnown = {
    "bsonobjectid", "uri",      "email",      "hostname", "ipv4",     "ipv6",    "cidr",
    "mac",          "uuid",     "uuid3",      "uuid4",    "uuid5",    "isbn",    "isbn10",
    "isbn13",       "creditcard", "ssn",      "hexcolor", "rgbcolor", "byte",    "password",
    "date",         "duration", "datetime",   "k8sshortname", "k8slongname"};

bool Matches(const RE2& re, std::string_view s) { return RE2::PartialMatch(s, re); }

RE2::Options RegexOptions() {
  RE2::Options options;
  options.set_log_errors(false);
  // The hostname pattern's bounded repeats of Unicode classes make a large program; the default
  // budget leaves its DFA no room and matching would fall back to the slow engine.
  options.set_max_mem(64 << 20);
  return options;
}

#define KUBE_REGEX(name, pattern)                  \
  const RE2& name() {                              \
    static const RE2 re(pattern, RegexOptions());  \
    return re;                                     \
  }
KUBE_REGEX(Hostname,
           R"(^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$)")
KUBE_REGEX(Uuid, R"((?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$)")
KUBE_REGEX(Uuid3, R"((?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$)")
KUBE_REGEX(Uuid4, R"((?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$)")
KUBE_REGEX(Uuid5, R"((?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$)")
KUBE_REGEX(CreditCard,
           R"(^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$)")
KUBE_REGEX(Ssn, R"(^\d{3}[- ]?\d{2}[- ]?\d{4}$)")
KUBE_REGEX(HexColor, R"(^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$)")
KUBE_REGEX(RgbColor,
           R"(^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$)")
KUBE_REGEX(Base64, R"(^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$)")
KUBE_REGEX(ShortName, R"(^[a-z0-9]([-a-z0-9]*[a-z0-9])?$)")
KUBE_REGEX(LongName, R"(^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$)")
KUBE_REGEX(DateTimeTail, R"(^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$)")
KUBE_REGEX(DurationPart, R"(((\d+)\s*([A-Za-zµ]+)))")
#undef KUBE_REGEX

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool IsHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// net.ParseIP's dotted quad; `sloppy` allows leading zeros as k8s.io/utils/net does.
bool ParseIPv4(std::string_view s, bool sloppy) {
  int parts = 0;
  size_t i = 0;
  while (parts < 4) {
    if (parts > 0) {
      if (i >= s.size() || s[i] != '.') return false;
      ++i;
    }
    size_t start = i;
    int value = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - start < 4) value = value * 10 + (s[i++] - '0');
    const size_t len = i - start;
    if (len == 0 || len > 3 || value > 255) return false;
    if (!sloppy && len > 1 && s[start] == '0') return false;
    ++parts;
  }
  return i == s.size();
}

// net.ParseIP's IPv6 form (with an optional trailing dotted quad).
bool ParseIPv6(std::string_view s, bool sloppy) {
  int groups = 0;  // 16-bit groups seen
  bool ellipsis = false;
  size_t i = 0;
  if (s.substr(0, 2) == "::") {
    ellipsis = true;
    i = 2;
    if (i == s.size()) return true;
  }
  while (i < s.size()) {
    size_t start = i;
    while (i < s.size() && IsHex(s[i]) && i - start < 5) ++i;
    if (i < s.size() && s[i] == '.') {  // embedded IPv4 ends the address
      if (groups > 6 || !ParseIPv4(s.substr(start), sloppy)) return false;
      groups += 2;
      i = s.size();
      break;
    }
    const size_t len = i - start;
    if (len == 0 || len > 4) return false;
    ++groups;
    if (i == s.size()) break;
    if (s[i] != ':' || groups >= 8) return false;
    ++i;
    if (i < s.size() && s[i] == ':') {
      if (ellipsis) return false;
      ellipsis = true;
      ++i;
      if (i == s.size()) break;
    } else if (i == s.size()) {
      return false;  // trailing single colon
    }
  }
  return ellipsis ? groups < 8 : groups == 8;
}

bool IsIPv4Format(std::string_view s) {
  // ParseIPSloppy accepts any IP; the format also wants a dot in it.
  return s.find('.') != std::string_view::npos && (ParseIPv4(s, true) || ParseIPv6(s, true));
}

bool IsIPv6Format(std::string_view s) {
  return s.find(':') != std::string_view::npos && ParseIPv6(s, false);
}

bool IsCidr(std::string_view s) {
  const size_t slash = s.find('/');
  if (slash == std::string_view::npos) return false;
  std::string_view addr = s.substr(0, slash), bits = s.substr(slash + 1);
  const bool v4 = ParseIPv4(addr, true);
  if (!v4 && !ParseIPv6(addr, true)) return false;
  if (!AllDigits(bits) || bits.size() > 3 || (bits.size() > 1 && bits[0] == '0')) return false;
  return std::stoi(std::string(bits)) <= (v4 ? 32 : 128);
}

// net.ParseMAC: 6, 8 or 20 octets as xx:xx:.. / xx-xx-.. or xxxx.xxxx.. groups.
bool IsMac(std::string_view s) {
  if (s.size() < 14) return false;
  if (s[2] == ':' || s[2] == '-') {
    if ((s.size() + 1) % 3 != 0) return false;
    const size_t n = (s.size() + 1) / 3;
    if (n != 6 && n != 8 && n != 20) return false;
    for (size_t i = 0; i < n; ++i) {
      const size_t x = i * 3;
      if (!IsHex(s[x]) || !IsHex(s[x + 1])) return false;
      if (x + 2 < s.size() && s[x + 2] != s[2]) return false;
    }
    return true;
  }
  if (s[4] == '.') {
    if ((s.size() + 1) % 5 != 0) return false;
    const size_t n = 2 * (s.size() + 1) / 5;
    if (n != 6 && n != 8 && n != 20) return false;
    for (size_t x = 0; x < s.size(); x += 5) {
      for (size_t k = 0; k < 4; ++k) {
        if (!IsHex(s[x + k])) return false;
      }
      if (x + 4 < s.size() && s[x + 4] != '.') return false;
    }
    return true;
  }
  return false;
}

bool ValidPercentEscapes(std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && (i + 2 >= s.size() || !IsHex(s[i + 1]) || !IsHex(s[i + 2]))) return false;
  }
  return true;
}

// url.ParseRequestURI: an absolute URI or an absolute path, without control characters.
bool IsRequestUri(std::string_view s) {
  if (s.empty()) return false;
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) return false;
  }
  std::string_view rest = s;
  bool has_scheme = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (std::isalpha(static_cast<unsigned char>(c))) continue;
    if ((std::isdigit(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.') && i > 0) continue;
    if (c == ':') {
      if (i == 0) return false;  // missing protocol scheme
      has_scheme = true;
      rest = s.substr(i + 1);
    }
    break;
  }
  if (const size_t q = rest.find('?'); q != std::string_view::npos) rest = rest.substr(0, q);
  if (rest.empty() || rest[0] != '/') return has_scheme;  // opaque ("mailto:x") or relative
  if (has_scheme && rest.substr(0, 2) == "//") {
    std::string_view authority = rest.substr(2);
    const size_t slash = authority.find('/');
    std::string_view path = slash == std::string_view::npos ? "" : authority.substr(slash);
    authority = authority.substr(0, slash);
    if (const size_t at = authority.rfind('@'); at != std::string_view::npos) {
      authority = authority.substr(at + 1);
    }
    std::string_view host = authority, port;
    if (!host.empty() && host[0] == '[') {
      const size_t close = host.find(']');
      if (close == std::string_view::npos) return false;
      port = host.substr(close + 1);
      if (!port.empty() && port[0] != ':') return false;
    } else if (const size_t colon = host.rfind(':'); colon != std::string_view::npos) {
      port = host.substr(colon);
      host = host.substr(0, colon);
    }
    if (!port.empty() && !std::all_of(port.begin() + 1, port.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return false;
    }
    return ValidPercentEscapes(host) && ValidPercentEscapes(path);
  }
  return ValidPercentEscapes(rest);
}

bool IsAtext(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("!#$%&'*+-/=?^_`{|}~").find(c) != std::string_view::npos ||
         static_cast<unsigned char>(c) >= 0x80;
}

bool IsDotAtom(std::string_view s) {
  if (s.empty() || s.front() == '.' || s.back() == '.' || s.find("..") != std::string_view::npos) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return c == '.' || IsAtext(c); });
}

// net/mail.ParseAddress, for the common shapes: "local@domain" and "Name <local@domain>".
bool IsEmail(std::string_view s) {
  auto trim = [](std::string_view v) {
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
    return v;
  };
  s = trim(s);
  if (!s.empty() && s.back() == '>') {
    const size_t open = s.rfind('<');
    if (open == std::string_view::npos) return false;
    s = s.substr(open + 1, s.size() - open - 2);
  }
  const size_t at = s.rfind('@');
  if (at == std::string_view::npos) return false;
  std::string_view local = s.substr(0, at), domain = s.substr(at + 1);
  const bool quoted = local.size() >= 2 && local.front() == '"' && local.back() == '"';
  if (!quoted && !IsDotAtom(local)) return false;
  if (domain.size() >= 2 && domain.front() == '[' && domain.back() == ']') return true;
  return IsDotAtom(domain);
}

bool IsIsbn10(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return c == '-' || std::isspace(static_cast<unsigned char>(c)); }), s.end());
  if (s.size() != 10 || !AllDigits(std::string_view(s).substr(0, 9))) return false;
  if (!(s[9] == 'X' || (s[9] >= '0' && s[9] <= '9'))) return false;
  int sum = 0;
  for (int i = 0; i < 9; ++i) sum += (i + 1) * (s[i] - '0');
  sum += 10 * (s[9] == 'X' ? 10 : s[9] - '0');
  return sum % 11 == 0;
}

bool IsIsbn13(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return c == '-' || std::isspace(static_cast<unsigned char>(c)); }), s.end());
  if (s.size() != 13 || !AllDigits(s)) return false;
  int sum = 0;
  for (int i = 0; i < 12; ++i) sum += (i % 2 ? 3 : 1) * (s[i] - '0');
  return (s[12] - '0') - ((10 - sum % 10) % 10) == 0;
}

bool IsCreditCard(std::string_view in) {
  std::string s;
  for (char c : in) {
    if (c >= '0' && c <= '9') s.push_back(c);
  }
  if (!Matches(CreditCard(), s)) return false;
  int sum = 0;
  bool dbl = false;
  for (size_t i = s.size(); i-- > 0;) {
    int d = s[i] - '0';
    if (dbl) {
      d *= 2;
      if (d >= 10) d = d % 10 + 1;
    }
    sum += d;
    dbl = !dbl;
  }
  return sum % 10 == 0;
}

// time.Parse("2006-01-02", s).
bool IsDate(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  if (!AllDigits(s.substr(0, 4)) || !AllDigits(s.substr(5, 2)) || !AllDigits(s.substr(8, 2))) return false;
  const int year = std::stoi(std::string(s.substr(0, 4)));
  const int month = std::stoi(std::string(s.substr(5, 2)));
  const int day = std::stoi(std::string(s.substr(8, 2)));
  if (month < 1 || month > 12 || day < 1) return false;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return day <= kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

bool IsDateTime(std::string_view in) {
  if (in.size() < 4) return false;
  std::string s(in);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  const size_t t = s.find('t');
  if (t == std::string::npos || !IsDate(std::string_view(s).substr(0, t))) return false;
  const size_t next = s.find('t', t + 1);
  std::string_view tail = std::string_view(s).substr(t + 1, next == std::string::npos ? std::string::npos : next - t - 1);
  std::string h, m, sec;
  if (!RE2::PartialMatch(tail, DateTimeTail(), &h, &m, &sec)) return false;
  return h <= "23" && m <= "59" && sec <= "59";
}

// time.ParseDuration: [-+]?(number unit)+ or "0".
bool IsGoDuration(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  if (s == "0") return true;
  if (s.empty()) return false;
  while (!s.empty()) {
    size_t i = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    bool digits = i > 0;
    if (i < s.size() && s[i] == '.') {
      ++i;
      const size_t f = i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
      digits = digits || i > f;
    }
    if (!digits) return false;
    s.remove_prefix(i);
    size_t u = 0;
    while (u < s.size() && s[u] != '.' && !(s[u] >= '0' && s[u] <= '9')) ++u;
    const std::string_view unit = s.substr(0, u);
    static constexpr std::string_view kUnits[] = {"ns", "us", "\u00b5s", "\u03bcs", "ms", "s", "m", "h"};
    if (std::find(std::begin(kUnits), std::end(kUnits), unit) == std::end(kUnits)) return false;
    s.remove_prefix(u);
  }
  return true;
}

// strfmt's duration: Go's syntax, or "<n> <unit>" parts with Scala-like unit names.
bool IsDuration(std::string_view s) {
  if (IsGoDuration(s)) return true;
  static constexpr std::string_view kUnits[][3] = {{"ns", "nano", ""},   {"us", "\u00b5s", "micro"},
                                                   {"ms", "milli", ""},  {"s", "sec", ""},
                                                   {"m", "min", ""},     {"h", "hr", "hour"},
                                                   {"d", "day", ""},     {"w", "wk", "week"}};
  re2::StringPiece input(s.data(), s.size());
  std::string whole, number, unit;
  bool ok = false;
  while (RE2::FindAndConsume(&input, DurationPart(), &whole, &number, &unit)) {
    if (number.size() > 18) return false;  // strconv.Atoi overflow
    std::string lower = unit;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const auto& variants : kUnits) {
      const size_t count = variants[2].empty() ? 2 : 3;
      for (size_t i = 0; i < count; ++i) {
        if ((i == count - 1 && lower.rfind(variants[i], 0) == 0) || lower == variants[i]) ok = true;
      }
    }
  }
  return ok;
}

}  // namespace

bool KnownFormat(std::string_view format) {
  const std::string n = Normalize(format);
  return std::find(kKnown.begin(), kKnown.end(), n) != kKnown.end();
}

std::string_view EffectiveCrdFormat(std::string_view format, std::string_view type) {
  if (format.empty()) return format;
  if (type.empty() || type == "string") return KnownFormat(format) ? format : std::string_view();
  if (type == "integer") return format == "int32" || format == "int64" ? format : std::string_view();
  if (type == "number") return format == "float" || format == "double" ? format : std::string_view();
  return {};
}

bool ValidFormat(std::string_view format, std::string_view v) {
  const std::string f = Normalize(format);
  if (f == "uri") return IsRequestUri(v);
  if (f == "email") return IsEmail(v);
  if (f == "hostname") {
    if (!Matches(Hostname(), v) || v.size() > 255) return false;
    size_t start = 0;
    while (true) {
      const size_t dot = v.find('.', start);
      if ((dot == std::string_view::npos ? v.size() : dot) - start > 63) return false;
      if (dot == std::string_view::npos) return true;
      start = dot + 1;
    }
  }
  if (f == "ipv4") return IsIPv4Format(v);
  if (f == "ipv6") return IsIPv6Format(v);
  if (f == "cidr") return IsCidr(v);
  if (f == "mac") return IsMac(v);
  if (f == "uuid") return Matches(Uuid(), v);
  if (f == "uuid3") return Matches(Uuid3(), v);
  if (f == "uuid4") return Matches(Uuid4(), v);
  if (f == "uuid5") return Matches(Uuid5(), v);
  if (f == "isbn") return IsIsbn10(std::string(v)) || IsIsbn13(std::string(v));
  if (f == "isbn10") return IsIsbn10(std::string(v));
  if (f == "isbn13") return IsIsbn13(std::string(v));
  if (f == "creditcard") return IsCreditCard(v);
  if (f == "ssn") return v.size() == 11 && Matches(Ssn(), v);
  if (f == "hexcolor") return Matches(HexColor(), v);
  if (f == "rgbcolor") return Matches(RgbColor(), v);
  if (f == "byte") return Matches(Base64(), v);
  if (f == "bsonobjectid") return v.size() == 24 && std::all_of(v.begin(), v.end(), IsHex);
  if (f == "date") return IsDate(v);
  if (f == "datetime") return IsDateTime(v);
  if (f == "duration") return IsDuration(v);
  if (f == "k8sshortname") return v.size() <= 63 && Matches(ShortName(), v);
  if (f == "k8slongname") return v.size() <= 253 && Matches(LongName(), v);
  return true;  // password, and formats the registry does not know
}

}  // namespace kube::schema
