// Shared pieces of the Kubernetes library files (lib_*.cc). Internal to the layer.
//
// Each Register* adds one library's functions to a registry; RegisterKubernetesLibraries (cel.h)
// calls them all. Runtime costs follow kube's library cost (k8s.io/apiserver/pkg/cel/library/
// cost.go): string work costs its length times kStringTraversalCostFactor, rounded up.
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>

#include "cel/function_registry.h"
#include "cel/value.h"

namespace kube::cel::internal {

void RegisterRegexLibrary(FunctionRegistry& r);
void RegisterUrlLibrary(FunctionRegistry& r);
void RegisterIpLibrary(FunctionRegistry& r);
void RegisterCidrLibrary(FunctionRegistry& r);
void RegisterQuantityLibrary(FunctionRegistry& r);
void RegisterSemverLibrary(FunctionRegistry& r);
void RegisterFormatLibrary(FunctionRegistry& r);
void RegisterSetsLibrary(FunctionRegistry& r);
void RegisterListsExtLibrary(FunctionRegistry& r);
void RegisterStringFormat(FunctionRegistry& r);

// cel-go's common.StringTraversalCostFactor and common.RegexStringLengthCostFactor.
inline constexpr double kStringTraversalCostFactor = 0.1;
inline constexpr double kRegexStringLengthCostFactor = 0.25;

// ceil(size * factor), kube's cost of walking `size` bytes.
inline uint64_t TraversalCost(size_t size, double factor = kStringTraversalCostFactor) {
  return static_cast<uint64_t>(std::ceil(static_cast<double>(size) * factor));
}

// The result of conversion `tag` (a static string) of string `arg`: `convert()`, an opaque object
// or the error it gives, made once when the previous conversion of the evaluation was the same
// (CallContext::LastConversion), since rules test a string before converting it.
template <class Convert>
Value ConvertOnce(CallContext& ctx, const char* tag, const Value& arg, Convert convert) {
  if (const Value* v = ctx.LastConversion(tag, arg)) return *v;
  return ctx.RecordConversion(tag, arg, convert());
}

// Shorthand for a receiver-style overload.
inline void AddMember(FunctionRegistry& r, std::string_view name, std::vector<Param> params, FunctionImpl impl) {
  r.Add(name, {.receiver = true, .params = std::move(params)}, std::move(impl));
}
// Shorthand for a global overload.
inline void AddGlobal(FunctionRegistry& r, std::string_view name, std::vector<Param> params, FunctionImpl impl) {
  r.Add(name, {.receiver = false, .params = std::move(params)}, std::move(impl));
}

}  // namespace kube::cel::internal
