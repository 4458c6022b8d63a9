// RuleResolver: what a user may do in a namespace, listed rather than checked (kube's
// authorizer.RuleResolver, behind SelfSubjectRulesReview and `kubectl auth can-i --list`).
//
// Thread-safety: implementations are safe for concurrent use.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "auth/user_info.h"

namespace kube::auth {

struct ResourceRuleInfo {
  std::vector<std::string> verbs, api_groups, resources, resource_names;
};
struct NonResourceRuleInfo {
  std::vector<std::string> verbs, non_resource_urls;
};

struct RulesInfo {
  std::vector<ResourceRuleInfo> resource_rules;
  std::vector<NonResourceRuleInfo> non_resource_rules;
  // The list may be missing rules (an authorizer that cannot list them).
  bool incomplete = false;
  // Errors met while resolving (a binding to a missing role), as kube's evaluationError.
  std::string evaluation_error;
};

class RuleResolver {
 public:
  virtual ~RuleResolver() = default;
  virtual RulesInfo RulesFor(const UserInfo& user, std::string_view ns) const = 0;
};

// Everything (--authorization-mode=AlwaysAllow's rules, and system:masters').
inline RulesInfo AllRules() {
  RulesInfo r;
  r.resource_rules.push_back({{"*"}, {"*"}, {"*"}, {}});
  r.non_resource_rules.push_back({{"*"}, {"*"}});
  return r;
}

}  // namespace kube::auth
