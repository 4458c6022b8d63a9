// JSON patch (RFC 6902, Content-Type application/json-patch+json) as kube-apiserver applies it.
//
// kube-apiserver uses evanphx/json-patch v4 with negative array indices enabled and a 3 MiB limit
// on the bytes added by "copy" operations. This implementation follows that library rather than
// the letter of the RFC where the two differ:
//   - "replace" of a missing object member adds it (only array indices must exist);
//   - negative array indices count from the end ("-1" is the last element; for "add", "-1"
//     appends);
//   - "copy" from a missing object member copies null;
//   - "test" of a missing member or null passes when "value" is absent or null;
//   - paths that do not start with "/" resolve from their second segment; "" is only
//     accepted by "replace" (value must be an object or array) and "test";
//   - an operation without "value" uses null.
//
// Errors (never thrown), in the order kube checks them:
//   BadRequest "invalid JSON patch"            the body is not JSON
//   BadRequest "error decoding patch: json: cannot unmarshal ..."
//                                              not an array of objects; op/path/from not strings
//   RequestEntityTooLarge                      more than 10000 operations
//   Invalid (422) "the server rejected our request due to an error in our request"
//                                              any operation failed (unknown op, missing path,
//                                              index out of range, failed test, copy limit);
//                                              kube puts no further detail on the wire
//   Invalid (422)                              the result is not an object although `doc` was
//   InternalError                              inputs on which the library panics ("replace" or
//                                              "test" of "" without a value; "test" reaching a
//                                              null array item)
// A "null" body is an empty patch.
//
// Thread-safety: a pure function; safe to call concurrently.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "util/status.h"

namespace kube::patch {

// Applies `patch_body` to a copy of `doc` and returns the patched document.
Result<nlohmann::json> ApplyJsonPatch(const nlohmann::json& doc, std::string_view patch_body);

}  // namespace kube::patch
