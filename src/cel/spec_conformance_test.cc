// Regression tests for defects cel-spec's conformance suite (tools/cel_conformance) revealed,
// one TEST_CASE per fix, named after the cel-spec test that found it.
#include <doctest/doctest.h>

#include "cel/cel.h"

namespace kube::cel {
namespace {

// Evaluates `src` in the standard and Kubernetes environment: the result as DebugString, or
// "error: <message>" / "compile: <message>".
std::string E(std::string_view src) {
  Environment env;
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

}  // namespace
}  // namespace kube::cel
