#include <doctest/doctest.h>

#include "cel/go_url.h"
#include "cel/lib_test_helpers.h"

namespace kube::cel {
namespace {

using testing::Eval;

TEST_CASE("urls: components of absolute URLs") {
  CHECK(Eval("url('https://user:pw@example.com:8080/a/b%20c?x=1&y=2&x=3#frag').getScheme()") == "\"https\"");
  CHECK(Eval("url('https://example.com:8080/a').getHost()") == "\"example.com:8080\"");
  CHECK(Eval("url('https://example.com:8080/a').getHostname()") == "\"example.com\"");
  CHECK(Eval("url('https://example.com:8080/a').getPort()") == "\"8080\"");
  CHECK(Eval("url('https://example.com/a').getPort()") == "\"\"");
  CHECK(Eval("url('https://[::1]:80/').getHost()") == "\"[::1]:80\"");
  CHECK(Eval("url('https://[::1]:80/').getHostname()") == "\"::1\"");
  CHECK(Eval("url('https://[::1]/').getPort()") == "\"\"");
  CHECK(Eval("url('HTTP://example.com').getScheme()") == "\"http\"");
  CHECK(Eval("url('https://example.com/a/b%20c').getEscapedPath()") == "\"/a/b%20c\"");
  CHECK(Eval("url('https://example.com/a b').getEscapedPath()") == "\"/a%20b\"");
  CHECK(Eval("url('https://example.com/a%2Fb').getEscapedPath()") == "\"/a%2Fb\"");
  CHECK(Eval("url('https://example.com').getEscapedPath()") == "\"\"");
  CHECK(Eval("url('/absolute/path?x=1').getEscapedPath()") == "\"/absolute/path\"");
  CHECK(Eval("url('/absolute/path').getHost()") == "\"\"");
  CHECK(Eval("url('mailto:someone@example.com').getScheme()") == "\"mailto\"");
  CHECK(Eval("type(url('https://example.com'))") == "kubernetes.URL");
}

TEST_CASE("urls: getQuery decodes keys and values and keeps repeated keys in order") {
  CHECK(Eval("url('https://e.com/?x=1&y=2&x=3').getQuery()") == "{\"x\": [\"1\", \"3\"], \"y\": [\"2\"]}");
  CHECK(Eval("url('https://e.com/?a+b=c%20d&e').getQuery()") == "{\"a b\": [\"c d\"], \"e\": [\"\"]}");
  CHECK(Eval("url('https://e.com/?a=1;b=2&c=%zz&d=4&&').getQuery()") == "{\"d\": [\"4\"]}");
  CHECK(Eval("url('https://e.com/').getQuery()") == "{}");
  CHECK(Eval("url('https://e.com/?x=1#y=2').getQuery()") == "{\"x\": [\"1\"]}");
}

TEST_CASE("urls: isURL and url() refuse what ParseRequestURI refuses, with Go's messages") {
  CHECK(Eval("[isURL('https://example.com'), isURL('/path'), isURL('*'), isURL('a:b')]") == "[true, true, true, true]");
  CHECK(Eval("[isURL('example.com'), isURL(''), isURL('relative/path'), isURL('#x'), isURL(':foo')]") ==
        "[false, false, false, false, false]");
  const std::string prefix = "error: URL parse error during conversion from string: parse ";
  CHECK(Eval("url('example.com')") == prefix + "\"example.com\": invalid URI for request");
  CHECK(Eval("url('')") == prefix + "\"\": empty url");
  CHECK(Eval("url(':foo')") == prefix + "\":foo\": missing protocol scheme");
  CHECK(Eval("url('https://example.com/%zz')") == prefix + "\"https://example.com/%zz\": invalid URL escape \"%zz\"");
  CHECK(Eval("url('https://example.com/%')") == prefix + "\"https://example.com/%\": invalid URL escape \"%\"");
  CHECK(Eval("url('https://exa mple.com/')") ==
        prefix + "\"https://exa mple.com/\": invalid character \" \" in host name");
  CHECK(Eval("url('https://example.com:x/')") == prefix + "\"https://example.com:x/\": invalid port \":x\" after host");
  CHECK(Eval("url('https://[::1/')") == prefix + "\"https://[::1/\": missing ']' in host");
  CHECK(Eval("url('https://[1.2.3.4]/')") == prefix + "\"https://[1.2.3.4]/\": invalid IP-literal");
  CHECK(Eval("url('https://a b@example.com/')") == prefix + "\"https://a b@example.com/\": net/url: invalid userinfo");
  CHECK(Eval("url('https://example.com/\\n')") ==
        prefix + "\"https://example.com/\\n\": net/url: invalid control character in URL");
  CHECK(Eval("isURL('https://example.com/\\xff')") == "true");
}

TEST_CASE("urls: equality compares Go's renderings") {
  CHECK(Eval("url('https://example.com/a') == url('https://example.com/a')") == "true");
  CHECK(Eval("url('HTTPS://example.com/a') == url('https://example.com/a')") == "true");
  CHECK(Eval("url('https://example.com/a') == url('https://example.com/b')") == "false");
  CHECK(Eval("url('https://example.com/a?x') == url('https://example.com/a')") == "false");
}

TEST_CASE("urls: Go's url.Parse directly") {
  std::string error;
  auto u = ParseUrl("http://u%40:p@h.com/p%2Fq?r#f%20g", &error);
  REQUIRE(u.has_value());
  CHECK(u->username == "u@");
  CHECK(u->password == "p");
  CHECK(u->path == "/p/q");
  CHECK(u->raw_path == "/p%2Fq");
  CHECK(u->fragment == "f g");
  CHECK(u->String() == "http://u%40:p@h.com/p%2Fq?r#f%20g");
  for (const char* ok : {"a:b/c:d", "b/c:d", "x/y:z", "/x:y", "x:y", "//host/p", "?q", ""}) {
    CHECK_MESSAGE(ParseUrl(ok, &error).has_value(), ok);
  }
  CHECK(!ParseUrl("1http://x", &error).has_value());
  CHECK(error == "parse \"1http://x\": first path segment in URL cannot contain colon");
  CHECK(!ParseUrl("1:y", &error).has_value());
  CHECK(error == "parse \"1:y\": first path segment in URL cannot contain colon");
}

}  // namespace
}  // namespace kube::cel
