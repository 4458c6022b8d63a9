// Server-side field validation for built-in kinds (fieldValidation=Strict|Warn|Ignore): fields
// the kind's schema does not define are dropped (kube decodes into typed structs, which drops
// them) and reported so the handler can fail (Strict) or warn (Warn).
//
// Thread-safety: pure function.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "catalogue/schema.h"

namespace kube::endpoints {

// Removes unknown fields from `obj` in place and returns their paths ("spec.foo",
// "spec.containers[0].bar"). A null schema knows nothing and prunes nothing.
std::vector<std::string> PruneUnknownFields(const catalogue::Schema* schema, nlohmann::json* obj);

// Paths of object keys that appear twice in the JSON text `body` ("metadata.name"); typed
// decoding keeps the last one, strict decoding reports them. Empty for malformed text.
std::vector<std::string> DuplicateFields(std::string_view body);

// The first value whose JSON type the schema's type cannot hold (a number where a string goes),
// described as Go's decoder would: "json: cannot unmarshal number into Go struct field
// .data[a] of type string". Empty when every value fits; null fits everywhere.
std::string TypeMismatch(const catalogue::Schema* schema, const nlohmann::json& obj);

}  // namespace kube::endpoints
