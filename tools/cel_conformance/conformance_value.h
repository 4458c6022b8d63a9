// cel-spec's expected values (cel.expr.Value, read from a textproto tree) as kube::cel values,
// and the equality the conformance tests compare results with.
//
// Supported: null, bool, int64, uint64, double, string, bytes, lists, maps, type values, and
// object values (google.protobuf.Any) of the well-known types CEL maps to its own values:
// Duration, Timestamp, the wrappers (unwrapped to their primitive), Struct / Value / ListValue
// (as JSON-like maps, values and lists) and nested Any. Everything else — cel-spec's TestAllTypes
// messages, enum values — is reported unsupported with a category, never guessed.
//
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "cel/value.h"
#include "textproto.h"

namespace kube::celconf {

// A conversion's outcome: a value, or why not. `unsupported` names a category ("messages",
// "enums") the runner counts as skipped; `error` is a malformed test file.
struct Converted {
  cel::Value value;
  std::string unsupported;
  std::string error;
  bool ok() const { return unsupported.empty() && error.empty(); }
};

// A cel.expr.Value message.
Converted FromExprValue(const textproto::Message& v);

// A google.protobuf.Any's content: `type_url` ("type.googleapis.com/google.protobuf.Duration")
// and the message written under it.
Converted FromAny(std::string_view type_url, const textproto::Message& m);

// Conformance equality: proto equality of the values, so int 1, uint 1 and double 1.0 differ, and
// list order matters; except that map entries match in any order and any NaN matches any NaN.
bool ConformanceEqual(const cel::Value& a, const cel::Value& b);

// A rendering that keeps kinds apart: 1, 1u, 1.0, "s", b"..", [..], {..}, error(...).
std::string Render(const cel::Value& v);

}  // namespace kube::celconf
