#include "auth/bootstrap_policy.h"

#include <sstream>

#include "registry/store.h"

namespace kube::auth {

using nlohmann::json;

namespace {

constexpr char kBootstrappingLabel[] = "kubernetes.io/bootstrapping";
constexpr char kAutoupdateAnnotation[] = "rbac.authorization.kubernetes.io/autoupdate";
constexpr char kFieldManager[] = "kube-apiserver";

std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t comma = s.find(',', start);
    out.push_back(s.substr(start, comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::vector<std::string> SplitFields(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t bar = s.find('|', start);
    out.push_back(s.substr(start, bar - start));
    if (bar == std::string::npos) return out;
    start = bar + 1;
  }
}

json Metadata(const std::string& name, const std::string& ns) {
  json meta = {{"name", name},
               {"labels", {{kBootstrappingLabel, "rbac-defaults"}}},
               {"annotations", {{kAutoupdateAnnotation, "true"}}}};
  if (!ns.empty()) meta["namespace"] = ns;
  return meta;
}

json Role(const char* kind, const std::string& name, const std::string& ns) {
  return {{"apiVersion", std::string(kRbacGroup) + "/v1"}, {"kind", kind}, {"metadata", Metadata(name, ns)}};
}

json Binding(const char* kind, const std::string& name, const std::string& ns, const char* role_kind,
             const std::string& role) {
  json b = Role(kind, name, ns);
  b["roleRef"] = {{"apiGroup", kRbacGroup}, {"kind", role_kind}, {"name", role}};
  return b;
}

json EventsRule() {
  return RuleToJson(PolicyRule{.verbs = {"create", "patch", "update"}, .api_groups = {"", "events.k8s.io"}, .resources = {"events"}});
}

std::vector<BootstrapObject> Parse(const char* text) {
  std::vector<BootstrapObject> out;
  std::istringstream in(text);
  std::string line;
  auto subject = [](const std::string& kind, const std::string& name, const std::string& ns) {
    json s = {{"kind", kind}, {"name", name}};
    if (kind == "ServiceAccount") {
      s["namespace"] = ns;
    } else {
      s["apiGroup"] = kRbacGroup;
    }
    return s;
  };
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const char tag = line[0];
    std::istringstream words(line.substr(1));
    std::string a, b, c;
    words >> a >> b >> c;
    json* last = out.empty() ? nullptr : &out.back().object;
    switch (tag) {
      case 'C': out.push_back({RbacKind::kClusterRole, Role("ClusterRole", a, "")}); break;
      case 'K':
        out.push_back({RbacKind::kClusterRole, Role("ClusterRole", "system:controller:" + a, "")});
        break;
      case 'R': out.push_back({RbacKind::kRole, Role("Role", b, a)}); break;
      case 'L': {
        auto eq = a.find('=');
        (*last)["metadata"]["labels"][a.substr(0, eq)] = a.substr(eq + 1);
        break;
      }
      case 'S': {
        auto eq = a.find('=');
        (*last)["aggregationRule"]["clusterRoleSelectors"].push_back(
            {{"matchLabels", {{a.substr(0, eq), a.substr(eq + 1)}}}});
        break;
      }
      case 'r': {
        auto f = SplitFields(line.substr(2));
        PolicyRule rule{.verbs = SplitList(f[2]), .api_groups = SplitList(f[0]), .resources = SplitList(f[1])};
        if (f.size() > 3) rule.resource_names = SplitList(f[3]);
        (*last)["rules"].push_back(RuleToJson(rule));
        break;
      }
      case 'u': {
        auto f = SplitFields(line.substr(2));
        (*last)["rules"].push_back(RuleToJson(PolicyRule{.verbs = SplitList(f[1]), .non_resource_urls = SplitList(f[0])}));
        break;
      }
      case 'E': (*last)["rules"].push_back(EventsRule()); break;
      case 'B': out.push_back({RbacKind::kClusterRoleBinding, Binding("ClusterRoleBinding", a, "", "ClusterRole", b)}); break;
      case 'b': out.push_back({RbacKind::kRoleBinding, Binding("RoleBinding", b, a, "Role", c)}); break;
      case 's': (*last)["subjects"].push_back(a == "ServiceAccount" ? subject(a, c, b) : subject(a, b, "")); break;
    }
  }
  // Every controller role is bound to its controller's service account, after the component
  // bindings (kube's order: cluster roles, controller roles, their bindings).
  std::vector<BootstrapObject> controller_bindings;
  for (const auto& o : out) {
    const std::string name = o.object["metadata"]["name"];
    constexpr std::string_view kPrefix = "system:controller:";
    if (o.kind != RbacKind::kClusterRole || name.rfind(kPrefix, 0) != 0) continue;
    json b = Binding("ClusterRoleBinding", name, "", "ClusterRole", name);
    b["subjects"] = json::array({subject("ServiceAccount", name.substr(kPrefix.size()), "kube-system")});
    controller_bindings.push_back({RbacKind::kClusterRoleBinding, std::move(b)});
  }
  out.insert(out.end(), controller_bindings.begin(), controller_bindings.end());
  return out;
}

// What `existing` lacks of `wanted` (rules, aggregation selectors, subjects), added; nullopt
// when nothing is missing or the object is no longer annotated autoupdate=true.
std::optional<json> Reconcile(const BootstrapObject& wanted, const json& existing) {
  const json& meta = existing.value("metadata", json::object());
  const json annotations = meta.value("annotations", json::object());
  if (annotations.value(kAutoupdateAnnotation, "") != "true") return std::nullopt;
  json next = existing;
  bool changed = false;
  auto add_missing = [&](const char* field, const json& items) {
    if (!items.is_array()) return;
    json& have = next[field];
    if (!have.is_array()) have = json::array();
    for (const auto& item : items) {
      bool found = false;
      for (const auto& h : have) found = found || h == item;
      if (!found) {
        have.push_back(item);
        changed = true;
      }
    }
  };
  if (wanted.kind == RbacKind::kClusterRole || wanted.kind == RbacKind::kRole) {
    // Aggregated roles get their rules from the aggregation controller.
    if (!wanted.object.contains("aggregationRule")) {
      std::vector<PolicyRule> missing;
      if (!Covers(RulesFromJson(existing), RulesFromJson(wanted.object), &missing)) {
        add_missing("rules", wanted.object["rules"]);
      }
    } else {
      json& rule = next["aggregationRule"];
      if (!rule.is_object()) rule = json::object();
      json& selectors = rule["clusterRoleSelectors"];
      if (!selectors.is_array()) selectors = json::array();
      for (const auto& s : wanted.object["aggregationRule"]["clusterRoleSelectors"]) {
        bool found = false;
        for (const auto& h : selectors) found = found || h == s;
        if (!found) {
          selectors.push_back(s);
          changed = true;
        }
      }
    }
  } else {
    add_missing("subjects", wanted.object.value("subjects", json::array()));
  }
  if (!changed) return std::nullopt;
  return next;
}

}  // namespace

const std::vector<BootstrapObject>& BootstrapPolicy() {
  static const std::vector<BootstrapObject> policy = Parse(BootstrapPolicyText());
  return policy;
}

Status EnsureBootstrapPolicy(registry::ApiRegistry* registry) {
  for (const auto& item : BootstrapPolicy()) {
    auto store = registry->Find(kRbacGroup, "v1", RbacResource(item.kind));
    if (!store) return Status::Internal(std::string("rbac: ") + RbacResource(item.kind) + " are not served");
    const json& meta = item.object["metadata"];
    const std::string name = meta["name"];
    const std::string ns = meta.value("namespace", "");
    const registry::WriteOptions write{.field_manager = std::string(kFieldManager)};
    // (The registry's Get answers NotFound for an absent object.)
    auto existing = store->Get(ns, name, storage::GetOptions{});
    if (!existing.ok() && !existing.status().IsNotFound()) {
      return Status(existing.status().code(), "rbac bootstrap: reading " + name + ": " + existing.status().message());
    }
    if (!existing.ok()) {
      auto created = store->Create(ns, item.object, write);
      if (created.ok() || created.status().IsAlreadyExists()) continue;
      return Status(created.status().code(), "rbac bootstrap: creating " + name + ": " + created.status().message());
    }
    if (!Reconcile(item, **existing)) continue;
    auto updated = store->Update(
        ns, name, "",
        [&](const storage::Object& current) -> Result<storage::Object> {
          auto next = Reconcile(item, current);
          return next ? *next : current;
        },
        write);
    if (!updated.ok()) {
      return Status(updated.status().code(), "rbac bootstrap: updating " + name + ": " + updated.status().message());
    }
  }
  return Status::OK();
}

}  // namespace kube::auth
