// An IPv4 or IPv6 CIDR range as the Service IP allocator sees it: which addresses it holds,
// which it may hand out, and the address at an offset from its network address.
//
// Thread-safety: immutable after Parse; safe to share.
#pragma once

#include <optional>
#include <string>

namespace kube::server {

using Uint128 = unsigned __int128;

class IpRange {
 public:
  // "10.0.0.0/24" or "fd00::/108"; nullopt when it is not a CIDR.
  static std::optional<IpRange> Parse(const std::string& cidr);

  bool ipv6() const { return ipv6_; }
  const std::string& family() const { return family_; }  // "IPv4" / "IPv6"
  const std::string& cidr() const { return cidr_; }

  // The first address after the network address (the kubernetes Service's).
  std::string First() const { return At(1); }
  // Whether `ip` (any spelling) is an address of this family inside the range, network and
  // (IPv4) broadcast addresses excluded.
  bool Contains(const std::string& ip) const;
  // Offsets a dynamic allocation may pick: [2, last] — the network address and First() are
  // never handed out, nor the IPv4 broadcast address. Zero when the range is too small.
  Uint128 FirstDynamic() const { return 2; }
  Uint128 LastDynamic() const { return last_usable_; }
  std::string At(Uint128 offset) const;

 private:
  bool ipv6_ = false;
  std::string family_, cidr_;
  Uint128 network_ = 0;
  Uint128 last_usable_ = 0;  // offset of the last address a Service may have
};

// The canonical spelling of an IP address ("10.0.0.1", "fd00::1"), or "" when `ip` is none.
std::string CanonicalIp(const std::string& ip);
// "IPv4", "IPv6", or "" for no address.
std::string IpFamilyOf(const std::string& ip);

}  // namespace kube::server
