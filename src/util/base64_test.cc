#include "util/base64.h"

#include <doctest/doctest.h>

namespace kube {

TEST_CASE("base64url: RFC 4648 vectors without padding") {
  CHECK(Base64UrlEncode("") == "");
  CHECK(Base64UrlEncode("f") == "Zg");
  CHECK(Base64UrlEncode("fo") == "Zm8");
  CHECK(Base64UrlEncode("foo") == "Zm9v");
  CHECK(Base64UrlEncode("foob") == "Zm9vYg");
  CHECK(Base64UrlEncode("\xfb\xff") == "-_8");
  for (std::string s : {"", "f", "fo", "foo", "foob", "fooba", "foobar", "\xfb\xff\x00\x01"}) {
    auto d = Base64UrlDecode(Base64UrlEncode(s));
    REQUIRE(d.has_value());
    CHECK(*d == s);
  }
}

TEST_CASE("base64url: rejects malformed input") {
  CHECK_FALSE(Base64UrlDecode("Zg==").has_value());  // padding is not part of the alphabet
  CHECK_FALSE(Base64UrlDecode("Z").has_value());     // impossible length
  CHECK_FALSE(Base64UrlDecode("Zm9v+A").has_value());
  CHECK_FALSE(Base64UrlDecode("Zh").has_value());    // non-zero trailing bits
}

}  // namespace kube
