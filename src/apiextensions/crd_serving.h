// What an Established CustomResourceDefinition serves: for each served version the resource as
// discovery and the registry see it (names from status.acceptedNames, scope, verbs, status and
// scale subresources, the storage prefix /<group>/<plural>), its kind rules (DNS-subdomain names,
// generation, selectable fields), its structural schema and the strategy that prunes, defaults and
// validates against it.
//
// Thread-safety: pure functions; the results are immutable and may be shared.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "registry/api_registry.h"
#include "util/status.h"

namespace kube::apiextensions {

// The custom resources `crd` serves. `terminating`: the CRD is being deleted, so creates are
// refused (405) and discovery shows only delete, deletecollection, get, list and watch.
// BadRequest when a served version's schema cannot be built (the CRD validation refuses such
// CRDs, so this only happens for objects stored by an older, laxer server).
Result<registry::CustomResourceSet> ServingFor(const nlohmann::json& crd, bool terminating);

// The version `crd` stores objects in ("v1"), or empty.
std::string StorageVersion(const nlohmann::json& crd);

}  // namespace kube::apiextensions
