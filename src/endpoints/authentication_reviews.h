// The authentication.k8s.io reviews, answered from the server's real authentication:
// SelfSubjectReview reports the request's user (after impersonation); TokenReview runs the
// bearer-token authenticators (token file, service-account tokens) on spec.token for
// spec.audiences (default: the server's audiences). Create-only, never stored.
// (The authorization.k8s.io access reviews are in reviews.h.)
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include "auth/request_authenticator.h"
#include "catalogue/catalogue.h"
#include "util/status.h"

namespace kube::endpoints {

bool IsAuthenticationReview(const catalogue::ResourceInfo& info);

// The review `body` with its status. `authenticator` may be null (plain-HTTP-only server):
// every TokenReview is then unauthenticated.
Result<nlohmann::json> AnswerAuthenticationReview(const catalogue::ResourceInfo& info, nlohmann::json body,
                                                  const auth::UserInfo& user,
                                                  const auth::RequestAuthenticator* authenticator);

// user.Info as the review resources render it (username, uid, groups, extra; empty ones left out).
nlohmann::json UserInfoJson(const auth::UserInfo& user);

}  // namespace kube::endpoints
