// Value representations chosen for speed: borrowed strings, maps built from already-sorted
// entries, and an activation's inline bindings. Each must behave exactly as the plain form.
#include <doctest/doctest.h>

#include <string>

#include "cel/cel.h"

namespace kube::cel {
namespace {

TEST_CASE("cel value: a borrowed string reads, compares and keys maps as an owned one") {
  const std::string text = "pvc/data";
  const Value borrowed = Value::BorrowedString(text);
  CHECK(borrowed.kind() == Kind::kString);
  CHECK(&borrowed.AsString() == &text);  // not copied
  CHECK(Equal(borrowed, Value::String("pvc/data")));
  CHECK_FALSE(Equal(borrowed, Value::String("pvc/other")));
  CHECK(DebugString(borrowed) == "\"pvc/data\"");

  // Copies refer to the same text.
  const Value copy = borrowed;
  CHECK(&copy.AsString() == &text);

  // As a map key, found by an owned key of the same text and the other way round.
  const std::string key = "name";
  const Value m = Value::Map({{Value::BorrowedString(key), Value::Int(1)}, {Value::String("a"), Value::Int(2)}});
  REQUIRE(m.FindField("name") != nullptr);
  CHECK(m.FindField("name")->AsInt() == 1);
  REQUIRE(m.Find(Value::String("name")) != nullptr);
  const Value owned = Value::Map({{Value::String("name"), Value::Int(1)}, {Value::String("a"), Value::Int(2)}});
  CHECK(Equal(m, owned));
}

TEST_CASE("cel value: a borrowed string evaluates in programs as an owned one") {
  Environment env({.check_types = false});
  RegisterKubernetesLibraries(env.functions());  // split
  env.DeclareVariable("self");
  auto program = env.Compile("self.startsWith('pvc/') && self.split('/')[1] == 'data' && self + '!' == 'pvc/data!'");
  REQUIRE(program.ok());
  const std::string text = "pvc/data";
  Activation vars;
  vars.Bind("self", Value::BorrowedString(text));
  const EvalResult r = (*program)->Evaluate(vars);
  REQUIRE(r.value.kind() == Kind::kBool);
  CHECK(r.value.AsBool());
}

TEST_CASE("cel value: maps from sorted, unsorted and repeated keys are the same sorted maps") {
  const Value sorted = Value::Map({{Value::String("a"), Value::Int(1)}, {Value::String("b"), Value::Int(2)}});
  const Value unsorted = Value::Map({{Value::String("b"), Value::Int(2)}, {Value::String("a"), Value::Int(1)}});
  CHECK(DebugString(sorted) == "{\"a\": 1, \"b\": 2}");
  CHECK(DebugString(unsorted) == "{\"a\": 1, \"b\": 2}");
  // A repeated key keeps the last entry, sorted input or not.
  const Value repeated = Value::Map({{Value::String("a"), Value::Int(1)}, {Value::String("a"), Value::Int(3)}});
  CHECK(DebugString(repeated) == "{\"a\": 3}");
  // Numerically equal keys of different kinds are one key.
  const Value numeric = Value::Map({{Value::Int(1), Value::Int(1)}, {Value::Uint(1), Value::Int(2)}});
  CHECK(numeric.AsMap().size() == 1);
  // Kinds order before values: bool < numbers < string.
  const Value mixed = Value::Map({{Value::Bool(true), Value::Int(1)}, {Value::Int(0), Value::Int(2)},
                                  {Value::String(""), Value::Int(3)}});
  CHECK(DebugString(mixed) == "{true: 1, 0: 2, \"\": 3}");
}

TEST_CASE("cel value: an activation finds its inline bindings and those beyond them") {
  Activation vars;
  CHECK(vars.Find("self") == nullptr);
  vars.Bind("self", Value::Int(1));
  vars.Bind("oldSelf", Value::Int(2));
  vars.Bind("third", Value::Int(3));
  vars.Bind("fourth", Value::Int(4));
  REQUIRE(vars.Find("self") != nullptr);
  CHECK(vars.Find("self")->AsInt() == 1);
  CHECK(vars.Find("oldSelf")->AsInt() == 2);
  CHECK(vars.Find("third")->AsInt() == 3);
  CHECK(vars.Find("fourth")->AsInt() == 4);
  CHECK(vars.Find("fifth") == nullptr);
}

}  // namespace
}  // namespace kube::cel
