// Typed decoding and server-side field validation for built-in kinds. kube decodes every request
// body into the kind's Go structs and encodes what it stores and returns from them; DecodeTyped
// gives a JSON object the same fate in one walk over the catalogue schema:
//  - fields the schema does not define are dropped (typed decoding has nowhere to put them) and
//    reported, for fieldValidation=Strict|Warn|Ignore to decide about. That is schema::Prune, the
//    one pruning walk of the schema model, which custom resources use too;
//  - a value whose JSON type the Go type cannot hold is the decoder's type error;
//  - null decodes to the Go zero value: a field set to null is absent; a null map value or list
//    item becomes its type's zero value ("", 0, false, "0" for a quantity, {} for a struct) or
//    stays null where Go encodes the zero value as null (a nil slice or map, a zero time, a
//    free-form value);
//  - the empty value ([], {}, "", 0, false) of a field Go encodes with `omitempty` is left out
//    (catalogue::Schema::OmitsEmpty), as kube never stores or returns it.
// Time and memory are linear in the size of the object: paths are only built for what is
// reported, and the reports are capped (kMaxReportedPathBytes).
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "catalogue/schema.h"

namespace kube::endpoints {

// Reports stop growing once the paths they hold reach this many bytes in total (a hostile body
// could otherwise ask for one long path per field). Default: 64 KiB.
inline constexpr size_t kMaxReportedPathBytes = 64 * 1024;

struct TypedDecodeResult {
  // Paths of the dropped unknown fields ("spec.foo", "spec.containers[0].bar", "data[k]"), sorted.
  std::vector<std::string> unknown_fields;
  // The first value of the wrong JSON type, in Go's words: "json: cannot unmarshal number into
  // Go struct field .data[a] of type string". Empty when every value fits (null fits anywhere).
  std::string type_error;
};

// Applies typed decoding to `obj` in place (see above). A null schema knows nothing and changes
// nothing.
TypedDecodeResult DecodeTyped(const catalogue::Schema* schema, nlohmann::json* obj);

// Whether `value` nests arrays and objects deeper than `max_depth` levels (kube's JSON decoder
// allows 10,000). Iterative: safe on a value of any depth.
bool NestedDeeperThan(const nlohmann::json& value, int max_depth);

// Paths of object keys that appear twice in the JSON text `body` ("metadata.name"); typed
// decoding keeps the last one, strict decoding reports them. Empty for malformed text. Linear in
// the body; capped like the reports above.
std::vector<std::string> DuplicateFields(std::string_view body);

}  // namespace kube::endpoints
