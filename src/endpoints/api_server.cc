#include "endpoints/api_server.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "endpoints/admin.h"
#include "endpoints/authentication_reviews.h"
#include "endpoints/authorization.h"
#include "endpoints/connect_subresources.h"
#include "endpoints/pod_subresources.h"
#include "endpoints/responses.h"
#include "endpoints/warnings.h"
#include "protobuf/protobuf.h"
#include "endpoints/reviews.h"
#include "registry/errors.h"
#include "util/strings.h"
#include "yaml/yaml.h"

namespace kube::endpoints {

using nlohmann::json;

namespace {

HttpResponse PlainNotFound() {
  HttpResponse r;
  r.status = 404;
  r.content_type = "text/plain; charset=utf-8";
  r.body = "404 page not found\n";
  return r;
}

Status ResourceNotFound() {
  return Status::NotFound("the server could not find the requested resource");
}

// go-restful's answer to a method no route of the path takes: no details, unlike the
// MethodNotSupported of a handler that exists but whose storage lacks the verb.
Status MethodNotAllowed() {
  return Status(StatusCode::kMethodNotAllowed, "the server does not allow this method on the requested resource");
}

// Whether kube's route installer gives a built-in resource's path a route for this request's
// method: collections take GET (list, watch), POST and DELETE (deletecollection); objects and
// their subresources GET, PUT, PATCH and DELETE; each only when the storage has the verb.
bool HasRoute(const catalogue::ResourceInfo& ri, const RequestInfo& info) {
  const std::vector<std::string>* verbs = &ri.verbs;
  if (!info.subresource.empty()) {
    const auto* sub = ri.FindSubresource(info.subresource);
    if (sub == nullptr) return true;  // refused as not found elsewhere
    verbs = &sub->verbs;
  }
  auto has = [&](std::string_view verb) { return std::find(verbs->begin(), verbs->end(), verb) != verbs->end(); };
  const std::string& verb = info.verb;
  if (info.name.empty()) {
    if (verb == "list" || verb == "watch") return has("list") || has("watch");
    return (verb == "create" || verb == "deletecollection") && has(verb);
  }
  if (verb == "get" || verb == "watch") return has("get");
  return (verb == "update" || verb == "patch" || verb == "delete") && has(verb);
}

// `if_none_match`: the client's cached aggregated document, answered 304 when still current.
HttpResponse DiscoveryResponse(const json& body, const Representation& rep, bool pretty,
                               std::string_view if_none_match = {}) {
  HttpResponse r = JsonResponse(200, body, pretty);
  if (rep.as == Representation::As::kDiscovery) {
    r.content_type = "application/json;g=apidiscovery.k8s.io;v=" + rep.version + ";as=APIGroupDiscoveryList";
    // As kube's aggregated discovery: an ETag of the document, so clients revalidate cheaply.
    const std::string etag = "\"" + ContentHash(r.body) + "\"";
    if (!if_none_match.empty() && if_none_match == etag) {
      r.status = 304;
      r.body.clear();
    }
    r.headers.emplace("ETag", etag);
  }
  r.headers.emplace("Vary", "Accept");
  return r;
}

HttpResponse YamlResponse(int code, const json& body) {
  HttpResponse r;
  r.status = code;
  r.body = yaml::JsonToYaml(body);
  r.content_type = "application/yaml";
  return r;
}

// Re-encodes an error Status for a client that asked for YAML.
void StatusToYaml(HttpResponse* response) {
  if (response->stream || response->status < 400 || response->content_type != "application/json") return;
  const json body = json::parse(response->body, nullptr, /*allow_exceptions=*/false);
  if (!body.is_object()) return;
  *response = YamlResponse(response->status, body);
}

// Re-encodes an error Status for a client that prefers protobuf.
void StatusToProtobuf(HttpResponse* response) {
  if (response->stream || response->status < 400 || response->content_type != "application/json") return;
  const json body = json::parse(response->body, nullptr, /*allow_exceptions=*/false);
  if (!body.is_object()) return;
  auto encoded = protobuf::EncodeStatus(body);
  if (!encoded.ok()) return;
  response->body = std::move(*encoded);
  response->content_type = std::string(protobuf::kContentType);
}

// An error Status in the representation the client negotiated (successful answers are encoded
// where they are produced, by Respond).
void EncodeErrorAs(const Representation& rep, HttpResponse* response) {
  if (rep.protobuf) StatusToProtobuf(response);
  if (rep.yaml) StatusToYaml(response);
}

}  // namespace

HttpResponse Respond(const RequestScope& scope, int code, const json& body) {
  if (scope.representation.protobuf) {
    // Kinds without a protobuf form (and Tables) stay JSON, as kube falls back to it.
    if (auto encoded = protobuf::EncodeObject(body); encoded.ok()) {
      HttpResponse r;
      r.status = code;
      r.body = std::move(*encoded);
      r.content_type = std::string(protobuf::kContentType);
      return r;
    }
  }
  if (scope.representation.yaml) return YamlResponse(code, body);
  return JsonResponse(code, body, scope.pretty);
}

ApiServer::ApiServer(registry::ApiRegistry* registry, ApiServerOptions options)
    : registry_(registry),
      options_(std::move(options)),
      // options_ is initialised before openapi_ (declaration order), so the filter may use it.
      openapi_(registry->catalogue(), [registry, this](const catalogue::ResourceInfo& info) {
        return options_.runtime_config.Enabled(info) &&
               (registry->Find(info.group, info.version, info.resource) != nullptr || IsReview(info) ||
                IsBindingsResource(info.group, info.resource));
      }),
      metrics_(options_.metrics ? options_.metrics : std::make_shared<metrics::Registry>()),
      request_metrics_(metrics_.get(), registry) {
  CustomResourcesChanged();
  registry_->AddChangeListener([this] { CustomResourcesChanged(); });
}

void ApiServer::CustomResourcesChanged() {
  // Built from the set current now: listeners of changes racing each other both end up
  // publishing documents of the newest set.
  auto custom = registry_->CustomResources();
  registry::ApiRegistry* registry = registry_;
  discovery_.store(std::make_shared<const Discovery>(
      registry->catalogue(),
      [registry, this](const catalogue::ResourceInfo& info) {
        return options_.runtime_config.Enabled(info) &&
               (registry->Find(info.group, info.version, info.resource) != nullptr || IsReview(info) ||
                IsBindingsResource(info.group, info.resource));
      },
      custom->resources));
  std::vector<OpenApi::CustomKind> kinds;
  for (const auto& [name, set] : custom->sets) {
    for (const auto& v : set->versions) kinds.push_back(OpenApi::CustomKind{v.info, v.openapi_schema});
  }
  openapi_.SetCustomKinds(std::move(kinds));
}

HttpResponse ApiServer::Handle(const HttpRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  const Query query = Query::Parse(request.raw_query);
  const RequestInfo info = ParseRequestInfo(request.method, request.path, query.Bool("watch"));
  bool authorized = false;
  HttpResponse response = Authorized(request, info, query, &authorized);
  // As kube: requests refused before their route (authorization) are not in the request metrics.
  if (authorized) {
    if (const char* component = InstrumentedComponent(info)) {
      request_metrics_.Observe(request, info, query, component, start, &response);
    }
  }
  return response;
}

HttpResponse ApiServer::Authorized(const HttpRequest& request, const RequestInfo& info, const Query& query,
                                   bool* authorized) {
  if (!options_.authorizer) {
    *authorized = true;
    return Serve(request, info, query);
  }
  // kube's chain: impersonation, then authorization of what the effective user asks.
  auto user = EffectiveUser(request, *options_.authorizer);
  if (!user.ok()) return ErrorResponse(user.status());
  KUBE_RETURN_IF_ERROR_RESPONSE(AuthorizeRequest(info, *user, *options_.authorizer));
  *authorized = true;
  if (user->name == request.user.name && user->groups == request.user.groups && user->uid == request.user.uid &&
      user->extra == request.user.extra) {
    return Serve(request, info, query);
  }
  HttpRequest impersonated = request;
  impersonated.user = std::move(*user);
  return Serve(impersonated, info, query);
}

const char* ApiServer::InstrumentedComponent(const RequestInfo& info) const {
  if (!info.is_resource_request) {
    // kube instruments the health roots (component "") and aggregated discovery's roots.
    const std::string& p = info.path;
    if (p == "/healthz" || p == "/livez" || p == "/readyz") return "";
    if (p == "/api" || p == "/apis") return "apiserver";
    return nullptr;
  }
  if (discovery_.load()->ResourceList(info.api_group, info.api_version) == nullptr) return nullptr;
  if (registry::StorePtr store = registry_->Find(info.api_group, info.api_version, info.resource)) {
    return options_.runtime_config.Enabled(store->info()) ? "apiserver" : nullptr;
  }
  const auto* review = registry_->catalogue().Find(info.api_group, info.api_version, info.resource);
  return review != nullptr && IsReview(*review) ? "apiserver" : nullptr;
}

HttpResponse ApiServer::Serve(const HttpRequest& request, const RequestInfo& info, const Query& query) {
  if (!info.is_resource_request && IsAdminPath(request.path)) {
    return ServeAdmin(registry_, request, info, /*authorize=*/options_.authorizer != nullptr, query.Bool("pretty"));
  }
  if (!info.is_resource_request) return NonResource(request, info, query);
  return Resource(request, info, query);
}

HttpResponse ApiServer::Health(std::string_view path, const Query& query) {
  Status ready = path.starts_with("/readyz") ? registry_->ReadinessCheck() : Status::OK();
  HttpResponse r;
  r.content_type = "text/plain; charset=utf-8";
  r.headers.emplace("X-Content-Type-Options", "nosniff");
  const std::string name = std::string(path.substr(1, path.find('/', 1) == std::string_view::npos
                                                         ? std::string_view::npos
                                                         : path.find('/', 1) - 1));
  // Each check has its own path (/healthz/etcd); kube registers no others, so any other
  // sub-path reaches the plain-text not-found handler.
  if (const std::string_view check = path.substr(std::min(path.size(), name.size() + 2)); !check.empty()) {
    const bool known = check == "ping" || check == "log" || check == "etcd" ||
                       (name == "readyz" && (check == "watch-cache" || check == "informer-sync"));
    if (!known) return PlainNotFound();
    if (check == "watch-cache" && !ready.ok()) {
      r.status = 500;
      r.body = "internal server error: reason withheld\n";
      return r;
    }
    r.body = "ok";
    return r;
  }
  if (!ready.ok()) {
    r.status = 500;
    r.body = "[-]watch-cache failed: reason withheld\n" + name + " check failed\n";
    return r;
  }
  if (query.Has("verbose")) {
    r.body = "[+]ping ok\n[+]log ok\n[+]etcd ok\n";
    if (name == "readyz") r.body += "[+]watch-cache ok\n[+]informer-sync ok\n";
    r.body += name + " check passed\n";
  } else {
    r.body = "ok";
  }
  return r;
}

// kube-apiserver answers a path nothing serves in one of two ways. Under the root of one of its
// go-restful web services (/api, /apis/<built-in group> and below) go-restful's own 404 is a
// Status, negotiated like any error; everything else (unknown groups, the CRD handler's groups,
// paths outside the API) falls through to the final not-found handler, Go's plain-text 404.
bool ApiServer::UnderBuiltInWebService(const RequestInfo& info) const {
  if (info.api_prefix == "api") return true;
  if (info.api_prefix != "apis" || info.api_group.empty()) return false;
  return registry_->catalogue().FindGroup(info.api_group) != nullptr &&
         discovery_.load()->Group(info.api_group) != nullptr;
}

HttpResponse ApiServer::NonResource(const HttpRequest& request, const RequestInfo& info, const Query& query) {
  const std::string& path = request.path;
  const bool pretty = query.Bool("pretty");
  if (request.method != "GET" && request.method != "HEAD") {
    if (info.api_prefix.empty()) return PlainNotFound();
    return ErrorResponse(MethodNotAllowed());
  }
  for (std::string_view health : {"/healthz", "/livez", "/readyz"}) {
    if (path == health || path.starts_with(std::string(health) + "/")) return Health(path, query);
  }
  if (path == "/version" || path == "/version/") {
    // kube's version handler writes version.Info indented, in its struct order, without the
    // encoder's newline (WriteRawJSON); ?pretty changes nothing.
    nlohmann::ordered_json v = {{"major", "1"},
                                {"minor", "36"},
                                {"emulationMajor", "1"},
                                {"emulationMinor", "36"},
                                {"minCompatibilityMajor", "1"},
                                {"minCompatibilityMinor", "35"},
                                {"gitVersion", "v1.36.0"},
                                {"gitCommit", "kube-apiserver-lite"},
                                {"gitTreeState", "clean"},
                                {"buildDate", "2026-01-01T00:00:00Z"},
                                {"goVersion", "go1.26.0"},
                                {"compiler", "gc"},
                                {"platform", "linux/amd64"}};
    HttpResponse r;
    r.body = v.dump(2);
    return r;
  }
  if (path == "/metrics") {
    HttpResponse r;
    r.content_type = "text/plain; version=0.0.4; charset=utf-8";
    r.body = request.method == "HEAD" ? std::string() : metrics_->Expose();
    return r;
  }
  if (path == "/openapi" || path.starts_with("/openapi/")) {
    return openapi_.Serve(path, query.Get("hash"), request.Header("Accept"));
  }
  if (info.api_prefix.empty()) return PlainNotFound();
  const auto discovery = discovery_.load();
  const bool root = info.api_version.empty() && (info.api_prefix == "api" || info.api_group.empty());
  auto rep = Negotiate(request.Header("Accept"), /*allow_discovery=*/root);
  if (!rep.ok()) return ErrorResponse(rep.status());
  if (info.api_prefix == "api") {
    if (info.api_version.empty()) {
      if (rep->as == Representation::As::kDiscovery) {
        return DiscoveryResponse(discovery->Aggregated(true, rep->version), *rep, pretty,
                                 request.Header("If-None-Match"));
      }
      return DiscoveryResponse(discovery->ApiVersions(options_.server_address), *rep, pretty);
    }
    if (const json* list = discovery->ResourceList("", info.api_version)) return DiscoveryResponse(*list, *rep, pretty);
    return ErrorResponse(ResourceNotFound());
  }
  if (info.api_group.empty()) {
    if (rep->as == Representation::As::kDiscovery) {
      return DiscoveryResponse(discovery->Aggregated(false, rep->version), *rep, pretty,
                               request.Header("If-None-Match"));
    }
    return DiscoveryResponse(discovery->GroupList(), *rep, pretty);
  }
  if (info.api_version.empty()) {
    if (const json* group = discovery->Group(info.api_group)) return DiscoveryResponse(*group, *rep, pretty);
    return PlainNotFound();
  }
  if (const json* list = discovery->ResourceList(info.api_group, info.api_version)) {
    return DiscoveryResponse(*list, *rep, pretty);
  }
  return UnderBuiltInWebService(info) ? ErrorResponse(ResourceNotFound()) : PlainNotFound();
}

HttpResponse ApiServer::Resource(const HttpRequest& request, const RequestInfo& info, const Query& query) {
  const bool built_in_web_service = UnderBuiltInWebService(info);
  if (discovery_.load()->ResourceList(info.api_group, info.api_version) == nullptr && !built_in_web_service) {
    return PlainNotFound();
  }
  registry::StorePtr store = registry_->Find(info.api_group, info.api_version, info.resource);
  // Errors answered before a handler runs, in the encoding the client prefers like any other.
  auto negotiated = [&](HttpResponse r) {
    const bool protobuf = store == nullptr || !store->rules().custom_resource;
    if (auto rep = Negotiate(request.Header("Accept"), /*allow_discovery=*/false, protobuf); rep.ok()) {
      EncodeErrorAs(*rep, &r);
    }
    return r;
  };
  auto early_error = [&](const Status& status) { return negotiated(ErrorResponse(status)); };
  if (store == nullptr) {
    const auto* review = registry_->catalogue().Find(info.api_group, info.api_version, info.resource);
    if (review != nullptr && IsReview(*review) && info.name.empty() && info.subresource.empty() &&
        options_.runtime_config.Enabled(*review)) {
      if (info.verb != "create") {
        return early_error(registry::MethodNotSupportedError(review->group, review->resource, info.verb));
      }
      return CreateReview(request, info, *review, query.Bool("pretty"));
    }
    if (review != nullptr && IsBindingsResource(review->group, review->resource) && info.subresource.empty()) {
      if (!info.name.empty() || info.verb != "create") {
        return early_error(registry::MethodNotSupportedError(review->group, review->resource, info.verb));
      }
      return negotiated(BindPod(registry_, request, query, info.namespace_, ""));
    }
    // A built-in resource served without a store here (componentstatuses) still has kube's routes.
    if (review != nullptr && built_in_web_service && !HasRoute(*review, info)) return early_error(MethodNotAllowed());
    // The CRD handler hands a resource it has no definition for to the final not-found handler.
    return built_in_web_service ? early_error(ResourceNotFound()) : PlainNotFound();
  }
  const auto& ri = store->info();
  // --runtime-config is about built-in group versions: a CRD's versions are served as it says.
  if (!store->rules().custom_resource && !options_.runtime_config.Enabled(ri)) return early_error(ResourceNotFound());
  // Cluster-scoped resources have no namespaced paths (the namespace object itself aside).
  const bool is_namespace_object = ri.group.empty() && ri.resource == "namespaces";
  if (!ri.namespaced && !info.namespace_.empty() && !is_namespace_object) {
    return store->rules().custom_resource ? PlainNotFound() : early_error(ResourceNotFound());
  }
  // "." and ".." can never name a namespace (kube's storage refuses such keys with a 500).
  if ((info.namespace_ == "." || info.namespace_ == "..") && !(is_namespace_object && info.name == info.namespace_)) {
    return early_error(registry::NotFoundError("", "namespaces", info.namespace_));
  }
  if (info.subresource == "token" && ri.group.empty() && ri.resource == "serviceaccounts") {
    RequestScope scope{request, info, query, store, Representation{}, query.Bool("pretty"), {}};
    if (auto rep = Negotiate(request.Header("Accept"), false, true); rep.ok()) scope.representation = *rep;
    HttpResponse r = TokenRequest(scope);
    EncodeErrorAs(scope.representation, &r);
    return r;
  }
  if (!info.subresource.empty()) {
    const auto* sub = ri.FindSubresource(info.subresource);
    if (sub == nullptr || !Discovery::ServedSubresource(info.subresource) ||
        (info.subresource == "finalize" && !is_namespace_object)) {
      return early_error(ResourceNotFound());
    }
  }
  // The subresources served without the resource's storage path (kube's connecters, binding
  // and eviction); ephemeralcontainers and resize are updates of the pod below.
  if (IsConnectSubresource(ri.group, ri.resource, info.subresource)) {
    return negotiated(ServeConnect(registry_, request.method, ri.resource, info.subresource, info.namespace_,
                                    info.name, query));
  }
  if (ri.group.empty() && ri.resource == "pods" && (info.subresource == "binding" || info.subresource == "eviction")) {
    if (info.verb != "create") {
      return early_error(registry::MethodNotSupportedError("", "pods/" + info.subresource, info.verb));
    }
    return negotiated(info.subresource == "binding" ? BindPod(registry_, request, query, info.namespace_, info.name)
                                                     : EvictPod(registry_, request, query, info.namespace_, info.name));
  }
  // go-restful's checks of a built-in route: the method, then (for the routes it produces the
  // API's media types on) the Accept header.
  if (!store->rules().custom_resource) {
    if (!HasRoute(ri, info)) return early_error(MethodNotAllowed());
    const bool media_route = info.subresource.empty() || info.subresource == "status" || info.subresource == "scale";
    const bool collection_get = info.name.empty() && (info.verb == "list" || info.verb == "watch");
    if (media_route && !RouteAccepts(request.Header("Accept"), collection_get)) {
      return ErrorResponse(RouteNotAcceptable(collection_get));
    }
  }
  auto rep = Negotiate(request.Header("Accept"), /*allow_discovery=*/false,
                       /*allow_protobuf=*/!store->rules().custom_resource);
  if (!rep.ok()) return ErrorResponse(rep.status());
  RequestScope scope{request, info, query, store, *rep, query.Bool("pretty"), {}};
  if (store->strategy() && !store->strategy()->Warning().empty()) {
    scope.warnings.emplace_back(store->strategy()->Warning());
  }
  const std::string& verb = info.verb;
  HttpResponse response;
  if (verb == "get") {
    response = Get(scope);
  } else if (verb == "list") {
    response = List(scope);
  } else if (verb == "watch") {
    response = Watch(scope);
  } else if (verb == "create") {
    response = info.name.empty() ? Create(scope) : ErrorResponse(registry::MethodNotSupportedError(ri.group, ri.resource, "create"));
  } else if (verb == "update") {
    response = Update(scope);
  } else if (verb == "patch") {
    response = Patch(scope);
  } else if (verb == "delete") {
    response = Delete(scope);
  } else if (verb == "deletecollection") {
    response = DeleteCollection(scope);
  } else {
    response = ErrorResponse(registry::MethodNotSupportedError(ri.group, ri.resource, verb));
  }
  EncodeErrorAs(scope.representation, &response);
  for (auto& header : WarningHeaders(scope.warnings)) response.headers.emplace("Warning", std::move(header));
  return response;
}

}  // namespace kube::endpoints
