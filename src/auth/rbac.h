// RBAC in the server: at start the bootstrap policy is created or completed, the in-memory
// index of roles and bindings starts following the registry, and the clusterrole-aggregation
// controller runs — whatever --authorization-mode is, as kube-apiserver (and its controller
// manager) do. The RBAC authorizer for --authorization-mode=RBAC reads the index.
//
// Wiring (main):
//   auto escalation = std::make_shared<auth::RbacEscalation>();
//   auth::AddRbacStrategies(&registry_options, escalation);   // before ApiRegistry::Open
//   auto rbac = auth::Rbac::Start(registry);                  // after it
//   authorizer = chain(PrivilegedGroupsAuthorizer, rbac->NewAuthorizer(), ...);
//   escalation->Attach(registry, rbac->index(), authorizer);
//
// Thread-safety: safe for concurrent use once started; destroy before the registry.
#pragma once

#include <memory>

#include "auth/clusterrole_aggregation.h"
#include "auth/rbac_authorizer.h"
#include "auth/rbac_escalation.h"
#include "auth/rbac_index.h"
#include "registry/api_registry.h"

namespace kube::auth {

class Rbac {
 public:
  // Bootstrap policy, index (loaded before this returns) and aggregation controller.
  static Result<std::unique_ptr<Rbac>> Start(registry::ApiRegistry* registry);

  // Stops the index's watches and the controller; what the index holds stays readable.
  ~Rbac();

  std::shared_ptr<const RbacIndex> index() const { return index_; }
  // The RBAC authorizer (and rule resolver) over the index; it keeps the index alive.
  std::shared_ptr<RbacAuthorizer> NewAuthorizer() const { return std::make_shared<RbacAuthorizer>(index_); }

 private:
  Rbac() = default;
  std::shared_ptr<RbacIndex> index_;
  std::unique_ptr<ClusterRoleAggregator> aggregator_;
};

// What --authorization-mode=RBAC calls when RBAC is started on its own: starts it (see Rbac)
// and returns its authorizer, which keeps everything running as long as it lives.
Result<std::unique_ptr<Authorizer>> NewRBACAuthorizer(registry::ApiRegistry& registry);

}  // namespace kube::auth
