#include "auth/rbac_authorizer.h"

namespace kube::auth {

AuthorizationResult RbacAuthorizer::Authorize(const Attributes& attributes) const {
  AuthorizationResult result;
  std::vector<std::string> errors;
  index_->VisitRulesFor(attributes.user, attributes.namespace_,
                        [&](const RbacIndex::RuleSource& source, const PolicyRule* rule, const std::string* error) {
                          if (rule != nullptr && RuleAllows(attributes, *rule)) {
                            result = {Decision::kAllow, "RBAC: allowed by " + source.Describe()};
                            return false;
                          }
                          if (error != nullptr) errors.push_back(*error);
                          return true;
                        });
  if (result.decision == Decision::kAllow) return result;
  if (!errors.empty()) result.reason = "RBAC: " + AggregateErrors(errors);
  return result;
}

RulesInfo RbacAuthorizer::RulesFor(const UserInfo& user, std::string_view ns) const {
  RulesInfo info;
  std::vector<std::string> errors;
  for (const auto& rule : index_->RulesFor(user, ns, &errors)) {
    if (!rule.resources.empty()) {
      info.resource_rules.push_back({rule.verbs, rule.api_groups, rule.resources, rule.resource_names});
    }
    if (!rule.non_resource_urls.empty()) info.non_resource_rules.push_back({rule.verbs, rule.non_resource_urls});
  }
  info.evaluation_error = AggregateErrors(errors);
  return info;
}

}  // namespace kube::auth
