// The authorization step of the handler chain (kube's WithImpersonation + WithAuthorization
// filters): the request's user is replaced by the one its Impersonate-* headers ask for (each
// piece authorized), then the authorizer is asked whether that user may do what the request
// does. The attributes are derived from the RequestInfo as kube's GetAuthorizerAttributes does.
//
// Thread-safety: pure functions.
#pragma once

#include "auth/authorizer.h"
#include "endpoints/http.h"
#include "endpoints/request_info.h"
#include "util/status.h"

namespace kube::endpoints {

// kube's authorizer.Attributes of a request made by `user`.
auth::Attributes RequestAttributes(const RequestInfo& info, const auth::UserInfo& user);

// The user the request acts as (its own, or the impersonated one); 400/403 Statuses as kube.
Result<auth::UserInfo> EffectiveUser(const HttpRequest& request, const auth::Authorizer& authorizer);

// OK when `user` may make the request; kube's 403 otherwise.
Status AuthorizeRequest(const RequestInfo& info, const auth::UserInfo& user, const auth::Authorizer& authorizer);

}  // namespace kube::endpoints
