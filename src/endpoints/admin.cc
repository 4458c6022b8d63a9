#include "endpoints/admin.h"

#include <nlohmann/json.hpp>

#include "auth/forbidden.h"
#include "endpoints/authorization.h"
#include "endpoints/responses.h"

namespace kube::endpoints {

using nlohmann::json;

namespace {

constexpr std::string_view kPrefix = "/admin";
constexpr std::string_view kSnapshots = "/admin/snapshots";

json Success(registry::ApiRegistry* registry, const std::string& message) {
  return json{{"kind", "Status"},
              {"apiVersion", "v1"},
              {"metadata", {{"resourceVersion", std::to_string(registry->kv()->CurrentRevision())}}},
              {"status", "Success"},
              {"message", message},
              {"code", 200}};
}

json Describe(const registry::SnapshotInfo& info) {
  return json{{"name", info.name},
              {"resourceVersion", std::to_string(info.resource_version)},
              {"objects", info.objects},
              {"bytes", info.bytes}};
}

HttpResponse MethodNotAllowed() {
  return ErrorResponse(Status(StatusCode::kMethodNotAllowed, "the server does not allow this method on the requested resource"));
}

HttpResponse Answer(registry::ApiRegistry* registry, const Status& status, const std::string& message, bool pretty) {
  if (!status.ok()) return ErrorResponse(status);
  return JsonResponse(200, Success(registry, message), pretty);
}

}  // namespace

bool IsAdminPath(std::string_view path) {
  return path == kPrefix || (path.starts_with(kPrefix) && path[kPrefix.size()] == '/');
}

HttpResponse ServeAdmin(registry::ApiRegistry* registry, const HttpRequest& request, const RequestInfo& info,
                        bool authorize, bool pretty) {
  if (authorize && !request.user.InGroup(auth::kSystemMasters)) {
    // Whatever the authorization modes allow: resetting the server is a superuser's business.
    return ErrorResponse(auth::ForbiddenStatus(RequestAttributes(info, request.user), ""));
  }
  std::string_view path = request.path;
  if (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  const std::string& method = request.method;
  if (path == "/admin/reset") {
    if (method != "POST") return MethodNotAllowed();
    return Answer(registry, registry->Reset(), "reset to the initial state", pretty);
  }
  if (path == kSnapshots) {
    if (method != "GET" && method != "HEAD") return MethodNotAllowed();
    json items = json::array();
    for (const auto& s : registry->Snapshots()) items.push_back(Describe(s));
    auto initial = registry->InitialState();
    return JsonResponse(200,
                        json{{"kind", "SnapshotList"},
                             {"apiVersion", "admin.kube-apiserver-lite.io/v1"},
                             {"metadata", {{"resourceVersion", std::to_string(registry->kv()->CurrentRevision())}}},
                             {"initial", initial ? Describe(*initial) : json(nullptr)},
                             {"items", std::move(items)}},
                        pretty);
  }
  if (path.starts_with(kSnapshots) && path[kSnapshots.size()] == '/') {
    std::string_view rest = path.substr(kSnapshots.size() + 1);
    const size_t slash = rest.find('/');
    const std::string name(rest.substr(0, slash));
    if (slash == std::string_view::npos) {
      if (method == "POST") {
        return Answer(registry, registry->SaveSnapshot(name), "saved snapshot \"" + name + "\"", pretty);
      }
      if (method == "DELETE") {
        return Answer(registry, registry->DeleteSnapshot(name), "deleted snapshot \"" + name + "\"", pretty);
      }
      return MethodNotAllowed();
    }
    if (rest.substr(slash) == "/restore") {
      if (method != "POST") return MethodNotAllowed();
      return Answer(registry, registry->RestoreSnapshot(name), "restored snapshot \"" + name + "\"", pretty);
    }
  }
  return ErrorResponse(Status::NotFound("the server could not find the requested resource"));
}

}  // namespace kube::endpoints
