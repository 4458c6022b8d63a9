#include <doctest/doctest.h>

#include "cel/function_registry.h"
#include "cel/lib_test_helpers.h"

namespace kube::cel {
namespace {

using testing::Eval;

TEST_CASE("ip: parsing, canonical strings and kube's error messages") {
  CHECK(Eval("ip('192.168.0.1') == ip('192.168.0.1')") == "true");
  CHECK(Eval("ip('192.168.0.1') == ip('192.168.0.2')") == "false");
  CHECK(Eval("string(ip('2001:0DB8:0000:0000:0000:0000:0000:0001'))") == "\"2001:db8::1\"");
  CHECK(Eval("string(ip('1:0:0:1:0:0:0:1'))") == "\"1:0:0:1::1\"");
  CHECK(Eval("string(ip('1:0:0:1:0:0:1:1'))") == "\"1::1:0:0:1:1\"");
  CHECK(Eval("string(ip('::'))") == "\"::\"");
  CHECK(Eval("string(ip('::1.2.3.4'))") == "\"::102:304\"");
  CHECK(Eval("type(ip('10.0.0.1'))") == "net.IP");
  CHECK(Eval("ip('1.2.3')") ==
        "error: IP Address \"1.2.3\" parse error during conversion from string: ParseAddr(\"1.2.3\"): IPv4 address too short");
  CHECK(Eval("ip('')") ==
        "error: IP Address \"\" parse error during conversion from string: ParseAddr(\"\"): unable to parse IP");
  CHECK(Eval("ip('01.2.3.4')").ends_with("ParseAddr(\"01.2.3.4\"): IPv4 field has octet with leading zero"));
  CHECK(Eval("ip('1.2.3.256')").ends_with("IPv4 field has value >255"));
  CHECK(Eval("ip('1..2.3')").ends_with("IPv4 field must have at least one digit (at \".2.3\")"));
  CHECK(Eval("ip('1.2.3.4.5')").ends_with("IPv4 address too long"));
  CHECK(Eval("ip('1.2.3.x')").ends_with("unexpected character (at \"x\")"));
  CHECK(Eval("ip('1::2::3')").ends_with("multiple :: in address (at \":3\")"));
  CHECK(Eval("ip('1:2:3:4:5:6:7')").ends_with("address string too short"));
  CHECK(Eval("ip('1:2:3:4:5:6:7:8:9')").ends_with("trailing garbage after address (at \"9\")"));
  CHECK(Eval("ip('12345::')").ends_with("IPv6 field has value >=2^16 (at \"12345::\")"));
  CHECK(Eval("ip('1:2:3:4::5:6:7:8')").ends_with("the :: must expand to at least one field of zeros"));
  CHECK(Eval("ip('%eth0')").ends_with("ParseAddr(\"%eth0\"): missing IPv6 address"));
  CHECK(Eval("ip('fe80::1%')").ends_with("zone must be a non-empty string"));
  CHECK(Eval("ip('fe80::1%eth0')") == "error: IP address \"fe80::1%eth0\" with zone value is not allowed");
  CHECK(Eval("ip('::ffff:1.2.3.4')") == "error: IPv4-mapped IPv6 address \"::ffff:1.2.3.4\" is not allowed");
  CHECK(Eval("ip('\\xff\\x00')").starts_with("error: IP Address \""));
}

TEST_CASE("ip: isIP and ip.isCanonical") {
  CHECK(Eval("isIP('1.2.3.4')") == "true");
  CHECK(Eval("isIP('::1')") == "true");
  CHECK(Eval("isIP('foo')") == "false");
  CHECK(Eval("isIP('')") == "false");
  CHECK(Eval("isIP('::ffff:1.2.3.4')") == "false");
  CHECK(Eval("ip.isCanonical('2001:db8::1')") == "true");
  CHECK(Eval("ip.isCanonical('2001:DB8::1')") == "false");
  CHECK(Eval("ip.isCanonical('2001:db8:0::1')") == "false");
  CHECK(Eval("ip.isCanonical('127.0.0.1')") == "true");
  CHECK(Eval("ip.isCanonical('1.2.3')").starts_with("error: IP Address \"1.2.3\""));
}

TEST_CASE("ip: family and address classes as netip defines them") {
  CHECK(Eval("ip('1.2.3.4').family()") == "4");
  CHECK(Eval("ip('::1').family()") == "6");
  CHECK(Eval("[ip('0.0.0.0').isUnspecified(), ip('::').isUnspecified(), ip('0.0.0.1').isUnspecified()]") ==
        "[true, true, false]");
  CHECK(Eval("[ip('127.0.0.5').isLoopback(), ip('::1').isLoopback(), ip('::2').isLoopback()]") == "[true, true, false]");
  CHECK(Eval("[ip('224.0.0.1').isLinkLocalMulticast(), ip('ff02::1').isLinkLocalMulticast(), "
             "ip('224.0.1.1').isLinkLocalMulticast(), ip('ff05::1').isLinkLocalMulticast()]") ==
        "[true, true, false, false]");
  CHECK(Eval("[ip('169.254.1.1').isLinkLocalUnicast(), ip('fe80::1').isLinkLocalUnicast(), "
             "ip('fec0::1').isLinkLocalUnicast()]") == "[true, true, false]");
  CHECK(Eval("[ip('8.8.8.8').isGlobalUnicast(), ip('10.0.0.1').isGlobalUnicast(), "
             "ip('255.255.255.255').isGlobalUnicast(), ip('0.0.0.0').isGlobalUnicast(), "
             "ip('2001:db8::1').isGlobalUnicast(), ip('::1').isGlobalUnicast(), ip('ff00::1').isGlobalUnicast(), "
             "ip('fe80::1').isGlobalUnicast(), ip('224.0.0.1').isGlobalUnicast()]") ==
        "[true, true, false, false, true, false, false, false, false]");
  CHECK(Eval("'1.2.3.4'.family()").starts_with("error: no such overload"));
}

TEST_CASE("cidr: parsing and kube's doubled error prefix") {
  CHECK(Eval("cidr('10.0.0.0/8') == cidr('10.0.0.0/8')") == "true");
  CHECK(Eval("cidr('10.0.0.1/8') == cidr('10.0.0.0/8')") == "false");
  CHECK(Eval("string(cidr('2001:DB8::/32'))") == "\"2001:db8::/32\"");
  CHECK(Eval("type(cidr('10.0.0.0/8'))") == "net.CIDR");
  const std::string prefix =
      "error: network address parse error during conversion from string: network address parse error during "
      "conversion from string: netip.ParsePrefix(";
  CHECK(Eval("cidr('1.2.3.4')") == prefix + "\"1.2.3.4\"): no '/'");
  CHECK(Eval("cidr('1.2.3.4/33')") == prefix + "\"1.2.3.4/33\"): prefix length out of range");
  CHECK(Eval("cidr('::/129')") == prefix + "\"::/129\"): prefix length out of range");
  CHECK(Eval("cidr('1.2.3.4/08')") == prefix + "\"1.2.3.4/08\"): bad bits after slash: \"08\"");
  CHECK(Eval("cidr('1.2.3.4/-1')") == prefix + "\"1.2.3.4/-1\"): bad bits after slash: \"-1\"");
  CHECK(Eval("cidr('1.2.3.4/')") == prefix + "\"1.2.3.4/\"): bad bits after slash: \"\"");
  CHECK(Eval("cidr('1.2.3/8')") == prefix + "\"1.2.3/8\"): ParseAddr(\"1.2.3\"): IPv4 address too short");
  CHECK(Eval("cidr('fe80::%eth0/64')") == prefix + "\"fe80::%eth0/64\"): IPv6 zones cannot be present in a prefix");
  CHECK(Eval("cidr('::ffff:1.2.3.4/96')") ==
        "error: network address parse error during conversion from string: IPv4-mapped IPv6 address "
        "\"::ffff:1.2.3.4/96\" is not allowed");
  CHECK(Eval("[isCIDR('10.0.0.0/8'), isCIDR('10.0.0.0'), isCIDR(''), isCIDR('::/0')]") == "[true, false, false, true]");
}

TEST_CASE("cidr: containment, ip, masked and prefixLength") {
  CHECK(Eval("cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))") == "true");
  CHECK(Eval("cidr('192.168.0.0/24').containsIP('192.168.1.1')") == "false");
  CHECK(Eval("cidr('192.168.0.0/24').containsIP('::1')") == "false");
  CHECK(Eval("cidr('0.0.0.0/0').containsIP('255.255.255.255')") == "true");
  CHECK(Eval("cidr('::/0').containsIP('1.2.3.4')") == "false");
  CHECK(Eval("cidr('2001:db8::/32').containsIP('2001:db8:ffff::1')") == "true");
  CHECK(Eval("cidr('10.0.0.0/8').containsIP('10.0.0')").starts_with("error: IP Address \"10.0.0\""));
  CHECK(Eval("cidr('192.168.0.0/24').containsCIDR('192.168.0.0/25')") == "true");
  CHECK(Eval("cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.0/24'))") == "true");
  CHECK(Eval("cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.0/23'))") == "false");
  CHECK(Eval("cidr('192.168.0.0/24').containsCIDR('192.168.1.0/25')") == "false");
  CHECK(Eval("cidr('192.168.0.0/24').containsCIDR('::/0')") == "false");
  CHECK(Eval("cidr('10.0.0.0/8').containsCIDR('10.0.0.0')").starts_with("error: network address parse error"));
  CHECK(Eval("cidr('192.168.0.1/24').ip() == ip('192.168.0.1')") == "true");
  CHECK(Eval("string(cidr('192.168.0.1/24').masked())") == "\"192.168.0.0/24\"");
  CHECK(Eval("string(cidr('2001:db8:ffff::1/33').masked())") == "\"2001:db8:8000::/33\"");
  CHECK(Eval("cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24')") == "true");
  CHECK(Eval("cidr('192.168.0.1/24').prefixLength()") == "24");
  CHECK(Eval("cidr('::/0').prefixLength()") == "0");
}

TEST_CASE("cidr: ip() shares the cidr's object and outlives the cidr value it came from") {
  CHECK(Eval("cidr('10.1.2.3/8').ip() == ip('10.1.2.3')") == "true");
  CHECK(Eval("string(cidr('2001:db8::1/32').ip())") == "\"2001:db8::1\"");
  CHECK(Eval("cidr('10.1.2.3/8').ip()") == "ip(\"10.1.2.3\")");
  CHECK(Eval("type(cidr('10.1.2.3/8').ip())") == "net.IP");
  CHECK(Eval("cidr('10.1.2.3/8').masked().ip() == ip('10.0.0.0')") == "true");
  CHECK(Eval("['10.0.0.0/8', '192.168.1.0/24'].map(c, cidr(c).ip())") == "[ip(\"10.0.0.0\"), ip(\"192.168.1.0\")]");
  CHECK(Eval("['10.0.0.0/8', '::1/128'].map(c, cidr(c).ip().family())") == "[4, 6]");
  CHECK(Eval("cidr('10.0.0.0/8').containsIP(cidr('10.9.9.9/32').ip())") == "true");
  CHECK(Eval("cidr('10.0.0.0/8').ip().isLoopback()") == "false");
  CHECK(Eval("cidr('10.0.0.0/8').ip() == cidr('10.0.0.0/16').ip()") == "true");
}

// An opaque object whose type name is held in its own string, never the array a Param names.
class NamedObject final : public OpaqueObject {
 public:
  explicit NamedObject(std::string name) : name_(std::move(name)) {}
  std::string_view TypeName() const override { return name_; }
  bool Equals(const OpaqueObject&) const override { return true; }
  std::string DebugString() const override { return name_; }

 private:
  std::string name_;
};

TEST_CASE("function registry: opaque parameters match the type name's text, wherever it is stored") {
  FunctionRegistry r;
  r.Add("f", {.receiver = false, .params = {Param::Opaque("net.IP")}},
        [](const Value*, CallContext&) { return Value::Int(1); });
  r.Add("f", {.receiver = false, .params = {Param::Opaque(nullptr)}},
        [](const Value*, CallContext&) { return Value::Int(2); });
  r.Add("f", {.receiver = false, .params = {Param(Kind::kString)}},
        [](const Value*, CallContext&) { return Value::Int(3); });
  const int32_t id = r.Find("f");
  REQUIRE(id >= 0);
  CallContext ctx;
  auto call = [&](const Value& v) { return DebugString(r.Call(id, false, &v, 1, ctx)); };
  CHECK(call(Value::Opaque(std::make_shared<const NamedObject>(std::string("net.") + "IP"))) == "1");
  CHECK(call(Value::Opaque(std::make_shared<const NamedObject>("net.IPv"))) == "2");
  CHECK(call(Value::Opaque(std::make_shared<const NamedObject>("net.I"))) == "2");
  CHECK(call(Value::Opaque(std::make_shared<const NamedObject>(""))) == "2");
  CHECK(call(Value::String("net.IP")) == "3");
  CHECK(r.Call(id, false, nullptr, 0, ctx).IsError());
  // The library's own objects, which name their type with the registered array.
  CHECK(Eval("ip('1.2.3.4').family()") == "4");
  CHECK(Eval("cidr('10.0.0.0/8').ip().family()") == "4");
  CHECK(Eval("ip('1.2.3.4').prefixLength()").starts_with("error: no such overload"));
}

}  // namespace
}  // namespace kube::cel
