// kube's 403 for a denied request (responsewriters.ForbiddenStatusError): the message names the
// user, the verb and what was addressed, e.g.
//   pods "p" is forbidden: User "alice" cannot get resource "pods" in API group "" in the namespace "ns"
//   forbidden: User "system:anonymous" cannot get path "/api"
// with ": <reason>" appended when the authorizer gave one, and details {name, group, kind =
// resource}. Shared by the request authorization step, impersonation and RBAC's escalation
// checks.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "auth/authorizer.h"
#include "util/status.h"

namespace kube::auth {

// `User "x" cannot <verb> resource "<r>[/<sub>]" in API group "<g>" in the namespace "<ns>"`
// (or "at the cluster scope", or `cannot <verb> path "<p>"`).
std::string ForbiddenMessage(const Attributes& attributes);
Status ForbiddenStatus(const Attributes& attributes, std::string_view reason);

// Asks `authorizer`; OK when it allows, the 403 Status otherwise.
Status Authorize(const Authorizer& authorizer, const Attributes& attributes);

}  // namespace kube::auth
