#include <doctest/doctest.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "storage/field_selector.h"
#include "storage/label_selector.h"

namespace kube::storage {
namespace {

template <class Selector>
Selector Parsed(std::string_view text) {
  Result<Selector> r = Selector::Parse(text);
  REQUIRE_MESSAGE(r.ok(), std::string(text), " -> ", r.status().ToString());
  return *r;
}

// The message of a parse that must fail with BadRequest.
template <class Selector>
std::string ErrorOf(std::string_view text) {
  Result<Selector> r = Selector::Parse(text);
  REQUIRE_MESSAGE(!r.ok(), std::string(text));
  CHECK(r.status().code() == StatusCode::kBadRequest);
  return r.status().message();
}

LabelSelector Labelled(std::string_view text) { return Parsed<LabelSelector>(text); }
FieldSelector Fielded(std::string_view text) { return Parsed<FieldSelector>(text); }
std::string LabelError(std::string_view text) { return ErrorOf<LabelSelector>(text); }
std::string FieldError(std::string_view text) { return ErrorOf<FieldSelector>(text); }

constexpr std::string_view kNameMsg =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
    "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used "
    "for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
constexpr std::string_view kValueMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

TEST_CASE("LabelSelector: empty and whitespace-only selectors match everything") {
  CHECK(LabelSelector().Empty());
  CHECK(LabelSelector().Matches({}));
  for (std::string_view text : {"", " ", "\t\r\n  "}) {
    LabelSelector s = Labelled(text);
    CHECK(s.Empty());
    CHECK(s.Matches({{"a", "b"}}));
    CHECK(s.ToString() == "");
  }
  CHECK_FALSE(Labelled("a").Empty());
}

TEST_CASE("LabelSelector: every operator") {
  LabelSelector eq = Labelled("a=b");
  CHECK(eq.Matches({{"a", "b"}, {"x", "y"}}));
  CHECK_FALSE(eq.Matches({{"a", "c"}}));
  CHECK_FALSE(eq.Matches({}));
  CHECK(Labelled("a==b").Matches({{"a", "b"}}));
  CHECK_FALSE(Labelled("a==b").Matches({{"a", "bb"}}));

  LabelSelector ne = Labelled("a!=b");
  CHECK(ne.Matches({}));  // Absent keys satisfy != and notin.
  CHECK(ne.Matches({{"a", "c"}}));
  CHECK_FALSE(ne.Matches({{"a", "b"}}));

  LabelSelector in = Labelled("a in (b,c)");
  CHECK(in.Matches({{"a", "b"}}));
  CHECK(in.Matches({{"a", "c"}}));
  CHECK_FALSE(in.Matches({{"a", "d"}}));
  CHECK_FALSE(in.Matches({}));

  LabelSelector notin = Labelled("a notin (b,c)");
  CHECK(notin.Matches({}));
  CHECK(notin.Matches({{"a", "d"}}));
  CHECK_FALSE(notin.Matches({{"a", "c"}}));

  CHECK(Labelled("a").Matches({{"a", ""}}));
  CHECK_FALSE(Labelled("a").Matches({{"b", "a"}}));
  CHECK(Labelled("!a").Matches({{"b", "a"}}));
  CHECK_FALSE(Labelled("!a").Matches({{"a", ""}}));

  LabelSelector gt = Labelled("a>5");
  CHECK(gt.Matches({{"a", "6"}}));
  CHECK(gt.Matches({{"a", "+60"}}));
  CHECK_FALSE(gt.Matches({{"a", "5"}}));
  CHECK_FALSE(gt.Matches({{"a", "x"}}));  // Non-integer labels never compare.
  CHECK_FALSE(gt.Matches({{"a", ""}}));
  CHECK_FALSE(gt.Matches({{"a", "99999999999999999999"}}));  // Out of int64 range.
  CHECK_FALSE(gt.Matches({}));
  LabelSelector lt = Labelled("a<5");
  CHECK(lt.Matches({{"a", "-9223372036854775808"}}));
  CHECK(lt.Matches({{"a", "4"}}));
  CHECK_FALSE(lt.Matches({{"a", "5"}}));
  CHECK_FALSE(lt.Matches({{"a", " 4"}}));
  CHECK(Labelled("a>9223372036854775806").Matches({{"a", "9223372036854775807"}}));

  LabelSelector all = Labelled("env=prod,tier!=db,!legacy,app in (web,api)");
  CHECK(all.Matches({{"env", "prod"}, {"app", "web"}}));
  CHECK_FALSE(all.Matches({{"env", "prod"}, {"app", "web"}, {"legacy", "1"}}));
  CHECK_FALSE(all.Matches({{"env", "prod"}, {"app", "web"}, {"tier", "db"}}));
  CHECK_FALSE(all.Matches({{"env", "prod"}}));
}

TEST_CASE("LabelSelector: whitespace, ordering, empty values and keywords") {
  CHECK(Labelled("  a  =  b  ,  c  in  ( x , y )  ").ToString() == "a=b,c in (x,y)");
  CHECK(Labelled("a in(x)").ToString() == "a in (x)");
  CHECK(Labelled("! a").ToString() == "!a");
  CHECK(Labelled("a\t!=\nb").ToString() == "a!=b");
  CHECK(Labelled("z=1,a=2,m").ToString() == "a=2,m,z=1");
  CHECK(Labelled("k in (c,a,b,a)").ToString() == "k in (a,b,c)");

  CHECK(Labelled("a=").Matches({{"a", ""}}));
  CHECK(Labelled("a=").ToString() == "a=");
  CHECK(Labelled("a=,b").ToString() == "a=,b");
  CHECK(Labelled("a!=").Matches({}));
  CHECK_FALSE(Labelled("a!=").Matches({{"a", ""}}));
  CHECK(Labelled("a in ()").ToString() == "a in ()");
  CHECK(Labelled("a in ()").Matches({{"a", ""}}));
  CHECK(Labelled("a in (,b)").ToString() == "a in (,b)");
  CHECK(Labelled("a in (b,)").ToString() == "a in (,b)");
  CHECK(Labelled("a in (b,,c)").ToString() == "a in (,b,c)");
  CHECK(Labelled("a in (,)").ToString() == "a in ()");
  // Upstream's list loop rejects "(b,,)" yet accepts "(b,,,)"; we keep both quirks.
  CHECK(LabelError("a in (b,,)") ==
        "unable to parse requirement: found ')', expected: ',', or identifier");
  CHECK(Labelled("a in (b,,,)").ToString() == "a in (,b)");

  CHECK(Labelled("in in (in,notin)").ToString() == "in in (in,notin)");
  CHECK(Labelled("notin=in").Matches({{"notin", "in"}}));
  CHECK(Labelled("!in").ToString() == "!in");
  CHECK(Labelled("example.com/app=web").Matches({{"example.com/app", "web"}}));
  CHECK(Labelled("app.kubernetes.io/name notin (x)").ToString() ==
        "app.kubernetes.io/name notin (x)");
  CHECK(Labelled(std::string(63, 'k') + "=" + std::string(63, 'v'))
            .Matches({{std::string(63, 'k'), std::string(63, 'v')}}));
}

TEST_CASE("LabelSelector: RequiresExactMatch") {
  CHECK(Labelled("a=b").RequiresExactMatch("a") == "b");
  CHECK(Labelled("a==b,c=d").RequiresExactMatch("c") == "d");
  CHECK(Labelled("a in (b)").RequiresExactMatch("a") == "b");
  CHECK(Labelled("a=").RequiresExactMatch("a") == "");
  CHECK_FALSE(Labelled("a in (b,c)").RequiresExactMatch("a"));
  CHECK_FALSE(Labelled("a!=b").RequiresExactMatch("a"));
  CHECK_FALSE(Labelled("a notin (b)").RequiresExactMatch("a"));
  CHECK_FALSE(Labelled("a").RequiresExactMatch("a"));
  CHECK_FALSE(Labelled("a>1").RequiresExactMatch("a"));
  CHECK_FALSE(Labelled("b=c").RequiresExactMatch("a"));
  CHECK_FALSE(LabelSelector().RequiresExactMatch("a"));
  // As upstream, only the first requirement on the key is consulted.
  CHECK_FALSE(Labelled("a in (b,c),a=b").RequiresExactMatch("a"));
  CHECK(Labelled("a=b,a in (b,c)").RequiresExactMatch("a") == "b");
}

TEST_CASE("LabelSelector: ToString round trips") {
  for (std::string_view text :
       {"a=b", "a==b", "a!=b", "a in (x,y)", "a notin (,x)", "a", "!a", "a>5", "a<05",
        "a=", "x/y.z=1,b,!c,d in (in)", "a=1,a=2,a!=3", "example.com/k-1_x.y notin (A,b-c)"}) {
    LabelSelector first = Labelled(text);
    LabelSelector second = Labelled(first.ToString());
    CHECK(second.ToString() == first.ToString());
  }
  CHECK(Labelled("a=1,a=2,a!=3").ToString() == "a=1,a=2,a!=3");  // Stable among equal keys.
}

TEST_CASE("LabelSelector: syntax errors") {
  CHECK(LabelError("a=b c") == "found 'c', expected: ',' or 'end of string'");
  CHECK(LabelError("a=b=c") == "found '=', expected: ',' or 'end of string'");
  CHECK(LabelError("!a=b") == "found '=', expected: ',' or 'end of string'");
  CHECK(LabelError("a,") == "found '', expected: identifier after ','");
  CHECK(LabelError("a,(") == "found '(', expected: identifier after ','");
  CHECK(LabelError(",a") == "found ',', expected: !, identifier, or 'end of string'");
  CHECK(LabelError(")") == "found ')', expected: !, identifier, or 'end of string'");
  CHECK(LabelError("a b") ==
        "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt");
  CHECK(LabelError("a!b") ==
        "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt");
  CHECK(LabelError("!") == "unable to parse requirement: found '', expected: identifier");
  CHECK(LabelError("!=a") == "found '!=', expected: !, identifier, or 'end of string'");
  CHECK(LabelError("! =a") == "unable to parse requirement: found '=', expected: identifier");
  CHECK(LabelError("a in b") == "unable to parse requirement: found 'b' expected: '('");
  CHECK(LabelError("a in (b") == "unable to parse requirement: found '', expected: ',' or ')'");
  CHECK(LabelError("a in (b c)") == "unable to parse requirement: found 'c', expected: ',' or ')'");
  CHECK(LabelError("a in (b,=)") ==
        "unable to parse requirement: found '=', expected: ',', or identifier");
  CHECK(LabelError("a in (=)") ==
        "unable to parse requirement: found '=', expected: ',', ')' or identifier");
  CHECK(LabelError("a=(b)") == "unable to parse requirement: found '(', expected: identifier");
  CHECK(LabelError("a<=5") == "unable to parse requirement: found '=', expected: identifier");
}

TEST_CASE("LabelSelector: validation errors") {
  CHECK(LabelError("a>b") ==
        "unable to parse requirement: values[0]: Invalid value: \"b\": for 'Gt', 'Lt' "
        "operators, the value must be an integer");
  CHECK(LabelError("a>").find("Invalid value: \"\": for 'Gt', 'Lt'") != std::string::npos);
  CHECK(LabelError("a<99999999999999999999").find("must be an integer") != std::string::npos);
  CHECK(LabelError("a>-1") ==
        "unable to parse requirement: values[0][a]: Invalid value: "
        "\"-1\": " +
            std::string(kValueMsg));
  CHECK(LabelError("a>x_") ==
        "unable to parse requirement: [values[0]: Invalid value: \"x_\": "
        "for 'Gt', 'Lt' operators, the value must be an integer, "
        "values[0][a]: Invalid value: \"x_\": " +
            std::string(kValueMsg) + "]");
  CHECK(LabelError("a=b@") ==
        "unable to parse requirement: values[0][a]: Invalid value: "
        "\"b@\": " +
            std::string(kValueMsg));
  CHECK(LabelError("a in (ok,x@)").find("values[1][a]: Invalid value: \"x@\"") !=
        std::string::npos);
  CHECK(LabelError("a=" + std::string(64, 'v')) ==
        "unable to parse requirement: values[0][a]: Invalid value: \"" + std::string(64, 'v') +
            "\": must be no more than 63 characters");

  CHECK(LabelError("a@=b") ==
        "unable to parse requirement: <nil>: Invalid value: \"a@\": " + std::string(kNameMsg));
  CHECK(LabelError("x\"y") ==
        "unable to parse requirement: <nil>: Invalid value: \"x\\\"y\": " + std::string(kNameMsg));
  CHECK(LabelError(std::string(64, 'k')) ==
        "unable to parse requirement: <nil>: Invalid value: \"" + std::string(64, 'k') +
            "\": name part must be no more than 63 characters");
  CHECK(LabelError("/a") ==
        "unable to parse requirement: <nil>: Invalid value: \"/a\": prefix part must be "
        "non-empty");
  CHECK(LabelError("a/") ==
        "unable to parse requirement: <nil>: Invalid value: \"a/\": name "
        "part must be non-empty; " +
            std::string(kNameMsg));
  CHECK(LabelError("a/b/c").find("\"a/b/c\": a qualified name must consist") != std::string::npos);
  CHECK(LabelError("Example.com/a").find("prefix part a lowercase RFC 1123 subdomain") !=
        std::string::npos);
  CHECK(LabelError("a..b/c").find("prefix part a lowercase RFC 1123") != std::string::npos);
  CHECK(LabelError(std::string(254, 'p') + "/a").find("prefix part must be no more than 253") !=
        std::string::npos);
  CHECK(LabelError("-a").find(kNameMsg) != std::string::npos);
  CHECK(LabelError("\x01").find("\"\\x01\"") != std::string::npos);
  CHECK(LabelError("\xff").find("\"\\xff\"") != std::string::npos);
}

TEST_CASE("LabelSelector: a NUL byte ends the token, and between tokens the selector") {
  CHECK(Labelled(std::string_view("\0a=b", 4)).Empty());
  CHECK(Labelled(std::string_view("a=b \0 junk", 10)).ToString() == "a=b");
  CHECK(Labelled(std::string_view("a\0=b", 4)).ToString() == "a=b");
}

TEST_CASE("FieldSelector: empty selectors") {
  CHECK(FieldSelector().Empty());
  CHECK(FieldSelector().Matches({}));
  for (std::string_view text : {"", ",", ",,,", "=", "==", "!=", "=,!="}) {
    FieldSelector s = Fielded(text);
    CHECK(s.Empty());
    CHECK(s.ToString() == "");
    CHECK(s.FieldNames().empty());
  }
}

TEST_CASE("FieldSelector: operators and matching") {
  FieldSelector eq = Fielded("metadata.name=foo");
  CHECK(eq.Matches({{"metadata.name", "foo"}, {"metadata.namespace", "x"}}));
  CHECK_FALSE(eq.Matches({{"metadata.name", "bar"}}));
  CHECK_FALSE(eq.Matches({}));
  CHECK(Fielded("metadata.name==foo").Matches({{"metadata.name", "foo"}}));
  CHECK(Fielded("metadata.name==foo").ToString() == "metadata.name=foo");

  FieldSelector ne = Fielded("status.phase!=Running");
  CHECK(ne.Matches({}));
  CHECK(ne.Matches({{"status.phase", "Pending"}}));
  CHECK_FALSE(ne.Matches({{"status.phase", "Running"}}));

  CHECK(Fielded("a=").Matches({}));  // Absent fields read as "".
  CHECK(Fielded("a=").Matches({{"a", ""}}));
  CHECK_FALSE(Fielded("a!=").Matches({}));
  CHECK(Fielded("a!=").Matches({{"a", "x"}}));
  CHECK(Fielded("=x").Matches({{"", "x"}}));

  FieldSelector both = Fielded("spec.nodeName=n1,metadata.namespace!=kube-system");
  CHECK(both.Matches({{"spec.nodeName", "n1"}, {"metadata.namespace", "default"}}));
  CHECK_FALSE(both.Matches({{"spec.nodeName", "n1"}, {"metadata.namespace", "kube-system"}}));
  CHECK(Fielded("b=2,,a=1").ToString() == "a=1,b=2");
}

TEST_CASE("FieldSelector: escapes") {
  FieldSelector comma = Fielded("a=x\\,y");
  CHECK(comma.Matches({{"a", "x,y"}}));
  CHECK(comma.FieldNames() == std::vector<std::string>{"a"});
  CHECK(comma.ToString() == "a=x\\,y");
  CHECK(Fielded("a=x\\=y").RequiresExactMatch("a") == "x=y");
  CHECK(Fielded("a=x\\\\y").RequiresExactMatch("a") == "x\\y");
  CHECK(Fielded("a=\\\\").ToString() == "a=\\\\");
  CHECK(Fielded("a!=\\,\\=\\\\").Matches({{"a", ",=\\x"}}));
  CHECK(Fielded("a!=\\,\\=\\\\").ToString() == "a!=\\,\\=\\\\");
  // Field names are never unescaped.
  CHECK(Fielded("a\\,b=c").FieldNames() == std::vector<std::string>{"a\\,b"});

  CHECK(FieldError("a=x\\y") == "invalid field selector: invalid escape sequence: \\y");
  CHECK(FieldError("a=x\\!") == "invalid field selector: invalid escape sequence: \\!");
  CHECK(FieldError("a=x\\") == "invalid field selector: invalid escape sequence: \\");
  CHECK(FieldError("a=\\\xc3\xa9") ==
        "invalid field selector: invalid escape sequence: \\\xc3\xa9");
  CHECK(FieldError("a=b=c") == "invalid field selector: unescaped character in value: 61");
  CHECK(FieldError("a!=b=c") == "invalid field selector: unescaped character in value: 61");
  CHECK(FieldError("a===b") == "invalid field selector: unescaped character in value: 61");

  // Malformed UTF-8 is kept as is unless the value needs unescaping, as upstream.
  CHECK(Fielded("a=\xff").RequiresExactMatch("a") == "\xff");
  CHECK(Fielded("a=\xff\\,").RequiresExactMatch("a") == "\xEF\xBF\xBD,");
}

TEST_CASE("FieldSelector: unparseable terms and whitespace") {
  CHECK(FieldError("abc") == "invalid selector: 'abc'; can't understand 'abc'");
  CHECK(FieldError("a=b,abc") == "invalid selector: 'a=b,abc'; can't understand 'abc'");
  CHECK(FieldError("z,y") == "invalid selector: 'z,y'; can't understand 'y'");  // Sorted first.
  CHECK(FieldError(" ") == "invalid selector: ' '; can't understand ' '");
  CHECK(FieldError("a<5").find("can't understand 'a<5'") != std::string::npos);
  // Whitespace is data, not syntax.
  FieldSelector spaced = Fielded("a = b");
  CHECK(spaced.FieldNames() == std::vector<std::string>{"a "});
  CHECK(spaced.Matches({{"a ", " b"}}));
  CHECK_FALSE(spaced.Matches({{"a", "b"}}));
}

TEST_CASE("FieldSelector: RequiresExactMatch and FieldNames") {
  CHECK(Fielded("a=b").RequiresExactMatch("a") == "b");
  CHECK(Fielded("a==b").RequiresExactMatch("a") == "b");
  CHECK(Fielded("a=").RequiresExactMatch("a") == "");
  CHECK_FALSE(Fielded("a!=b").RequiresExactMatch("a"));
  CHECK_FALSE(Fielded("a=b").RequiresExactMatch("b"));
  CHECK(Fielded("a!=c,a=b").RequiresExactMatch("a") == "b");
  CHECK(Fielded("b=1,a!=2,b!=3").FieldNames() == std::vector<std::string>{"a", "b"});
}

TEST_CASE("FieldSelector: ToString round trips") {
  for (std::string_view text : {"a=b", "a==b", "a!=b", "x=1,y!=2", "a=\\,\\=\\\\", "a\\=b",
                                "a\\!=b", "a=,b!=", "=v", "a==z,a=b"}) {
    FieldSelector first = Fielded(text);
    FieldSelector second = Fielded(first.ToString());
    FieldSelector third = Fielded(second.ToString());
    CHECK(third.ToString() == second.ToString());
    CHECK(second.FieldNames() == first.FieldNames());
  }
  CHECK(Fielded("x=1,y!=2").ToString() == "x=1,y!=2");
}

// Random input must never crash or throw, must fail only with BadRequest, and whatever parses
// must print to a string that parses to the same thing.
void FuzzOne(const std::string& text) {
  const Labels labels = {{"a", "1"}, {"b", ""}, {"in", "x"}, {"k8s.io/x", "5"}};
  Result<LabelSelector> ls = LabelSelector::Parse(text);
  if (ls.ok()) {
    std::string printed = ls->ToString();
    Result<LabelSelector> again = LabelSelector::Parse(printed);
    REQUIRE_MESSAGE(again.ok(), printed);
    CHECK(again->ToString() == printed);
    CHECK(again->Matches(labels) == ls->Matches(labels));
    (void)ls->RequiresExactMatch("a");
  } else {
    CHECK(ls.status().code() == StatusCode::kBadRequest);
    CHECK_FALSE(ls.status().message().empty());
  }
  Result<FieldSelector> fs = FieldSelector::Parse(text);
  if (fs.ok()) {
    Result<FieldSelector> again = FieldSelector::Parse(fs->ToString());
    REQUIRE(again.ok());
    Result<FieldSelector> third = FieldSelector::Parse(again->ToString());
    REQUIRE(third.ok());
    CHECK(third->ToString() == again->ToString());
    (void)fs->Matches(labels);
    (void)fs->FieldNames();
  } else {
    CHECK(fs.status().code() == StatusCode::kBadRequest);
  }
}

TEST_CASE("Selectors: deterministic fuzz") {
  std::mt19937 rng(20240611);
  constexpr std::string_view kAlphabet = "ab09-_./=!(),<> \t\\xyzin";
  static const std::vector<std::string> kTokens = {
      "a",  "b",    "k8s.io/x", "in", "notin", "(",  ")",
      ",",  "=",    "==",       "!=", "!",     ">",  "<",
      " ",  "5",    "",         "\\", "\\,",   "x@", std::string(1, '\0'),
      "-1", "A.b_c"};
  CHECK_NOTHROW({
    for (int i = 0; i < 20000; ++i) {
      std::string text;
      int length = static_cast<int>(rng() % 40);
      int mode = i % 3;
      for (int j = 0; j < length; ++j) {
        if (mode == 0) {
          text += static_cast<char>(rng() % 256);
        } else if (mode == 1) {
          text += kAlphabet[rng() % kAlphabet.size()];
        } else {
          text += kTokens[rng() % kTokens.size()];
        }
      }
      FuzzOne(text);
    }
  });
}

}  // namespace
}  // namespace kube::storage
