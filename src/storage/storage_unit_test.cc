// Unit tests of the storage helpers: keys, resourceVersions, list-option validation, continue
// tokens, object encoding.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "storage/continue_token.h"
#include "storage/keys.h"
#include "storage/object_codec.h"
#include "storage/resource_version.h"
#include "util/base64.h"

namespace kube::storage {

using namespace std::string_literals;

TEST_CASE("keys: PrepareKey enforces the 1.35 rules") {
  CHECK(*PrepareKey("/pods", "/pods/ns/a", false) == "/pods/ns/a");
  CHECK(*PrepareKey("/pods", "/pods", true) == "/pods/");
  CHECK(*PrepareKey("/pods/", "/pods/ns", true) == "/pods/ns/");
  CHECK_FALSE(PrepareKey("/pods", "/pods", false).ok());
  CHECK_FALSE(PrepareKey("/pods", "/podsx/a", false).ok());
  CHECK_FALSE(PrepareKey("/pods", "", false).ok());
  CHECK_FALSE(PrepareKey("/pods", "/", true).ok());
  for (const char* bad : {"..", "/pods/../x", "/pods/ns/..", "../pods", ".", "/pods/./a", "/pods/a/."}) {
    CAPTURE(bad);
    CHECK_FALSE(PrepareKey("/pods", bad, false).ok());
  }
  CHECK(PrepareKey("/pods", "/pods/ns/a..b", false).ok());
}

TEST_CASE("resourceVersion: parsing") {
  CHECK(*ParseResourceVersion("") == 0);
  CHECK(*ParseResourceVersion("0") == 0);
  CHECK(*ParseResourceVersion("12345") == 12345);
  for (const char* bad : {"-1", "abc", "1.5", " 1", "18446744073709551616"}) {
    CAPTURE(bad);
    auto r = ParseResourceVersion(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == StatusCode::kBadRequest);
  }
}

TEST_CASE("list options: validation picks exact, minimum and continue reads") {
  ListOptions o;
  o.recursive = true;
  auto latest = ValidateListOptions("/registry/pods/", o);
  REQUIRE(latest.ok());
  CHECK(latest->exact_revision == 0);
  CHECK(latest->min_revision == 0);

  o.resource_version = "7";
  CHECK(ValidateListOptions("/registry/pods/", o)->min_revision == 7);
  o.predicate.limit = 5;  // legacy exact
  CHECK(ValidateListOptions("/registry/pods/", o)->exact_revision == 7);
  o.recursive = false;    // ... only for recursive lists
  CHECK(ValidateListOptions("/registry/pods/", o)->exact_revision == 0);
  o.recursive = true;
  o.resource_version_match = "Exact";
  o.predicate.limit = 0;
  CHECK(ValidateListOptions("/registry/pods/", o)->exact_revision == 7);
  o.resource_version_match = "NotOlderThan";
  CHECK(ValidateListOptions("/registry/pods/", o)->min_revision == 7);
  o.resource_version_match = "Whatever";
  CHECK(ValidateListOptions("/registry/pods/", o).status().message() ==
        "unknown ResourceVersionMatch value: Whatever");

  ListOptions c;
  c.recursive = true;
  c.predicate.continue_token = *EncodeContinueToken("/registry/pods/ns/a\0"s, "/registry/pods/", 9);
  auto cont = ValidateListOptions("/registry/pods/", c);
  REQUIRE(cont.ok());
  CHECK(cont->exact_revision == 9);
  CHECK(cont->continue_key == "/registry/pods/ns/a\0"s);
  c.predicate.continue_token = *EncodeContinueToken("/registry/pods/ns/a\0"s, "/registry/pods/", -1);
  CHECK(ValidateListOptions("/registry/pods/", c)->continue_at_latest);
}

TEST_CASE("continue tokens: kube's exact format and validation") {
  using namespace std::string_literals;
  auto token = EncodeContinueToken("/registry/pods/ns/name\0"s, "/registry/pods/", 42);
  REQUIRE(token.ok());
  CHECK(*Base64UrlDecode(*token) == R"({"rv":42,"start":"ns/name\u0000","v":"meta.k8s.io/v1"})");
  auto decoded = DecodeContinueToken(*token, "/registry/pods/");
  REQUIRE(decoded.ok());
  CHECK(decoded->resource_version == 42);
  CHECK(decoded->start_key == "/registry/pods/ns/name\0"s);
  // A token minted upstream (Go's field order) decodes the same.
  auto upstream = Base64UrlEncode(R"({"v":"meta.k8s.io/v1","rv":42,"start":"ns/name\u0000"})");
  CHECK(DecodeContinueToken(upstream, "/registry/pods/")->start_key == "/registry/pods/ns/name\0"s);

  auto bad = [](const std::string& json) {
    auto r = DecodeContinueToken(Base64UrlEncode(json), "/registry/pods/");
    REQUIRE_FALSE(r.ok());
    return r.status().message();
  };
  CHECK(bad(R"({"v":"meta.k8s.io/v2","rv":1,"start":"a"})") ==
        "continue key is not valid: server does not recognize this encoded version \"meta.k8s.io/v2\"");
  CHECK(bad(R"({"v":"meta.k8s.io/v1","rv":0,"start":"a"})") ==
        "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
  CHECK(bad(R"({"v":"meta.k8s.io/v1","rv":1,"start":""})") ==
        "continue key is not valid: encoded start key empty (version meta.k8s.io/v1)");
  CHECK(bad(R"({"v":"meta.k8s.io/v1","rv":1,"start":"../secrets/x"})").starts_with("continue key is not valid"));
  CHECK(bad(R"({"v":"meta.k8s.io/v1","rv":1,"start":"a//b"})").starts_with("continue key is not valid"));
  CHECK(bad("[1,2]").starts_with("continue key is not valid"));
  CHECK_FALSE(DecodeContinueToken("%%%", "/registry/pods/").ok());
  CHECK_FALSE(EncodeContinueToken("/elsewhere/x", "/registry/pods/", 1).ok());
}

TEST_CASE("object codec: resourceVersion is stamped, never stored") {
  nlohmann::json pod = {{"kind", "Pod"},
                        {"metadata", {{"name", "a"}, {"resourceVersion", "5"}, {"selfLink", "/x"}}}};
  std::string bytes = EncodeObject(pod);
  CHECK(bytes == R"({"kind":"Pod","metadata":{"name":"a"}})");
  auto decoded = DecodeObject(bytes, 9);
  REQUIRE(decoded.ok());
  CHECK(ObjectResourceVersion(**decoded) == "9");
  CHECK_FALSE(DecodeObject("{not json", 3).ok());
  CHECK_FALSE(DecodeObject("[1]", 3).ok());
  auto bookmark = MakeBookmark(nlohmann::json{{"kind", "Pod"}}, 12, true);
  CHECK((*bookmark)["metadata"]["resourceVersion"] == "12");
  CHECK((*bookmark)["metadata"]["annotations"]["k8s.io/initial-events-end"] == "true");
}

}  // namespace kube::storage
