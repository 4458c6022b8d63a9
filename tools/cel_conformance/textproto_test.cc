// The conformance runner's own pieces: the text-format reader, cel.expr.Value conversion and
// equality, and the runner's classification of tests (on small inline files, not cel-spec's).
#include <cmath>

#include <doctest/doctest.h>

#include "conformance_value.h"
#include "runner.h"
#include "textproto.h"

namespace kube::celconf {
namespace {

using cel::Value;
using textproto::Field;

textproto::Message MustParse(std::string_view text) {
  auto m = textproto::Parse(text);
  REQUIRE_MESSAGE(m.ok(), m.status().message());
  return *m;
}

Value MustConvert(std::string_view value_text) {
  Converted c = FromExprValue(MustParse(value_text));
  REQUIRE_MESSAGE(c.ok(), (c.unsupported + c.error));
  return c.value;
}

TEST_CASE("textproto: fields, nesting styles, separators, comments and lists") {
  auto m = MustParse(R"(
    # a comment
    name: "basic"  # trailing comment
    section { name: "a", test: { name: 't1' } ; test < name: "t2" > }
    section: { name: "b" }
    ints: [1, -2, 0x10]
    msgs [{ x: 1 }, { x: 2 }]
    kind: NULL_VALUE
  )");
  CHECK(m.Scalar("name") == "basic");
  auto sections = m.FindAll("section");
  REQUIRE(sections.size() == 2);
  auto tests = sections[0]->message->FindAll("test");
  REQUIRE(tests.size() == 2);
  CHECK(tests[0]->message->Scalar("name") == "t1");
  CHECK(tests[1]->message->Scalar("name") == "t2");
  CHECK(sections[1]->message->Scalar("name") == "b");
  auto ints = m.FindAll("ints");
  REQUIRE(ints.size() == 3);
  int64_t i;
  CHECK((textproto::ParseInt64(ints[1]->scalar, &i) && i == -2));
  CHECK((textproto::ParseInt64(ints[2]->scalar, &i) && i == 16));
  CHECK(m.FindAll("msgs").size() == 2);
  CHECK(m.Find("kind")->kind == Field::Kind::kIdentifier);
  CHECK(m.Scalar("kind") == "NULL_VALUE");
}

TEST_CASE("textproto: string escapes and concatenation") {
  auto m = MustParse(R"(a: "x\n\t\\\"'" b: '\303\277' c: "\xe2\x9c\x8c" d: "\u270c\U0001f431" e: "ab" 'cd' f: "\0")");
  CHECK(m.Scalar("a") == "x\n\t\\\"'");
  CHECK(m.Scalar("b") == "\xc3\xbf");
  CHECK(m.Scalar("c") == "\xe2\x9c\x8c");
  CHECK(m.Scalar("d") == "\xe2\x9c\x8c\xf0\x9f\x90\xb1");
  CHECK(m.Scalar("e") == "abcd");
  CHECK(m.Scalar("f") == std::string(1, '\0'));
}

TEST_CASE("textproto: malformed input is an error with its line, never a crash") {
  for (std::string_view bad : {"a: \"unterminated", "a { b: 1", "a: [1, 2", "a: \"\\q\"", "{", "a: \"\\u12\"", "a 1"}) {
    auto m = textproto::Parse(bad);
    CHECK_FALSE(m.ok());
    if (!m.ok()) CHECK(m.status().message().starts_with("line 1: "));
  }
  std::string deep(1000, '{');
  CHECK_FALSE(textproto::Parse("a " + deep).ok());
}

TEST_CASE("textproto: numbers") {
  double d;
  CHECK((textproto::ParseDouble("-inf", &d) && std::isinf(d) && d < 0));
  CHECK((textproto::ParseDouble("nan", &d) && std::isnan(d)));
  CHECK((textproto::ParseDouble("1e+30", &d) && d == 1e30));
  CHECK((textproto::ParseDouble("2.5f", &d) && d == 2.5));
  uint64_t u;
  CHECK((textproto::ParseUint64("18446744073709551615", &u) && u == UINT64_MAX));
  CHECK_FALSE(textproto::ParseUint64("-1", &u));
  int64_t i;
  CHECK_FALSE(textproto::ParseInt64("9223372036854775808", &i));
  auto m = MustParse("a: - inf b: -9223372036854775808");
  CHECK((textproto::ParseDouble(m.Scalar("a"), &d) && std::isinf(d) && d < 0));
  CHECK((textproto::ParseInt64(m.Scalar("b"), &i) && i == INT64_MIN));
}

TEST_CASE("conformance values: scalars keep their kinds") {
  CHECK(MustConvert("int64_value: 1").kind() == cel::Kind::kInt);
  CHECK(MustConvert("uint64_value: 1").kind() == cel::Kind::kUint);
  CHECK(MustConvert("double_value: 1").kind() == cel::Kind::kDouble);
  CHECK(MustConvert("null_value: NULL_VALUE").kind() == cel::Kind::kNull);
  CHECK(MustConvert("bytes_value: '\\000\\377'").AsBytes() == std::string("\0\xff", 2));
  CHECK(MustConvert("type_value: 'google.protobuf.Duration'").AsTypeName() == "google.protobuf.Duration");
  CHECK_FALSE(ConformanceEqual(Value::Int(1), Value::Uint(1)));
  CHECK_FALSE(ConformanceEqual(Value::Int(1), Value::Double(1)));
  CHECK(ConformanceEqual(Value::Double(NAN), Value::Double(-NAN)));
  CHECK(Render(Value::Double(1)) == "1.0");
  CHECK(Render(Value::Uint(1)) == "1u");
}

TEST_CASE("conformance values: lists, maps in any order, well-known types") {
  Value m = MustConvert(R"(map_value {
    entries { key { string_value: "b" } value { list_value { values { int64_value: 1 } values { bool_value: true } } } }
    entries { key { int64_value: 1 } value { double_value: 2.5 } } })");
  Value same = Value::Map({{Value::Int(1), Value::Double(2.5)},
                           {Value::String("b"), Value::List({Value::Int(1), Value::Bool(true)})}});
  CHECK(ConformanceEqual(m, same));
  Value uint_key = Value::Map({{Value::Uint(1), Value::Double(2.5)},
                               {Value::String("b"), Value::List({Value::Int(1), Value::Bool(true)})}});
  CHECK_FALSE(ConformanceEqual(m, uint_key));

  Value d = MustConvert("object_value { [type.googleapis.com/google.protobuf.Duration] { seconds: 3 nanos: 5 } }");
  REQUIRE(d.kind() == cel::Kind::kDuration);
  CHECK(d.AsDuration().nanos == 3000000005);
  Value w = MustConvert("object_value { [type.googleapis.com/google.protobuf.UInt32Value] { value: 7 } }");
  CHECK(ConformanceEqual(w, Value::Uint(7)));
  Value s = MustConvert(R"(object_value { [type.googleapis.com/google.protobuf.Struct] {
    fields { key: "a" value { list_value { values { number_value: 1 } values { null_value: NULL_VALUE } } } } } })");
  CHECK(ConformanceEqual(s, Value::Map({{Value::String("a"), Value::List({Value::Double(1), Value::Null()})}})));
  Value any = MustConvert(R"(object_value { [type.googleapis.com/google.protobuf.Any] {
    [type.googleapis.com/google.protobuf.StringValue] { value: "x" } } })");
  CHECK(ConformanceEqual(any, Value::String("x")));

  Converted msg = FromExprValue(MustParse(
      "object_value { [type.googleapis.com/cel.expr.conformance.proto3.TestAllTypes] { single_int64: 1 } }"));
  CHECK(msg.unsupported == "messages");
  CHECK(FromExprValue(MustParse("enum_value { type: 'x.E' value: 1 }")).unsupported == "enums");
}

TEST_CASE("runner: passes, failures and skips are classified") {
  auto file = MustParse(R"(
    name: "demo"
    section {
      name: "s"
      test { name: "implicit_true" expr: "1 < 2" }
      test { name: "value" expr: "1u + 2u" value: { uint64_value: 3 } }
      test { name: "kind_matters" expr: "1 + 2" value: { uint64_value: 3 } }
      test { name: "error" expr: "1 / 0" eval_error { errors { message: "division by zero" } } }
      test { name: "binding" expr: "x * 2" bindings { key: "x" value { value { int64_value: 21 } } } value { int64_value: 42 } }
      test { name: "unchecked_ref" expr: "y" disable_check: true eval_error { errors { message: "no such attribute" } } }
      test { name: "syntax" expr: "1 +" value { int64_value: 1 } }
      test { name: "qualified" expr: "a.b" bindings { key: "a.b" value { value { int64_value: 1 } } } value { int64_value: 1 } }
      test { name: "typed" expr: "1" typed_result { result { int64_value: 1 } } }
      test { name: "typed_wrong" expr: "1" typed_result { result { uint64_value: 1 } } }
      test { name: "message" container: "cel.expr.conformance.proto3" expr: "TestAllTypes{}.single_int64 == 0" }
      test { name: "literal" expr: "google.protobuf.Int32Value{value: 1} == 1" }
      test { name: "type_name" expr: "type(duration('1s')) == google.protobuf.Duration" }
      test { name: "braces_in_string" expr: "'{0} days {0}'.size() == 12 && \"x {\" != '''y {'''" }
    })");
  auto results = RunFile(file, {});
  REQUIRE(results.size() == 14);
  auto outcome = [&](std::string_view name) {
    for (const auto& r : results) {
      if (r.name == name) return r;
    }
    FAIL("no result for " << name);
    return TestResult{};
  };
  CHECK(outcome("implicit_true").outcome == Outcome::kPassed);
  CHECK(outcome("value").outcome == Outcome::kPassed);
  CHECK(outcome("kind_matters").outcome == Outcome::kFailed);
  CHECK(outcome("kind_matters").category == "wrong value");
  CHECK(outcome("kind_matters").got == "3");
  CHECK(outcome("error").outcome == Outcome::kPassed);
  CHECK(outcome("binding").outcome == Outcome::kPassed);
  CHECK(outcome("unchecked_ref").category == "unchecked mode");
  CHECK(outcome("qualified").category == "not in kube: containers and qualified variable names");
  CHECK(outcome("syntax").category == "compile: syntax error");
  CHECK(outcome("typed").outcome == Outcome::kPassed);
  CHECK(outcome("typed_wrong").category == "wrong value");
  CHECK(outcome("message").category == "messages");
  CHECK(outcome("literal").category == "messages");
  CHECK(outcome("braces_in_string").outcome == Outcome::kPassed);
  // Qualified type names resolve now.
  CHECK(outcome("type_name").outcome == Outcome::kPassed);

  // Evaluating the skipped tests too changes no outcome.
  auto again = RunFile(file, {}, /*evaluate_skipped=*/true);
  REQUIRE(again.size() == results.size());
  for (size_t i = 0; i < again.size(); ++i) CHECK(again[i].category == results[i].category);

  auto filtered = RunFile(file, {"demo/s/val*"});
  REQUIRE(filtered.size() == 1);
  CHECK(filtered[0].name == "value");
  CHECK(RunFile(file, {"other"}).empty());
  CHECK(RunFile(file, {"!demo/s/v*"}).size() == results.size() - 1);
  CHECK(RunFile(file, {"demo/s/value", "demo/s/error", "!demo/s/v*"}).size() == 1);
  CHECK_FALSE(FileMatches("demo", {"!demo"}));
  CHECK(FileMatches("demo", {"!demo/s/value"}));
  CHECK(FileMatches("demo", {"d*/x"}));
  CHECK_FALSE(FileMatches("demo", {"basic"}));
}

TEST_CASE("runner: a known divergence of kube counts only when the test fails on its value") {
  auto file = MustParse(R"pb(
    name: "timestamps"
    section {
      name: "duration_converters"
      test { name: "get_milliseconds" expr: "duration('1.5s').getMilliseconds()" value { int64_value: 500 } }
    })pb");
  auto results = RunFile(file, {});
  REQUIRE(results.size() == 1);
  CHECK(results[0].outcome == Outcome::kSkipped);
  CHECK(results[0].category == "kube differs");
  CHECK(results[0].detail.ends_with("; got 1500"));

  // The same name expecting what kube does passes.
  auto passing = MustParse(R"pb(
    name: "timestamps"
    section {
      name: "duration_converters"
      test { name: "get_milliseconds" expr: "duration('1.5s').getMilliseconds()" value { int64_value: 1500 } }
    })pb");
  CHECK(RunFile(passing, {})[0].outcome == Outcome::kPassed);
}

TEST_CASE("runner: deduced types are compared; what kube's environment lacks is skipped") {
  auto file = MustParse(R"pb(
    name: "type_deduction"
    section {
      name: "s"
      test { name: "check_only" expr: "[[], [1]]" check_only: true
             typed_result { deduced_type { list_type { elem_type { list_type { elem_type { primitive: INT64 } } } } } } }
      test { name: "check_only_wrong" expr: "[1]" check_only: true
             typed_result { deduced_type { list_type { elem_type { primitive: STRING } } } } }
      test { name: "typed" expr: "1 + 1" typed_result { result { int64_value: 2 } deduced_type { primitive: INT64 } } }
      test { name: "typed_wrong_type" expr: "dyn(1)"
             typed_result { result { int64_value: 1 } deduced_type { primitive: INT64 } } }
      test { name: "wrapper" expr: "1" check_only: true typed_result { deduced_type { wrapper: INT64 } } }
      test { name: "message_ident" expr: "msg" check_only: true
             type_env { name: "msg" ident { type { message_type: "cel.expr.conformance.proto3.TestAllTypes" } } }
             typed_result { deduced_type { dyn {} } } }
      test { name: "declared_function" expr: "fn(1)" check_only: true
             type_env { name: "fn" function { overloads { overload_id: "fn_int" params { primitive: INT64 }
                                                           result_type { primitive: INT64 } } } }
             typed_result { deduced_type { primitive: INT64 } } }
      test { name: "check_error" expr: "isIP(cidr('10.0.0.0/8'))"
             eval_error { errors { message: "found no matching overload for 'isIP' applied to '(net.CIDR)'" } } }
      test { name: "other_check_error" expr: "isIP(cidr('10.0.0.0/8'))"
             eval_error { errors { message: "no such overload" } } }
    })pb");
  auto results = RunFile(file, {});
  REQUIRE(results.size() == 9);
  CHECK(results[0].outcome == Outcome::kPassed);
  CHECK(results[1].outcome == Outcome::kFailed);
  CHECK(results[1].category == "wrong deduced type");
  CHECK(results[1].got == "type list(int)");
  CHECK(results[2].outcome == Outcome::kPassed);
  CHECK(results[3].category == "wrong deduced type");
  CHECK(results[3].got == "type dyn, expected int");
  CHECK(results[4].category == "messages");
  CHECK(results[5].category == "messages");
  CHECK(results[6].category == "not in kube: declared functions");
  CHECK(results[7].outcome == Outcome::kPassed);
  CHECK(results[8].outcome == Outcome::kFailed);
}

TEST_CASE("runner: kube's compile-time refusals count as kube differs") {
  auto file = MustParse(R"pb(
    name: "string_ext"
    section {
      name: "reverse"
      test { name: "multiple" expr: "'abc'.reverse() == 'cba'" }
    }
    section {
      name: "other"
      test { name: "reverse" expr: "'abc'.reverse() == 'cba'" }
    })pb");
  auto results = RunFile(file, {});
  REQUIRE(results.size() == 2);
  CHECK(results[0].outcome == Outcome::kSkipped);
  CHECK(results[0].category == "kube differs");
  CHECK(results[1].outcome == Outcome::kFailed);
}

TEST_CASE("runner: an extension kube does not load counts as not in kube when it fails to compile") {
  auto file = MustParse(R"pb(
    name: "math_ext"
    section {
      name: "greatest"
      test { name: "ext" expr: "math.greatest(1, 2)" value { int64_value: 2 } }
      test { name: "core" expr: "[1, 2].exists(x, x == 2)" }
      test { name: "wrong" expr: "1 + 1" value { int64_value: 3 } }
    })pb");
  auto results = RunFile(file, {});
  REQUIRE(results.size() == 3);
  CHECK(results[0].category == "not in kube");
  CHECK(results[0].outcome == Outcome::kSkipped);
  CHECK(results[1].outcome == Outcome::kPassed);
  CHECK(results[2].outcome == Outcome::kFailed);
}

}  // namespace
}  // namespace kube::celconf
