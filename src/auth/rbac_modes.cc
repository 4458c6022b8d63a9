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

Result<AuthorizationSetup> NewAuthorizerForModes(const std::string& modes, const Rbac& rbac) {
  std::vector<std::unique_ptr<Authorizer>> chain;
  std::vector<std::shared_ptr<const RuleResolver>> resolvers;
  chain.push_back(std::make_unique<PrivilegedGroupsAuthorizer>(std::vector<std::string>{kSystemMasters}));
  size_t start = 0;
  while (true) {
    const size_t comma = modes.find(',', start);
    const std::string mode = modes.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (mode == "AlwaysAllow") {
      chain.push_back(std::make_unique<AlwaysAllowAuthorizer>());
      resolvers.push_back(std::make_shared<FixedRules>(AllRules()));
    } else if (mode == "AlwaysDeny") {
      chain.push_back(std::make_unique<AlwaysDenyAuthorizer>());
      resolvers.push_back(std::make_shared<FixedRules>(RulesInfo{}));
    } else if (mode == "RBAC") {
      chain.push_back(std::make_unique<RbacAuthorizer>(rbac.index()));
      resolvers.push_back(rbac.NewAuthorizer());
    } else {
      return Status::BadRequest("authorization-mode " + GoQuote(mode) + " is not supported");
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return AuthorizationSetup{std::make_shared<AuthorizerChain>(std::move(chain)),
                            std::make_shared<RulesUnion>(std::move(resolvers))};
}

}  // namespace kube::auth
