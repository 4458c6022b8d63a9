// The `paths` of an OpenAPI v3 group-version document: every route the API installer serves for
// the group version's resources, with kube-apiserver's operations (operationId, tags, description,
// parameters, request bodies, responses, x-kubernetes-action, x-kubernetes-group-version-kind).
//
// Built-in resources get the installer's layout: the group-version root ("/apis/apps/v1/"), the
// collection and item paths, the cross-namespace list, subresources (status, scale, log, connect
// subresources such as exec and proxy, binding, eviction, token) and the deprecated /watch/ paths.
// Custom resources get the CRD OpenAPI builder's layout: no root and no /watch/ paths, JSON and
// YAML content only, and the subresources carrying the custom resource's kind.
//
// Parameters shared by every operation of a path are listed once on the path, the others on each
// operation, both sorted by name, as kube-openapi lays them out.
//
// PATCH bodies offer JSON patch, merge patch and apply patch, never strategic merge patch: kubectl
// then builds strategic merge patches for built-ins from its compiled-in types (which the server
// applies), and keeps validating server-side through the fieldValidation parameter.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalogue/catalogue.h"

namespace kube::endpoints {

enum class OpenApiFlavor {
  kBuiltIn,         // the generic API installer's routes
  kCustomResource,  // the CRD OpenAPI builder's routes
};

// The components.schemas name of a group/version/kind ("io.k8s.api.apps.v1.Deployment"), or ""
// when there is no schema for it.
using OpenApiSchemaName =
    std::function<std::string(std::string_view group, std::string_view version, std::string_view kind)>;

// The paths object for `resources` (all of one group version). Adds every components.schemas name
// the paths reference to `refs`.
nlohmann::json OpenApiV3Paths(const std::vector<const catalogue::ResourceInfo*>& resources,
                              OpenApiFlavor flavor, const OpenApiSchemaName& schema_name,
                              std::set<std::string>* refs);

// "AppsV1", "CoreV1", "RbacAuthorizationV1", "TestsKalExampleComV1": the group version as it
// appears in operationIds.
std::string OpenApiOperationGroupVersion(std::string_view group, std::string_view version);
// "apps_v1", "core_v1", "rbacAuthorization_v1": the operations' tag.
std::string OpenApiTag(std::string_view group, std::string_view version);

// The schema of a custom resource's list kind: apiVersion, kind, metadata (ListMeta) and items
// (`item_schema` references), tagged with the list's group/version/kind. v3 references.
nlohmann::json OpenApiCustomListSchema(const catalogue::ResourceInfo& info, const std::string& item_schema);

}  // namespace kube::endpoints
