#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "cel/cel.h"

namespace kube::cel {
namespace {

// Evaluates `src` (unchecked: these tests are about run-time semantics) with `self` bound to
// `self_json` (when given); the result as DebugString, or
// "error: <message>" / "compile: <message>".
std::string E(std::string_view src, const char* self_json = nullptr, uint64_t cost_limit = UINT64_MAX) {
  Environment env({.check_types = false});
  env.DeclareVariable("self");
  env.DeclareVariable("oldSelf");
  auto program = env.Compile(src);
  if (!program.ok()) return "compile: " + program.status().message();
  Activation vars;
  if (self_json) vars.Bind("self", FromJson(nlohmann::json::parse(self_json)));
  EvalResult r = (*program)->Evaluate(vars, {.cost_limit = cost_limit});
  if (r.value.IsError()) return "error: " + r.value.ErrorMessage();
  return DebugString(r.value);
}

TEST_CASE("cel: integer arithmetic and its errors") {
  CHECK(E("1 + 2 * 3 - 4 / 2") == "5");
  CHECK(E("7 % 3") == "1");
  CHECK(E("-7 / 2") == "-3");
  CHECK(E("-7 % 3") == "-1");
  CHECK(E("9223372036854775807 + 1") == "error: integer overflow");
  CHECK(E("-9223372036854775808 - 1") == "error: integer overflow");
  CHECK(E("-9223372036854775808 / -1") == "error: integer overflow");
  CHECK(E("-(-9223372036854775808)") == "error: integer overflow");
  CHECK(E("1 / 0") == "error: division by zero");
  CHECK(E("1 % 0") == "error: modulus by zero");
  CHECK(E("2u * 3u") == "6u");
  CHECK(E("0u - 1u") == "error: unsigned integer overflow");
  CHECK(E("1u / 0u") == "error: division by zero");
  CHECK(E("1 + 1u") == "error: no such overload: _+_");
  CHECK(E("1.5 * 2.0") == "3");
  CHECK(E("1.0 / 0.0 > 1e308") == "true");
}

TEST_CASE("cel: comparisons and equality across numeric kinds") {
  CHECK(E("1 == 1u && 1u == 1.0 && 1 == 1.0") == "true");
  CHECK(E("1 < 2u && 2u < 2.5 && -1 < 0u") == "true");
  CHECK(E("1 != 'a'") == "true");
  CHECK(E("[1, 2] == [1.0, 2u]") == "true");
  CHECK(E("{'a': 1} == {'a': 1.0}") == "true");
  CHECK(E("'abc' < 'abd' && b'a' < b'b' && false < true") == "true");
  CHECK(E("'a' < 1") == "error: no such overload: _<_");
  CHECK(E("null == null && null != 0") == "true");
  CHECK(E("0.0/0.0 == 0.0/0.0") == "false");
}

TEST_CASE("cel: && and || absorb errors commutatively, ?: is strict in its condition") {
  CHECK(E("false && 1/0 == 1") == "false");
  CHECK(E("1/0 == 1 && false") == "false");
  CHECK(E("true || 1/0 == 1") == "true");
  CHECK(E("1/0 == 1 || true") == "true");
  CHECK(E("1/0 == 1 || false") == "error: division by zero");
  CHECK(E("true && 1/0 == 1") == "error: division by zero");
  CHECK(E("1 || false") == "error: no such overload: _||_");
  CHECK(E("true ? 1 : 1/0") == "1");
  CHECK(E("1/0 == 0 ? 1 : 2") == "error: division by zero");
  CHECK(E("1 ? 2 : 3") == "error: no such overload: _?_:_");
}

TEST_CASE("cel: strings count code points; bytes count bytes") {
  CHECK(E("size('héllo')") == "5");
  CHECK(E("'héllo'.size()") == "5");
  CHECK(E("size(b'h\\xc3\\xa9')") == "3");
  CHECK(E("'abc' + 'def'") == "\"abcdef\"");
  CHECK(E("'hello'.contains('ell') && 'hello'.startsWith('he') && 'hello'.endsWith('lo')") == "true");
  CHECK(E("'abc123'.matches('^[a-z]+[0-9]+$')") == "true");
  CHECK(E("matches('abc', 'b')") == "true");
  CHECK(E("'abc'.matches('(')").starts_with("error: error parsing regexp"));
}

TEST_CASE("cel: lists and maps") {
  CHECK(E("[1, 2, 3][1]") == "2");
  CHECK(E("[1, 2, 3][3]") == "error: index out of bounds: 3");
  CHECK(E("[1, 2] + [3]") == "[1, 2, 3]");
  CHECK(E("2 in [1, 2, 3] && !(4 in [1, 2, 3])") == "true");
  CHECK(E("{'a': 1, 'b': 2}['b']") == "2");
  CHECK(E("{'a': 1}['z']") == "error: no such key: z");
  CHECK(E("{'a': 1}.a") == "1");
  CHECK(E("'a' in {'a': 1}") == "true");
  CHECK(E("{1: 'x'}[1u]") == "\"x\"");
  CHECK(E("{1: 'x'}[1.0]") == "\"x\"");
  CHECK(E("{'a': 1, 'a': 2}") == "error: Failed with repeated key");
  CHECK(E("size({'a': 1, 'b': 2}) == 2 && size([1]) == 1") == "true");
  CHECK(E("{[1]: 2}") == "error: unsupported key type: list");
}

TEST_CASE("cel: macros") {
  CHECK(E("[1, 2, 3].all(x, x > 0)") == "true");
  CHECK(E("[1, 2, 3].exists(x, x == 2)") == "true");
  CHECK(E("[1, 2, 3].exists_one(x, x > 1)") == "false");
  CHECK(E("[1, 2, 3].map(x, x * 2)") == "[2, 4, 6]");
  CHECK(E("[1, 2, 3].map(x, x > 1, x * 10)") == "[20, 30]");
  CHECK(E("[1, 2, 3].filter(x, x != 2)") == "[1, 3]");
  CHECK(E("{'a': 1, 'b': 2}.all(k, k.size() == 1)") == "true");
  CHECK(E("{'a': 1, 'b': 2}.map(k, k)") == "[\"a\", \"b\"]");
  // An error is absorbed when another element decides the result.
  CHECK(E("[0, 1].exists(x, 1 / x == 1)") == "true");
  CHECK(E("[0, 1].all(x, 1 / x == 1)") == "error: division by zero");
  CHECK(E("[1, 2].all(i, v, i < v)") == "true");
  CHECK(E("[10, 20].transformList(i, v, i + v)") == "[10, 21]");
  CHECK(E("{'a': 1}.transformMap(k, v, v + 1)") == "{\"a\": 2}");
  CHECK(E("cel.bind(x, 2, x * x)") == "4");
  CHECK(E("has(self.a) && !has(self.b)", R"({"a": 1})") == "true");
  CHECK(E("1.all(x, true)") ==
        "error: expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)");
}

TEST_CASE("cel: conversions") {
  CHECK(E("int('42') + int(2.9) + int(3u)") == "47");
  CHECK(E("int('x')") == "error: cannot convert string to int: x");
  CHECK(E("int(1e19)").starts_with("error: range error"));
  CHECK(E("uint(-1)").starts_with("error: range error"));
  CHECK(E("double('1.5') + double(1)") == "2.5");
  CHECK(E("string(1.0) + ' ' + string(1000000.0) + ' ' + string(12u) + ' ' + string(true)") == "\"1 1e+06 12 true\"");
  CHECK(E("string(b'\\xff')").starts_with("error: invalid UTF-8"));
  CHECK(E("bytes('a') == b'a' && bool('true') && !bool('0')") == "true");
  CHECK(E("type(1) == int && type('a') == string && type([]) == list && type(type(1)) == type") == "true");
  CHECK(E("dyn(1) + 2") == "3");
}

TEST_CASE("cel: timestamps and durations") {
  CHECK(E("string(timestamp('2024-02-29T12:30:00.5+01:00'))") == "\"2024-02-29T11:30:00.5Z\"");
  CHECK(E("timestamp('2024-02-30T00:00:00Z')").starts_with("error:"));
  CHECK(E("timestamp('2024-01-01T00:00:00Z') + duration('1h30m') == timestamp('2024-01-01T01:30:00Z')") == "true");
  CHECK(E("timestamp('2024-01-02T00:00:00Z') - timestamp('2024-01-01T00:00:00Z') == duration('24h')") == "true");
  CHECK(E("string(duration('1m30.5s'))") == "\"90.5s\"");
  CHECK(E("duration('-1.5h').getMinutes()") == "-90");
  CHECK(E("duration('1x')") == "error: invalid duration: 1x");
  CHECK(E("timestamp('2024-03-10T15:04:05.123Z').getFullYear()") == "2024");
  CHECK(E("timestamp('2024-03-10T15:04:05.123Z').getMonth()") == "2");
  CHECK(E("timestamp('2024-03-10T15:04:05.123Z').getDate()") == "10");
  CHECK(E("timestamp('2024-03-10T15:04:05.123Z').getDayOfMonth()") == "9");
  CHECK(E("timestamp('2024-03-10T15:04:05.123Z').getDayOfWeek()") == "0");
  CHECK(E("timestamp('2024-03-10T15:04:05.123Z').getDayOfYear()") == "69");
  CHECK(E("timestamp('2024-03-10T15:04:05.123Z').getMilliseconds()") == "123");
  CHECK(E("timestamp('2024-03-10T15:04:05Z').getHours('+05:30')") == "20");
  CHECK(E("timestamp('2024-03-10T15:04:05Z').getMinutes('+05:30')") == "34");
  CHECK(E("timestamp('2024-01-01T00:00:00Z').getFullYear('-01:00')") == "2023");
  CHECK(E("timestamp('2024-03-10T15:04:05Z').getHours('Mars/Olympus')") == "error: unknown time zone Mars/Olympus");
  CHECK(E("timestamp('9999-12-31T23:59:59Z') + duration('1s')") == "error: timestamp overflow");
  CHECK(E("int(timestamp('1970-01-01T00:01:00Z'))") == "60");
}

TEST_CASE("cel: optional values") {
  CHECK(E("optional.of(1).value()") == "1");
  CHECK(E("optional.none().hasValue()") == "false");
  CHECK(E("optional.none().value()") == "error: optional.none() dereference");
  CHECK(E("self.?a.orValue(0) + self.?z.orValue(5)", R"({"a": 1})") == "6");
  CHECK(E("self.?a.b.hasValue()", R"({"a": {"c": 1}})") == "false");
  CHECK(E("[1, 2][?5].orValue(9)") == "9");
  CHECK(E("[?optional.none(), ?optional.of(2), 3]") == "[2, 3]");
  CHECK(E("{?'a': optional.none(), 'b': 1}") == "{\"b\": 1}");
  CHECK(E("optional.ofNonZeroValue('').or(optional.of('x')).value()") == "\"x\"");
  CHECK(E("optional.of(2).optMap(x, x * 3).value()") == "6");
}

TEST_CASE("cel: self, oldSelf and compile errors") {
  CHECK(E("self.replicas <= self.maxReplicas", R"({"replicas": 7, "maxReplicas": 5})") == "false");
  CHECK(E("self.missing == 1", R"({})") == "error: no such key: missing");
  CHECK(E("self.x > 0 || true", R"({})") == "true");
  CHECK(E("foo + 1") ==
        "compile: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo + 1\n | ^");
  CHECK(E("self.nope()").starts_with("compile: ERROR: <input>:1:10: undeclared reference to 'nope'"));
  CHECK(E("self.x ==").starts_with("compile: ERROR: <input>:1:10: Syntax error: mismatched input '<EOF>'"));
  Environment env;
  env.DeclareVariable("self");
  env.DeclareVariable("oldSelf");
  CHECK((*env.Compile("self == oldSelf"))->References("oldSelf"));
  CHECK_FALSE((*env.Compile("[1].all(oldSelf, oldSelf > 0)"))->References("oldSelf"));
}

TEST_CASE("cel: evaluation stops at its cost limit, and the error is not absorbed") {
  const char* big = "[1,2,3,4,5,6,7,8,9,10]";
  CHECK(E("self.map(x, self.map(y, x * y)).size() == 10", big) == "true");
  CHECK(E("self.map(x, self.map(y, x * y)).size() == 10", big, 50) == "error: operation cancelled: actual cost limit exceeded");
  CHECK(E("self.all(x, self.all(y, x * y > 0)) || true", big, 50) == "error: operation cancelled: actual cost limit exceeded");
}

TEST_CASE("cel: long operator chains are refused before they can exhaust the stack") {
  std::string chain = "1";
  for (int i = 0; i < 3000; ++i) chain += " + 1";
  CHECK(E(chain).starts_with("compile: ERROR: <input>:1:1: expression recursion limit exceeded"));
  std::string ok = "1";
  for (int i = 0; i < 200; ++i) ok += " + 1";
  CHECK(E(ok) == "201");
}

}  // namespace
}  // namespace kube::cel

namespace kube::cel {
namespace {

TEST_CASE("cel: set and map lists compare and concatenate as kube's list types") {
  auto eval = [](const char* src, Value a, Value b) {
    Environment env({.check_types = false});
    env.DeclareVariable("a");
    env.DeclareVariable("b");
    auto p = env.Compile(src);
    REQUIRE(p.ok());
    Activation vars;
    vars.Bind("a", std::move(a));
    vars.Bind("b", std::move(b));
    return DebugString((*p)->Evaluate(vars).value);
  };
  auto item = [](const char* name, int64_t port) {
    return Value::Map({{Value::String("name"), Value::String(name)}, {Value::String("port"), Value::Int(port)}});
  };
  const Value set12 = Value::SetList({Value::Int(1), Value::Int(2)});
  const Value plain21 = Value::List({Value::Int(2), Value::Int(1)});
  CHECK(eval("a == b", set12, plain21) == "true");
  CHECK(eval("b == a", set12, plain21) == "false");  // the left side's semantics decide, as in kube
  CHECK(eval("a + b", set12, Value::List({Value::Int(2), Value::Int(3)})) == "[1, 2, 3]");
  const Value ports = Value::MapList({item("a", 1), item("b", 2)}, {"name"});
  CHECK(eval("a == b", ports, Value::List({item("b", 2), item("a", 1)})) == "true");
  CHECK(eval("a == b", ports, Value::List({item("b", 3), item("a", 1)})) == "false");
  CHECK(eval("a + b", ports, Value::List({item("b", 9), item("c", 3)})) ==
        R"([{"name": "a", "port": 1}, {"name": "b", "port": 9}, {"name": "c", "port": 3}])");
  CHECK(eval("a + b", Value::List({Value::Int(1)}), Value::List({Value::Int(1)})) == "[1, 1]");
}

}  // namespace
}  // namespace kube::cel
