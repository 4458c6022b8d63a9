#include "auth/rbac.h"

#include "auth/bootstrap_policy.h"

namespace kube::auth {

Result<std::unique_ptr<Rbac>> Rbac::Start(registry::ApiRegistry* registry) {
  std::unique_ptr<Rbac> rbac(new Rbac());
  KUBE_RETURN_IF_ERROR(EnsureBootstrapPolicy(registry));
  // Aggregated roles get their rules before the index loads, so the first check sees them.
  rbac->aggregator_ = std::make_unique<ClusterRoleAggregator>(registry);
  KUBE_RETURN_IF_ERROR(rbac->aggregator_->Start());
  rbac->index_ = std::make_shared<RbacIndex>();
  KUBE_RETURN_IF_ERROR(rbac->index_->Follow(registry));
  return rbac;
}

Rbac::~Rbac() {
  if (aggregator_) aggregator_->Stop();
  if (index_) index_->Stop();
}

namespace {

// The RBAC authorizer owning what feeds it.
class OwningRbacAuthorizer final : public Authorizer {
 public:
  explicit OwningRbacAuthorizer(std::unique_ptr<Rbac> rbac) : rbac_(std::move(rbac)), authorizer_(rbac_->NewAuthorizer()) {}
  AuthorizationResult Authorize(const Attributes& attributes) const override { return authorizer_->Authorize(attributes); }

 private:
  std::unique_ptr<Rbac> rbac_;
  std::shared_ptr<RbacAuthorizer> authorizer_;
};

}  // namespace

Result<std::unique_ptr<Authorizer>> NewRBACAuthorizer(registry::ApiRegistry& registry) {
  auto rbac = Rbac::Start(&registry);
  if (!rbac.ok()) return rbac.status();
  return std::unique_ptr<Authorizer>(std::make_unique<OwningRbacAuthorizer>(std::move(*rbac)));
}

}  // namespace kube::auth
