// The RBAC authorizer (--authorization-mode=RBAC) as kube's plugin/pkg/auth/authorizer/rbac:
// a request is allowed when a rule of a role bound to the user (ClusterRoleBindings, then the
// RoleBindings of the request's namespace) allows it, with kube's reason
// (`RBAC: allowed by ClusterRoleBinding "x" of ClusterRole "y" to User "z"`); otherwise no
// opinion, with the resolution errors met as the reason. Also the privileged-groups authorizer
// kube puts in front of every chain (system:masters may do anything).
//
// Thread-safety: safe for concurrent use.
#pragma once

#include <memory>

#include "auth/authorizer.h"
#include "auth/rbac_index.h"
#include "auth/rule_resolver.h"

namespace kube::auth {

class RbacAuthorizer final : public Authorizer, public RuleResolver {
 public:
  explicit RbacAuthorizer(std::shared_ptr<const RbacIndex> index) : index_(std::move(index)) {}
  AuthorizationResult Authorize(const Attributes& attributes) const override;
  RulesInfo RulesFor(const UserInfo& user, std::string_view ns) const override;

 private:
  std::shared_ptr<const RbacIndex> index_;
};

}  // namespace kube::auth
