// rbac.authorization.k8s.io/v1: Role, ClusterRole, RoleBinding and ClusterRoleBinding, as kube's
// pkg/apis/rbac/validation checks them (rule shapes, role references, subjects).
#include <nlohmann/json.hpp>

#include "validation/group_primitives.h"
#include "validation/group_validators.h"
#include "validation/object_meta.h"
#include "validation/primitives.h"

namespace kube::validation {
namespace {

using nlohmann::json;

constexpr const char* kRbacGroup = "rbac.authorization.k8s.io";

std::string At(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

size_t Count(const json& obj, const char* key) { return ArrayField(obj, key).size(); }

void ValidatePolicyRule(const json& rule, bool namespaced, const std::string& path, FieldErrors* errors) {
  if (Count(rule, "verbs") == 0) errors->push_back(Required(path + ".verbs", "verbs must contain at least one value"));
  if (Count(rule, "nonResourceURLs") > 0) {
    const json urls = rule["nonResourceURLs"];
    if (namespaced) {
      errors->push_back(Invalid(path + ".nonResourceURLs", urls, "namespaced rules cannot apply to non-resource URLs"));
    }
    if (Count(rule, "apiGroups") > 0 || Count(rule, "resources") > 0 || Count(rule, "resourceNames") > 0) {
      errors->push_back(
          Invalid(path + ".nonResourceURLs", urls, "rules cannot apply to both regular resources and non-resource URLs"));
    }
    return;
  }
  if (Count(rule, "apiGroups") == 0) {
    errors->push_back(Required(path + ".apiGroups", "resource rules must supply at least one api group"));
  }
  if (Count(rule, "resources") == 0) {
    errors->push_back(Required(path + ".resources", "resource rules must supply at least one resource"));
  }
}

void ValidateRules(const json& obj, bool namespaced, FieldErrors* errors) {
  const json& rules = ArrayField(obj, "rules");
  for (size_t i = 0; i < rules.size(); ++i) ValidatePolicyRule(rules[i], namespaced, At("rules", i), errors);
}

FieldErrors ValidateRole(const json& obj) {
  FieldErrors errors;
  ValidateRules(obj, /*namespaced=*/true, &errors);
  return errors;
}

FieldErrors ValidateRoleUpdate(const json& obj, const json&) { return ValidateRole(obj); }

FieldErrors ValidateClusterRole(const json& obj) {
  FieldErrors errors;
  ValidateRules(obj, /*namespaced=*/false, &errors);
  if (Has(obj, "aggregationRule")) {
    const json& selectors = ArrayField(obj["aggregationRule"], "clusterRoleSelectors");
    const std::string path = "aggregationRule.clusterRoleSelectors";
    if (selectors.empty()) {
      errors.push_back(Required(path, "at least one clusterRoleSelector required if aggregationRule is non-nil"));
    }
    for (size_t i = 0; i < selectors.size(); ++i) {
      Append(&errors, ValidateLabelSelector(selectors[i], At(path, i)));
      // kube quotes the (nil) selector the conversion failed to produce.
      if (!SelectorConvertible(selectors[i])) errors.push_back(Invalid(At(path, i), nullptr, "invalid label selector."));
    }
  }
  return errors;
}

FieldErrors ValidateClusterRoleUpdate(const json& obj, const json&) { return ValidateClusterRole(obj); }

void ValidateSubject(const json& subject, bool namespaced, const std::string& path, FieldErrors* errors) {
  const std::string name = StringAt(subject, "name");
  const std::string group = StringAt(subject, "apiGroup");
  const std::string kind = StringAt(subject, "kind");
  if (name.empty()) errors->push_back(Required(path + ".name"));
  if (kind == "ServiceAccount") {
    if (!name.empty()) {
      for (const auto& msg : IsDns1123Subdomain(name)) errors->push_back(Invalid(path + ".name", name, msg));
    }
    if (!group.empty()) errors->push_back(NotSupported(path + ".apiGroup", group, {""}));
    if (!namespaced && StringAt(subject, "namespace").empty()) errors->push_back(Required(path + ".namespace"));
  } else if (kind == "User" || kind == "Group") {
    if (group != kRbacGroup) errors->push_back(NotSupported(path + ".apiGroup", group, {kRbacGroup}));
  } else {
    errors->push_back(NotSupported(path + ".kind", kind, {"ServiceAccount", "User", "Group"}));
  }
}

FieldErrors ValidateBinding(const json& obj, bool namespaced) {
  FieldErrors errors;
  const json& ref = ObjectAt(obj, "roleRef");
  const std::string group = StringAt(ref, "apiGroup");
  if (group != kRbacGroup) errors.push_back(NotSupported("roleRef.apiGroup", group, {kRbacGroup}));
  const std::string kind = StringAt(ref, "kind");
  if (namespaced && kind != "Role" && kind != "ClusterRole") {
    errors.push_back(NotSupported("roleRef.kind", kind, {"Role", "ClusterRole"}));
  } else if (!namespaced && kind != "ClusterRole") {
    errors.push_back(NotSupported("roleRef.kind", kind, {"ClusterRole"}));
  }
  const std::string name = StringAt(ref, "name");
  if (name.empty()) {
    errors.push_back(Required("roleRef.name"));
  } else {
    for (const auto& msg : PathSegmentNameProblems(name)) errors.push_back(Invalid("roleRef.name", name, msg));
  }
  const json& subjects = ArrayField(obj, "subjects");
  for (size_t i = 0; i < subjects.size(); ++i) ValidateSubject(subjects[i], namespaced, At("subjects", i), &errors);
  return errors;
}

FieldErrors ValidateBindingUpdate(const json& obj, const json& old, bool namespaced) {
  FieldErrors errors = ValidateBinding(obj, namespaced);
  const json& ref = ObjectAt(obj, "roleRef");
  const json& old_ref = ObjectAt(old, "roleRef");
  const bool changed = StringAt(ref, "apiGroup") != StringAt(old_ref, "apiGroup") ||
                       StringAt(ref, "kind") != StringAt(old_ref, "kind") ||
                       StringAt(ref, "name") != StringAt(old_ref, "name");
  if (changed) {
    errors.push_back(InvalidRendered("roleRef",
                                     RenderInternalStruct({{"APIGroup", StringAt(ref, "apiGroup")},
                                                           {"Kind", StringAt(ref, "kind")},
                                                           {"Name", StringAt(ref, "name")}}),
                                     "cannot change roleRef"));
  }
  return errors;
}

FieldErrors ValidateRoleBinding(const json& obj) { return ValidateBinding(obj, true); }
FieldErrors ValidateRoleBindingUpdate(const json& obj, const json& old) { return ValidateBindingUpdate(obj, old, true); }
FieldErrors ValidateClusterRoleBinding(const json& obj) { return ValidateBinding(obj, false); }
FieldErrors ValidateClusterRoleBindingUpdate(const json& obj, const json& old) {
  return ValidateBindingUpdate(obj, old, false);
}

}  // namespace

void AddRbacKinds(KindTable* table) {
  (*table)["rbac.authorization.k8s.io/roles"] = {ValidateRole, ValidateRoleUpdate, nullptr};
  (*table)["rbac.authorization.k8s.io/clusterroles"] = {ValidateClusterRole, ValidateClusterRoleUpdate, nullptr};
  (*table)["rbac.authorization.k8s.io/rolebindings"] = {ValidateRoleBinding, ValidateRoleBindingUpdate, nullptr};
  (*table)["rbac.authorization.k8s.io/clusterrolebindings"] = {ValidateClusterRoleBinding,
                                                               ValidateClusterRoleBindingUpdate, nullptr};
}

}  // namespace kube::validation
