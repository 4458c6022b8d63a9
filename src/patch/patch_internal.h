// Internals shared by the three patch implementations. Not part of the public API: only the
// src/patch/*.cc files include this.
//
// kube-apiserver decodes patch bodies with Go's encoding/json (via sigs.k8s.io/json, which keeps
// integers as int64) and reports errors with Go's fmt formatting. The helpers here reproduce the
// parts of that behaviour that are observable on the wire: which bodies are accepted, how two
// decoded values compare with Go's ==, and how values print in error messages.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "util/status.h"

namespace kube::patch::internal {

using Json = nlohmann::json;

// Bodies nested deeper than this are rejected as invalid JSON. Go's scanner allows 10000 levels;
// we stop earlier so that the recursive merge code can never exhaust a thread's stack.
inline constexpr int kMaxNestingDepth = 1000;

// The message NewGenericServerResponse(422, ...) puts on the wire: kube drops the patch library's
// own error text for failed JSON patch operations and for some strategic merge errors.
inline constexpr std::string_view kUnprocessableMessage =
    "the server rejected our request due to an error in our request";

// Parses a request body. nullopt when it is not a single valid JSON value (kube:
// "invalid JSON patch") or is nested deeper than kMaxNestingDepth. Never throws.
std::optional<Json> ParseBody(std::string_view body);

// 422 with reason Invalid and kUnprocessableMessage.
Status Unprocessable();

// The dynamic type a Go interface{} would hold after decoding this value.
enum class GoKind { kNil, kBool, kInt64, kFloat64, kString, kMap, kSlice };
GoKind KindOf(const Json& v);
// reflect.TypeOf(v).String(): "map[string]interface {}", "[]interface {}", "int64", "<nil>" ...
std::string_view GoTypeName(const Json& v);
// encoding/json's word for a value in "cannot unmarshal X into ...": object, array, number ...
std::string_view JsonTypeWord(const Json& v);

// Go's == on two decoded values: same dynamic type and value (int64 1 != float64 1). nullopt
// where Go panics: both maps or both slices ("comparing uncomparable type").
std::optional<bool> GoCompare(const Json& a, const Json& b);
// The error upstream's panic recovery turns that into.
Status UncomparablePanic(const Json& v);
// A string that is equal for two scalars exactly when GoCompare is true; nullopt for maps and
// slices.
std::optional<std::string> ScalarKey(const Json& v);

// fmt's %v: map[k:v k2:v2], [a b], strings unquoted, <nil>.
std::string GoFormat(const Json& v);
// fmt's %s, as used for a directive value: strings as is, other scalars as %!s(type=value),
// recursively inside maps and slices (where a nil prints as <nil>).
std::string GoFormatS(const Json& v, bool nested = false);
// Compact JSON that never throws (invalid UTF-8 is replaced).
std::string Dump(const Json& v);

}  // namespace kube::patch::internal
