#include "validation/primitives.h"

#include <doctest/doctest.h>

namespace kube::validation {

TEST_CASE("primitives: name and key checks in kube's words") {
  CHECK(IsDns1123Label("my-name").empty());
  REQUIRE(IsDns1123Label("My_Name").size() == 1);
  CHECK(IsDns1123Label("a" + std::string(63, 'b')).front() == "must be no more than 63 characters");
  CHECK(IsDns1123Subdomain("a.b.c").empty());
  CHECK(IsDns1035Label("1abc").size() == 1);
  CHECK(IsQualifiedName("example.com/MyName").empty());
  CHECK(IsQualifiedName("/x") == std::vector<std::string>{"prefix part must be non-empty"});
  CHECK(IsQualifiedName("a/b/c").front().starts_with("a valid label key must consist of"));
  CHECK(IsValidLabelValue("").empty());
  CHECK(IsValidPortName("http").empty());
  CHECK(IsValidPortName("HTTP") == std::vector<std::string>{
                                       "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)",
                                       "must contain at least one letter (a-z)"});
  CHECK(IsValidPortName("a--b") == std::vector<std::string>{"must not contain consecutive hyphens"});
  CHECK(IsValidPortNum(0) == std::vector<std::string>{"must be between 1 and 65535, inclusive"});
  CHECK(IsValidPortNum(65535).empty());
  CHECK(IsEnvVarName("MY_VAR.1").empty());
  CHECK(IsEnvVarName("1VAR").size() == 1);
  CHECK(IsEnvVarName("..").back() == "must not be '..'");
  CHECK(IsRelaxedEnvVarName("1 VAR").empty());
  CHECK(IsRelaxedEnvVarName("A=B").size() == 1);
  CHECK(IsConfigMapKey("key.name").empty());
  CHECK(IsConfigMapKey("a b").front() ==
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or "
        "'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')");
  CHECK(IsValidPercent("10%").empty());
  CHECK(IsValidPercent("%").size() == 1);
  CHECK(IsCIdentifier("_a1").empty());
  CHECK(IsHttpHeaderName("X-Header").empty());
  CHECK(IsHttpHeaderName("X Header").size() == 1);
}

TEST_CASE("primitives: errors render values as kube does") {
  CHECK(Invalid("spec.x", "a\"b", "bad").Body() == "Invalid value: \"a\\\"b\": bad");
  CHECK(Invalid("spec.x", 5, "bad").Body() == "Invalid value: 5: bad");
  CHECK(NotSupported("spec.p", "X", {"TCP", "UDP"}).Body() ==
        "Unsupported value: \"X\": supported values: \"TCP\", \"UDP\"");
  CHECK(Required("spec.x").Body() == "Required value");
  CHECK(TooMany("spec.x", 3, 1).Body() == "Too many: 3: must have at most 1 item");
  CHECK(TooLong("data", 1048576).Body() == "Too long: may not be more than 1048576 bytes");
  CHECK(Index(Child("spec", "containers"), 2) == "spec.containers[2]");
  CHECK(Key("metadata.labels", "app") == "metadata.labels[app]");
}

TEST_CASE("primitives: IPs and CIDRs, legacy and strict") {
  CHECK(IsValidIPForLegacyField("ip", "10.0.0.1").empty());
  CHECK(IsValidIPForLegacyField("ip", "010.000.0.1").empty());
  CHECK(IsValidIPForLegacyField("ip", "::ffff:1.2.3.4").empty());
  auto bad = IsValidIPForLegacyField("ip", "not-an-ip");
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].Body() == "Invalid value: \"not-an-ip\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)");
  CHECK(IsValidIPForLegacyField("ip", "1.2.3.256").size() == 1);
  CHECK(IsValidIPForLegacyField("ip", "fe80::1%eth0").size() == 1);
  CHECK(IsValidIP("ip", "2001:db8::1").empty());
  CHECK(IsValidIP("ip", "2001:DB8::1")[0].detail == "must be in canonical form (\"2001:db8::1\")");
  CHECK(IsValidIP("ip", "01.2.3.4")[0].detail == "must not have leading 0s");
  auto v4 = ParseIPSloppy("::ffff:127.0.0.1");
  REQUIRE(v4);
  CHECK(v4->IsLoopback());
  CHECK(IsValidCIDRForLegacyField("c", "10.0.0.0/8").empty());
  CHECK(IsValidCIDRForLegacyField("c", "10.0.0.0/33").size() == 1);
  CHECK(IsValidCIDR("c", "10.0.0.1/8")[0].detail == "must not have bits set beyond the prefix length");
  CHECK(IsValidCIDR("c", "2001:db8::/64").empty());
}

TEST_CASE("primitives: label selectors and immutability") {
  auto sel = nlohmann::json::parse(R"({"matchLabels":{"a":"b"},
      "matchExpressions":[{"key":"k","operator":"In"},{"key":"k","operator":"Exists","values":["x"]},
                          {"key":"k","operator":"Near","values":["x"]}]})");
  auto errs = ValidateLabelSelector(sel, "spec.selector");
  REQUIRE(errs.size() == 3);
  CHECK(errs[0].field == "spec.selector.matchExpressions[0].values");
  CHECK(errs[0].type == FieldError::Type::kRequired);
  CHECK(errs[1].type == FieldError::Type::kForbidden);
  CHECK(errs[2].Body() == "Invalid value: \"Near\": not a valid selector operator");
  CHECK(ValidateImmutableField("a", "a", "f").empty());
  CHECK(ValidateImmutableField("b", "a", "f")[0].Body() == "Invalid value: \"b\": field is immutable");
  CHECK(ValidateNonnegativeField(-1, "f")[0].Body() == "Invalid value: -1: must be greater than or equal to 0");
}

TEST_CASE("primitives: quantities") {
  auto q = ParseQuantity("1Gi");
  REQUIRE(q);
  CHECK(q->Compare(*ParseQuantity("1024Mi")) == 0);
  CHECK(!ParseQuantity("abc"));
  CHECK(ParseQuantity(2)->Compare(*ParseQuantity("2")) == 0);
}

}  // namespace kube::validation
