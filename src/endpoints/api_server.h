// ApiServer: the endpoints layer's request handler — kube's handler chain below the HTTP
// server: request info, non-resource endpoints (health, version, discovery, OpenAPI) and the
// per-verb resource handlers (get, list, watch, create, update, patch, delete,
// deletecollection; status, scale and finalize subresources; the pod subresources of
// pod_subresources.h and connect_subresources.h) over the registry.
//
// Thread-safety: Handle() is safe to call concurrently; the registry must outlive the server.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "auth/authorizer.h"
#include "auth/request_authenticator.h"
#include "auth/service_account_token.h"
#include "auth/rule_resolver.h"
#include "endpoints/discovery.h"
#include "endpoints/encoded_objects.h"
#include "endpoints/http.h"
#include "endpoints/instrumentation.h"
#include "endpoints/negotiation.h"
#include "endpoints/openapi.h"
#include "endpoints/query.h"
#include "endpoints/request_info.h"
#include "endpoints/runtime_config.h"
#include "metrics/metrics.h"
#include "registry/api_registry.h"

namespace kube::endpoints {

struct ApiServerOptions {
  // host:port clients reach the server at, for /api's serverAddressByClientCIDRs.
  // Default: "127.0.0.1:6443".
  std::string server_address = "127.0.0.1:6443";
  // Decides every request after impersonation (kube's 403 when it does not allow). Default:
  // null, everything allowed.
  std::shared_ptr<const auth::Authorizer> authorizer;
  // Answers TokenReview. Default: null (every token unauthenticated).
  std::shared_ptr<const auth::RequestAuthenticator> authenticator;
  // Signs TokenRequest tokens. Default: null (serviceaccounts/token is 404).
  std::shared_ptr<const auth::ServiceAccountTokenIssuer> token_issuer;
  // TokenRequest's default audiences (the server's). Default: none.
  std::vector<std::string> api_audiences;
  // --service-account-max-token-expiration in seconds; 0 for none.
  int64_t max_token_expiration_seconds = 0;
  // --runtime-config. Default: everything served.
  RuntimeConfig runtime_config;
  // The rules SelfSubjectRulesReview lists (the access reviews are answered from `authorizer`).
  // Default: none.
  std::shared_ptr<const auth::RuleResolver> rule_resolver;
  // Where request, storage and process metrics are recorded, served at /metrics (GET, authorized
  // as the non-resource URL). Default: null, a registry of this server's own.
  std::shared_ptr<metrics::Registry> metrics;
};

// Everything a resource handler needs about one request.
struct RequestScope {
  const HttpRequest& request;
  const RequestInfo& info;
  const Query& query;
  // Held for the whole request: a custom resource's store may stop being served meanwhile.
  registry::StorePtr store;
  Representation representation;
  bool pretty = false;
  std::vector<std::string> warnings;
};

// The response for `body` in the representation the client negotiated: protobuf when it prefers
// it and the kind has a protobuf form, JSON (indented with ?pretty) otherwise.
HttpResponse Respond(const RequestScope& scope, int code, const nlohmann::json& body);
// The answer to a write: the object written (its Scale for the scale subresource), rendered as
// the client asked.
HttpResponse RespondWritten(const RequestScope& scope, int code, const storage::ObjectPtr& obj);

class ApiServer {
 public:
  ApiServer(registry::ApiRegistry* registry, ApiServerOptions options);
  HttpResponse Handle(const HttpRequest& request);

 private:
  // Everything after authorization; `request.user` is the effective user.
  HttpResponse Serve(const HttpRequest& request, const RequestInfo& info, const Query& query);
  // Authentication's user made effective (impersonation) and authorized, then Serve(); sets
  // `authorized` when the request got past authorization.
  HttpResponse Authorized(const HttpRequest& request, const RequestInfo& info, const Query& query, bool* authorized);
  // The `component` kube's instrumented handler for this request passes, or null when kube does
  // not instrument it (no route; non-resource paths other than health and discovery roots).
  const char* InstrumentedComponent(const RequestInfo& info) const;
  // Whether kube would route the path to one of its go-restful web services (whose 404s are
  // Status objects) rather than to its plain-text not-found handler.
  bool UnderBuiltInWebService(const RequestInfo& info) const;
  HttpResponse NonResource(const HttpRequest& request, const RequestInfo& info, const Query& query);
  HttpResponse Health(std::string_view path, const Query& query);
  HttpResponse Resource(const HttpRequest& request, const RequestInfo& info, const Query& query);

  // resource_read.cc
  HttpResponse Get(RequestScope& scope);
  HttpResponse List(RequestScope& scope);
  HttpResponse Watch(RequestScope& scope);
  // resource_write.cc
  HttpResponse Create(RequestScope& scope);
  HttpResponse CreateReview(const HttpRequest& request, const RequestInfo& request_info,
                            const catalogue::ResourceInfo& info, bool pretty);
  // token_request.cc: serviceaccounts/token.
  HttpResponse TokenRequest(RequestScope& scope);
  HttpResponse Update(RequestScope& scope);
  HttpResponse Patch(RequestScope& scope);
  // resource_apply.cc: PATCH with application/apply-patch+yaml.
  HttpResponse Apply(RequestScope& scope);
  // resource_delete.cc
  HttpResponse Delete(RequestScope& scope);
  HttpResponse DeleteCollection(RequestScope& scope);

  // Rebuilds discovery and OpenAPI after the served custom resources changed.
  void CustomResourcesChanged();

  registry::ApiRegistry* registry_;
  ApiServerOptions options_;
  std::atomic<std::shared_ptr<const Discovery>> discovery_;
  OpenApi openapi_;
  EncodedObjects encoded_objects_;
  std::shared_ptr<metrics::Registry> metrics_;
  RequestMetrics request_metrics_;
};

}  // namespace kube::endpoints
