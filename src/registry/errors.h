// kube's API errors (k8s.io/apimachinery/pkg/api/errors) with their exact messages and details,
// for the registry and handlers. "Resource" means the qualified resource ("pods",
// "deployments.apps"); "kind" the qualified kind ("Pod", "Deployment.apps").
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/field_error.h"
#include "util/status.h"

namespace kube::registry {

// "pods" for the core group, "deployments.apps" otherwise.
std::string QualifiedName(std::string_view name, std::string_view group);

Status NotFoundError(std::string_view group, std::string_view resource, std::string_view name);
Status AlreadyExistsError(std::string_view group, std::string_view resource, std::string_view name);
// The optimistic-lock conflict: "Operation cannot be fulfilled on <res> "<name>": <why>".
Status ConflictError(std::string_view group, std::string_view resource, std::string_view name,
                     std::string_view why);
inline constexpr std::string_view kObjectModified =
    "the object has been modified; please apply your changes to the latest version and try again";
Status ForbiddenError(std::string_view group, std::string_view resource, std::string_view name,
                      std::string_view why);
Status MethodNotSupportedError(std::string_view group, std::string_view resource, std::string_view verb);

// One field error (field.Error, util/field_error.h): rendered "<field>: <Type>: <value>: <detail>".
using FieldError = kube::FieldError;
using FieldErrors = kube::FieldErrors;

// 422 Invalid: "<Kind.group> "<name>" is invalid: <errors>" with causes.
Status InvalidError(std::string_view group, std::string_view kind, std::string_view name,
                    const FieldErrors& errors);
// Go %q quoting of a string (for field error values).
using kube::GoQuote;

// Re-labels a storage-layer error for the object it concerns (storage messages name keys).
Status FromStorage(const Status& s, std::string_view group, std::string_view resource,
                   std::string_view name);

}  // namespace kube::registry
