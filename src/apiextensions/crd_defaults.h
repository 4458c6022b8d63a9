// Defaulting and the registry strategy's preparation of apiextensions.k8s.io/v1
// CustomResourceDefinition objects (kube's v1 defaults.go and customresourcedefinition
// strategy).
//
//   SetDefaults: spec.names.singular = lowercase kind, spec.names.listKind = kind + "List",
//     spec.conversion = {strategy: None}, conversion.webhook.clientConfig.service.port = 443,
//     and status.storedVersions = [the storage version] when empty. v1 has no default for
//     conversionReviewVersions (only v1beta1 had one); it stays required for Webhook.
//   PrepareForCreate: status is reset (acceptedNames {plural:"", kind:""} as Go serialises the
//     empty struct, no conditions) and storedVersions is [the storage version]; generation 1.
//   PrepareForUpdate: status comes from the stored object, the new storage version is added to
//     storedVersions if missing (storedVersions accumulates every version ever stored),
//     generation + 1 when spec changed.
//   PrepareForStatusUpdate: spec comes from the stored object. Metadata changes are kept, as
//     kube's CRD status strategy keeps them.
//
// Objects are arbitrary JSON: members of the wrong type are left alone, nothing throws.
//
// Thread-safety: pure functions that mutate only the object passed in.
#pragma once

#include <nlohmann/json.hpp>

namespace kube::apiextensions {

void SetDefaults(nlohmann::json* crd);
void PrepareForCreate(nlohmann::json* crd);
void PrepareForUpdate(nlohmann::json* crd, const nlohmann::json& old_crd);
void PrepareForStatusUpdate(nlohmann::json* crd, const nlohmann::json& old_crd);

}  // namespace kube::apiextensions
