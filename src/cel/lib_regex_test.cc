#include <doctest/doctest.h>

#include "cel/lib_test_helpers.h"

namespace kube::cel {
namespace {

using testing::Eval;

TEST_CASE("regex: find returns the leftmost match or the empty string") {
  CHECK(Eval("'abc 123'.find('[0-9]+')") == "\"123\"");
  CHECK(Eval("'abc'.find('[0-9]+')") == "\"\"");
  CHECK(Eval("''.find('')") == "\"\"");
  CHECK(Eval("'héllo'.find('é.')") == "\"él\"");
  CHECK(Eval("'aaa'.find('a*?')") == "\"\"");
}

TEST_CASE("regex: findAll returns successive matches, limited when asked") {
  CHECK(Eval("'123 abc 456'.findAll('[0-9]+')") == "[\"123\", \"456\"]");
  CHECK(Eval("'123 abc 456'.findAll('[0-9]+', 1)") == "[\"123\"]");
  CHECK(Eval("'123 abc 456'.findAll('[0-9]+', 0)") == "[]");
  CHECK(Eval("'123 abc 456'.findAll('[0-9]+', -1)") == "[\"123\", \"456\"]");
  CHECK(Eval("'abc'.findAll('x')") == "[]");
}

TEST_CASE("regex: empty matches follow Go's rules") {
  // The empty match at 4 abuts "aaa" and is skipped; the one at the end is kept.
  CHECK(Eval("'baaab'.findAll('a*')") == "[\"\", \"aaa\", \"\"]");
  CHECK(Eval("'héé'.findAll('')") == "[\"\", \"\", \"\", \"\"]");
  CHECK(Eval("'abc'.findAll('^')") == "[\"\"]");
  CHECK(Eval("'a1b2'.findAll('\\\\d|$')") == "[\"1\", \"2\"]");
  CHECK(Eval("'a1b2c'.findAll('\\\\d|$')") == "[\"1\", \"2\", \"\"]");
}

TEST_CASE("regex: invalid patterns are errors, invalid UTF-8 is not a crash") {
  CHECK(Eval("'abc'.find('(')").starts_with("error: Illegal regex: error parsing regexp: "));
  CHECK(Eval("'abc'.findAll('[', 2)").starts_with("error: Illegal regex: "));
  CHECK(Eval("string(b'\\xff\\xfeab').findAll('.')").starts_with("error: invalid UTF-8"));
  CHECK(Eval("1.find('a')").starts_with("error: no such overload"));
}

TEST_CASE("regex: cost grows with the string and pattern sizes") {
  uint64_t small = 0, large = 0;
  Eval("'abc'.find('b')", &small);
  Eval("'" + std::string(1000, 'a') + "'.find('" + std::string(40, 'b') + "')", &large);
  CHECK(large > small + 500);
}

}  // namespace
}  // namespace kube::cel
