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

// Every component, to compare two parses field by field.
std::string Fields(const GoUrl& u) {
  return u.scheme + "|" + u.opaque + "|" + std::to_string(u.has_user) + std::to_string(u.has_password) + "|" +
         u.username + "|" + u.password + "|" + u.host + "|" + u.path + "|" + u.raw_path + "|" +
         std::to_string(u.omit_host) + std::to_string(u.force_query) + "|" + u.raw_query + "|" + u.fragment;
}

// Inputs where the one-parse path of url() could part from ParseRequestURI-then-Parse: escapes
// (valid, invalid, '+', lower-case hex, in every component), '#', scheme-less "//" and "///",
// opaque URLs, queries, IPv6 hosts and zones, userinfo, control characters.
constexpr const char* kTrickyUrls[] = {
    "https://backup.example.com/v1", "HTTPS://Example.COM", "https://example.com", "https://example.com/",
    "https://example.com/a%20b", "https://example.com/a%2fb", "https://example.com/a%2Fb", "https://example.com/a b",
    "https://example.com/a+b", "https://example.com/a%2Bb?x=a+b%20c", "https://example.com/%zz", "https://example.com/%",
    "https://example.com/%4", "https://e.com/a#frag", "https://e.com/a#f%20g", "https://e.com/a#%zz", "a:b#%zz",
    "https://e.com/a?x#y", "https://e.com/a?#", "https://e.com/a?", "https://e.com/a??", "#x", "/p#x", "//host/p",
    "//host", "///p", "////p", "//host:80/p?q", "//u@h/p", "/", "/abs/path?x=1", "/a%20b", "/a b", "*", "*#x", "",
    "?q", "a:b", "mailto:someone@example.com", "a:/b", "a:///b", "a://", "a:?q", "news:comp.lang#x",
    "https://[::1]:80/", "https://[::1/", "https://[1.2.3.4]/", "https://[fe80::1%25eth0]/",
    "https://[fe80::1%25en%300]:8080/p", "https://[fe80::1%25%zz]/", "https://[fe80::1%eth0]/", "https://[::1]x/",
    "https://h%41st/", "https://h%2fst/", "https://h%25st/", "https://exa mple.com/", "https://example.com:x/",
    "https://example.com:/", "https://u:p@h.com/", "https://u%40:p%3A@h.com/", "https://a b@h.com/",
    "https://u:p:q@h.com/", "https://@h.com/", "https://u@@h.com/", "https://u%zz@h.com/", "http://h/\n",
    "http://h/\x7f", "http://h/\xff", "1http://x", ":foo", "a/b", "example.com", "HtTp+Foo-1.2://x/y",
};

TEST_CASE("urls: url() parsing once gives ParseRequestURI's verdict and url.Parse's reading") {
  for (const char* raw : kTrickyUrls) {
    std::string slow_error, fast_error;
    std::optional<GoUrl> slow = ParseRequestUri(raw, &slow_error);
    if (slow) slow = ParseUrl(raw, &slow_error);
    GoUrl fast;
    const bool ok = ParseRequestUriAsUrl(raw, &fast, &fast_error);
    CHECK_MESSAGE(ok == slow.has_value(), raw);
    if (ok && slow) CHECK_MESSAGE(Fields(fast) == Fields(*slow), raw);
    if (!ok && !slow) CHECK_MESSAGE(fast_error == slow_error, raw);
    std::string error;
    CHECK_MESSAGE(IsRequestUri(raw) == ParseRequestUri(raw, &error).has_value(), raw);
  }
}

TEST_CASE("urls: components are decoded only where escapes are, and raw paths kept where they differ") {
  std::string error;
  GoUrl u;
  REQUIRE(ParseRequestUriAsUrl("https://u%40:p%3A@h%C3%A9.com/a%20b/c?x=a+b#f%21", &u, &error));
  CHECK(Fields(u) == "https||11|u@|p:|h\xC3\xA9.com|/a b/c||00|x=a+b|f!");
  u = GoUrl{};
  REQUIRE(ParseRequestUriAsUrl("https://h.com/a b%2fc", &u, &error));
  CHECK(u.path == "/a b/c");
  CHECK(u.raw_path == "/a b%2fc");
  CHECK(u.EscapedPath() == "/a%20b/c");
  u = GoUrl{};
  REQUIRE(ParseRequestUriAsUrl("//h.com/p", &u, &error));
  CHECK(u.host == "h.com");
  CHECK(u.path == "/p");
  u = GoUrl{};
  REQUIRE(ParseRequestUriAsUrl("https://[fe80::1%25en%300]:8080/p", &u, &error));
  CHECK(u.host == "[fe80::1%en00]:8080");
  CHECK(Eval("url('https://e.com/?a+b=c%20d+e&f=g').getQuery()") == "{\"a b\": [\"c d e\"], \"f\": [\"g\"]}");
  CHECK(!ParseRequestUriAsUrl("a:b#%zz", &u, &error));
  CHECK(error == "parse \"a:b#%zz\": invalid URL escape \"%zz\"");
}

}  // namespace
}  // namespace kube::cel
