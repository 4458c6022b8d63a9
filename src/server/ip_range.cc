#include "server/ip_range.h"

#include <arpa/inet.h>

#include <cstring>

namespace kube::server {

namespace {

// The address as a 128-bit number (IPv4 in the low 32 bits); nullopt for no address.
std::optional<std::pair<bool, Uint128>> ToNumber(const std::string& ip) {
  in_addr v4{};
  if (inet_pton(AF_INET, ip.c_str(), &v4) == 1) return std::make_pair(false, Uint128{ntohl(v4.s_addr)});
  in6_addr v6{};
  if (inet_pton(AF_INET6, ip.c_str(), &v6) != 1) return std::nullopt;
  Uint128 n = 0;
  for (unsigned char b : v6.s6_addr) n = (n << 8) | b;
  return std::make_pair(true, n);
}

std::string FromNumber(bool ipv6, Uint128 n) {
  char buf[INET6_ADDRSTRLEN];
  if (!ipv6) {
    in_addr a{htonl(static_cast<uint32_t>(n))};
    inet_ntop(AF_INET, &a, buf, sizeof buf);
    return buf;
  }
  in6_addr a{};
  for (int i = 15; i >= 0; --i) {
    a.s6_addr[i] = static_cast<unsigned char>(n & 0xff);
    n >>= 8;
  }
  inet_ntop(AF_INET6, &a, buf, sizeof buf);
  return buf;
}

}  // namespace

std::optional<IpRange> IpRange::Parse(const std::string& cidr) {
  const size_t slash = cidr.find('/');
  if (slash == std::string::npos) return std::nullopt;
  auto base = ToNumber(cidr.substr(0, slash));
  const std::string bits_text = cidr.substr(slash + 1);
  if (!base || bits_text.empty() || bits_text.size() > 3 || bits_text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  const int width = base->first ? 128 : 32;
  const int bits = std::stoi(bits_text);
  if (bits > width) return std::nullopt;
  IpRange r;
  r.ipv6_ = base->first;
  r.family_ = r.ipv6_ ? "IPv6" : "IPv4";
  r.cidr_ = cidr;
  const int host_bits = width - bits;
  const Uint128 size_minus_one = host_bits >= 128 ? ~Uint128{0} : (Uint128{1} << host_bits) - 1;
  r.network_ = base->second & ~size_minus_one;
  if (!r.ipv6_) r.network_ &= 0xffffffffu;
  // IPv4 loses the broadcast address; IPv6 has none.
  const Uint128 reserved_top = r.ipv6_ ? 0 : 1;
  r.last_usable_ = size_minus_one >= 1 + reserved_top ? size_minus_one - reserved_top : 0;
  return r;
}

bool IpRange::Contains(const std::string& ip) const {
  auto n = ToNumber(ip);
  if (!n || n->first != ipv6_ || n->second < network_) return false;
  const Uint128 offset = n->second - network_;
  return offset >= 1 && offset <= last_usable_;
}

std::string IpRange::At(Uint128 offset) const { return FromNumber(ipv6_, network_ + offset); }

std::string CanonicalIp(const std::string& ip) {
  auto n = ToNumber(ip);
  return n ? FromNumber(n->first, n->second) : "";
}

std::string IpFamilyOf(const std::string& ip) {
  auto n = ToNumber(ip);
  if (!n) return "";
  return n->first ? "IPv6" : "IPv4";
}

}  // namespace kube::server
