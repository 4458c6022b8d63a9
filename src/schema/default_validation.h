// The check kube runs on every default of a CRD version's schema when the CRD is created or
// updated (apiextensions-apiserver's structural defaulting.ValidateDefaults):
//  - a default must not change when pruned ("must not have unknown fields");
//  - apiVersion/kind of embedded resources in it must be strings, metadata an object;
//  - embedded resources in it must be valid (validation.h, part 2);
//  - it must validate against its own node (validation.h, part 1), e.g.
//      spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[size].default:
//        Invalid value: "string": in body must be of type integer: "string"
//  - a default under apiVersion/kind/metadata of a resource must give valid metadata when put in
//    a surrounding object ("must result in valid metadata: ...").
// Defaults are looked for along properties and items (never additionalProperties, where kube
// forbids them); the schema root is a resource root. CEL rules are not evaluated here.
//
// Thread-safety: pure function.
#pragma once

#include <functional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "schema/schema.h"
#include "util/field_error.h"

namespace kube::schema {

struct DefaultValidationOptions {
  // Refuse defaults that pruning would change. Kube requires it for apiextensions.k8s.io/v1
  // CRDs, except on an update of a CRD whose stored schema already had such defaults. Default:
  // true.
  bool require_pruned = true;
  // ObjectMeta validation of embedded resources' metadata (see ValidateOptions). Default: none.
  std::function<FieldErrors(const nlohmann::json& metadata, const std::string& path)> embedded_metadata;
};

// `path` is where the schema sits: "spec.versions[0].schema.openAPIV3Schema".
FieldErrors ValidateDefaults(const Schema& root, const std::string& path,
                             const DefaultValidationOptions& options = {});

// Some default (along properties, items and additionalProperties) changes when pruned with its
// node's schema: a stored CRD with such a schema may keep it on update (kube's
// schemaHasUnprunedDefaults, which decides require_pruned above). Metadata coercion of defaults
// inside embedded resources is not modelled.
bool HasUnprunedDefaults(const Schema& root);

}  // namespace kube::schema
