// The values x-kubernetes-validations rules see (kube's UnstructuredToVal), built from a custom
// resource's JSON along its structural schema: integers as int, numbers as double, date and
// date-time strings as timestamps, duration strings as durations, byte strings as bytes,
// int-or-string and untyped nodes as their JSON; object properties under their escaped names
// (`__dash__` …, unescapable names left out); set and map lists with kube's list-type equality and
// `+`; a resource root (and an embedded resource) shows apiVersion, kind and only metadata.name /
// generateName. Strings borrow the document's text instead of copying it.
//
// A rule reads only the fields it selects (cel/field_usage.h), so a value can be built for a
// FieldUse: objects then hold just the used fields, each built for its own use, and only used-whole
// values are converted entirely. A rule given such a value evaluates exactly as with the full one.
//
// Thread-safety: pure functions. REQUIRES: the JSON outlives the values built from it (they
// borrow its strings).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "cel/field_usage.h"
#include "cel/value.h"
#include "schema/schema.h"

namespace kube::apiextensions {

// `v` (at schema node `s`, null: untyped; `resource`: a resource root or embedded resource) as
// rules see it, built for `use` (nullptr: whole).
cel::Value RuleValue(const schema::Schema* s, const nlohmann::json& v, bool resource, const cel::FieldUse* use = nullptr);

}  // namespace kube::apiextensions
