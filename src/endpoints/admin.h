// The admin API: state between tests over HTTP, on paths no Kubernetes API can take —
//   POST   /admin/reset                      back to the initial state (ApiRegistry::Reset)
//   GET    /admin/snapshots                  the saved snapshots (a SnapshotList, below)
//   POST   /admin/snapshots/{name}           save the current state under {name}
//   POST   /admin/snapshots/{name}/restore   restore it
//   DELETE /admin/snapshots/{name}           forget it
// Answers are kube's Status objects: Success (code 200) with metadata.resourceVersion the store's
// revision after the operation, or the error's Status (400 bad name, 404 unknown snapshot or
// path, 405 wrong method, 503 before the initial state is recorded). GET /admin/snapshots answers
//   {"kind":"SnapshotList","apiVersion":"admin.kube-apiserver-lite.io/v1",
//    "metadata":{"resourceVersion":"N"},
//    "initial":{"name":"initial","resourceVersion":"R","objects":n,"bytes":b} (or null),
//    "items":[{"name":..,"resourceVersion":..,"objects":..,"bytes":..}, ...]}
// Only a superuser may call it: when the server authorizes requests, a user outside
// system:masters gets kube's 403 (`forbidden: User "u" cannot post path "/admin/reset"`).
//
// Thread-safety: pure functions over the registry, which serialises the operations.
#pragma once

#include <string_view>

#include "auth/user_info.h"
#include "endpoints/http.h"
#include "endpoints/request_info.h"
#include "registry/api_registry.h"

namespace kube::endpoints {

// Whether `path` belongs to the admin API ("/admin" and below).
bool IsAdminPath(std::string_view path);

// Serves one admin request; `authorize` says whether the caller must be in system:masters.
HttpResponse ServeAdmin(registry::ApiRegistry* registry, const HttpRequest& request, const RequestInfo& info,
                        bool authorize, bool pretty);

}  // namespace kube::endpoints
