// Go regexp syntax errors, byte for byte.

#include "apiextensions/go_regexp.h"

#include <doctest/doctest.h>

#include <string>

namespace kube::apiextensions {
namespace {

TEST_CASE("valid Go regular expressions") {
  for (const char* re : {"", "abc", "^a.b$", "a|b|", "(a)(?:b)(?i)c(?-s:d)(?P<name>e)(?<n2>f)", "a*b+c?d*?e+?f??",
                         "a{2}b{2,}c{2,5}d{2}?", "x{", "x{a}", "x{1,a}", "x{01}", "[a-z0-9_]", "[^]a]", "[]a]", "[a-]",
                         "[[:alpha:][:^digit:]]", "[\\d\\s\\w\\]\\-]", "\\p{Greek}\\PL\\p{^Lu}\\pN", "[\\p{Han}x]",
                         "\\Qa.b*\\E+", "\\Qtail", "\\A\\bx\\B\\z", "\\x41\\x{1F600}\\101\\0\\n\\t\\.\\*\\\\", "^*",
                         "(a{500}){2}", "(a{0}){1000}", "h\xc3\xa9llo", "[\xc3\xa9-\xc3\xbf]"}) {
    INFO(std::string(re));
    CHECK(CheckGoRegexpSyntax(re) == "");
  }
}

TEST_CASE("Go's error messages") {
  struct Case {
    const char* re;
    const char* want;
  };
  const Case cases[] = {
      {"(", "error parsing regexp: missing closing ): `(`"},
      {"a(b", "error parsing regexp: missing closing ): `a(b`"},
      {"a)b", "error parsing regexp: unexpected ): `a)b`"},
      {"[a", "error parsing regexp: missing closing ]: `[a`"},
      {"x[]", "error parsing regexp: missing closing ]: `[]`"},
      {"[z-a]", "error parsing regexp: invalid character class range: `z-a`"},
      {"[[:bogus:]]", "error parsing regexp: invalid character class range: `[:bogus:]`"},
      {"\\p{Bogus1}", "error parsing regexp: invalid character class range: `\\p{Bogus1}`"},
      {"\\p{greek}", "error parsing regexp: invalid character class range: `\\p{greek}`"},
      {"\\pX", "error parsing regexp: invalid character class range: `\\pX`"},
      {"\\p{Greek", "error parsing regexp: invalid character class range: `\\p{Greek`"},
      {"*a", "error parsing regexp: missing argument to repetition operator: `*`"},
      {"a|*", "error parsing regexp: missing argument to repetition operator: `*`"},
      {"(+)", "error parsing regexp: missing argument to repetition operator: `+`"},
      {"a**", "error parsing regexp: invalid nested repetition operator: `**`"},
      {"a+?*", "error parsing regexp: invalid nested repetition operator: `+?*`"},
      {"a{2}{3}", "error parsing regexp: invalid nested repetition operator: `{2}{3}`"},
      {"a{1001}", "error parsing regexp: invalid repeat count: `{1001}`"},
      {"a{3,2}", "error parsing regexp: invalid repeat count: `{3,2}`"},
      {"(a{100}){11}", "error parsing regexp: invalid repeat count: `{11}`"},
      {"a\\", "error parsing regexp: trailing backslash at end of expression: ``"},
      {"\\q", "error parsing regexp: invalid escape sequence: `\\q`"},
      {"\\1", "error parsing regexp: invalid escape sequence: `\\1`"},
      {"\\Z", "error parsing regexp: invalid escape sequence: `\\Z`"},
      {"\\C", "error parsing regexp: invalid escape sequence: `\\C`"},
      {"\\xZ1", "error parsing regexp: invalid escape sequence: `\\xZ1`"},
      {"\\x{110000}", "error parsing regexp: invalid escape sequence: `\\x{110000`"},
      {"[\\b]", "error parsing regexp: invalid escape sequence: `\\b`"},
      {"(?=a)", "error parsing regexp: invalid or unsupported Perl syntax: `(?=`"},
      {"(?", "error parsing regexp: invalid or unsupported Perl syntax: `(?`"},
      {"(?i-)", "error parsing regexp: invalid or unsupported Perl syntax: `(?i-)`"},
      {"(?P=n)", "error parsing regexp: invalid or unsupported Perl syntax: `(?P`"},
      {"(?P<>a)", "error parsing regexp: invalid named capture: `(?P<>`"},
      {"(?P<a-b>x)", "error parsing regexp: invalid named capture: `(?P<a-b>`"},
      {"(?<name", "error parsing regexp: invalid named capture: `(?<name`"},
      {"a\xff", "error parsing regexp: invalid UTF-8: `a\xff`"},
  };
  for (const Case& c : cases) {
    INFO(std::string(c.re));
    CHECK(CheckGoRegexpSyntax(c.re) == std::string(c.want));
  }
  std::string deep(1001, '(');
  deep += std::string(1001, ')');
  CHECK(CheckGoRegexpSyntax(deep) == "error parsing regexp: expression nests too deeply: `" + deep + "`");
}

}  // namespace
}  // namespace kube::apiextensions
