// How an update's new value correlates with the old one, as kube's ratcheting sees it
// (k8s.io/apiserver pkg/cel/common CorrelatedObject): object fields and map entries correlate by
// key, items of a list-type map by their key values, items of any other list not at all. Used by
// the x-kubernetes-validations walk (validation_rules.h) to decide which failures are ratcheted.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "schema/schema.h"

namespace kube::apiextensions {

// The item of `old` (a list) that `item` of the new list correlates with: for a list-type map
// the item with the same key values; nullptr for other lists, or when there is none.
const nlohmann::json* CorrelatedListItem(const schema::Schema* list, const nlohmann::json& item,
                                         const nlohmann::json* old);

// Whether `value` equals `old` as kube's CorrelatedObject.CachedDeepEqual decides it, walking
// `s` (the values' schema): list-type map items are matched by key (their order does not
// matter), other lists compare as plain values, an object holding a key its schema declares
// neither as a property nor through additionalProperties is unequal, and an integer never
// equals a float (Go's reflect.DeepEqual of decoded JSON).
bool CorrelatedEqual(const schema::Schema* s, const nlohmann::json& value, const nlohmann::json& old);

}  // namespace kube::apiextensions
