// JSON merge patch (RFC 7386, Content-Type application/merge-patch+json) as kube-apiserver
// applies it (evanphx/json-patch v4 MergePatch, after kube's own decode of the body).
//
// Semantics: object members of the patch merge recursively into the document; a null member
// deletes; any non-object value (arrays included) replaces the target wholesale. Values that are
// inserted where the document had nothing (or null, or a non-object) lose their null members
// recursively, including inside objects nested in arrays; an array that replaces an object keeps
// them (the library's quirk, reproduced).
//
// Errors (never thrown):
//   BadRequest "invalid JSON patch"                          the body is not JSON
//   BadRequest "error decoding patch: json: cannot unmarshal array into Go value of type
//              map[string]interface {}"                      the body is not an object
//   BadRequest "Invalid JSON Patch"                          the body is null
// A non-object `doc` yields the patch itself (nulls pruned), as the library does.
//
// Thread-safety: a pure function; safe to call concurrently.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "util/status.h"

namespace kube::patch {

// Applies `patch_body` to a copy of `doc` and returns the merged document.
Result<nlohmann::json> ApplyMergePatch(const nlohmann::json& doc, std::string_view patch_body);

}  // namespace kube::patch
