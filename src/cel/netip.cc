#include "cel/netip.h"

#include "util/go_format.h"

namespace kube::cel::netip {

namespace {

std::string AddrError(std::string_view in, std::string_view msg, std::optional<std::string_view> at = std::nullopt) {
  std::string out = "ParseAddr(" + GoQuote(in) + "): " + std::string(msg);
  if (at && !at->empty()) out += " (at " + GoQuote(*at) + ")";
  return out;
}

// Dotted-quad fields of in[off:end] into out[0..3]; errors name the whole input `in`.
bool ParseIPv4Fields(std::string_view in, size_t off, size_t end, uint8_t* out, std::string* error) {
  const std::string_view s = in.substr(off, end - off);
  int val = 0, pos = 0, digits = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      if (digits == 1 && val == 0) {
        *error = AddrError(in, "IPv4 field has octet with leading zero");
        return false;
      }
      val = val * 10 + (c - '0');
      ++digits;
      if (val > 255) {
        *error = AddrError(in, "IPv4 field has value >255");
        return false;
      }
    } else if (c == '.') {
      if (i == 0 || i == s.size() - 1 || s[i - 1] == '.') {
        *error = AddrError(in, "IPv4 field must have at least one digit", s.substr(i));
        return false;
      }
      if (pos == 3) {
        *error = AddrError(in, "IPv4 address too long");
        return false;
      }
      out[pos++] = static_cast<uint8_t>(val);
      val = 0;
      digits = 0;
    } else {
      *error = AddrError(in, "unexpected character", s.substr(i));
      return false;
    }
  }
  if (pos < 3) {
    *error = AddrError(in, "IPv4 address too short");
    return false;
  }
  out[3] = static_cast<uint8_t>(val);
  return true;
}

std::optional<Addr> ParseIPv4(std::string_view s, std::string* error) {
  Addr a;
  a.is4 = true;
  a.bytes[10] = a.bytes[11] = 0xff;
  if (!ParseIPv4Fields(s, 0, s.size(), &a.bytes[12], error)) return std::nullopt;
  return a;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<Addr> ParseIPv6(std::string_view in, std::string* error) {
  std::string_view s = in;
  std::string zone;
  if (size_t pct = s.find('%'); pct != std::string_view::npos) {
    zone = std::string(s.substr(pct + 1));
    s = s.substr(0, pct);
    if (zone.empty()) {
      *error = AddrError(in, "zone must be a non-empty string");
      return std::nullopt;
    }
  }
  const size_t end = s.size();  // of the address part, an offset into `in` too
  Addr a;
  int ellipsis = -1;
  if (s.size() >= 2 && s[0] == ':' && s[1] == ':') {
    ellipsis = 0;
    s.remove_prefix(2);
    if (s.empty()) {
      a.zone = zone;
      return a;
    }
  }
  int i = 0;
  while (i < 16) {
    size_t off = 0;
    uint32_t acc = 0;
    for (; off < s.size(); ++off) {
      const int h = HexValue(s[off]);
      if (h < 0) break;
      acc = (acc << 4) + static_cast<uint32_t>(h);
      if (acc > 0xffff) {
        *error = AddrError(in, "IPv6 field has value >=2^16", s);
        return std::nullopt;
      }
    }
    if (off == 0) {
      *error = AddrError(in, "each colon-separated field must have at least one digit", s);
      return std::nullopt;
    }
    if (off < s.size() && s[off] == '.') {
      if (ellipsis < 0 && i != 12) {
        *error = AddrError(in, "embedded IPv4 address must replace the final 2 fields of the address", s);
        return std::nullopt;
      }
      if (i + 4 > 16) {
        *error = AddrError(in, "too many hex fields to fit an embedded IPv4 at the end of the address", s);
        return std::nullopt;
      }
      if (!ParseIPv4Fields(in, end - s.size(), end, &a.bytes[i], error)) return std::nullopt;
      s = {};
      i += 4;
      break;
    }
    a.bytes[i] = static_cast<uint8_t>(acc >> 8);
    a.bytes[i + 1] = static_cast<uint8_t>(acc);
    i += 2;
    s.remove_prefix(off);
    if (s.empty()) break;
    if (s[0] != ':') {
      *error = AddrError(in, "unexpected character, want colon", s);
      return std::nullopt;
    }
    if (s.size() == 1) {
      *error = AddrError(in, "colon must be followed by more characters", s);
      return std::nullopt;
    }
    s.remove_prefix(1);
    if (s[0] == ':') {
      if (ellipsis >= 0) {
        *error = AddrError(in, "multiple :: in address", s);
        return std::nullopt;
      }
      ellipsis = i;
      s.remove_prefix(1);
      if (s.empty()) break;
    }
  }
  if (!s.empty()) {
    *error = AddrError(in, "trailing garbage after address", s);
    return std::nullopt;
  }
  if (i < 16) {
    if (ellipsis < 0) {
      *error = AddrError(in, "address string too short");
      return std::nullopt;
    }
    const int n = 16 - i;
    for (int j = i - 1; j >= ellipsis; --j) a.bytes[j + n] = a.bytes[j];
    for (int j = ellipsis + n - 1; j >= ellipsis; --j) a.bytes[j] = 0;
  } else if (ellipsis >= 0) {
    *error = AddrError(in, "the :: must expand to at least one field of zeros");
    return std::nullopt;
  }
  a.zone = zone;
  return a;
}

uint16_t Word(const Addr& a, int i) { return static_cast<uint16_t>(a.bytes[2 * i] << 8 | a.bytes[2 * i + 1]); }

// The IPv4 form of an IPv4-mapped address, else the address itself.
Addr Unmap(const Addr& a) {
  if (!a.Is4In6()) return a;
  Addr out = a;
  out.is4 = true;
  out.zone.clear();
  return out;
}

void AppendV4(const Addr& a, std::string* out) {
  for (int i = 12; i < 16; ++i) {
    if (i > 12) *out += '.';
    *out += std::to_string(a.bytes[i]);
  }
}

// Keeps the top `bits` bits of the 128-bit form.
void MaskBits(std::array<uint8_t, 16>& b, int bits) {
  for (int i = 0; i < 16; ++i) {
    const int keep = std::max(0, std::min(8, bits - 8 * i));
    b[i] &= static_cast<uint8_t>(keep == 0 ? 0 : (0xff << (8 - keep)) & 0xff);
  }
}

}  // namespace

bool Addr::Is4In6() const {
  if (is4) return false;
  for (int i = 0; i < 10; ++i) {
    if (bytes[i] != 0) return false;
  }
  return bytes[10] == 0xff && bytes[11] == 0xff;
}

bool Addr::IsUnspecified() const {
  if (is4) return bytes[12] == 0 && bytes[13] == 0 && bytes[14] == 0 && bytes[15] == 0;
  if (!zone.empty()) return false;
  for (uint8_t b : bytes) {
    if (b != 0) return false;
  }
  return true;
}

bool Addr::IsLoopback() const {
  const Addr a = Unmap(*this);
  if (a.is4) return a.bytes[12] == 127;
  for (int i = 0; i < 15; ++i) {
    if (a.bytes[i] != 0) return false;
  }
  return a.bytes[15] == 1;
}

bool Addr::IsMulticast() const {
  const Addr a = Unmap(*this);
  if (a.is4) return (a.bytes[12] & 0xf0) == 0xe0;
  return a.bytes[0] == 0xff;
}

bool Addr::IsLinkLocalMulticast() const {
  const Addr a = Unmap(*this);
  if (a.is4) return a.bytes[12] == 224 && a.bytes[13] == 0 && a.bytes[14] == 0;
  return (Word(a, 0) & 0xff0f) == 0xff02;
}

bool Addr::IsLinkLocalUnicast() const {
  const Addr a = Unmap(*this);
  if (a.is4) return a.bytes[12] == 169 && a.bytes[13] == 254;
  return (Word(a, 0) & 0xffc0) == 0xfe80;
}

bool Addr::IsGlobalUnicast() const {
  const Addr a = Unmap(*this);
  if (a.is4) {
    const bool broadcast = a.bytes[12] == 255 && a.bytes[13] == 255 && a.bytes[14] == 255 && a.bytes[15] == 255;
    if (a.IsUnspecified() || broadcast) return false;
  } else if (a.IsUnspecified()) {
    return false;
  }
  return !a.IsLoopback() && !a.IsMulticast() && !a.IsLinkLocalUnicast();
}

std::string Addr::String() const {
  std::string out;
  if (is4) {
    AppendV4(*this, &out);
    return out;
  }
  if (Is4In6()) {
    out = "::ffff:";
    AppendV4(*this, &out);
  } else {
    // The longest run of two or more zero words (the first of equals) becomes "::".
    int zero_start = -1, zero_len = 1;
    for (int i = 0; i < 8; ++i) {
      int j = i;
      while (j < 8 && Word(*this, j) == 0) ++j;
      if (j - i >= 2 && j - i > zero_len) {
        zero_start = i;
        zero_len = j - i;
      }
    }
    static const char kHex[] = "0123456789abcdef";
    for (int i = 0; i < 8; ++i) {
      if (i == zero_start) {
        out += "::";
        i += zero_len - 1;
        continue;
      }
      if (i > 0 && out.back() != ':') out += ':';
      const uint16_t w = Word(*this, i);
      bool started = false;
      for (int shift = 12; shift >= 0; shift -= 4) {
        const int d = (w >> shift) & 0xf;
        if (d != 0 || started || shift == 0) {
          out += kHex[d];
          started = true;
        }
      }
    }
  }
  if (!zone.empty()) out += "%" + zone;
  return out;
}

std::optional<Addr> ParseAddr(std::string_view s, std::string* error) {
  for (char c : s) {
    if (c == '.') return ParseIPv4(s, error);
    if (c == ':') return ParseIPv6(s, error);
    if (c == '%') {
      *error = AddrError(s, "missing IPv6 address");
      return std::nullopt;
    }
  }
  *error = AddrError(s, "unable to parse IP");
  return std::nullopt;
}

Prefix Prefix::Masked() const {
  Prefix out = *this;
  MaskBits(out.ip.bytes, ip.is4 ? bits + 96 : bits);
  return out;
}

bool Prefix::Contains(const Addr& a) const {
  if (!a.is4 && !a.zone.empty()) return false;
  if (a.is4 != ip.is4) return false;
  const int effective = ip.is4 ? bits + 96 : bits;
  std::array<uint8_t, 16> x = a.bytes, y = ip.bytes;
  MaskBits(x, effective);
  MaskBits(y, effective);
  return x == y;
}

bool Prefix::Overlaps(const Prefix& o) const {
  if (*this == o) return true;
  if (ip.is4 != o.ip.is4) return false;
  const int min_bits = std::min(bits, o.bits);
  if (min_bits == 0) return true;
  const int effective = ip.is4 ? min_bits + 96 : min_bits;
  std::array<uint8_t, 16> x = ip.bytes, y = o.ip.bytes;
  MaskBits(x, effective);
  MaskBits(y, effective);
  return x == y;
}

std::string Prefix::String() const { return ip.String() + "/" + std::to_string(bits); }

std::optional<Prefix> ParsePrefix(std::string_view s, std::string* error) {
  // Built only on failure: parsing valid prefixes is the common, hot case.
  auto head_of = [s] { return "netip.ParsePrefix(" + GoQuote(s) + "): "; };
  const size_t slash = s.rfind('/');
  if (slash == std::string_view::npos) {
    *error = head_of() + "no '/'";
    return std::nullopt;
  }
  std::string addr_error;
  std::optional<Addr> ip = ParseAddr(s.substr(0, slash), &addr_error);
  if (!ip) {
    *error = head_of() + addr_error;
    return std::nullopt;
  }
  if (!ip->is4 && !ip->zone.empty()) {
    *error = head_of() + "IPv6 zones cannot be present in a prefix";
    return std::nullopt;
  }
  const std::string_view bits_str = s.substr(slash + 1);
  // Decimal digits only, no sign and no leading zero (Go 1.22 and later).
  bool ok = !bits_str.empty() && bits_str.size() <= 4 && (bits_str.size() == 1 || bits_str[0] != '0');
  int bits = 0;
  for (char c : bits_str) {
    if (c < '0' || c > '9') ok = false;
    if (ok) bits = bits * 10 + (c - '0');
  }
  if (!ok) {
    // Atoi accepts any number of digits; only the range check tells long ones apart.
    bool all_digits = !bits_str.empty() && bits_str.size() <= 18 && bits_str[0] != '0';
    for (char c : bits_str) all_digits = all_digits && c >= '0' && c <= '9';
    if (all_digits) {
      *error = head_of() + "prefix length out of range";
    } else {
      *error = head_of() + "bad bits after slash: " + GoQuote(bits_str);
    }
    return std::nullopt;
  }
  if (bits > ip->BitLen()) {
    *error = head_of() + "prefix length out of range";
    return std::nullopt;
  }
  return Prefix{std::move(*ip), bits};
}

}  // namespace kube::cel::netip
