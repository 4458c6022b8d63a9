// Escalation prevention on writes of Roles, ClusterRoles, RoleBindings and ClusterRoleBindings
// (kube's pkg/registry/rbac/*/policybased storages): a user outside system:masters may write a
// role only when they hold every permission it grants or may `escalate` roles, and a binding
// only when they hold every permission of the role it references or may `bind` it; otherwise
// 403 with kube's message (`... is attempting to grant RBAC permissions not currently held:`).
// A ClusterRole's aggregationRule needs full authority. Updates that change only what the
// garbage collector changes (owner references, finalizers) are not checked.
//
// RbacEscalation is created before the registry (its strategies go into RegistryOptions) and
// attached to the RBAC index and the server's authorizer once they exist; until attached, and
// for writes the server makes itself (no user), nothing is checked.
//
// Thread-safety: safe for concurrent use; Attach before serving.
#pragma once

#include <memory>

#include "auth/authorizer.h"
#include "auth/rbac_index.h"
#include "registry/api_registry.h"
#include "registry/strategy.h"

namespace kube::auth {

class RbacEscalation {
 public:
  // `authorizer` answers the escalate and bind checks (the server's chain); null: RBAC alone.
  // The role a binding references is read from `registry` (as kube's storage-backed resolver
  // does: a role created just before its binding is found); the user's own rules come from
  // the index.
  void Attach(registry::ApiRegistry* registry, std::shared_ptr<const RbacIndex> index,
              std::shared_ptr<const Authorizer> authorizer);

  // A write of `obj` (kind `kind`) in namespace `ns` by `user`; `old` is null on create.
  Status Admit(RbacKind kind, std::string_view ns, const storage::Object& obj, const storage::Object* old,
               const UserInfo& user) const;

  // kube's ConfirmNoEscalation: OK when `user`'s rules in `ns` cover `rules`, else the message.
  Status ConfirmNoEscalation(const UserInfo& user, std::string_view ns, const std::vector<PolicyRule>& rules,
                             std::string* message) const;

 private:
  bool Allowed(const Attributes& attributes) const;
  Result<std::vector<PolicyRule>> RoleReferenceRules(const RoleRef& ref, std::string_view ns) const;

  registry::ApiRegistry* registry_ = nullptr;

  std::shared_ptr<const RbacIndex> index_;
  std::shared_ptr<const Authorizer> authorizer_;
};

// The strategy of one RBAC kind that runs the checks on every write made for a user.
class RbacStrategy final : public registry::Strategy {
 public:
  RbacStrategy(RbacKind kind, std::shared_ptr<const RbacEscalation> escalation)
      : kind_(kind), escalation_(std::move(escalation)) {}
  Status AdmitWrite(std::string_view ns, const storage::Object& obj, const storage::Object* old,
                    const UserInfo& user) const override {
    return escalation_->Admit(kind_, ns, obj, old, user);
  }

 private:
  RbacKind kind_;
  std::shared_ptr<const RbacEscalation> escalation_;
};

// Registers the four RBAC strategies in `options.strategies`.
void AddRbacStrategies(registry::RegistryOptions* options, const std::shared_ptr<const RbacEscalation>& escalation);

}  // namespace kube::auth
