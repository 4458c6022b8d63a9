// Regression tests for defects cel-spec's conformance suite (tools/cel_conformance) revealed,
// one TEST_CASE per fix, named after the cel-spec test that found it.
#include <doctest/doctest.h>

#include "cel/cel.h"

namespace kube::cel {
namespace {

// Evaluates `src` in the standard and Kubernetes environment: the result as DebugString, or
// "error: <message>" / "compile: <message>".
std::string E(std::string_view src) {
  Environment env({.check_types = false});  // run-time semantics, as the spec's disable_check
  RegisterKubernetesLibraries(env.functions());
  auto program = env.Compile(src);
  if (!program.ok()) return "compile: " + program.status().message();
  EvalResult r = (*program)->Evaluate(Activation());
  if (r.value.IsError()) return "error: " + r.value.ErrorMessage();
  return DebugString(r.value);
}

TEST_CASE("spec: an optional map entry holding the only reference to its value (optionals/optional_chaining_12)") {
  CHECK(E("{?'nested_map': optional.of({'a': 1})}") == R"({"nested_map": {"a": 1}})");
  CHECK(E("{?'m': optional.ofNonZeroValue({?'map': {'c': {'d': 'x'}}.?c})}") == R"({"m": {"map": {"d": "x"}}})");
}

TEST_CASE("spec: int() of a double refuses -2^63 (conversions/int/double_int_min_range)") {
  CHECK(E("int(-9223372036854775808.0)") == "error: range error converting double to int");
  CHECK(E("int(-9223372036854774784.0)") == "-9223372036854774784");  // the next double up converts
  CHECK(E("int(9223372036854775807.0)") == "error: range error converting double to int");
  CHECK(E("int(-1.9)") == "-1");
}

TEST_CASE("spec: has() through an optional tests its value (optionals/has_map_optindex, optional_chaining_9)") {
  CHECK(E("has({}.?x.y)") == "false");
  CHECK(E("has({'x': {'y': 'z'}}.?x.y)") == "true");
  CHECK(E("has({'x': {'y': 'z'}}.?x.w)") == "false");
  CHECK(E("has(optional.of({'c': 1}).c) && !has(optional.of({'c': 1}).d)") == "true");
  CHECK(E("has(optional.none().c)") == "false");
  CHECK(E("has(optional.of(1).c)") == "error: no such overload: has");
}

}  // namespace
}  // namespace kube::cel
