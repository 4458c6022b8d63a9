// The RBAC index and authorizer: which bindings apply, kube's reasons, resolution errors,
// updates and deletions, and the rule listing behind SelfSubjectRulesReview.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "auth/rbac_authorizer.h"
#include "auth/authorization_modes.h"
#include "auth/rbac_index.h"

namespace kube::auth {
namespace {

using nlohmann::json;

json ClusterRole(const std::string& name, json rules) {
  return {{"metadata", {{"name", name}}}, {"rules", std::move(rules)}};
}
json Role(const std::string& ns, const std::string& name, json rules) {
  return {{"metadata", {{"name", name}, {"namespace", ns}}}, {"rules", std::move(rules)}};
}
json Binding(const std::string& ns, const std::string& name, const std::string& kind, const std::string& role,
             json subjects) {
  json b = {{"metadata", {{"name", name}}},
            {"roleRef", {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", kind}, {"name", role}}},
            {"subjects", std::move(subjects)}};
  if (!ns.empty()) b["metadata"]["namespace"] = ns;
  return b;
}
json User(const std::string& name) { return {{"kind", "User"}, {"apiGroup", "rbac.authorization.k8s.io"}, {"name", name}}; }
json Group(const std::string& name) { return {{"kind", "Group"}, {"apiGroup", "rbac.authorization.k8s.io"}, {"name", name}}; }

Attributes Request(UserInfo user, std::string verb, std::string resource, std::string ns, std::string group = "") {
  return Attributes{.user = std::move(user), .verb = std::move(verb), .resource_request = true,
                    .namespace_ = std::move(ns), .api_group = std::move(group), .api_version = "v1",
                    .resource = std::move(resource)};
}

struct Fixture {
  std::shared_ptr<RbacIndex> index = std::make_shared<RbacIndex>();
  RbacAuthorizer authorizer{index};
  Fixture() {
    index->Apply(RbacKind::kClusterRole,
                 ClusterRole("cm-reader", json::array({{{"apiGroups", {""}}, {"resources", {"configmaps"}}, {"verbs", {"get", "list"}}}})));
    index->Apply(RbacKind::kRole, Role("default", "pod-reader",
                                       json::array({{{"apiGroups", {""}}, {"resources", {"pods"}}, {"verbs", {"get", "list", "watch"}}}})));
    index->Apply(RbacKind::kClusterRoleBinding, Binding("", "dev-cm", "ClusterRole", "cm-reader", json::array({Group("dev")})));
    index->Apply(RbacKind::kRoleBinding,
                 Binding("default", "alice-pods", "Role", "pod-reader", json::array({User("bob"), User("alice")})));
  }
};

TEST_CASE("the authorizer allows through cluster and namespaced bindings with kube's reasons") {
  Fixture f;
  UserInfo alice{.name = "alice", .groups = {"dev", "system:authenticated"}};
  auto r = f.authorizer.Authorize(Request(alice, "list", "pods", "default"));
  CHECK(r.decision == Decision::kAllow);
  CHECK(r.reason == R"(RBAC: allowed by RoleBinding "alice-pods/default" of Role "pod-reader" to User "alice")");

  r = f.authorizer.Authorize(Request(alice, "list", "configmaps", "kube-system"));
  CHECK(r.decision == Decision::kAllow);
  CHECK(r.reason == R"(RBAC: allowed by ClusterRoleBinding "dev-cm" of ClusterRole "cm-reader" to Group "dev")");

  // Role bindings count only in their namespace; the cluster scope sees none.
  CHECK(f.authorizer.Authorize(Request(alice, "list", "pods", "kube-system")).decision == Decision::kNoOpinion);
  CHECK(f.authorizer.Authorize(Request(alice, "list", "pods", "")).decision == Decision::kNoOpinion);
  CHECK(f.authorizer.Authorize(Request(alice, "delete", "pods", "default")).decision == Decision::kNoOpinion);
  // Without the group, the cluster binding does not apply.
  UserInfo plain{.name = "alice"};
  auto denied = f.authorizer.Authorize(Request(plain, "list", "configmaps", "kube-system"));
  CHECK(denied.decision == Decision::kNoOpinion);
  CHECK(denied.reason.empty());
}

TEST_CASE("bindings to missing roles are resolution errors in the reason") {
  Fixture f;
  f.index->Apply(RbacKind::kClusterRoleBinding, Binding("", "carol-ghost", "ClusterRole", "ghost", json::array({User("carol")})));
  f.index->Apply(RbacKind::kRoleBinding, Binding("default", "carol-nope", "Role", "nope", json::array({User("carol")})));
  auto r = f.authorizer.Authorize(Request({.name = "carol"}, "get", "pods", "default"));
  CHECK(r.decision == Decision::kNoOpinion);
  CHECK(r.reason ==
        R"(RBAC: [clusterrole.rbac.authorization.k8s.io "ghost" not found, role.rbac.authorization.k8s.io "nope" not found])");
  // Once the role exists, the binding works.
  f.index->Apply(RbacKind::kClusterRole, ClusterRole("ghost", json::array({{{"apiGroups", {"*"}}, {"resources", {"*"}}, {"verbs", {"get"}}}})));
  CHECK(f.authorizer.Authorize(Request({.name = "carol"}, "get", "pods", "default")).decision == Decision::kAllow);
}

TEST_CASE("updates and deletions of bindings and roles take effect") {
  Fixture f;
  UserInfo alice{.name = "alice"};
  CHECK(f.authorizer.Authorize(Request(alice, "get", "pods", "default")).decision == Decision::kAllow);
  // The binding no longer names alice.
  f.index->Apply(RbacKind::kRoleBinding, Binding("default", "alice-pods", "Role", "pod-reader", json::array({User("bob")})));
  CHECK(f.authorizer.Authorize(Request(alice, "get", "pods", "default")).decision == Decision::kNoOpinion);
  CHECK(f.authorizer.Authorize(Request({.name = "bob"}, "get", "pods", "default")).decision == Decision::kAllow);
  // The role loses the verb.
  f.index->Apply(RbacKind::kRole, Role("default", "pod-reader", json::array({{{"apiGroups", {""}}, {"resources", {"pods"}}, {"verbs", {"list"}}}})));
  CHECK(f.authorizer.Authorize(Request({.name = "bob"}, "get", "pods", "default")).decision == Decision::kNoOpinion);
  // The binding goes.
  f.index->Apply(RbacKind::kRoleBinding, Binding("default", "alice-pods", "Role", "pod-reader", json::array()), true);
  CHECK(f.authorizer.Authorize(Request({.name = "bob"}, "list", "pods", "default")).decision == Decision::kNoOpinion);
  CHECK(f.index->BindingCount() == 1);
}

TEST_CASE("service account subjects: explicit namespace, binding namespace, and cluster bindings") {
  RbacIndex index;
  auto shared = std::shared_ptr<RbacIndex>(&index, [](RbacIndex*) {});
  RbacAuthorizer authorizer(shared);
  index.Apply(RbacKind::kClusterRole, ClusterRole("all", json::array({{{"apiGroups", {"*"}}, {"resources", {"*"}}, {"verbs", {"*"}}}})));
  index.Apply(RbacKind::kRoleBinding, Binding("ns1", "local-sa", "ClusterRole", "all",
                                              json::array({{{"kind", "ServiceAccount"}, {"name", "builder"}}})));
  index.Apply(RbacKind::kClusterRoleBinding,
              Binding("", "bare-sa", "ClusterRole", "all", json::array({{{"kind", "ServiceAccount"}, {"name", "deployer"}}})));
  UserInfo builder{.name = "system:serviceaccount:ns1:builder"};
  auto r = authorizer.Authorize(Request(builder, "delete", "secrets", "ns1"));
  CHECK(r.decision == Decision::kAllow);
  CHECK(r.reason == R"(RBAC: allowed by RoleBinding "local-sa/ns1" of ClusterRole "all" to ServiceAccount "builder/ns1")");
  CHECK(authorizer.Authorize(Request({.name = "system:serviceaccount:ns2:builder"}, "get", "secrets", "ns1")).decision ==
        Decision::kNoOpinion);
  // A cluster binding's service account without a namespace names nobody.
  CHECK(authorizer.Authorize(Request({.name = "system:serviceaccount:default:deployer"}, "get", "pods", "default")).decision ==
        Decision::kNoOpinion);
}

TEST_CASE("non-resource requests and the rule listing") {
  Fixture f;
  f.index->Apply(RbacKind::kClusterRole, ClusterRole("health", json::array({{{"nonResourceURLs", {"/healthz", "/apis/*"}}, {"verbs", {"get"}}}})));
  f.index->Apply(RbacKind::kClusterRoleBinding, Binding("", "health", "ClusterRole", "health", json::array({Group("system:authenticated")})));
  UserInfo alice{.name = "alice", .groups = {"dev", "system:authenticated"}};
  Attributes url{.user = alice, .verb = "get", .path = "/apis/apps"};
  CHECK(f.authorizer.Authorize(url).decision == Decision::kAllow);
  url.path = "/metrics";
  CHECK(f.authorizer.Authorize(url).decision == Decision::kNoOpinion);

  RulesInfo rules = f.authorizer.RulesFor(alice, "default");
  CHECK(rules.resource_rules.size() == 2);  // configmaps (cluster) + pods (default)
  REQUIRE(rules.non_resource_rules.size() == 1);
  CHECK(rules.non_resource_rules[0].non_resource_urls == std::vector<std::string>{"/healthz", "/apis/*"});
  CHECK(rules.evaluation_error.empty());
  CHECK(f.authorizer.RulesFor(alice, "kube-system").resource_rules.size() == 1);
}

TEST_CASE("a check among 1,000 bindings visits only the user's") {
  RbacIndex index;
  index.Apply(RbacKind::kClusterRole, ClusterRole("r", json::array({{{"apiGroups", {""}}, {"resources", {"pods"}}, {"verbs", {"get"}}}})));
  for (int i = 0; i < 1000; ++i) {
    index.Apply(RbacKind::kClusterRoleBinding,
                Binding("", "b" + std::to_string(i), "ClusterRole", "r", json::array({User("user" + std::to_string(i))})));
  }
  int visited = 0;
  index.VisitRulesFor({.name = "user500"}, "default", [&](const RbacIndex::RuleSource& source, const PolicyRule*, const std::string*) {
    ++visited;
    CHECK(source.Describe() == R"(ClusterRoleBinding "b500" of ClusterRole "r" to User "user500")");
    return true;
  });
  CHECK(visited == 1);
  CHECK(index.BindingCount() == 1000);
}

TEST_CASE("the privileged-groups authorizer allows system:masters only, with no reason") {
  PrivilegedGroupsAuthorizer a({kSystemMasters});
  auto r = a.Authorize(Request({.name = "x", .groups = {"system:masters"}}, "delete", "nodes", ""));
  CHECK(r.decision == Decision::kAllow);
  CHECK(r.reason.empty());
  CHECK(a.Authorize(Request({.name = "system:masters"}, "get", "pods", "")).decision == Decision::kNoOpinion);
}

}  // namespace
}  // namespace kube::auth
