// DELETE and DELETECOLLECTION handlers.
#include <nlohmann/json.hpp>

#include "endpoints/api_server.h"
#include "endpoints/render.h"
#include "endpoints/request_options.h"
#include "endpoints/responses.h"

namespace kube::endpoints {

using nlohmann::json;

HttpResponse ApiServer::Delete(RequestScope& scope) {
  if (!scope.info.subresource.empty()) {
    return ErrorResponse(registry::MethodNotSupportedError(
        scope.store->info().group, scope.store->info().resource + "/" + scope.info.subresource, "delete"));
  }
  auto options = ReadDeleteOptions(scope.request, scope.query);
  if (!options.ok()) return ErrorResponse(options.status());
  const auto& info = scope.store->info();
  const std::string ns = info.namespaced ? scope.info.namespace_ : "";
  auto result = scope.store->Delete(ns, scope.info.name, *options);
  if (!result.ok()) return ErrorResponse(result.status());
  // Pending deletions (finalizers, grace) and kinds that return the deleted object answer with
  // it; everything else with a Success Status naming the resource.
  if (result->deleted && !scope.store->rules().return_deleted_object) {
    const json& meta = (*result->object)["metadata"];
    return Respond(scope, 200, SuccessStatus(scope.info.name, info.group, info.resource, meta.value("uid", "")));
  }
  auto rendered = RenderObject(*scope.store, result->object, scope.representation, scope.query.Get("includeObject"));
  if (!rendered.ok()) return ErrorResponse(rendered.status());
  return Respond(scope, 200, *rendered);
}

HttpResponse ApiServer::DeleteCollection(RequestScope& scope) {
  auto list_options = ParseListOptions(scope.query, /*watch=*/false);
  if (!list_options.ok()) return ErrorResponse(list_options.status());
  auto options = ReadDeleteOptions(scope.request, scope.query);
  if (!options.ok()) return ErrorResponse(options.status());
  const auto& info = scope.store->info();
  const std::string ns = info.namespaced ? scope.info.namespace_ : "";
  auto deleted = scope.store->DeleteCollection(ns, std::move(*list_options), *options);
  if (!deleted.ok()) return ErrorResponse(deleted.status());
  storage::ListResult list;
  list.items = std::move(*deleted);
  auto rendered = RenderList(*scope.store, list, Representation{}, "");
  if (!rendered.ok()) return ErrorResponse(rendered.status());
  (*rendered)["metadata"].erase("resourceVersion");
  return Respond(scope, 200, *rendered);
}

}  // namespace kube::endpoints
