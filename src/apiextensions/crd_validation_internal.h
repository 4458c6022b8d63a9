// Pieces of the CRD validation shared between its translation units. Not part of the layer's
// API.
#pragma once

#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <string>

#include "apiextensions/crd_internal.h"
#include "apiextensions/crd_validation.h"
#include "apiextensions/field_errors.h"

namespace kube::apiextensions::validation_internal {

// kube's validationOptions, minus the CEL ones.
struct Rules {
  bool allow_defaults = true;
  bool require_recognized_conversion_review_version = true;
  bool require_immutable_names = false;
  bool require_openapi_schema = true;
  bool require_valid_property_type = true;
  bool require_structural_schema = true;
  bool require_pruned_defaults = true;
  bool require_atomic_set_type = true;
  bool require_map_list_keys_map_set_validation = true;
  // Version name ("" for the top level) -> whether more than 8 selectable fields may stay.
  std::map<std::string, bool> allow_too_many_selectable_fields;
  // Versions whose schema an update leaves unchanged: their rules' per-expression cost limit is
  // not enforced again (kube's suppressPerExpressionCost), so that a stored CRD stays updatable.
  std::set<std::string> unchanged_schema_versions;
  bool suppress_per_expression_cost = false;
};

// Every column of an additionalPrinterColumns array (nullptr: none).
FieldErrors ValidateColumns(const Json* columns, const FieldPath& path);
FieldErrors ValidateSubresources(const Json* subresources, const FieldPath& path);
// selectableFields against `schema` (an openAPIV3Schema): a schema that does not convert to a
// structural one is reported at `schema_path` first.
FieldErrors ValidateSelectableFields(const Json& fields, const Json* schema, const FieldPath& schema_path,
                                     const FieldPath& path, const Rules& rules, const std::string& version);
FieldErrors ValidateConversion(const Json* conversion, const Rules& rules, const FieldPath& path);
// validateCustomResourceDefinitionValidation for one CustomResourceValidation object.
FieldErrors ValidateSchemaValidation(const Json* validation, bool status_enabled, const Rules& rules,
                                     const FieldPath& path, const CrdValidationOptions& hooks);

}  // namespace kube::apiextensions::validation_internal
