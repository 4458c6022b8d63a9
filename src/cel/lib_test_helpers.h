// Test helper for the library tests (lib_*_test.cc): evaluates an expression in an environment
// with the Kubernetes libraries and renders the result with DebugString, or "error: <message>"
// / "compile: <message>". Not part of kube_cel.
#pragma once

#include <string>
#include <string_view>

#include "cel/cel.h"

namespace kube::cel::testing {

// Unchecked: these tests are about run-time semantics (as cel-spec's disable_check).
inline std::string Eval(std::string_view src, uint64_t* cost = nullptr) {
  Environment env({.check_types = false});
  RegisterKubernetesLibraries(env.functions());
  auto program = env.Compile(src);
  if (!program.ok()) return "compile: " + program.status().message();
  EvalResult r = (*program)->Evaluate(Activation{});
  if (cost != nullptr) *cost = r.cost;
  return r.value.IsError() ? "error: " + r.value.ErrorMessage() : DebugString(r.value);
}

}  // namespace kube::cel::testing
