// ApplyDefaults: the dispatch by group/version/kind, the JSON helpers shared by the defaults*.cc
// files and the defaults of the smaller groups (networking, rbac, discovery, autoscaling, storage,
// scheduling, admissionregistration, apiextensions, apiregistration). Core: defaults_core.cc;
// apps and batch: defaults_apps.cc.
#include "registry/defaults.h"

#include <nlohmann/json.hpp>

#include <cctype>

namespace kube::registry {
namespace defaults_internal {

Json* Get(Json* obj, const char* key) {
  if (obj == nullptr || !obj->is_object()) return nullptr;
  auto it = obj->find(key);
  if (it == obj->end() || it->is_null()) return nullptr;
  return &*it;
}

Json* GetObject(Json* obj, const char* key) {
  Json* v = Get(obj, key);
  return v != nullptr && v->is_object() ? v : nullptr;
}

Json* GetArray(Json* obj, const char* key) {
  Json* v = Get(obj, key);
  return v != nullptr && v->is_array() ? v : nullptr;
}

Json* EnsureObject(Json* obj, const char* key) {
  if (obj == nullptr || !obj->is_object()) return nullptr;
  Json& v = (*obj)[key];
  if (v.is_null()) v = Json::object();
  return v.is_object() ? &v : nullptr;
}

std::vector<Json*> Objects(Json* array) {
  std::vector<Json*> out;
  if (array == nullptr || !array->is_array()) return out;
  for (Json& e : *array) {
    if (e.is_object()) out.push_back(&e);
  }
  return out;
}

std::string GetString(Json* obj, const char* key) {
  Json* v = Get(obj, key);
  return v != nullptr && v->is_string() ? v->get<std::string>() : std::string();
}

bool IsNonEmptyObject(const Json* v) { return v != nullptr && v->is_object() && !v->empty(); }
bool IsNonEmptyArray(const Json* v) { return v != nullptr && v->is_array() && !v->empty(); }

void DefaultValue(Json* obj, const char* key, const Json& value) {
  if (obj == nullptr || !obj->is_object()) return;
  auto it = obj->find(key);
  if (it == obj->end()) {
    obj->emplace(key, value);
  } else if (it->is_null()) {
    *it = value;
  }
}

void DefaultString(Json* obj, const char* key, std::string_view value) {
  if (obj == nullptr || !obj->is_object()) return;
  auto it = obj->find(key);
  if (it == obj->end()) {
    obj->emplace(key, std::string(value));
  } else if (it->is_null() || (it->is_string() && it->get_ref<const std::string&>().empty())) {
    *it = std::string(value);
  }
}

void DefaultInt(Json* obj, const char* key, std::int64_t value) {
  if (obj == nullptr || !obj->is_object()) return;
  auto it = obj->find(key);
  if (it == obj->end()) {
    obj->emplace(key, value);
  } else if (it->is_null() || (it->is_number() && it->get<double>() == 0)) {
    *it = value;
  }
}

namespace {

constexpr const char* kRbacGroup = "rbac.authorization.k8s.io";

// ---- networking.k8s.io/v1 ----

void DefaultNetworkPolicy(Json* obj) {
  Json* spec = EnsureObject(obj, "spec");
  if (spec == nullptr) return;
  Json* types = Get(spec, "policyTypes");
  if (types == nullptr || (types->is_array() && types->empty())) {
    // A policy naming no types is an ingress policy, and an egress one too when it has egress rules.
    Json value = Json::array({"Ingress"});
    if (IsNonEmptyArray(Get(spec, "egress"))) value.push_back("Egress");
    (*spec)["policyTypes"] = std::move(value);
  }
  for (const char* direction : {"ingress", "egress"}) {
    for (Json* rule : Objects(GetArray(spec, direction))) {
      for (Json* port : Objects(GetArray(rule, "ports"))) DefaultValue(port, "protocol", "TCP");
    }
  }
}

void DefaultIngressClass(Json* obj) {
  DefaultValue(GetObject(GetObject(obj, "spec"), "parameters"), "scope", "Cluster");
}

// ---- rbac.authorization.k8s.io/v1 ----

void DefaultBinding(Json* obj) {
  DefaultString(EnsureObject(obj, "roleRef"), "apiGroup", kRbacGroup);
  for (Json* subject : Objects(GetArray(obj, "subjects"))) {
    // ServiceAccount subjects keep the core group (""), which is what they already have.
    const std::string kind = GetString(subject, "kind");
    if (kind == "User" || kind == "Group") DefaultString(subject, "apiGroup", kRbacGroup);
  }
}

// ---- discovery.k8s.io/v1 ----

void DefaultEndpointSlice(Json* obj) {
  for (Json* port : Objects(GetArray(obj, "ports"))) {
    DefaultValue(port, "name", "");
    DefaultValue(port, "protocol", "TCP");
  }
}

// ---- autoscaling ----

Json ScalingPolicy(const char* type, int value) {
  return Json{{"type", type}, {"value", value}, {"periodSeconds", 15}};
}

// A scaling-rules object with the defaults filled in where the client's `rules` (absent, null
// or an object) left fields unset.
void DefaultScalingRules(Json* behavior, const char* key, const Json& defaults) {
  Json& rules = (*behavior)[key];
  if (rules.is_null()) rules = Json::object();
  if (!rules.is_object()) return;
  for (const auto& [field, value] : defaults.items()) DefaultValue(&rules, field.c_str(), value);
}

void DefaultHorizontalPodAutoscalerV2(Json* obj) {
  Json* spec = EnsureObject(obj, "spec");
  if (spec == nullptr) return;
  DefaultValue(spec, "minReplicas", 1);
  Json* metrics = Get(spec, "metrics");
  if (metrics == nullptr || (metrics->is_array() && metrics->empty())) {
    (*spec)["metrics"] = Json::array({Json{
        {"type", "Resource"},
        {"resource", {{"name", "cpu"}, {"target", {{"type", "Utilization"}, {"averageUtilization", 80}}}}}}});
  }
  // Behavior is only filled in when the client gave one; scale-down has no default stabilization
  // window (the controller's command-line flag decides).
  if (Json* behavior = GetObject(spec, "behavior")) {
    static const Json kScaleUp = {
        {"stabilizationWindowSeconds", 0},
        {"selectPolicy", "Max"},
        {"policies", Json::array({ScalingPolicy("Pods", 4), ScalingPolicy("Percent", 100)})}};
    static const Json kScaleDown = {{"selectPolicy", "Max"},
                                    {"policies", Json::array({ScalingPolicy("Percent", 100)})}};
    DefaultScalingRules(behavior, "scaleUp", kScaleUp);
    DefaultScalingRules(behavior, "scaleDown", kScaleDown);
  }
}

// ---- storage.k8s.io/v1 ----

void DefaultStorageClass(Json* obj) {
  DefaultValue(obj, "reclaimPolicy", "Delete");
  DefaultValue(obj, "volumeBindingMode", "Immediate");
}

void DefaultCSIDriver(Json* obj) {
  Json* spec = EnsureObject(obj, "spec");
  if (spec == nullptr) return;
  DefaultValue(spec, "attachRequired", true);
  DefaultValue(spec, "podInfoOnMount", false);
  DefaultValue(spec, "storageCapacity", false);
  DefaultValue(spec, "fsGroupPolicy", "ReadWriteOnceWithFSType");
  Json* modes = Get(spec, "volumeLifecycleModes");
  if (modes == nullptr || (modes->is_array() && modes->empty())) {
    (*spec)["volumeLifecycleModes"] = Json::array({"Persistent"});
  }
  DefaultValue(spec, "requiresRepublish", false);
  DefaultValue(spec, "seLinuxMount", false);
}

// ---- admissionregistration.k8s.io/v1 ----

void DefaultRules(Json* rules) {
  for (Json* rule : Objects(rules)) DefaultValue(rule, "scope", "*");
}

void DefaultWebhookConfiguration(Json* obj, bool mutating) {
  for (Json* hook : Objects(GetArray(obj, "webhooks"))) {
    DefaultValue(hook, "failurePolicy", "Fail");
    DefaultValue(hook, "matchPolicy", "Equivalent");
    DefaultValue(hook, "namespaceSelector", Json::object());
    DefaultValue(hook, "objectSelector", Json::object());
    DefaultValue(hook, "timeoutSeconds", 10);
    if (mutating) DefaultValue(hook, "reinvocationPolicy", "Never");
    DefaultRules(GetArray(hook, "rules"));
    DefaultValue(GetObject(GetObject(hook, "clientConfig"), "service"), "port", 443);
  }
}

void DefaultMatchResources(Json* match) {
  if (match == nullptr) return;
  DefaultValue(match, "matchPolicy", "Equivalent");
  DefaultValue(match, "namespaceSelector", Json::object());
  DefaultValue(match, "objectSelector", Json::object());
  DefaultRules(GetArray(match, "resourceRules"));
  DefaultRules(GetArray(match, "excludeResourceRules"));
}

void DefaultValidatingAdmissionPolicy(Json* obj) {
  Json* spec = EnsureObject(obj, "spec");
  DefaultValue(spec, "failurePolicy", "Fail");
  DefaultMatchResources(GetObject(spec, "matchConstraints"));
}

// ---- apiextensions.k8s.io/v1 ----

void DefaultCustomResourceDefinition(Json* obj) {
  Json* spec = EnsureObject(obj, "spec");
  if (spec == nullptr) return;
  if (Json* names = EnsureObject(spec, "names")) {
    const std::string kind = GetString(names, "kind");
    std::string singular = kind;
    for (char& c : singular) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!singular.empty()) DefaultString(names, "singular", singular);
    if (!kind.empty()) DefaultString(names, "listKind", kind + "List");
  }
  DefaultValue(spec, "conversion", Json{{"strategy", "None"}});
  DefaultValue(GetObject(GetObject(GetObject(GetObject(spec, "conversion"), "webhook"), "clientConfig"), "service"),
               "port", 443);
  // status.storedVersions starts with the storage version.
  std::string storage_version;
  for (Json* version : Objects(GetArray(spec, "versions"))) {
    Json* storage = Get(version, "storage");
    if (storage != nullptr && storage->is_boolean() && storage->get<bool>()) {
      storage_version = GetString(version, "name");
      break;
    }
  }
  if (storage_version.empty()) return;
  Json* status = EnsureObject(obj, "status");
  Json* stored = Get(status, "storedVersions");
  if (status != nullptr && (stored == nullptr || (stored->is_array() && stored->empty()))) {
    (*status)["storedVersions"] = Json::array({storage_version});
  }
}

void DefaultGroup(std::string_view group, std::string_view version, std::string_view kind, Json* obj) {
  if (group.empty()) {
    if (version == "v1") DefaultCoreV1(kind, obj);
  } else if (group == "apps") {
    if (version == "v1") DefaultAppsV1(kind, obj);
  } else if (group == "batch") {
    if (version == "v1") DefaultBatchV1(kind, obj);
  } else if (group == "networking.k8s.io") {
    if (version != "v1") return;
    if (kind == "NetworkPolicy") DefaultNetworkPolicy(obj);
    if (kind == "IngressClass") DefaultIngressClass(obj);
    // Ingress has no defaults in v1 (pathType is required).
  } else if (group == kRbacGroup) {
    if (version == "v1" && (kind == "RoleBinding" || kind == "ClusterRoleBinding")) DefaultBinding(obj);
  } else if (group == "discovery.k8s.io") {
    if (version == "v1" && kind == "EndpointSlice") DefaultEndpointSlice(obj);
  } else if (group == "autoscaling") {
    if (kind != "HorizontalPodAutoscaler") return;
    if (version == "v2") DefaultHorizontalPodAutoscalerV2(obj);
    if (version == "v1") DefaultValue(EnsureObject(obj, "spec"), "minReplicas", 1);
  } else if (group == "storage.k8s.io") {
    if (version != "v1") return;
    if (kind == "StorageClass") DefaultStorageClass(obj);
    if (kind == "CSIDriver") DefaultCSIDriver(obj);
  } else if (group == "scheduling.k8s.io") {
    if (version == "v1" && kind == "PriorityClass") DefaultValue(obj, "preemptionPolicy", "PreemptLowerPriority");
  } else if (group == "admissionregistration.k8s.io") {
    if (version != "v1") return;
    if (kind == "ValidatingWebhookConfiguration") DefaultWebhookConfiguration(obj, false);
    if (kind == "MutatingWebhookConfiguration") DefaultWebhookConfiguration(obj, true);
    if (kind == "ValidatingAdmissionPolicy") DefaultValidatingAdmissionPolicy(obj);
    if (kind == "ValidatingAdmissionPolicyBinding") {
      DefaultMatchResources(GetObject(GetObject(obj, "spec"), "matchResources"));
    }
  } else if (group == "apiextensions.k8s.io") {
    if (version == "v1" && kind == "CustomResourceDefinition") DefaultCustomResourceDefinition(obj);
  } else if (group == "apiregistration.k8s.io") {
    if (version == "v1" && kind == "APIService") {
      DefaultValue(GetObject(GetObject(obj, "spec"), "service"), "port", 443);
    }
  }
}

}  // namespace
}  // namespace defaults_internal

void ApplyDefaults(std::string_view group, std::string_view version, std::string_view kind, nlohmann::json* obj) {
  if (obj == nullptr || !obj->is_object()) return;
  try {
    defaults_internal::DefaultGroup(group, version, kind, obj);
  } catch (...) {
    // The helpers only touch values whose type they checked, so nothing should throw; should
    // anything (allocation failure) the object is left partly defaulted and validation decides.
  }
}

}  // namespace kube::registry
