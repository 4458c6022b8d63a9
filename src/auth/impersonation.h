// Impersonation (kube's WithImpersonation filter): Impersonate-User, Impersonate-Group (repeated),
// Impersonate-Uid and Impersonate-Extra-<key> headers make the request act as another user, each
// requested piece authorized first with verb "impersonate" on
//   users / groups (group ""), serviceaccounts in their namespace (a system:serviceaccount:ns:n
//   user), uids and userextras/<key> (group authentication.k8s.io).
// A user impersonated without groups gets none but system:authenticated (a service account gets
// its two service-account groups); system:anonymous gets system:unauthenticated.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "auth/authorizer.h"
#include "util/status.h"

namespace kube::auth {

// Whether any impersonation header is present (names compare case-insensitively).
bool HasImpersonationHeaders(const std::vector<std::pair<std::string, std::string>>& headers);

// The user `requestor` acts as. `headers`: every request header (name, value), repeated names
// in order. Errors: 400 for groups, extras or uid without a user; 403 (kube's message) when the
// authorizer does not allow one of the pieces.
Result<UserInfo> Impersonate(const UserInfo& requestor, const std::vector<std::pair<std::string, std::string>>& headers,
                             const Authorizer& authorizer);

}  // namespace kube::auth
