#include "cel/go_url.h"

#include <array>

#include "cel/netip.h"
#include "util/go_format.h"

namespace kube::cel {

namespace {

enum class Mode { kPath, kPathSegment, kHost, kZone, kUserPassword, kQueryComponent, kFragment };
constexpr int kModes = 7;

bool IsHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int Unhex(char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }

// net/url's shouldEscape, as written; ShouldEscape reads it from a table built at compile time.
constexpr bool ComputeShouldEscape(unsigned char c, Mode mode) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return false;
  if (mode == Mode::kHost || mode == Mode::kZone) {
    switch (c) {
      case '!': case '$': case '&': case '\'': case '(': case ')': case '*': case '+': case ',': case ';':
      case '=': case ':': case '[': case ']': case '<': case '>': case '"':
        return false;
      default: break;
    }
  }
  switch (c) {
    case '-': case '_': case '.': case '~': return false;
    case '$': case '&': case '+': case ',': case '/': case ':': case ';': case '=': case '?': case '@':
      switch (mode) {
        case Mode::kUserPassword: return c == '@' || c == '/' || c == '?' || c == ':';
        case Mode::kPath: return c == '?';
        case Mode::kPathSegment: return c == '/' || c == ';' || c == ',' || c == '?';
        case Mode::kQueryComponent: return true;
        case Mode::kFragment: return false;
        default: break;
      }
      break;
    default: break;
  }
  if (mode == Mode::kFragment && (c == '!' || c == '(' || c == ')' || c == '*')) return false;
  return true;
}

constexpr std::array<std::array<bool, 256>, kModes> kShouldEscape = [] {
  std::array<std::array<bool, 256>, kModes> table{};
  for (int m = 0; m < kModes; ++m) {
    for (int c = 0; c < 256; ++c) table[m][c] = ComputeShouldEscape(static_cast<unsigned char>(c), static_cast<Mode>(m));
  }
  return table;
}();

bool ShouldEscape(unsigned char c, Mode mode) { return kShouldEscape[static_cast<int>(mode)][c]; }

// The validating half of net/url's unescape: *has_escapes tells whether decoding would change
// anything, so that the common unescaped component is copied as it is.
bool ValidateEscapes(std::string_view s, Mode mode, bool* has_escapes, std::string* error) {
  // Outside hosts only '%' (and a query's '+') matter: a component without them is valid as it is.
  if (mode != Mode::kHost && mode != Mode::kZone && s.find('%') == std::string_view::npos &&
      (mode != Mode::kQueryComponent || s.find('+') == std::string_view::npos)) {
    *has_escapes = false;
    return true;
  }
  bool escapes = false;
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '%') {
      escapes = true;
      if (i + 2 >= s.size() || !IsHex(s[i + 1]) || !IsHex(s[i + 2])) {
        *error = "invalid URL escape " + GoQuote(s.substr(i, 3));
        return false;
      }
      const std::string_view esc = s.substr(i, 3);
      if (mode == Mode::kHost && Unhex(s[i + 1]) < 8 && esc != "%25") {
        *error = "invalid URL escape " + GoQuote(esc);
        return false;
      }
      if (mode == Mode::kZone) {
        const auto v = static_cast<unsigned char>(Unhex(s[i + 1]) << 4 | Unhex(s[i + 2]));
        if (esc != "%25" && v != ' ' && ShouldEscape(v, Mode::kHost)) {
          *error = "invalid URL escape " + GoQuote(esc);
          return false;
        }
      }
      i += 3;
    } else {
      if (c == '+' && mode == Mode::kQueryComponent) escapes = true;
      if ((mode == Mode::kHost || mode == Mode::kZone) && c < 0x80 && ShouldEscape(c, mode)) {
        *error = "invalid character " + GoQuote(s.substr(i, 1)) + " in host name";
        return false;
      }
      ++i;
    }
  }
  *has_escapes = escapes;
  return true;
}

// The decoding half of net/url's unescape. REQUIRES: ValidateEscapes(s, mode) succeeded.
void AppendDecoded(std::string_view s, Mode mode, std::string* out) {
  out->reserve(out->size() + s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%') {
      *out += static_cast<char>(Unhex(s[i + 1]) << 4 | Unhex(s[i + 2]));
      i += 2;
    } else if (s[i] == '+' && mode == Mode::kQueryComponent) {
      *out += ' ';
    } else {
      *out += s[i];
    }
  }
}

// net/url's unescape into *out (replacing it): validates, then decodes %XX (and '+' in query
// components). *out is unspecified on failure.
bool UnescapeTo(std::string_view s, Mode mode, std::string* out, std::string* error) {
  bool has_escapes = false;
  if (!ValidateEscapes(s, mode, &has_escapes, error)) return false;
  if (!has_escapes) {
    out->assign(s);
  } else {
    out->clear();
    AppendDecoded(s, mode, out);
  }
  return true;
}

std::optional<std::string> Unescape(std::string_view s, Mode mode, std::string* error) {
  std::string out;
  if (!UnescapeTo(s, mode, &out, error)) return std::nullopt;
  return out;
}

std::string Escape(std::string_view s, Mode mode) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (c == ' ' && mode == Mode::kQueryComponent) {
      out += '+';
    } else if (ShouldEscape(c, mode)) {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// Escape(s, mode) == want, without building the escaped string (Parse asks it of every path).
bool EscapesTo(std::string_view s, Mode mode, std::string_view want) {
  static const char kHex[] = "0123456789ABCDEF";
  size_t j = 0;
  for (unsigned char c : s) {
    if (c == ' ' && mode == Mode::kQueryComponent) {
      if (j >= want.size() || want[j] != '+') return false;
      ++j;
    } else if (ShouldEscape(c, mode)) {
      if (want.size() - j < 3 || want[j] != '%' || want[j + 1] != kHex[c >> 4] || want[j + 2] != kHex[c & 15]) {
        return false;
      }
      j += 3;
    } else {
      if (j >= want.size() || static_cast<unsigned char>(want[j]) != c) return false;
      ++j;
    }
  }
  return j == want.size();
}

// net/url's validEncoded.
bool ValidEncoded(std::string_view s, Mode mode) {
  for (unsigned char c : s) {
    if (std::string_view("!$&'()*+,;=:@[]%").find(static_cast<char>(c)) != std::string_view::npos) continue;
    if (ShouldEscape(c, mode)) return false;
  }
  return true;
}

bool ValidOptionalPort(std::string_view port) {
  if (port.empty()) return true;
  if (port[0] != ':') return false;
  for (char c : port.substr(1)) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

bool ValidUserinfo(std::string_view s) {
  for (unsigned char c : s) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) continue;
    if (std::string_view("-._:~!$&'()*+,;=%@").find(static_cast<char>(c)) == std::string_view::npos) return false;
  }
  return true;
}

// Validates host (a host and optional port, decoded as Go decodes hosts); into *out when out is
// not null.
bool ParseHost(std::string_view host, std::string* out, std::string* error) {
  if (!host.empty() && host[0] == '[') {
    const size_t close = host.rfind(']');
    if (close == std::string_view::npos) {
      *error = "missing ']' in host";
      return false;
    }
    const std::string_view colon_port = host.substr(close + 1);
    if (!ValidOptionalPort(colon_port)) {
      *error = "invalid port " + GoQuote(colon_port) + " after host";
      return false;
    }
    const size_t zone = host.substr(0, close).find("%25");
    if (zone != std::string_view::npos) {
      std::string h1, h2, h3;
      if (!UnescapeTo(host.substr(0, zone), Mode::kHost, &h1, error)) return false;
      if (!UnescapeTo(host.substr(zone, close - zone), Mode::kZone, &h2, error)) return false;
      if (!UnescapeTo(host.substr(close), Mode::kHost, &h3, error)) return false;
      if (out != nullptr) *out = h1 + h2 + h3;
      return true;
    }
    // Only an IPv6 address may stand in brackets (Go 1.25 and later).
    std::string inner;
    if (!UnescapeTo(host.substr(1, close - 1), Mode::kHost, &inner, error)) return false;
    std::string addr_error;
    std::optional<netip::Addr> addr = netip::ParseAddr(inner, &addr_error);
    if (!addr) {
      *error = "invalid host: " + addr_error;
      return false;
    }
    if (addr->is4) {
      *error = "invalid IP-literal";
      return false;
    }
  } else if (size_t colon = host.rfind(':'); colon != std::string_view::npos) {
    const std::string_view colon_port = host.substr(colon);
    if (!ValidOptionalPort(colon_port)) {
      *error = "invalid port " + GoQuote(colon_port) + " after host";
      return false;
    }
  }
  if (out != nullptr) return UnescapeTo(host, Mode::kHost, out, error);
  bool has_escapes = false;
  return ValidateEscapes(host, Mode::kHost, &has_escapes, error);
}

// Validates an authority; fills u's host and user when u is not null.
bool ParseAuthority(std::string_view authority, GoUrl* u, std::string* error) {
  const size_t at = authority.rfind('@');
  if (!ParseHost(at == std::string_view::npos ? authority : authority.substr(at + 1), u ? &u->host : nullptr, error)) {
    return false;
  }
  if (at == std::string_view::npos) return true;
  const std::string_view userinfo = authority.substr(0, at);
  if (!ValidUserinfo(userinfo)) {
    *error = "net/url: invalid userinfo";
    return false;
  }
  const size_t colon = userinfo.find(':');
  std::string scratch;
  if (!UnescapeTo(userinfo.substr(0, colon), Mode::kUserPassword, u ? &u->username : &scratch, error)) return false;
  if (u != nullptr) u->has_user = true;
  if (colon != std::string_view::npos) {
    if (!UnescapeTo(userinfo.substr(colon + 1), Mode::kUserPassword, u ? &u->password : &scratch, error)) return false;
    if (u != nullptr) u->has_password = true;
  }
  return true;
}

// net/url's getScheme: the scheme, and whether `rest` follows it.
bool GetScheme(std::string_view raw, std::string_view* scheme, std::string_view* rest, std::string* error) {
  for (size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) continue;
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') {
      if (i == 0) break;
      continue;
    }
    if (c == ':') {
      if (i == 0) {
        *error = "missing protocol scheme";
        return false;
      }
      *scheme = raw.substr(0, i);
      *rest = raw.substr(i + 1);
      return true;
    }
    break;
  }
  *scheme = {};
  *rest = raw;
  return true;
}

// net/url's parse. u (null to only validate) starts as GoUrl{}; it is unspecified on failure.
bool Parse(std::string_view raw, bool via_request, GoUrl* u, std::string* error) {
  for (unsigned char c : raw) {
    if (c < 0x20 || c == 0x7f) {
      *error = "net/url: invalid control character in URL";
      return false;
    }
  }
  if (raw.empty() && via_request) {
    *error = "empty url";
    return false;
  }
  if (raw == "*") {
    if (u != nullptr) u->path = "*";
    return true;
  }
  std::string_view scheme, rest;
  if (!GetScheme(raw, &scheme, &rest, error)) return false;
  if (u != nullptr) {
    u->scheme.assign(scheme);
    for (char& c : u->scheme) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  if (!rest.empty() && rest.back() == '?' && rest.find('?') == rest.size() - 1) {
    if (u != nullptr) u->force_query = true;
    rest.remove_suffix(1);
  } else if (size_t q = rest.find('?'); q != std::string_view::npos) {
    if (u != nullptr) u->raw_query.assign(rest.substr(q + 1));
    rest = rest.substr(0, q);
  }
  if (rest.empty() || rest[0] != '/') {
    if (!scheme.empty()) {
      if (u != nullptr) u->opaque.assign(rest);
      return true;
    }
    if (via_request) {
      *error = "invalid URI for request";
      return false;
    }
    const std::string_view segment = rest.substr(0, rest.find('/'));
    if (segment.find(':') != std::string_view::npos) {
      *error = "first path segment in URL cannot contain colon";
      return false;
    }
  }
  if ((!scheme.empty() || (!via_request && !rest.starts_with("///"))) && rest.starts_with("//")) {
    std::string_view authority = rest.substr(2);
    rest = {};
    if (size_t slash = authority.find('/'); slash != std::string_view::npos) {
      rest = authority.substr(slash);
      authority = authority.substr(0, slash);
    }
    if (!ParseAuthority(authority, u, error)) return false;
  } else if (!scheme.empty() && rest.starts_with("/")) {
    if (u != nullptr) u->omit_host = true;
  }
  if (u == nullptr) {
    bool has_escapes = false;
    return ValidateEscapes(rest, Mode::kPath, &has_escapes, error);
  }
  if (!UnescapeTo(rest, Mode::kPath, &u->path, error)) return false;
  if (!EscapesTo(u->path, Mode::kPath, rest)) u->raw_path.assign(rest);
  return true;
}

// Hostname and port as url.URL's splitHostPort splits them.
std::pair<std::string, std::string> SplitHostPort(const std::string& host_port) {
  std::string host = host_port, port;
  const size_t colon = host.rfind(':');
  if (colon != std::string::npos && ValidOptionalPort(std::string_view(host).substr(colon))) {
    port = host.substr(colon + 1);
    host.resize(colon);
  }
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return {host, port};
}

}  // namespace

std::string GoUrl::Hostname() const { return SplitHostPort(host).first; }
std::string GoUrl::Port() const { return SplitHostPort(host).second; }

std::string GoUrl::EscapedPath() const {
  if (!raw_path.empty() && ValidEncoded(raw_path, Mode::kPath)) {
    std::string error;
    auto p = Unescape(raw_path, Mode::kPath, &error);
    if (p && *p == path) return raw_path;
  }
  if (path == "*") return "*";
  return Escape(path, Mode::kPath);
}

std::map<std::string, std::vector<std::string>> GoUrl::Query() const {
  std::map<std::string, std::vector<std::string>> out;
  std::string_view q = raw_query;
  while (!q.empty()) {
    const size_t amp = q.find('&');
    std::string_view pair = q.substr(0, amp);
    q = amp == std::string_view::npos ? std::string_view() : q.substr(amp + 1);
    if (pair.find(';') != std::string_view::npos || pair.empty()) continue;
    const size_t eq = pair.find('=');
    std::string error;
    auto key = Unescape(pair.substr(0, eq), Mode::kQueryComponent, &error);
    if (!key) continue;
    auto value = Unescape(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1), Mode::kQueryComponent, &error);
    if (!value) continue;
    out[*key].push_back(std::move(*value));
  }
  return out;
}

std::string GoUrl::String() const {
  std::string out;
  if (!scheme.empty()) out += scheme + ":";
  if (!opaque.empty()) {
    out += opaque;
  } else {
    if (!scheme.empty() || !host.empty() || has_user) {
      if (!(omit_host && host.empty() && !has_user)) {
        if (!host.empty() || !path.empty() || has_user) out += "//";
        if (has_user) {
          out += Escape(username, Mode::kUserPassword);
          if (has_password) out += ":" + Escape(password, Mode::kUserPassword);
          out += "@";
        }
        if (!host.empty()) out += Escape(host, Mode::kHost);
      }
    }
    const std::string p = EscapedPath();
    if (!p.empty() && p[0] != '/' && !host.empty()) out += "/";
    if (out.empty()) {
      const std::string_view segment = std::string_view(p).substr(0, p.find('/'));
      if (segment.find(':') != std::string_view::npos) out += "./";
    }
    out += p;
  }
  if (force_query || !raw_query.empty()) out += "?" + raw_query;
  if (!fragment.empty()) out += "#" + Escape(fragment, Mode::kFragment);
  return out;
}

std::optional<GoUrl> ParseRequestUri(std::string_view raw, std::string* error) {
  std::string inner;
  std::optional<GoUrl> u(std::in_place);
  if (!Parse(raw, true, &*u, &inner)) {
    *error = "parse " + GoQuote(raw) + ": " + inner;
    return std::nullopt;
  }
  return u;
}

bool IsRequestUri(std::string_view raw) {
  std::string error;
  return Parse(raw, true, nullptr, &error);
}

std::optional<GoUrl> ParseUrl(std::string_view raw, std::string* error) {
  const size_t hash = raw.find('#');
  const std::string_view before = raw.substr(0, hash);
  std::string inner;
  std::optional<GoUrl> u(std::in_place);
  if (!Parse(before, false, &*u, &inner)) {
    *error = "parse " + GoQuote(before) + ": " + inner;
    return std::nullopt;
  }
  if (hash != std::string_view::npos) {
    if (!UnescapeTo(raw.substr(hash + 1), Mode::kFragment, &u->fragment, &inner)) {
      *error = "parse " + GoQuote(raw) + ": " + inner;
      return std::nullopt;
    }
  }
  return u;
}

bool ParseRequestUriAsUrl(std::string_view raw, GoUrl* out, std::string* error) {
  std::string inner;
  if (!Parse(raw, true, out, &inner)) {
    *error = "parse " + GoQuote(raw) + ": " + inner;
    return false;
  }
  // parse() reads a string the same way whether or not it is a request URI except for a "//"
  // (not "///") start without a scheme, an authority only to url.Parse; and url.Parse splits the
  // fragment off first. Without either, the request parse is url.Parse's answer.
  const bool authority_without_scheme = out->scheme.empty() && raw.starts_with("//") && !raw.starts_with("///");
  if (raw.find('#') == std::string_view::npos && !authority_without_scheme) return true;
  std::optional<GoUrl> u = ParseUrl(raw, error);
  if (!u) return false;
  *out = std::move(*u);
  return true;
}

}  // namespace kube::cel
