// The authorizer chain of --authorization-mode with RBAC available (a comma-separated list of
// AlwaysAllow, AlwaysDeny and RBAC), behind kube's privileged-groups authorizer (system:masters
// may do anything whatever the modes), and the union of the modes' rule resolvers for
// SelfSubjectRulesReview (the privileged-groups authorizer lists no rules, as kube's). The
// server builds its chain with authorization_modes.h and takes the rule resolver from here.
//
// Thread-safety: the results are safe for concurrent use.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "auth/authorizer.h"
#include "auth/rbac.h"
#include "auth/rule_resolver.h"

namespace kube::auth {

struct AuthorizationSetup {
  std::shared_ptr<const Authorizer> authorizer;
  std::shared_ptr<const RuleResolver> rule_resolver;
};

// The chain is authorization_modes.h's BuildAuthorizer with RBAC reading `rbac`'s index; the
// resolver lists the rules of the same modes. 400-style errors name an invalid mode, and a mode
// not available here (Node, Webhook, ABAC).
Result<AuthorizationSetup> NewAuthorizerForModes(const std::vector<std::string>& modes, const Rbac& rbac);
// `modes` as --authorization-mode spells it (comma-separated).
Result<AuthorizationSetup> NewAuthorizerForModes(const std::string& modes, const Rbac& rbac);

}  // namespace kube::auth
