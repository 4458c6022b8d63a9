// OpenAPI documents built from the catalogue's schemas (rest.md §3.6):
//   /openapi/v3              index of group-versions with content hashes
//   /openapi/v3/<api/v1|apis/g/v>  OpenAPI 3.0 document: every route of the group version with
//                            kube's operations (openapi_paths.h: the root, collections, items,
//                            cross-namespace lists, subresources, /watch/ paths for built-ins;
//                            operationIds, parameters, bodies, responses, x-kubernetes-action and
//                            x-kubernetes-group-version-kind; PATCH lists the fieldValidation
//                            parameter, so kubectl validates server-side), and the schemas
//                            reachable from those operations (kinds, lists, Status, WatchEvent,
//                            DeleteOptions, APIResourceList...; kubectl explain). A custom
//                            resource's list kind gets a schema of its own.
//   /openapi/v2              Swagger 2.0 with every definition, as JSON or, for Accept
//                            application/com.github.proto-openapi.spec.v2[@.]v1.0+protobuf (what
//                            client-go's OpenAPISchema() asks for), gnostic's protobuf Document
//                            (protobuf/openapi_v2.h); content negotiation as kube-openapi's (406 when
//                            neither fits), both forms with the JSON's ETag.
// PATCH operations advertise JSON and merge patch only: kubectl then builds strategic merge
// patches for built-ins from its compiled-in types, which the server applies.
//
// Thread-safety: documents are built lazily under a mutex and immutable afterwards.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include <nlohmann/json_fwd.hpp>
#include <mutex>
#include <string>

#include "catalogue/catalogue.h"
#include "endpoints/http.h"

namespace kube::endpoints {

class OpenApi {
 public:
  using Served = std::function<bool(const catalogue::ResourceInfo&)>;
  OpenApi(const catalogue::Catalogue& catalogue, Served served);

  // A served custom resource version and its CRD schema (openAPIV3Schema).
  struct CustomKind {
    catalogue::ResourceInfo info;
    std::shared_ptr<const nlohmann::json> schema;
  };
  // Replaces the custom resources published; documents are rebuilt on their next request.
  void SetCustomKinds(std::vector<CustomKind> kinds);

  // Handles GET /openapi/... (`path` starts with /openapi/).
  HttpResponse Serve(std::string_view path, std::string_view hash_param, std::string_view accept);

 private:
  struct Document {
    std::string body;
    std::string hash;
  };
  const Document* GroupVersionLocked(const std::string& key);
  std::string IndexLocked();
  // The catalogue's definitions without those of group versions that are not served.
  nlohmann::json ServedDefinitionsLocked() const;

  // The schema name of a custom kind and its published schema ("com.example.v1.Widget").
  std::pair<std::string, nlohmann::json> CustomSchemaLocked(const CustomKind& kind) const;

  const catalogue::Catalogue& catalogue_;
  Served served_;
  std::mutex mu_;
  std::vector<CustomKind> custom_;        // guarded by mu_
  std::map<std::string, Document> docs_;  // "api/v1", "apis/apps/v1"; guarded by mu_
  std::string v2_;                        // guarded by mu_
  std::string v2_proto_;                  // v2_ as protobuf, built with it; guarded by mu_
};

}  // namespace kube::endpoints
