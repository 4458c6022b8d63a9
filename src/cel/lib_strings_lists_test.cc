#include <doctest/doctest.h>

#include "cel/cel.h"

namespace kube::cel {
namespace {

std::string E(std::string_view src) {
  Environment env({.check_types = false});
  RegisterKubernetesLibraries(env.functions());
  auto program = env.Compile(src);
  if (!program.ok()) return "compile: " + program.status().message();
  EvalResult r = (*program)->Evaluate(Activation{});
  return r.value.IsError() ? "error: " + r.value.ErrorMessage() : DebugString(r.value);
}

TEST_CASE("strings ext: indexes count code points") {
  CHECK(E("'héllo'.charAt(1)") == "\"é\"");
  CHECK(E("'abc'.charAt(3)") == "\"\"");
  CHECK(E("'abc'.charAt(4)") == "error: index out of range: 4");
  CHECK(E("'héllo wörld'.indexOf('ö')") == "7");
  CHECK(E("'hello'.indexOf('l', 3)") == "3");
  CHECK(E("'hello'.indexOf('')") == "0");
  CHECK(E("'hello'.indexOf('x')") == "-1");
  CHECK(E("'hello'.lastIndexOf('l')") == "3");
  CHECK(E("'hello'.lastIndexOf('l', 2)") == "2");
  CHECK(E("'héllo'.substring(1, 3)") == "\"él\"");
  CHECK(E("'hello'.substring(2)") == "\"llo\"");
  CHECK(E("'hello'.substring(3, 2)") == "error: invalid substring range. start: 3, end: 2");
  // string reverse() is ext.Strings version 3; kube 1.36 enables version 2 (lists have reverse()).
  CHECK(E("'abc'.reverse()") == "error: no such overload: reverse");
}

TEST_CASE("strings ext: case, replace, split, trim, join, quote") {
  CHECK(E("'Hello-É'.lowerAscii()") == "\"hello-É\"");
  CHECK(E("'Hello'.upperAscii()") == "\"HELLO\"");
  CHECK(E("'a.b.c'.replace('.', '/')") == "\"a/b/c\"");
  CHECK(E("'a.b.c'.replace('.', '/', 1)") == "\"a/b.c\"");
  CHECK(E("'a,b,,c'.split(',')") == "[\"a\", \"b\", \"\", \"c\"]");
  CHECK(E("'a,b,c'.split(',', 2)") == "[\"a\", \"b,c\"]");
  CHECK(E("'abc'.split('')") == "[\"a\", \"b\", \"c\"]");
  CHECK(E("'  \\t hi \\n'.trim()") == "\"hi\"");
  CHECK(E("['a', 'b'].join()") == "\"ab\"");
  CHECK(E("['a', 'b'].join('-')") == "\"a-b\"");
  CHECK(E("[1].join()") == "error: no such overload: join");
  CHECK(E("strings.quote('a\"b')") == "\"\\\"a\\\\\\\"b\\\"\"");
}

TEST_CASE("strings ext: lowerAscii and upperAscii of strings already in that case return them as they are") {
  CHECK(E("'hello-é'.lowerAscii()") == "\"hello-é\"");
  CHECK(E("''.lowerAscii()") == "\"\"");
  CHECK(E("'HELLO-É'.upperAscii()") == "\"HELLO-É\"");
  CHECK(E("''.upperAscii()") == "\"\"");
  CHECK(E("'É'.lowerAscii() == 'É' && 'é'.upperAscii() == 'é'") == "true");
  CHECK(E("'abcZ'.lowerAscii()") == "\"abcz\"");
  CHECK(E("'ABCz'.upperAscii()") == "\"ABCZ\"");
  CHECK(E("['a', 'b'].map(t, t.lowerAscii() == t)") == "[true, true]");
  CHECK(E("'hello'.lowerAscii().upperAscii().lowerAscii()") == "\"hello\"");
}

TEST_CASE("lists library: isSorted, sum, min, max, indexOf") {
  CHECK(E("[1, 2, 2, 5].isSorted()") == "true");
  CHECK(E("['b', 'a'].isSorted()") == "false");
  CHECK(E("[1, 2.5, 3u].isSorted()") == "true");
  CHECK(E("[1, 2, 3].sum()") == "6");
  CHECK(E("[1.5, 2.5].sum()") == "4");
  CHECK(E("[].sum()") == "0");
  CHECK(E("[9223372036854775807, 1].sum()") == "error: integer overflow");
  CHECK(E("[3, 1, 2].min()") == "1");
  CHECK(E("['a', 'c', 'b'].max()") == "\"c\"");
  CHECK(E("[].max()") == "error: max(list) called on an empty list");
  CHECK(E("[1, 'a'].min()") == "error: no such overload: min");
  CHECK(E("[1, 2, 1].indexOf(1)") == "0");
  CHECK(E("[1, 2, 1].lastIndexOf(1)") == "2");
  CHECK(E("[1, 2].indexOf(3)") == "-1");
}

}  // namespace
}  // namespace kube::cel
