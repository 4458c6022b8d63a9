// Building HTTP responses the way kube-apiserver writes them: metav1.Status for every error
// (with Retry-After when details.retryAfterSeconds > 0), objects and lists as compact JSON
// (indented with ?pretty), Success Status for deletes that do not return the object.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>

#include "endpoints/http.h"
#include "util/status.h"

namespace kube::endpoints {

// The metav1.Status object for a non-OK status. `details` is always there: name, group, kind,
// uid, causes and retryAfterSeconds where the status has them, {} otherwise.
nlohmann::json StatusObject(const Status& status);
HttpResponse ErrorResponse(const Status& status);
HttpResponse JsonResponse(int code, const nlohmann::json& body, bool pretty = false);
// A Success Status for a completed delete: details name/group/kind(resource)/uid.
nlohmann::json SuccessStatus(std::string_view name, std::string_view group, std::string_view resource,
                             std::string_view uid);
// Compact JSON that never throws on odd bytes.
std::string Dump(const nlohmann::json& j, bool pretty = false);

}  // namespace kube::endpoints

// Returns the error response for a non-OK Status from the enclosing handler.
#define KUBE_RETURN_IF_ERROR_RESPONSE(expr)                                   \
  do {                                                                        \
    ::kube::Status kube_status_ = (expr);                                     \
    if (!kube_status_.ok()) return ::kube::endpoints::ErrorResponse(kube_status_); \
  } while (0)
