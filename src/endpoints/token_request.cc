// serviceaccounts/token: TokenRequest, as kube's token REST storage answers it — a JWT for the
// service account, signed by the server's issuer, for the requested audiences (default: the
// server's) and lifetime (default one hour, at least ten minutes, at most
// --service-account-max-token-expiration), optionally bound to a Pod, Secret or Node that must
// exist (and have the given uid).
#include <nlohmann/json.hpp>

#include "endpoints/api_server.h"
#include "endpoints/request_body.h"
#include "endpoints/responses.h"
#include "registry/errors.h"
#include "registry/managed_fields.h"
#include "util/json_fields.h"

namespace kube::endpoints {

using nlohmann::json;

namespace {

constexpr char kGroup[] = "authentication.k8s.io";

}  // namespace

HttpResponse ApiServer::TokenRequest(RequestScope& scope) {
  const RequestInfo& info = scope.info;
  if (info.verb != "create") return ErrorResponse(registry::MethodNotSupportedError("", "serviceaccounts", info.verb));
  if (!options_.token_issuer) return ErrorResponse(Status::NotFound("the server could not find the requested resource"));
  std::vector<std::string> duplicates;
  auto body = DecodeObjectBody(scope.request, {.api_version = "authentication.k8s.io/v1", .kind = "TokenRequest"}, &duplicates);
  if (!body.ok()) return ErrorResponse(body.status());
  json req = std::move(*body);
  json& meta = req["metadata"];
  if (!meta.is_object()) meta = json::object();
  // kube: the body's name and namespace, when given, must be the URL's.
  if (const std::string n = StringField(meta, "name"); !n.empty() && n != info.name) {
    return ErrorResponse(Status::BadRequest("the name of the TokenRequest (" + n +
                                            ") does not match the name of the service account (" + info.name + ")"));
  }
  if (const std::string ns = StringField(meta, "namespace"); !ns.empty() && ns != info.namespace_) {
    return ErrorResponse(Status::BadRequest("the namespace of the TokenRequest (" + ns +
                                            ") does not match the namespace of the request (" + info.namespace_ + ")"));
  }
  meta["name"] = info.name;
  meta["namespace"] = info.namespace_;
  auto sa = scope.store->Get(info.namespace_, info.name, {});
  if (!sa.ok()) return ErrorResponse(sa.status());

  json& spec = req["spec"];
  if (!spec.is_object()) spec = json::object();
  int64_t expiration = 3600;
  if (spec.contains("expirationSeconds") && spec["expirationSeconds"].is_number_integer()) {
    expiration = spec["expirationSeconds"].get<int64_t>();
  }
  FieldErrors errors;
  if (expiration < 600) {
    errors.push_back({FieldError::Type::kInvalid, "spec.expirationSeconds", std::to_string(expiration),
                      "may not specify a duration less than 10 minutes"});
  } else if (expiration > (int64_t{1} << 32)) {
    errors.push_back({FieldError::Type::kInvalid, "spec.expirationSeconds", std::to_string(expiration),
                      "may not specify a duration larger than 2^32 seconds"});
  }
  std::optional<auth::BoundObject> bound;
  std::string node_name, node_uid;
  if (spec.contains("boundObjectRef") && spec["boundObjectRef"].is_object()) {
    const json& ref = spec["boundObjectRef"];
    bound = auth::BoundObject{StringField(ref, "kind"), StringField(ref, "apiVersion"), StringField(ref, "name"),
                              StringField(ref, "uid")};
    const bool known = bound->kind == "Pod" || bound->kind == "Secret" || bound->kind == "Node";
    if (!known || bound->api_version != "v1") {
      errors.push_back({FieldError::Type::kNotSupported, "spec.boundObjectRef.kind", registry::GoQuote(bound->kind),
                        "supported values: \"Pod\", \"Secret\", \"Node\""});
    }
  }
  if (!errors.empty()) return ErrorResponse(registry::InvalidError(kGroup, "TokenRequest", "", errors));
  if (bound) {
    const std::string resource = bound->kind == "Pod" ? "pods" : bound->kind == "Secret" ? "secrets" : "nodes";
    registry::StorePtr store = registry_->Find("", "v1", resource);
    if (store == nullptr) return ErrorResponse(Status::NotFound("the server could not find the requested resource"));
    auto obj = store->Get(bound->kind == "Node" ? "" : info.namespace_, bound->name, {});
    if (!obj.ok()) return ErrorResponse(obj.status());
    const std::string uid = StringField((**obj)["metadata"], "uid");
    if (!bound->uid.empty() && bound->uid != uid) {
      return ErrorResponse(registry::ConflictError(
          "", resource, bound->name,
          "the UID in the bound object reference (" + bound->uid +
              ") does not match the UID in record. The object might have been deleted and then recreated"));
    }
    bound->uid = uid;
    spec["boundObjectRef"]["uid"] = uid;
    if (bound->kind == "Pod") {
      // kube records the node a bound pod runs on.
      node_name = (**obj).contains("spec") ? StringField((**obj)["spec"], "nodeName") : "";
      if (!node_name.empty()) {
        if (registry::StorePtr nodes = registry_->Find("", "v1", "nodes")) {
          if (auto node = nodes->Get("", node_name, {}); node.ok()) node_uid = StringField((**node)["metadata"], "uid");
        }
      }
    }
  }
  if (options_.max_token_expiration_seconds > 0 && expiration > options_.max_token_expiration_seconds) {
    expiration = options_.max_token_expiration_seconds;
  }
  std::vector<std::string> audiences;
  if (spec.contains("audiences") && spec["audiences"].is_array()) {
    for (const auto& a : spec["audiences"]) {
      if (a.is_string()) audiences.push_back(a.get<std::string>());
    }
  }
  if (audiences.empty()) audiences = options_.api_audiences;
  spec["audiences"] = audiences;
  spec["expirationSeconds"] = expiration;

  auth::TokenSpec token_spec{.ns = info.namespace_,
                             .service_account = info.name,
                             .service_account_uid = StringField((**sa)["metadata"], "uid"),
                             .audiences = audiences,
                             .expiration_seconds = expiration,
                             .bound = bound,
                             .pod_node_name = node_name,
                             .pod_node_uid = node_uid};
  auto issued = options_.token_issuer->Issue(token_spec, std::chrono::system_clock::now());
  if (!issued.ok()) return ErrorResponse(issued.status());
  req["apiVersion"] = "authentication.k8s.io/v1";
  req["kind"] = "TokenRequest";
  if (!meta.contains("creationTimestamp")) meta["creationTimestamp"] = nullptr;
  const int64_t exp = std::chrono::duration_cast<std::chrono::seconds>(issued->expiration.time_since_epoch()).count();
  req["status"] = {{"token", issued->token}, {"expirationTimestamp", registry::FormatRfc3339(exp)}};
  return Respond(scope, 201, req);
}

}  // namespace kube::endpoints
