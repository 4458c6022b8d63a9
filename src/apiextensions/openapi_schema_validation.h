// ValidateCustomResourceDefinitionOpenAPISchema: the keyword-level rules kube applies to every
// node of a CRD's openAPIV3Schema (forbidden keywords, x-kubernetes-* combinations, list-type
// and map-type rules, x-kubernetes-validations shape, defaults forbidden in metadata), with
// kube's paths and messages. Structurality is checked separately (structural_schema.h).
//
// x-kubernetes-validations rules are stored, not compiled: only their shape is validated (rule
// present, message/messageExpression/fieldPath well-formed, reason supported, fieldPath
// resolvable in the schema).
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include "apiextensions/field_errors.h"

namespace kube::apiextensions {

struct OpenAPISchemaOptions {
  bool allow_defaults = true;
  bool require_valid_property_type = true;
  bool require_atomic_set_type = true;
  bool require_map_list_keys_map_set_validation = true;
  // The schema is unchanged by an update: rules over the per-expression cost limit stay.
  bool suppress_per_expression_cost = false;
};

FieldErrors ValidateOpenAPISchema(const nlohmann::json& schema, const FieldPath& path,
                                  const OpenAPISchemaOptions& options);

// Predicates over every node of a schema (kube's SchemaHas), used to relax rules on update for
// CRDs that were stored before a rule existed.
bool SchemaHasDefaults(const nlohmann::json& schema);
bool SchemaHasInvalidTypes(const nlohmann::json& schema);
bool SchemaHasNonAtomicSetType(const nlohmann::json& schema);
bool SchemaHasInvalidMapListKeysMapSet(const nlohmann::json& schema);

}  // namespace kube::apiextensions
