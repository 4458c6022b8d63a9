// IP addresses and prefixes as Go's net/netip reads, classifies and prints them, which is what
// kube's IP and CIDR libraries (and Go's net/url for bracketed hosts) build on. Parse errors are
// worded as netip words them: `ParseAddr("1.2.3"): IPv4 address too short`,
// `netip.ParsePrefix("1.2.3.4/33"): prefix length out of range`.
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kube::cel::netip {

struct Addr {
  bool is4 = false;                // IPv4 (otherwise IPv6, possibly an IPv4-mapped one)
  std::array<uint8_t, 16> bytes{};  // IPv4 in the last four bytes, the rest as ::ffff:0:0/96
  std::string zone;                // IPv6 scoped zone ("eth0"), empty when none

  bool Is4In6() const;
  bool IsUnspecified() const;
  bool IsLoopback() const;
  bool IsMulticast() const;
  bool IsLinkLocalMulticast() const;
  bool IsLinkLocalUnicast() const;
  bool IsGlobalUnicast() const;
  int BitLen() const { return is4 ? 32 : 128; }
  // "192.0.2.1", "2001:db8::1" (RFC 5952), "::ffff:1.2.3.4", "fe80::1%eth0".
  std::string String() const;
  friend bool operator==(const Addr&, const Addr&) = default;
};

// netip.ParseAddr. On failure returns nullopt with *error set.
std::optional<Addr> ParseAddr(std::string_view s, std::string* error);

struct Prefix {
  Addr ip;       // not masked (as ParsePrefix leaves it)
  int bits = 0;  // 0..32 for IPv4, 0..128 for IPv6

  Prefix Masked() const;
  // netip.Prefix.Contains: false across families and for addresses with a zone.
  bool Contains(const Addr& a) const;
  bool Overlaps(const Prefix& o) const;
  std::string String() const;  // "10.0.0.0/8"
  friend bool operator==(const Prefix&, const Prefix&) = default;
};

// netip.ParsePrefix ("10.0.0.0/8"; zones refused; bits decimal without sign or leading zeros).
std::optional<Prefix> ParsePrefix(std::string_view s, std::string* error);

}  // namespace kube::cel::netip
