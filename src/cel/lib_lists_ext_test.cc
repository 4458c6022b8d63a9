#include <doctest/doctest.h>

#include "cel/lib_test_helpers.h"

namespace kube::cel {
namespace {

using testing::Eval;

TEST_CASE("lists ext: slice") {
  CHECK(Eval("[1, 2, 3, 4].slice(1, 3)") == "[2, 3]");
  CHECK(Eval("[1, 2, 3, 4].slice(2, 4)") == "[3, 4]");
  CHECK(Eval("[1, 2].slice(1, 1)") == "[]");
  CHECK(Eval("[1, 2].slice(-1, 1)") == "error: cannot slice(-1, 1), negative indexes not supported");
  CHECK(Eval("[1, 2].slice(2, 1)") == "error: cannot slice(2, 1), start index must be less than or equal to end index");
  CHECK(Eval("[1, 2].slice(0, 3)") == "error: cannot slice(0, 3), list is length 2");
}

TEST_CASE("lists ext: flatten") {
  CHECK(Eval("[1, [2, 3], [4]].flatten()") == "[1, 2, 3, 4]");
  CHECK(Eval("[1, [2, [3, 4]]].flatten()") == "[1, 2, [3, 4]]");
  CHECK(Eval("[1, 2, [], [], [3, 4]].flatten()") == "[1, 2, 3, 4]");
  CHECK(Eval("[1, [2, [3, [4]]]].flatten(2)") == "[1, 2, 3, [4]]");
  CHECK(Eval("[1, [2]].flatten(0)") == "[1, [2]]");
  CHECK(Eval("[1, [2, [3, [4]]]].flatten(-1)") == "error: level must be non-negative");
}

TEST_CASE("lists ext: distinct, reverse and lists.range") {
  CHECK(Eval("[1, 2, 2, 3, 3, 3].distinct()") == "[1, 2, 3]");
  CHECK(Eval("['b', 'b', 'c', 'a', 'c'].distinct()") == "[\"b\", \"c\", \"a\"]");
  CHECK(Eval("[1, 'b', 2, 'b'].distinct()") == "[1, \"b\", 2]");
  CHECK(Eval("[1, 1.0, 1u].distinct()") == "[1]");
  CHECK(Eval("[].distinct()") == "[]");
  CHECK(Eval("[5, 3, 1, 2].reverse()") == "[2, 1, 3, 5]");
  CHECK(Eval("lists.range(5)") == "[0, 1, 2, 3, 4]");
  CHECK(Eval("lists.range(0)") == "[]");
  CHECK(Eval("lists.range(-3)") == "[]");
  CHECK(Eval("lists.range(9223372036854775807)").starts_with("error: lists.range(9223372036854775807) exceeds"));
}

TEST_CASE("lists ext: sort and sortBy") {
  CHECK(Eval("[3, 2, 1].sort()") == "[1, 2, 3]");
  CHECK(Eval("['b', 'c', 'a'].sort()") == "[\"a\", \"b\", \"c\"]");
  CHECK(Eval("[2.5, -1.0, 0.5].sort()") == "[-1, 0.5, 2.5]");
  CHECK(Eval("[true, false].sort()") == "[false, true]");
  CHECK(Eval("[duration('2s'), duration('1s')].sort() == [duration('1s'), duration('2s')]") == "true");
  CHECK(Eval("[].sort()") == "[]");
  CHECK(Eval("[1, 'b'].sort()") == "error: list elements must have the same type");
  CHECK(Eval("[1, 2u].sort()") == "error: list elements must have the same type");
  CHECK(Eval("[[1, 2, 3]].sort()") == "error: list elements must be comparable");
  CHECK(Eval("[{'n': 'foo', 's': 0}, {'n': 'bar', 's': -10}, {'n': 'baz', 's': 1000}].sortBy(e, e.s).map(e, e.n)") ==
        "[\"bar\", \"foo\", \"baz\"]");
  CHECK(Eval("['ccc', 'a', 'bb'].sortBy(s, size(s))") == "[\"a\", \"bb\", \"ccc\"]");
  CHECK(Eval("[1, 2, 3].sortBy(x, -x)") == "[3, 2, 1]");
  CHECK(Eval("[[1], [2]].sortBy(x, x)") == "error: list elements must be comparable");
  CHECK(Eval("{'a': 1}.sortBy(x, x)").starts_with("compile: ERROR: <input>:1:"));
  CHECK(Eval("[1].sortBy(1, 2)").starts_with("compile: ERROR: <input>:1:"));
}

TEST_CASE("sets ext: contains, equivalent, intersects") {
  CHECK(Eval("sets.contains([1, 2, 3], [3, 1])") == "true");
  CHECK(Eval("sets.contains([1, 2, 3], [])") == "true");
  CHECK(Eval("sets.contains([], [1])") == "false");
  CHECK(Eval("sets.contains([1, 2.0, 3u], [1u, 2, 3.0])") == "true");
  CHECK(Eval("sets.contains([[1], [2]], [[2]])") == "true");
  CHECK(Eval("sets.equivalent([1, 2, 3], [3, 2, 1, 1])") == "true");
  CHECK(Eval("sets.equivalent([1, 2], [1, 2, 3])") == "false");
  CHECK(Eval("sets.equivalent([], [])") == "true");
  CHECK(Eval("sets.intersects([1, 2], [2, 3])") == "true");
  CHECK(Eval("sets.intersects([1, 2], [3])") == "false");
  CHECK(Eval("sets.intersects([], [])") == "false");
  CHECK(Eval("sets.contains([1], 1)").starts_with("error: no such overload"));
}

}  // namespace
}  // namespace kube::cel
