// rbac_bench: the cost of one RBAC authorization check (RbacAuthorizer over RbacIndex, as each
// request under --authorization-mode=RBAC pays it) with kube's bootstrap policy plus 1,000
// bindings (500 ClusterRoleBindings, 500 RoleBindings over 50 namespaces), for an allowed
// request, a denied one and a service account's, against a linear scan of the same bindings
// (what an unindexed resolver, like kube's lister walk, does) in the same run. A wrong decision
// prints "CHECK FAILED" and makes the exit status 1.
//
// Usage: rbac_bench   (no arguments)
#include <cstdio>
#include <string>
#include <vector>

#include "auth/bootstrap_policy.h"
#include "auth/rbac_authorizer.h"
#include "bench_util.h"

namespace {

using namespace kube::bench;
using namespace kube::auth;
using nlohmann::json;

constexpr int kRounds = 5;
constexpr int kChecks = 20000;

json Binding(const std::string& ns, const std::string& name, const std::string& kind, const std::string& role,
             json subjects) {
  json b = {{"metadata", {{"name", name}}},
            {"roleRef", {{"apiGroup", kRbacGroup}, {"kind", kind}, {"name", role}}},
            {"subjects", std::move(subjects)}};
  if (!ns.empty()) b["metadata"]["namespace"] = ns;
  return b;
}

json User(const std::string& name) { return {{"kind", "User"}, {"apiGroup", kRbacGroup}, {"name", name}}; }

Attributes Request(const UserInfo& user, const std::string& verb, const std::string& resource, const std::string& ns,
                   const std::string& group = "") {
  return Attributes{.user = user, .verb = verb, .resource_request = true, .namespace_ = ns, .api_group = group,
                    .api_version = "v1", .resource = resource};
}

}  // namespace

int main() {
  auto index = std::make_shared<RbacIndex>();
  std::vector<json> all_bindings;
  for (const auto& o : BootstrapPolicy()) {
    index->Apply(o.kind, o.object);
    if (o.kind == RbacKind::kClusterRoleBinding || o.kind == RbacKind::kRoleBinding) all_bindings.push_back(o.object);
  }
  index->Apply(RbacKind::kClusterRole,
               {{"metadata", {{"name", "reader"}}},
                {"rules", {{{"apiGroups", {""}}, {"resources", {"pods", "configmaps"}}, {"verbs", {"get", "list", "watch"}}}}}});
  for (int i = 0; i < 500; ++i) {
    json crb = Binding("", "crb-" + std::to_string(i), "ClusterRole", "view", json::array({User("viewer-" + std::to_string(i))}));
    json rb = Binding("ns-" + std::to_string(i % 50), "rb-" + std::to_string(i), "ClusterRole", "reader",
                      json::array({User("dev-" + std::to_string(i)), {{"kind", "ServiceAccount"}, {"name", "sa-" + std::to_string(i)}}}));
    index->Apply(RbacKind::kClusterRoleBinding, crb);
    index->Apply(RbacKind::kRoleBinding, rb);
    all_bindings.push_back(crb);
    all_bindings.push_back(rb);
  }
  // The aggregated roles as the controller would leave them (view = aggregate-to-view's rules).
  json view = {{"metadata", {{"name", "view"}}}};
  for (const auto& o : BootstrapPolicy()) {
    if (o.object["metadata"]["name"] == "system:aggregate-to-view") view["rules"] = o.object["rules"];
  }
  index->Apply(RbacKind::kClusterRole, view);
  RbacAuthorizer authorizer(index);

  const UserInfo dev{.name = "dev-321", .groups = {"system:authenticated"}};
  const UserInfo viewer{.name = "viewer-77", .groups = {"system:authenticated"}};
  const UserInfo sa{.name = "system:serviceaccount:ns-3:sa-453",
                    .groups = {"system:serviceaccounts", "system:serviceaccounts:ns-3", "system:authenticated"}};
  struct Case {
    const char* name;
    Attributes request;
    bool allowed;
  };
  const std::vector<Case> cases = {
      {"allowed (RoleBinding in ns-21)", Request(dev, "list", "pods", "ns-21"), true},
      {"allowed (ClusterRoleBinding to view)", Request(viewer, "get", "deployments", "ns-9", "apps"), true},
      {"denied (every rule of the user tried)", Request(dev, "delete", "secrets", "ns-21"), false},
      {"service account (RoleBinding, default ns)", Request(sa, "watch", "configmaps", "ns-3"), true},
  };
  int failures = 0;
  for (const auto& c : cases) {
    if ((authorizer.Authorize(c.request).decision == Decision::kAllow) != c.allowed) {
      std::printf("CHECK FAILED: %s decided wrongly\n", c.name);
      ++failures;
    }
  }

  // The linear scan: every binding's subjects checked, then the matching bindings' rules.
  auto linear = [&](const Attributes& a) {
    for (const auto& b : all_bindings) {
      const std::string ns = b["metadata"].value("namespace", "");
      if (!ns.empty() && ns != a.namespace_) continue;
      bool applies = false;
      for (const auto& s : SubjectsFromJson(b)) applies = applies || SubjectAppliesTo(a.user, s, ns);
      if (!applies) continue;
      auto rules = index->RoleReferenceRules(RoleRefFromJson(b), ns);
      if (!rules.ok()) continue;
      for (const auto& r : *rules) {
        if (RuleAllows(a, r)) return true;
      }
    }
    return false;
  };
  for (const auto& c : cases) {
    if (linear(c.request) != c.allowed) {
      std::printf("CHECK FAILED: the linear scan decided %s wrongly\n", c.name);
      ++failures;
    }
  }

  std::printf("rbac_bench: %zu bindings (bootstrap policy + 1,000), median of %d rounds of %d checks\n",
              index->BindingCount(), kRounds, kChecks);
  std::printf("  %-44s %12s %14s %8s\n", "request", "indexed us", "linear scan us", "ratio");
  size_t sink = 0;
  for (const auto& c : cases) {
    std::vector<double> indexed_us, linear_us;
    for (int round = 0; round < kRounds; ++round) {
      auto start = Clock::now();
      for (int i = 0; i < kChecks; ++i) sink += authorizer.Authorize(c.request).decision == Decision::kAllow;
      indexed_us.push_back(MicrosBetween(start, Clock::now()) / kChecks);
      start = Clock::now();
      for (int i = 0; i < kChecks / 20; ++i) sink += linear(c.request);
      linear_us.push_back(MicrosBetween(start, Clock::now()) / (kChecks / 20));
    }
    const double idx = Median(indexed_us), lin = Median(linear_us);
    std::printf("  %-44s %12.2f %14.2f %7.0fx\n", c.name, idx, lin, lin / idx);
  }
  std::printf("  (sink %zu)\n", sink);
  return failures == 0 ? 0 : 1;
}
