// RBAC policy rules and how they are evaluated, as kube's rbac/v1 evaluation helpers and the
// component-helpers policy comparator do: a rule allowing a request (verbs, API groups,
// resources with "*/subresource" and "*" wildcards, resource names, non-resource URLs with a
// trailing "*"), one set of rules covering another (escalation checks), and the compact rule
// text of kube's escalation messages.
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "auth/authorizer.h"
#include "util/go_format.h"

namespace kube::auth {

inline constexpr char kRbacGroup[] = "rbac.authorization.k8s.io";

// rbacv1.PolicyRule.
struct PolicyRule {
  std::vector<std::string> verbs;
  std::vector<std::string> api_groups;
  std::vector<std::string> resources;
  std::vector<std::string> resource_names;
  std::vector<std::string> non_resource_urls;

  bool operator==(const PolicyRule&) const = default;
};

// rbacv1.Subject.
struct Subject {
  std::string kind;  // "User", "Group", "ServiceAccount"
  std::string api_group;
  std::string name;
  std::string namespace_;
};

// rbacv1.RoleRef.
struct RoleRef {
  std::string api_group;
  std::string kind;  // "Role" or "ClusterRole"
  std::string name;
};

// The rules of a role's JSON (`rules`; absent or null is none). Fields that are not lists of
// strings are ignored (validation refuses such objects before they are stored).
std::vector<PolicyRule> RulesFromJson(const nlohmann::json& role);
nlohmann::json RuleToJson(const PolicyRule& rule);
std::vector<Subject> SubjectsFromJson(const nlohmann::json& binding);
RoleRef RoleRefFromJson(const nlohmann::json& binding);

// Whether `rule` allows the request (kube's RuleAllows).
bool RuleAllows(const Attributes& request, const PolicyRule& rule);

// Whether `owner` rules cover every permission `servant` rules grant; the uncovered ones (each
// broken down to one verb, group, resource and name) go to *missing.
bool Covers(const std::vector<PolicyRule>& owner, const std::vector<PolicyRule>& servant,
            std::vector<PolicyRule>* missing);
// Merges rules of one group and one resource that differ only in verbs (kube's CompactRules).
std::vector<PolicyRule> CompactRules(const std::vector<PolicyRule>& rules);
// `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}` (kube's CompactString).
std::string CompactString(const PolicyRule& rule);
// Go's %q of a []string: ["a" "b"].
std::string GoQuoteList(const std::vector<std::string>& values);

// Errors as kube's utilerrors.NewAggregate renders them: one alone, several as "[a, b]"; "" for
// none.
std::string AggregateErrors(const std::vector<std::string>& errors);

// Whether the subject of a binding (in `binding_namespace`, "" for a ClusterRoleBinding)
// names this user (kube's appliesToUser).
bool SubjectAppliesTo(const UserInfo& user, const Subject& subject, std::string_view binding_namespace);
// `User "alice"`, `ServiceAccount "builder/default"` (kube's describeSubject).
std::string DescribeSubject(const Subject& subject, std::string_view binding_namespace);

}  // namespace kube::auth
