#include "auth/rbac_escalation.h"

#include <set>

#include <nlohmann/json.hpp>

#include "auth/rbac_authorizer.h"
#include "registry/errors.h"

namespace kube::auth {

using nlohmann::json;

namespace {

// Everything: what an aggregationRule needs, since it can gather any rule.
const std::vector<PolicyRule>& FullAuthority() {
  static const std::vector<PolicyRule> rules = {
      PolicyRule{.verbs = {"*"}, .api_groups = {"*"}, .resources = {"*"}},
      PolicyRule{.verbs = {"*"}, .non_resource_urls = {"*"}},
  };
  return rules;
}

// `obj` without what the write path or the garbage collector changes, for kube's
// IsOnlyMutatingGCFields.
json WithoutGcFields(const json& obj) {
  json out = obj;
  if (auto it = out.find("metadata"); it != out.end() && it->is_object()) {
    for (const char* f : {"ownerReferences", "finalizers", "managedFields", "resourceVersion", "uid",
                          "creationTimestamp", "generation"}) {
      it->erase(f);
    }
  }
  return out;
}

bool HasAggregationRule(const json* obj) {
  if (obj == nullptr) return false;
  auto it = obj->find("aggregationRule");
  return it != obj->end() && it->is_object();
}

std::string Name(const json& obj) {
  auto m = obj.find("metadata");
  return m != obj.end() && m->is_object() ? m->value("name", "") : "";
}

}  // namespace

void RbacEscalation::Attach(registry::ApiRegistry* registry, std::shared_ptr<const RbacIndex> index,
                            std::shared_ptr<const Authorizer> authorizer) {
  registry_ = registry;
  index_ = std::move(index);
  authorizer_ = authorizer ? std::move(authorizer) : std::make_shared<RbacAuthorizer>(index_);
}

Result<std::vector<PolicyRule>> RbacEscalation::RoleReferenceRules(const RoleRef& ref, std::string_view ns) const {
  const bool cluster = ref.kind == "ClusterRole";
  auto store = registry_->Find(kRbacGroup, "v1", cluster ? "clusterroles" : "roles");
  if (!store) return Status::Internal("rbac: roles are not served");
  auto role = store->Get(cluster ? "" : ns, ref.name, storage::GetOptions{});
  if (!role.ok()) return role.status();
  return RulesFromJson(**role);
}

bool RbacEscalation::Allowed(const Attributes& attributes) const {
  return authorizer_->Authorize(attributes).decision == Decision::kAllow;
}

Status RbacEscalation::ConfirmNoEscalation(const UserInfo& user, std::string_view ns,
                                           const std::vector<PolicyRule>& rules, std::string* message) const {
  std::vector<std::string> errors;
  const std::vector<PolicyRule> owner = index_->RulesFor(user, ns, &errors);
  std::vector<PolicyRule> missing;
  if (Covers(owner, rules, &missing)) return Status::OK();
  std::set<std::string> descriptions;  // sorted and unique, as kube's sets.String
  for (const auto& rule : CompactRules(missing)) descriptions.insert(CompactString(rule));
  std::string msg = "user " + GoQuote(user.name) + " (groups=" + GoQuoteList(user.groups) +
                    ") is attempting to grant RBAC permissions not currently held:";
  for (const auto& d : descriptions) msg += "\n" + d;
  if (!errors.empty()) {
    msg += "; resolution errors: [";
    for (size_t i = 0; i < errors.size(); ++i) msg += (i > 0 ? " " : "") + errors[i];
    msg += "]";
  }
  *message = std::move(msg);
  return Status::Forbidden(*message);
}

Status RbacEscalation::Admit(RbacKind kind, std::string_view ns, const json& obj, const json* old,
                             const UserInfo& user) const {
  if (!index_ || user.InGroup(kSystemMasters)) return Status::OK();
  const std::string name = Name(obj);
  const char* resource = RbacResource(kind);
  if (old != nullptr && WithoutGcFields(obj) == WithoutGcFields(*old)) return Status::OK();
  std::string message;
  if (kind == RbacKind::kRole || kind == RbacKind::kClusterRole) {
    Attributes escalate{.user = user,
                        .verb = "escalate",
                        .resource_request = true,
                        .namespace_ = std::string(ns),
                        .api_group = kRbacGroup,
                        .api_version = "*",
                        .resource = resource,
                        .name = old != nullptr ? name : ""};
    if (Allowed(escalate)) return Status::OK();
    if (!ConfirmNoEscalation(user, ns, RulesFromJson(obj), &message).ok()) {
      return registry::ForbiddenError(kRbacGroup, resource, name, message);
    }
    if (kind == RbacKind::kClusterRole && (HasAggregationRule(&obj) || HasAggregationRule(old)) &&
        !ConfirmNoEscalation(user, ns, FullAuthority(), &message).ok()) {
      return registry::ForbiddenError(kRbacGroup, resource, name,
                                      "must have cluster-admin privileges to use the aggregationRule");
    }
    return Status::OK();
  }
  const RoleRef ref = RoleRefFromJson(obj);
  if (ref.kind != "ClusterRole" && ref.kind != "Role") return Status::OK();  // validation refuses it
  Attributes bind{.user = user,
                  .verb = "bind",
                  .resource_request = true,
                  .namespace_ = std::string(ns),
                  .api_group = ref.api_group,
                  .resource = ref.kind == "ClusterRole" ? "clusterroles" : "roles",
                  .name = ref.name};
  if (Allowed(bind)) return Status::OK();
  auto rules = RoleReferenceRules(ref, ns);
  if (!rules.ok()) return rules.status();
  if (!ConfirmNoEscalation(user, ns, *rules, &message).ok()) {
    return registry::ForbiddenError(kRbacGroup, resource, name, message);
  }
  return Status::OK();
}

void AddRbacStrategies(registry::RegistryOptions* options, const std::shared_ptr<const RbacEscalation>& escalation) {
  for (RbacKind kind : {RbacKind::kRole, RbacKind::kClusterRole, RbacKind::kRoleBinding, RbacKind::kClusterRoleBinding}) {
    options->strategies[std::string(kRbacGroup) + "/" + RbacResource(kind)] =
        std::make_shared<RbacStrategy>(kind, escalation);
  }
}

}  // namespace kube::auth
