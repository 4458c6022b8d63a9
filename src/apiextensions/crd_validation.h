// Validation of apiextensions.k8s.io/v1 CustomResourceDefinition objects on create, update and
// status update, with kube 1.36's field paths and messages (the paths of kube's internal type:
// see crd_internal.h for why a single-version CRD reports `spec.validation...`).
//
// Covered: metadata.name == <plural>.<group>; group, scope, names (formats, kind != listKind,
// required names); versions (DNS-1035 names, unique, exactly one storage version, deprecation
// warnings); the openAPIV3Schema of every version (required, structural, keyword rules,
// x-kubernetes-* combinations, root restrictions with the status subresource, defaults through
// a hook); subresources (scale paths); additionalPrinterColumns; selectableFields; conversion
// (None / Webhook with URL or service and conversionReviewVersions); status.acceptedNames;
// status.storedVersions; the api-approved.kubernetes.io annotation of protected groups;
// spec.preserveUnknownFields; on update the immutable group and plural, and scope and kind once
// the CRD is Established, with kube's relaxations for rules an already stored CRD predates.
//
// Left to other layers: the generic ObjectMeta rules (name format, labels, annotations, ...),
// which the registry applies to every kind; compiling x-kubernetes-validations rules (CEL is a
// later issue); the conversion webhook caBundle's certificate check.
//
// The CRD passed in is the object after defaulting (crd_defaults.h) and the strategy's
// preparation, as kube validates it.
//
// Thread-safety: pure functions (the hooks are called on the calling thread).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>

#include "apiextensions/field_errors.h"
#include "apiextensions/go_regexp.h"
#include "apiextensions/structural_schema.h"

namespace kube::apiextensions {

struct CrdValidationOptions {
  // kube's structuraldefaulting.ValidateDefaults for one openAPIV3Schema that passed every
  // structural check: defaults must validate against their schema and, when `require_pruned`,
  // survive pruning. `path` is the schema's field path ("spec.validation.openAPIV3Schema").
  // Unset: defaults are not checked.
  std::function<FieldErrors(const nlohmann::json& schema, const FieldPath& path, bool require_pruned)>
      validate_defaults;
  // Whether a stored schema already has defaults that pruning would change; such a CRD may keep
  // them on update (kube's requirePrunedDefaults). Unset: treated as false.
  std::function<bool(const nlohmann::json& schema)> has_unpruned_defaults;
  // Go regexp syntax check of `pattern` keywords. Default: go_regexp.h's checker; unset
  // (nullptr): patterns are not checked.
  PatternChecker check_pattern = CheckGoRegexpSyntax;
};

FieldErrors ValidateCustomResourceDefinition(const nlohmann::json& crd, const CrdValidationOptions& options = {});
FieldErrors ValidateCustomResourceDefinitionUpdate(const nlohmann::json& crd, const nlohmann::json& old_crd,
                                                   const CrdValidationOptions& options = {});
// The /status subresource: only status.acceptedNames is checked (spec is the stored one).
FieldErrors ValidateCustomResourceDefinitionStatusUpdate(const nlohmann::json& crd, const nlohmann::json& old_crd);

}  // namespace kube::apiextensions
