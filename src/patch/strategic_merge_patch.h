// Strategic merge patch (Content-Type application/strategic-merge-patch+json) with the semantics
// of kube-apiserver (k8s.io/apimachinery/pkg/util/strategicpatch, server-side application: the
// $deleteFromPrimitiveList and $setElementOrder parallel lists are honoured and nulls that match
// nothing are dropped). This is what `kubectl apply` (client-side) and `kubectl patch` send.
//
// Semantics, per object level of the patch:
//   - members merge recursively into objects; a null member deletes;
//   - `"$patch": "replace"` replaces the object with the patch's members; `"$patch": "delete"`
//     leaves an empty object; any other value is an error;
//   - `"$retainKeys": [names]` first drops every member of the original not named (the patch's
//     own non-null members must all be named);
//   - `"$setElementOrder/<list>": [...]` fixes the order of the merged <list> (items named there
//     first, in that order; server-only items keep their relative place);
//   - `"$deleteFromPrimitiveList/<list>": [...]` removes those values from a list of scalars.
// Lists follow the field's x-kubernetes-patch-strategy in `schema`:
//   - "merge" with a patch-merge-key: items are matched by the key and merged recursively;
//     unmatched patch items are added; items `{"<key>": v, "$patch": "delete"}` remove every
//     match; an item `{"$patch": "replace"}` makes the other patch items the whole list. The
//     order is the patch's, with the original's other items interleaved where they were (an
//     added item without $setElementOrder lands before the items it does not know about, as
//     upstream does).
//   - "merge" on scalars: the union (duplicates collapse).
//   - anything else (no strategy, "replace", "retainKeys" alone, unknown fields): the patch's
//     list replaces the original.
// Fields unknown to `schema`, and everything when `schema` is nullptr, have no strategy: objects
// still merge and directives still apply, lists are replaced (a JSON merge patch plus
// directives, which is what upstream does for schemaless lookups). The exception, as upstream:
// `$setElementOrder/<field>` for a field the object's schema lacks is an error. Directive members
// and null object members never reach the result: kube's typed decode of the merged map drops
// them (free-form kAny subtrees and map values are kept as sent).
//
// Upstream visits a patch's members in Go's random map order. Where that matters (a patch with
// several errors, or an item both merged and listed in $deleteFromPrimitiveList) the outcome
// here is one of upstream's possible ones, always the same: ordinary members first, deletion
// lists last, in key order.
//
// Errors (never thrown; messages as upstream):
//   BadRequest "invalid JSON patch"              the body is not JSON
//   BadRequest "json: cannot unmarshal <array|string|...> into Go value of type
//              map[string]interface {}"         the body is not an object ("null" is a no-op)
//   BadRequest "invalid patch format of retainKeys" / "... of primitive list" /
//              "... of setElementOrder list"    malformed directives
//   Invalid (422, generic message)               lists of lists
//   Unknown (500, empty reason)                  every other merge error, e.g. "map: map[image:x]
//                                                does not contain declared merge key: name",
//                                                "unknown patch type: merge in map: ..."
//   InternalError "runtime error: ..."           inputs on which upstream panics (e.g. lists of
//                                                maps ordered without a merge key)
// `doc` must be an object (null is treated as {}).
//
// Thread-safety: a pure function; `schema` is only read. Safe to call concurrently.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "catalogue/schema.h"
#include "util/status.h"

namespace kube::patch {

// Applies `patch_body` to a copy of `doc`, looking up list strategies and merge keys in `schema`
// (the kind's root object node; may be nullptr).
Result<nlohmann::json> ApplyStrategicMergePatch(const nlohmann::json& doc,
                                                std::string_view patch_body,
                                                const catalogue::Schema* schema);

}  // namespace kube::patch
