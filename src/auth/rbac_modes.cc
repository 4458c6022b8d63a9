#include "auth/rbac_modes.h"

#include "auth/authorization_modes.h"

namespace kube::auth {

namespace {

class RulesUnion final : public RuleResolver {
 public:
  explicit RulesUnion(std::vector<std::shared_ptr<const RuleResolver>> r) : resolvers_(std::move(r)) {}
  RulesInfo RulesFor(const UserInfo& user, std::string_view ns) const override {
    RulesInfo out;
    std::vector<std::string> errors;
    for (const auto& r : resolvers_) {
      RulesInfo info = r->RulesFor(user, ns);
      out.resource_rules.insert(out.resource_rules.end(), info.resource_rules.begin(), info.resource_rules.end());
      out.non_resource_rules.insert(out.non_resource_rules.end(), info.non_resource_rules.begin(),
                                    info.non_resource_rules.end());
      out.incomplete = out.incomplete || info.incomplete;
      if (!info.evaluation_error.empty()) errors.push_back(info.evaluation_error);
    }
    out.evaluation_error = AggregateErrors(errors);
    return out;
  }

 private:
  std::vector<std::shared_ptr<const RuleResolver>> resolvers_;
};

class FixedRules final : public RuleResolver {
 public:
  explicit FixedRules(RulesInfo rules) : rules_(std::move(rules)) {}
  RulesInfo RulesFor(const UserInfo&, std::string_view) const override { return rules_; }

 private:
  RulesInfo rules_;
};

}  // namespace

Result<AuthorizationSetup> NewAuthorizerForModes(const std::vector<std::string>& modes, const Rbac& rbac) {
  AuthorizerFactories factories;
  factories.rbac = [&rbac]() -> Result<std::unique_ptr<Authorizer>> {
    return std::unique_ptr<Authorizer>(std::make_unique<RbacAuthorizer>(rbac.index()));
  };
  auto chain = BuildAuthorizer(modes, factories);
  if (!chain.ok()) return chain.status();
  std::vector<std::shared_ptr<const RuleResolver>> resolvers;
  for (const auto& mode : modes) {
    if (mode == "AlwaysAllow") resolvers.push_back(std::make_shared<FixedRules>(AllRules()));
    if (mode == "AlwaysDeny") resolvers.push_back(std::make_shared<FixedRules>(RulesInfo{}));
    if (mode == "RBAC") resolvers.push_back(rbac.NewAuthorizer());
  }
  return AuthorizationSetup{*chain, std::make_shared<RulesUnion>(std::move(resolvers))};
}

Result<AuthorizationSetup> NewAuthorizerForModes(const std::string& modes, const Rbac& rbac) {
  auto parsed = ParseAuthorizationModes(modes);
  if (!parsed.ok()) return parsed.status();
  return NewAuthorizerForModes(*parsed, rbac);
}

}  // namespace kube::auth
