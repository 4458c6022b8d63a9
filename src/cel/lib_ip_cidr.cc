// kube's IP and CIDR libraries (k8s.io/apiserver/pkg/cel/library/ip.go and cidr.go): the opaque
// types `net.IP` and `net.CIDR`, parsed as Go's net/netip parses them, with IPv6 zones and
// IPv4-mapped IPv6 addresses refused as kube refuses them.
#include "cel/lib_internal.h"
#include "cel/netip.h"
#include "util/go_format.h"

namespace kube::cel::internal {

namespace {

constexpr Kind S = Kind::kString;
constexpr char kIpType[] = "net.IP";
constexpr char kCidrType[] = "net.CIDR";

class IpObject final : public OpaqueObject {
 public:
  explicit IpObject(netip::Addr addr) : addr_(std::move(addr)) {}
  std::string_view TypeName() const override { return kIpType; }
  bool Equals(const OpaqueObject& other) const override { return addr_ == static_cast<const IpObject&>(other).addr_; }
  std::string DebugString() const override { return "ip(" + GoQuote(addr_.String()) + ")"; }
  const netip::Addr& addr() const { return addr_; }

 private:
  netip::Addr addr_;
};

// Holds its address as an IpObject too, so that ip() hands out that member under the cidr value's
// own count (Value::OpaquePart) instead of allocating an object per call.
class CidrObject final : public OpaqueObject {
 public:
  explicit CidrObject(netip::Prefix prefix) : prefix_(std::move(prefix)), ip_(prefix_.ip) {}
  std::string_view TypeName() const override { return kCidrType; }
  bool Equals(const OpaqueObject& other) const override {
    return prefix_ == static_cast<const CidrObject&>(other).prefix_;
  }
  std::string DebugString() const override { return "cidr(" + GoQuote(prefix_.String()) + ")"; }
  const netip::Prefix& prefix() const { return prefix_; }
  const IpObject& ip() const { return ip_; }

 private:
  netip::Prefix prefix_;
  IpObject ip_;
};

const netip::Addr& AddrOf(const Value& v) { return static_cast<const IpObject&>(v.AsOpaque()).addr(); }
const netip::Prefix& PrefixOf(const Value& v) { return static_cast<const CidrObject&>(v.AsOpaque()).prefix(); }

// kube's parseIPAddr: netip.ParseAddr without zones or IPv4-mapped IPv6 addresses.
std::optional<netip::Addr> ParseIp(const std::string& s, std::string* error) {
  std::string parse_error;
  std::optional<netip::Addr> addr = netip::ParseAddr(s, &parse_error);
  if (!addr) {
    *error = "IP Address " + GoQuote(s) + " parse error during conversion from string: " + parse_error;
    return std::nullopt;
  }
  if (!addr->zone.empty()) {
    *error = "IP address " + GoQuote(s) + " with zone value is not allowed";
    return std::nullopt;
  }
  if (addr->Is4In6()) {
    *error = "IPv4-mapped IPv6 address " + GoQuote(s) + " is not allowed";
    return std::nullopt;
  }
  return addr;
}

// kube's parseCIDR: netip.ParsePrefix without IPv4-mapped IPv6 addresses. The message carries
// kube's prefix once here and once more where cidr() reports it, as kube's does.
std::optional<netip::Prefix> ParseCidr(const std::string& s, std::string* error) {
  std::string parse_error;
  std::optional<netip::Prefix> prefix = netip::ParsePrefix(s, &parse_error);
  if (!prefix) {
    *error = "network address parse error during conversion from string: " + parse_error;
    return std::nullopt;
  }
  if (prefix->ip.Is4In6()) {
    *error = "IPv4-mapped IPv6 address " + GoQuote(s) + " is not allowed";
    return std::nullopt;
  }
  return prefix;
}

Value IpValue(netip::Addr a) { return Value::MakeOpaque<IpObject>(std::move(a)); }
Value CidrValue(netip::Prefix p) { return Value::MakeOpaque<CidrObject>(std::move(p)); }

Value StringToIp(const std::string& s) {
  std::string error;
  std::optional<netip::Addr> addr = ParseIp(s, &error);
  return addr ? IpValue(std::move(*addr)) : Value::Error(error);
}

Value StringToCidr(const std::string& s) {
  std::string error;
  std::optional<netip::Prefix> prefix = ParseCidr(s, &error);
  if (!prefix) return Value::Error("network address parse error during conversion from string: " + error);
  return CidrValue(std::move(*prefix));
}

// ConvertOnce's tags: one object each, shared by ip() and isIP(), cidr() and isCIDR().
constexpr char kIpConversion[] = "ip";
constexpr char kCidrConversion[] = "cidr";

// (prefix, other) of containsCIDR: other's bits must be at least as many and the two overlap.
bool ContainsCidr(const netip::Prefix& p, const netip::Prefix& other) {
  return p.Overlaps(other) && p.bits <= other.bits;
}

}  // namespace

void RegisterIpLibrary(FunctionRegistry& r) {
  const Param ip = Param::Opaque(kIpType);
  AddGlobal(r, "ip", {S}, [](const Value* a, CallContext& ctx) {
    ctx.AddCost(TraversalCost(a[0].AsString().size()));
    return ConvertOnce(ctx, kIpConversion, a[0], [&] { return StringToIp(a[0].AsString()); });
  });
  AddGlobal(r, "isIP", {S}, [](const Value* a, CallContext& ctx) {
    ctx.AddCost(TraversalCost(a[0].AsString().size()));
    return Value::Bool(!ConvertOnce(ctx, kIpConversion, a[0], [&] { return StringToIp(a[0].AsString()); }).IsError());
  });
  AddGlobal(r, "ip.isCanonical", {S}, [](const Value* a, CallContext& ctx) {
    ctx.AddCost(TraversalCost(a[0].AsString().size() * 2));
    std::string error;
    std::optional<netip::Addr> addr = ParseIp(a[0].AsString(), &error);
    if (!addr) return Value::Error(error);
    return Value::Bool(addr->String() == a[0].AsString());
  });
  AddGlobal(r, "string", {ip}, [](const Value* a, CallContext&) { return Value::String(AddrOf(a[0]).String()); });
  AddMember(r, "family", {ip}, [](const Value* a, CallContext&) { return Value::Int(AddrOf(a[0]).is4 ? 4 : 6); });
  auto predicate = [&](std::string_view name, bool (netip::Addr::*test)() const) {
    AddMember(r, name, {ip}, [test](const Value* a, CallContext&) { return Value::Bool((AddrOf(a[0]).*test)()); });
  };
  predicate("isUnspecified", &netip::Addr::IsUnspecified);
  predicate("isLoopback", &netip::Addr::IsLoopback);
  predicate("isLinkLocalMulticast", &netip::Addr::IsLinkLocalMulticast);
  predicate("isLinkLocalUnicast", &netip::Addr::IsLinkLocalUnicast);
  predicate("isGlobalUnicast", &netip::Addr::IsGlobalUnicast);
}

void RegisterCidrLibrary(FunctionRegistry& r) {
  const Param ip = Param::Opaque(kIpType), cidr = Param::Opaque(kCidrType);
  AddGlobal(r, "cidr", {S}, [](const Value* a, CallContext& ctx) {
    ctx.AddCost(TraversalCost(a[0].AsString().size()));
    return ConvertOnce(ctx, kCidrConversion, a[0], [&] { return StringToCidr(a[0].AsString()); });
  });
  AddGlobal(r, "isCIDR", {S}, [](const Value* a, CallContext& ctx) {
    ctx.AddCost(TraversalCost(a[0].AsString().size()));
    return Value::Bool(!ConvertOnce(ctx, kCidrConversion, a[0], [&] { return StringToCidr(a[0].AsString()); }).IsError());
  });
  AddGlobal(r, "string", {cidr}, [](const Value* a, CallContext&) { return Value::String(PrefixOf(a[0]).String()); });
  AddMember(r, "containsIP", {cidr, S}, [](const Value* a, CallContext& ctx) {
    ctx.AddCost(TraversalCost(a[1].AsString().size()));
    Value other = StringToIp(a[1].AsString());
    if (other.IsError()) return other;
    return Value::Bool(PrefixOf(a[0]).Contains(AddrOf(other)));
  });
  AddMember(r, "containsIP", {cidr, ip}, [](const Value* a, CallContext&) {
    return Value::Bool(PrefixOf(a[0]).Contains(AddrOf(a[1])));
  });
  AddMember(r, "containsCIDR", {cidr, S}, [](const Value* a, CallContext& ctx) {
    ctx.AddCost(TraversalCost(a[1].AsString().size()));
    Value other = StringToCidr(a[1].AsString());
    if (other.IsError()) return other;
    return Value::Bool(ContainsCidr(PrefixOf(a[0]), PrefixOf(other)));
  });
  AddMember(r, "containsCIDR", {cidr, cidr}, [](const Value* a, CallContext&) {
    return Value::Bool(ContainsCidr(PrefixOf(a[0]), PrefixOf(a[1])));
  });
  AddMember(r, "ip", {cidr}, [](const Value* a, CallContext&) {
    return Value::OpaquePart(a[0], static_cast<const CidrObject&>(a[0].AsOpaque()).ip());
  });
  AddMember(r, "masked", {cidr}, [](const Value* a, CallContext&) { return CidrValue(PrefixOf(a[0]).Masked()); });
  AddMember(r, "prefixLength", {cidr}, [](const Value* a, CallContext&) { return Value::Int(PrefixOf(a[0]).bits); });
}

}  // namespace kube::cel::internal
