// RBAC over a real registry: the bootstrap policy (counts, exact objects as kube's golden files
// have them, idempotence), ClusterRole aggregation, the index following writes, and escalation
// prevention on writes of roles and bindings.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <thread>

#include "auth/rbac_modes.h"
#include "auth/bootstrap_policy.h"
#include "auth/rbac.h"

namespace kube::auth {
namespace {

using nlohmann::json;

constexpr char kGroup[] = "rbac.authorization.k8s.io";

// Waits up to 5 s for `done`, which the watch-fed index and controller make true eventually.
template <typename F>
bool Eventually(F done) {
  for (int i = 0; i < 500; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

struct Server {
  std::shared_ptr<RbacEscalation> escalation = std::make_shared<RbacEscalation>();
  std::unique_ptr<registry::ApiRegistry> registry;
  std::unique_ptr<Rbac> rbac;
  AuthorizationSetup authz;

  Server() {
    registry::RegistryOptions options;
    AddRbacStrategies(&options, escalation);
    auto opened = registry::ApiRegistry::Open(options, catalogue::Catalogue::BuiltIn());
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    registry = std::move(*opened);
    auto started = Rbac::Start(registry.get());
    REQUIRE_MESSAGE(started.ok(), started.status().ToString());
    rbac = std::move(*started);
    auto setup = NewAuthorizerForModes("RBAC", *rbac);
    REQUIRE(setup.ok());
    authz = *setup;
    escalation->Attach(registry.get(), rbac->index(), authz.authorizer);
  }
  ~Server() { rbac.reset(); }

  registry::Store* Store(const char* resource) { return registry->Find(kGroup, "v1", resource).get(); }
  json Get(const char* resource, const std::string& ns, const std::string& name) {
    auto got = Store(resource)->Get(ns, name, storage::GetOptions{});
    REQUIRE_MESSAGE(got.ok(), got.status().ToString());
    return **got;
  }
  size_t Count(const char* resource) {
    auto list = Store(resource)->List("", storage::ListOptions{});
    REQUIRE(list.ok());
    return list->items.size();
  }
  // A write as `user` (null: the server itself).
  Result<storage::ObjectPtr> Create(const char* resource, const std::string& ns, json obj,
                                    std::shared_ptr<const UserInfo> user = nullptr) {
    return Store(resource)->Create(ns, std::move(obj), registry::WriteOptions{.user = std::move(user)});
  }
  bool Allowed(const UserInfo& user, std::string verb, std::string resource, std::string ns, std::string group = "") {
    Attributes a{.user = user, .verb = std::move(verb), .resource_request = true, .namespace_ = std::move(ns),
                 .api_group = std::move(group), .api_version = "v1", .resource = std::move(resource)};
    return authz.authorizer->Authorize(a).decision == Decision::kAllow;
  }
};

json Rule(std::vector<std::string> groups, std::vector<std::string> resources, std::vector<std::string> verbs,
          std::vector<std::string> names = {}) {
  json r = {{"apiGroups", groups}, {"resources", resources}, {"verbs", verbs}};
  if (!names.empty()) r["resourceNames"] = names;
  return r;
}

json RoleObj(const char* kind, const std::string& name, json rules) {
  return {{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", kind}, {"metadata", {{"name", name}}}, {"rules", rules}};
}

json BindingObj(const char* kind, const std::string& name, const char* role_kind, const std::string& role,
                const std::string& user) {
  return {{"apiVersion", "rbac.authorization.k8s.io/v1"},
          {"kind", kind},
          {"metadata", {{"name", name}}},
          {"roleRef", {{"apiGroup", kGroup}, {"kind", role_kind}, {"name", role}}},
          {"subjects", {{{"kind", "User"}, {"apiGroup", kGroup}, {"name", user}}}}};
}

// Only what the golden files show (the server adds uid, resourceVersion, managedFields, ...).
json Golden(json obj) {
  json meta = obj["metadata"];
  json out = {{"metadata",
               {{"name", meta["name"]}, {"labels", meta["labels"]}, {"annotations", meta["annotations"]}}}};
  for (const char* f : {"rules", "aggregationRule", "roleRef", "subjects"}) {
    if (obj.contains(f) && !obj[f].is_null()) out[f] = obj[f];
  }
  return out;
}

TEST_CASE("the bootstrap policy: kube's objects, counts and order") {
  const auto& policy = BootstrapPolicy();
  size_t counts[4] = {0, 0, 0, 0};
  for (const auto& o : policy) ++counts[static_cast<int>(o.kind)];
  CHECK(counts[static_cast<int>(RbacKind::kClusterRole)] == 69);  // 31 + 38 controller roles
  CHECK(counts[static_cast<int>(RbacKind::kRole)] == 7);
  CHECK(counts[static_cast<int>(RbacKind::kClusterRoleBinding)] == 50);
  CHECK(counts[static_cast<int>(RbacKind::kRoleBinding)] == 7);
  auto find = [&](const std::string& name, RbacKind kind) {
    for (const auto& o : policy) {
      if (o.kind == kind && o.object["metadata"]["name"] == name) return o.object;
    }
    FAIL("not in the policy: " << name);
    return json();
  };
  const json labels = {{"kubernetes.io/bootstrapping", "rbac-defaults"}};
  const json annotations = {{"rbac.authorization.kubernetes.io/autoupdate", "true"}};
  CHECK(find("system:basic-user", RbacKind::kClusterRole) ==
        json{{"apiVersion", "rbac.authorization.k8s.io/v1"},
             {"kind", "ClusterRole"},
             {"metadata", {{"name", "system:basic-user"}, {"labels", labels}, {"annotations", annotations}}},
             {"rules",
              {{{"apiGroups", {"authorization.k8s.io"}}, {"resources", {"selfsubjectaccessreviews", "selfsubjectrulesreviews"}}, {"verbs", {"create"}}},
               {{"apiGroups", {"authentication.k8s.io"}}, {"resources", {"selfsubjectreviews"}}, {"verbs", {"create"}}}}}});
  CHECK(find("system:public-info-viewer", RbacKind::kClusterRole)["rules"] ==
        json{{{"nonResourceURLs", {"/healthz", "/livez", "/readyz", "/version", "/version/"}}, {"verbs", {"get"}}}});
  const json edit = find("edit", RbacKind::kClusterRole);
  CHECK(edit["metadata"]["labels"] ==
        json{{"kubernetes.io/bootstrapping", "rbac-defaults"}, {"rbac.authorization.k8s.io/aggregate-to-admin", "true"}});
  CHECK(edit["aggregationRule"] ==
        json{{"clusterRoleSelectors", {{{"matchLabels", {{"rbac.authorization.k8s.io/aggregate-to-edit", "true"}}}}}}});
  CHECK_FALSE(edit.contains("rules"));
  CHECK(find("system:controller:disruption-controller", RbacKind::kClusterRole)["rules"][7] ==
        json{{"apiGroups", {"*"}}, {"resources", {"*/scale"}}, {"verbs", {"get"}}});
  CHECK(find("system:controller:job-controller", RbacKind::kClusterRoleBinding)["subjects"] ==
        json{{{"kind", "ServiceAccount"}, {"name", "job-controller"}, {"namespace", "kube-system"}}});
  CHECK(find("system:public-info-viewer", RbacKind::kClusterRoleBinding)["subjects"] ==
        json{{{"apiGroup", kGroup}, {"kind", "Group"}, {"name", "system:authenticated"}},
             {{"apiGroup", kGroup}, {"kind", "Group"}, {"name", "system:unauthenticated"}}});
  CHECK_FALSE(find("system:node", RbacKind::kClusterRoleBinding).contains("subjects"));
  const json reader = find("extension-apiserver-authentication-reader", RbacKind::kRole);
  CHECK(reader["metadata"]["namespace"] == "kube-system");
  CHECK(reader["rules"][0]["resourceNames"] == json{"extension-apiserver-authentication"});
}

TEST_CASE("the bootstrap policy is stored at start, and a second start writes nothing") {
  Server s;
  CHECK(s.Count("clusterroles") == 69);
  CHECK(s.Count("clusterrolebindings") == 50);
  CHECK(s.Count("roles") == 7);
  CHECK(s.Count("rolebindings") == 7);
  const json admin = s.Get("clusterrolebindings", "", "cluster-admin");
  CHECK(Golden(admin) == json{{"metadata",
                               {{"name", "cluster-admin"},
                                {"labels", {{"kubernetes.io/bootstrapping", "rbac-defaults"}}},
                                {"annotations", {{"rbac.authorization.kubernetes.io/autoupdate", "true"}}}}},
                              {"roleRef", {{"apiGroup", kGroup}, {"kind", "ClusterRole"}, {"name", "cluster-admin"}}},
                              {"subjects", {{{"apiGroup", kGroup}, {"kind", "Group"}, {"name", "system:masters"}}}}});
  const std::string rv = admin["metadata"]["resourceVersion"];
  const std::string view_rv = s.Get("clusterroles", "", "view")["metadata"]["resourceVersion"];
  REQUIRE(EnsureBootstrapPolicy(s.registry.get()).ok());
  CHECK(s.Get("clusterrolebindings", "", "cluster-admin")["metadata"]["resourceVersion"] == rv);
  CHECK(s.Get("clusterroles", "", "view")["metadata"]["resourceVersion"] == view_rv);

  // A bootstrap role that lost a rule gets it back; one no longer annotated autoupdate keeps
  // what its owner made of it.
  auto* roles = s.Store("clusterroles");
  auto strip = [&](const std::string& name, bool autoupdate) {
    auto updated = roles->Update("", name, "",
                                 [&](const storage::Object& cur) -> Result<storage::Object> {
                                   storage::Object next = cur;
                                   next["rules"] = json::array({next["rules"][0]});
                                   if (!autoupdate) next["metadata"]["annotations"]["rbac.authorization.kubernetes.io/autoupdate"] = "false";
                                   return next;
                                 },
                                 registry::WriteOptions{});
    REQUIRE(updated.ok());
  };
  strip("system:basic-user", true);
  strip("system:discovery", false);
  REQUIRE(EnsureBootstrapPolicy(s.registry.get()).ok());
  CHECK(s.Get("clusterroles", "", "system:basic-user")["rules"].size() == 2);
  CHECK(s.Get("clusterroles", "", "system:discovery")["rules"].size() == 1);
}

TEST_CASE("bootstrap bindings: discovery and basic-user for the authenticated, public info for everyone") {
  Server s;
  UserInfo anonymous{.name = "system:anonymous", .groups = {"system:unauthenticated"}};
  UserInfo alice{.name = "alice", .groups = {"system:authenticated"}};
  Attributes healthz{.user = anonymous, .verb = "get", .path = "/healthz"};
  CHECK(s.authz.authorizer->Authorize(healthz).decision == Decision::kAllow);
  Attributes api{.user = anonymous, .verb = "get", .path = "/api"};
  CHECK(s.authz.authorizer->Authorize(api).decision == Decision::kNoOpinion);
  api.user = alice;
  auto r = s.authz.authorizer->Authorize(api);
  CHECK(r.decision == Decision::kAllow);
  CHECK(r.reason == R"(RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated")");
  CHECK(s.Allowed(alice, "create", "selfsubjectaccessreviews", "", "authorization.k8s.io"));
  CHECK_FALSE(s.Allowed(anonymous, "create", "selfsubjectaccessreviews", "", "authorization.k8s.io"));
  CHECK_FALSE(s.Allowed(alice, "list", "pods", "default"));
  // system:masters: the privileged-groups authorizer answers first, with no reason.
  UserInfo admin{.name = "admin", .groups = {"system:masters"}};
  Attributes any{.user = admin, .verb = "delete", .resource_request = true, .resource = "nodes"};
  CHECK(s.authz.authorizer->Authorize(any).decision == Decision::kAllow);
  CHECK(s.authz.authorizer->Authorize(any).reason.empty());
  // A controller's service account through its bootstrap binding.
  UserInfo gc{.name = "system:serviceaccount:kube-system:generic-garbage-collector"};
  CHECK(s.Allowed(gc, "delete", "widgets", "default", "example.com"));
  CHECK_FALSE(s.Allowed(gc, "create", "widgets", "default", "example.com"));
}

TEST_CASE("aggregation: admin, edit and view are complete at start and follow new aggregated roles") {
  Server s;
  auto rules = [&](const char* name) { return RulesFromJson(s.Get("clusterroles", "", name)); };
  auto allows = [&](const char* role, std::string verb, std::string group, std::string resource, std::string sub = "") {
    Attributes a{.verb = std::move(verb), .resource_request = true, .namespace_ = "default", .api_group = std::move(group),
                 .resource = std::move(resource), .subresource = std::move(sub)};
    for (const auto& r : rules(role)) {
      if (RuleAllows(a, r)) return true;
    }
    return false;
  };
  CHECK(allows("view", "get", "", "pods", "log"));
  CHECK_FALSE(allows("view", "get", "", "secrets"));
  CHECK(allows("edit", "get", "", "pods", "log"));  // edit aggregates view
  CHECK(allows("edit", "create", "apps", "deployments"));
  CHECK(allows("admin", "list", "", "pods"));  // admin aggregates edit, which aggregates view
  CHECK(allows("admin", "create", kGroup, "rolebindings"));
  CHECK_FALSE(allows("edit", "create", kGroup, "rolebindings"));
  const size_t view_rules = rules("view").size();
  CHECK(view_rules == 10);

  json widgets = RoleObj("ClusterRole", "widgets-view", json::array({Rule({"example.com"}, {"widgets"}, {"get", "list"})}));
  widgets["metadata"]["labels"] = {{"rbac.authorization.k8s.io/aggregate-to-view", "true"}};
  REQUIRE(s.Create("clusterroles", "", widgets).ok());
  CHECK(Eventually([&] { return allows("view", "list", "example.com", "widgets"); }));
  CHECK(Eventually([&] { return allows("admin", "list", "example.com", "widgets"); }));
  const json view = s.Get("clusterroles", "", "view");
  bool applied_by_controller = false;
  for (const auto& entry : view["metadata"]["managedFields"]) {
    applied_by_controller = applied_by_controller ||
                            (entry["manager"] == "clusterrole-aggregation-controller" && entry["operation"] == "Apply");
  }
  CHECK(applied_by_controller);
  // The source goes: so do its rules.
  REQUIRE(s.Store("clusterroles")->Delete("", "widgets-view", registry::DeleteOptions{}).ok());
  CHECK(Eventually([&] { return !allows("edit", "list", "example.com", "widgets"); }));
  CHECK(rules("view").size() == view_rules);
}

TEST_CASE("the index follows writes of roles and bindings") {
  Server s;
  UserInfo alice{.name = "alice", .groups = {"system:authenticated"}};
  json role = RoleObj("Role", "pod-reader", json::array({Rule({""}, {"pods"}, {"get", "list", "watch"})}));
  REQUIRE(s.Create("roles", "default", role).ok());
  REQUIRE(s.Create("rolebindings", "default", BindingObj("RoleBinding", "alice-pods", "Role", "pod-reader", "alice")).ok());
  CHECK(Eventually([&] { return s.Allowed(alice, "list", "pods", "default"); }));
  CHECK_FALSE(s.Allowed(alice, "list", "pods", "kube-system"));
  REQUIRE(s.Store("rolebindings")->Delete("default", "alice-pods", registry::DeleteOptions{}).ok());
  CHECK(Eventually([&] { return !s.Allowed(alice, "list", "pods", "default"); }));
}

TEST_CASE("escalation: roles and bindings need the permissions they grant, or escalate / bind") {
  Server s;
  auto alice = std::make_shared<UserInfo>(UserInfo{.name = "alice", .groups = {"system:authenticated"}});
  json pod_getter = RoleObj("Role", "pod-getter", json::array({Rule({""}, {"pods"}, {"get", "list"})}));

  auto refused = s.Create("roles", "default", pod_getter, alice);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == StatusCode::kForbidden);
  CHECK(refused.status().message() ==
        "roles.rbac.authorization.k8s.io \"pod-getter\" is forbidden: user \"alice\" (groups=[\"system:authenticated\"]) "
        "is attempting to grant RBAC permissions not currently held:\n"
        "{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"get\" \"list\"]}");

  // Holding the permissions (through a binding the server makes) is enough.
  REQUIRE(s.Create("roles", "default", RoleObj("Role", "holder", json::array({Rule({""}, {"pods"}, {"*"})}))).ok());
  REQUIRE(s.Create("rolebindings", "default", BindingObj("RoleBinding", "alice-holder", "Role", "holder", "alice")).ok());
  REQUIRE(Eventually([&] { return s.Allowed(*alice, "delete", "pods", "default"); }));
  CHECK(s.Create("roles", "default", pod_getter, alice).ok());
  // ... in that namespace only.
  auto elsewhere = s.Create("roles", "kube-public", pod_getter, alice);
  CHECK(elsewhere.status().code() == StatusCode::kForbidden);

  // Binding a role whose permissions she holds; not cluster-admin.
  CHECK(s.Create("rolebindings", "default", BindingObj("RoleBinding", "bob-getter", "Role", "pod-getter", "bob"), alice).ok());
  auto admin_binding =
      s.Create("rolebindings", "default", BindingObj("RoleBinding", "bob-admin", "ClusterRole", "cluster-admin", "bob"), alice);
  REQUIRE(admin_binding.status().code() == StatusCode::kForbidden);
  CHECK(admin_binding.status().message() ==
        "rolebindings.rbac.authorization.k8s.io \"bob-admin\" is forbidden: user \"alice\" "
        "(groups=[\"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n"
        "{APIGroups:[\"*\"], Resources:[\"*\"], Verbs:[\"*\"]}\n{NonResourceURLs:[\"*\"], Verbs:[\"*\"]}");
  auto ghost = s.Create("rolebindings", "default", BindingObj("RoleBinding", "bob-ghost", "Role", "ghost", "bob"), alice);
  CHECK(ghost.status().code() == StatusCode::kNotFound);
  CHECK(ghost.status().message() == "roles.rbac.authorization.k8s.io \"ghost\" not found");

  // The bind verb on a named cluster role lets her bind it without holding it.
  REQUIRE(s.Create("clusterroles", "", RoleObj("ClusterRole", "binder",
                                              json::array({Rule({kGroup}, {"clusterroles"}, {"bind"}, {"admin"})})))
              .ok());
  REQUIRE(s.Create("clusterrolebindings", "", BindingObj("ClusterRoleBinding", "alice-binder", "ClusterRole", "binder", "alice"))
              .ok());
  REQUIRE(Eventually([&] {
    Attributes bind{.user = *alice, .verb = "bind", .resource_request = true, .namespace_ = "default",
                    .api_group = kGroup, .resource = "clusterroles", .name = "admin"};
    return s.authz.authorizer->Authorize(bind).decision == Decision::kAllow;
  }));
  CHECK(s.Create("rolebindings", "default", BindingObj("RoleBinding", "bob-ns-admin", "ClusterRole", "admin", "bob"), alice).ok());
  CHECK(s.Create("rolebindings", "default", BindingObj("RoleBinding", "bob-edit", "ClusterRole", "edit", "bob"), alice)
            .status()
            .code() == StatusCode::kForbidden);

  // The escalate verb lets her write any role.
  REQUIRE(s.Create("clusterroles", "", RoleObj("ClusterRole", "escalator",
                                              json::array({Rule({kGroup}, {"roles"}, {"escalate"})})))
              .ok());
  REQUIRE(s.Create("clusterrolebindings", "", BindingObj("ClusterRoleBinding", "alice-esc", "ClusterRole", "escalator", "alice"))
              .ok());
  json secrets = RoleObj("Role", "secret-admin", json::array({Rule({""}, {"secrets"}, {"*"})}));
  CHECK(Eventually([&] { return s.Create("roles", "default", secrets, alice).ok(); }));

  // An aggregationRule needs full authority, even without rules.
  json aggregated = RoleObj("ClusterRole", "agg", json::array());
  aggregated["aggregationRule"] = {{"clusterRoleSelectors", {{{"matchLabels", {{"x", "y"}}}}}}};
  auto agg = s.Create("clusterroles", "", aggregated, alice);
  CHECK(agg.status().message() ==
        "clusterroles.rbac.authorization.k8s.io \"agg\" is forbidden: must have cluster-admin privileges to use the aggregationRule");

  // system:masters and the server itself are never checked.
  auto root = std::make_shared<UserInfo>(UserInfo{.name = "root", .groups = {"system:masters"}});
  CHECK(s.Create("clusterroles", "", aggregated, root).ok());
}

TEST_CASE("escalation on update: only changes of what is granted are checked") {
  Server s;
  auto alice = std::make_shared<UserInfo>(UserInfo{.name = "alice", .groups = {"system:authenticated"}});
  REQUIRE(s.Create("roles", "default", RoleObj("Role", "r", json::array({Rule({""}, {"pods"}, {"get"})}))).ok());
  auto update = [&](auto change) {
    return s.Store("roles")->Update(
        "default", "r", "",
        [&](const storage::Object& cur) -> Result<storage::Object> {
          storage::Object next = cur;
          change(next);
          return next;
        },
        registry::WriteOptions{.user = alice});
  };
  // The garbage collector's fields only.
  CHECK(update([](storage::Object& o) { o["metadata"]["finalizers"] = {"example.com/hold"}; }).ok());
  auto r = update([](storage::Object& o) { o["metadata"]["labels"] = {{"a", "b"}}; });
  CHECK(r.status().code() == StatusCode::kForbidden);
}

}  // namespace
}  // namespace kube::auth
