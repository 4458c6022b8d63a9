// Shared pieces of the standard library files (stdlib_*.cc). Internal to the layer.
#pragma once

#include <string>
#include <string_view>

#include "cel/function_registry.h"
#include "cel/value.h"

namespace kube::cel::internal {

void RegisterOperators(FunctionRegistry& r);
void RegisterConversions(FunctionRegistry& r);
void RegisterStrings(FunctionRegistry& r);
void RegisterTime(FunctionRegistry& r);
void RegisterOptionals(FunctionRegistry& r);

// Global `name(args...)` and, when `receiver_too`, `args[0].name(args[1:]...)`.
inline void AddBoth(FunctionRegistry& r, std::string_view name, std::vector<Param> params, const FunctionImpl& impl) {
  r.Add(name, {.receiver = false, .params = params}, impl);
  r.Add(name, {.receiver = true, .params = std::move(params)}, impl);
}

inline Value Overflow() { return Value::Error("integer overflow"); }
inline Value UintOverflow() { return Value::Error("unsigned integer overflow"); }
inline Value RangeError(std::string_view what) { return Value::Error(std::string("range error converting ") + std::string(what)); }

// Timestamp and duration text forms (stdlib_time.cc).
bool ParseRfc3339(std::string_view text, Timestamp* out);
std::string FormatRfc3339(Timestamp t);
bool ParseGoDuration(std::string_view text, Duration* out);
std::string FormatDurationSeconds(Duration d);
// Whether `t` lies in CEL's timestamp range (years 1 to 9999).
bool InTimestampRange(Timestamp t);

}  // namespace kube::cel::internal
