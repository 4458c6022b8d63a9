// Defaulting: applies the schema's "default" values, as kube does for custom resources on every
// decode of a request body and every read from storage (apiextensions-apiserver's
// PruneNonNullableNullsWithoutDefaults followed by structural defaulting):
//  1. a null where the node is not nullable and has no default is removed;
//  2. an absent field, or a null where the node is not nullable, gets the node's default (a deep
//     copy), including map values and array items;
//  3. defaults inside an object apply only where that object exists (or was just defaulted:
//     defaults are applied top-down, so a defaulted object gets its nested defaults too).
// Run it after Prune (prune.h), before Validate (validation.h).
//
// Thread-safety: pure function over `value`.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "schema/schema.h"

namespace kube::schema {

// Applies the defaults of `schema` to `value` in place. A null schema does nothing.
void Default(const Schema* schema, nlohmann::json* value);

}  // namespace kube::schema
