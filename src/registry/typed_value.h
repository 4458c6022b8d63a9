// Objects typed by the schema model for structured merge, with structured-merge-diff's semantics
// (sigs.k8s.io/structured-merge-diff typed/): how each node takes part in merges, field sets,
// comparison, merge and removal.
//
// What a schema node is:
//   scalar      strings, numbers, booleans, int-or-string, quantities, times;
//   atomic      a list with x-kubernetes-list-type atomic (or none), a map or struct with
//               x-kubernetes-map-type atomic: owned, compared and replaced as a whole;
//   struct      an object with properties: each field on its own;
//   map         additionalProperties (or a free-form / preserve-unknown object): each key on its
//               own, free-form values deduced the same way (objects granular, lists atomic);
//   set         x-kubernetes-list-type set: entries by value (v:);
//   list map    x-kubernetes-list-type map: entries by x-kubernetes-list-map-keys (k:), a missing
//               key taking its schema default. Built-in kinds fall back, as kube does, on their
//               patch strategy where the OpenAPI has no list type (merge with a merge key: a list
//               map by that key; merge without: a set); ports' "protocol" key defaults to TCP as
//               kube's built-in defaults have it.
//
// The object root's metadata.managedFields (the field manager's own bookkeeping) is left alone by
// every walk: not validated, not in field sets or comparisons, not merged or removed.
//
// Thread-safety: pure functions over immutable schemas.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "catalogue/schema.h"
#include "registry/field_set.h"
#include "util/status.h"

namespace kube::registry {

struct Comparison {
  FieldSet modified, added, removed;
};

// smd's validation of a value against the schema: the errors as smd words them
// (".spec.foo: field not declared in schema", ".data.a: expected string, got ..."), joined as its
// ValidationErrors are; OK when valid. `allow_duplicates` accepts repeated list-map keys or set
// values (live objects).
Status ValidateTyped(const catalogue::Schema* schema, const nlohmann::json& value, bool allow_duplicates);

// The fields `value` sets (smd's ToFieldSet).
FieldSet FieldsOfValue(const catalogue::Schema* schema, const nlohmann::json& value);

// How `rhs` differs from `lhs` (smd's Compare).
Comparison CompareValues(const catalogue::Schema* schema, const nlohmann::json& lhs, const nlohmann::json& rhs);

// `lhs` with `rhs` merged in (smd's Merge): rhs wins on leaves, maps and list entries merge,
// list order follows rhs for the entries both have, other entries staying where they were.
nlohmann::json MergeValues(const catalogue::Schema* schema, nlohmann::json lhs, const nlohmann::json& rhs);

// Removes from `value` what `last` (an applier's previous fields) has and none of `owners` owns
// any more: a path counts as owned, as in smd's prune, when a set has it or, for a struct's named
// field, anything below it. A list or map left empty by the removal goes too.
void RemoveUnowned(const catalogue::Schema* schema, nlohmann::json* value, const FieldSet& last,
                   const std::vector<const FieldSet*>& owners);

}  // namespace kube::registry
