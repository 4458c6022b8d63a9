// apps/v1: Deployment, ReplicaSet, StatefulSet, DaemonSet and ControllerRevision, as kube's
// pkg/apis/apps/validation and the apps registry strategies (which add the immutable selector on
// update) check them.
#include <nlohmann/json.hpp>

#include "util/go_format.h"

#include "validation/group_primitives.h"
#include "validation/group_validators.h"
#include "validation/primitives.h"
#include "validation/workload_template.h"

namespace kube::validation {
namespace {

using nlohmann::json;

// The selector checks Deployments and ReplicaSets share: required, valid, not empty, convertible
// (reported with `unconvertible`, which differs per kind), and matching the template's labels.
void ValidateWorkloadSelector(const json& spec, std::string_view empty_message, const char* unconvertible,
                              FieldErrors* errors, bool* convertible) {
  const json selector = ValueAt(spec, "selector");
  if (selector.is_null()) {
    errors->push_back(Required("spec.selector"));
  } else {
    Append(errors, ValidateLabelSelector(selector, "spec.selector"));
    if (SelectorIsEmpty(selector)) errors->push_back(Invalid("spec.selector", selector, std::string(empty_message)));
  }
  *convertible = SelectorConvertible(selector);
  if (!*convertible) errors->push_back(Invalid("spec.selector", selector, unconvertible));
}

// Whether a converted selector that is not Everything fails to match the template's labels (a
// null selector is labels.Nothing, which matches nothing).
void CheckTemplateLabels(const json& spec, FieldErrors* errors) {
  const json selector = ValueAt(spec, "selector");
  const json labels = ValueAt(ObjectAt(ObjectAt(spec, "template"), "metadata"), "labels");
  if (!SelectorIsEmpty(selector) && !SelectorMatches(selector, labels)) {
    errors->push_back(Invalid("spec.template.metadata.labels", labels, "`selector` does not match template `labels`"));
  }
}

// The pod-template rules of the controllers whose pods always restart.
void ValidateAlwaysRestartTemplate(const json& spec, std::string_view kind, FieldErrors* errors) {
  const json& pod_spec = ObjectAt(ObjectAt(spec, "template"), "spec");
  const std::string restart = StringAt(pod_spec, "restartPolicy");
  if (restart != "Always") {
    errors->push_back(NotSupported("spec.template.spec.restartPolicy", restart, {"Always"}));
  }
  if (Has(pod_spec, "activeDeadlineSeconds")) {
    errors->push_back(Forbidden("spec.template.spec.activeDeadlineSeconds",
                                "activeDeadlineSeconds in " + std::string(kind) + " is not Supported"));
  }
}

void NonNegative(const json& obj, const char* key, const std::string& field, FieldErrors* errors) {
  if (auto v = IntField(obj, key)) Append(errors, ValidateNonnegativeField(*v, field));
}

// The pod template of a ReplicaSet or Deployment (ValidatePodTemplateSpecForReplicaSet).
void ValidateReplicaSetTemplate(const json& spec, bool convertible, FieldErrors* errors) {
  if (!convertible) return;
  CheckTemplateLabels(spec, errors);
  Append(errors, ValidateWorkloadPodTemplate(ObjectAt(spec, "template"), "spec.template"));
  ValidateAlwaysRestartTemplate(spec, "ReplicaSet", errors);
}

// ---- Deployment ----

void ValidateRollingUpdateDeployment(const json& rolling, FieldErrors* errors) {
  const std::string path = "spec.strategy.rollingUpdate";
  const json unavailable = ValueAt(rolling, "maxUnavailable");
  const json surge = ValueAt(rolling, "maxSurge");
  Append(errors, ValidatePositiveIntOrPercent(unavailable, path + ".maxUnavailable"));
  Append(errors, ValidatePositiveIntOrPercent(surge, path + ".maxSurge"));
  if (IntOrPercentValue(unavailable) == 0 && IntOrPercentValue(surge) == 0) {
    // The internal IntOrString of an unset field is the integer 0.
    errors->push_back(Invalid(path + ".maxUnavailable", unavailable.is_null() ? json(0) : unavailable,
                              "may not be 0 when `maxSurge` is 0"));
  }
  Append(errors, IsNotMoreThan100Percent(unavailable, path + ".maxUnavailable"));
}

// An internal RollingUpdateDeployment / RollingUpdateDaemonSet as kube renders it.
std::string InternalRolling(const json& rolling) {
  if (!rolling.is_object()) return "null";
  auto v = [&](const char* k) { return rolling.contains(k) && !rolling[k].is_null() ? rolling[k] : json(0); };
  return RenderInternalStruct({{"MaxUnavailable", v("maxUnavailable")}, {"MaxSurge", v("maxSurge")}});
}

void ValidateDeploymentStrategy(const json& strategy, FieldErrors* errors) {
  const std::string type = StringAt(strategy, "type");
  const json rolling = ValueAt(strategy, "rollingUpdate");
  if (type == "Recreate") {
    if (!rolling.is_null()) {
      errors->push_back(Forbidden("spec.strategy.rollingUpdate", "may not be specified when strategy `type` is 'Recreate'"));
    }
  } else if (type == "RollingUpdate") {
    if (rolling.is_null()) {
      errors->push_back(Required("spec.strategy.rollingUpdate", "this should be defaulted and never be nil"));
    } else {
      ValidateRollingUpdateDeployment(rolling, errors);
    }
  } else {
    errors->push_back(NotSupportedRendered(
        "spec.strategy", RenderInternalStructRaw({{"Type", GoJsonMarshal(type)}, {"RollingUpdate", InternalRolling(rolling)}}),
        {"Recreate", "RollingUpdate"}));
  }
}

FieldErrors ValidateDeploymentSpec(const json& obj) {
  FieldErrors errors;
  const json& spec = ObjectAt(obj, "spec");
  NonNegative(spec, "replicas", "spec.replicas", &errors);
  bool convertible = true;
  ValidateWorkloadSelector(spec, "empty selector is invalid for deployment", "invalid label selector", &errors,
                           &convertible);
  ValidateReplicaSetTemplate(spec, convertible, &errors);
  ValidateDeploymentStrategy(ObjectAt(spec, "strategy"), &errors);
  NonNegative(spec, "minReadySeconds", "spec.minReadySeconds", &errors);
  NonNegative(spec, "revisionHistoryLimit", "spec.revisionHistoryLimit", &errors);
  if (auto deadline = IntField(spec, "progressDeadlineSeconds")) {
    Append(&errors, ValidateNonnegativeField(*deadline, "spec.progressDeadlineSeconds"));
    if (*deadline <= IntField(spec, "minReadySeconds").value_or(0)) {
      errors.push_back(Invalid("spec.progressDeadlineSeconds", *deadline, "must be greater than minReadySeconds"));
    }
  }
  return errors;
}

// Every apps/v1 controller's selector is immutable after creation (the strategies' check).
void ImmutableSelector(const json& obj, const json& old, FieldErrors* errors) {
  Append(errors, ValidateImmutableField(ValueAt(ObjectAt(obj, "spec"), "selector"),
                                        ValueAt(ObjectAt(old, "spec"), "selector"), "spec.selector"));
}

FieldErrors ValidateDeploymentUpdate(const json& obj, const json& old) {
  FieldErrors errors = ValidateDeploymentSpec(obj);
  ImmutableSelector(obj, old, &errors);
  return errors;
}

// The status counters every controller reports, and their bounds.
// IsDecremented: a collision count may not go down (nor away).
void CollisionCountNotDecremented(const json& obj, const json& old, FieldErrors* errors) {
  const auto now = IntField(ObjectAt(obj, "status"), "collisionCount");
  const auto before = IntField(ObjectAt(old, "status"), "collisionCount");
  if (before && (!now || *now < *before)) {
    errors->push_back(Invalid("status.collisionCount", now.value_or(0), "cannot be decremented"));
  }
}

struct StatusRules {
  std::vector<const char*> non_negative;
  std::vector<const char*> at_most_replicas;
  // availableReplicas <= readyReplicas, with this message.
  const char* available_vs_ready = nullptr;
  bool collision_count = true;  // whether the status has one (ReplicaSets have none)
};

FieldErrors ValidateControllerStatus(const json& obj, const json& old, const StatusRules& rules) {
  FieldErrors errors;
  const json& status = ObjectAt(obj, "status");
  for (const char* key : rules.non_negative) NonNegative(status, key, "status." + std::string(key), &errors);
  if (rules.collision_count) NonNegative(status, "collisionCount", "status.collisionCount", &errors);
  const int64_t replicas = IntField(status, "replicas").value_or(0);
  for (const char* key : rules.at_most_replicas) {
    const int64_t v = IntField(status, key).value_or(0);
    if (v > replicas) errors.push_back(Invalid("status." + std::string(key), v, "cannot be greater than status.replicas"));
  }
  if (rules.available_vs_ready != nullptr) {
    const int64_t available = IntField(status, "availableReplicas").value_or(0);
    if (available > IntField(status, "readyReplicas").value_or(0)) {
      errors.push_back(Invalid("status.availableReplicas", available, rules.available_vs_ready));
    }
  }
  if (rules.collision_count) CollisionCountNotDecremented(obj, old, &errors);
  return errors;
}

FieldErrors ValidateDeploymentStatusUpdate(const json& obj, const json& old) {
  static const StatusRules rules{{"observedGeneration", "replicas", "updatedReplicas", "readyReplicas",
                                  "availableReplicas", "unavailableReplicas"},
                                 {"updatedReplicas", "readyReplicas", "availableReplicas"},
                                 "cannot be greater than readyReplicas"};
  return ValidateControllerStatus(obj, old, rules);
}

// ---- ReplicaSet ----

FieldErrors ValidateReplicaSetSpec(const json& obj) {
  FieldErrors errors;
  const json& spec = ObjectAt(obj, "spec");
  NonNegative(spec, "replicas", "spec.replicas", &errors);
  NonNegative(spec, "minReadySeconds", "spec.minReadySeconds", &errors);
  bool convertible = true;
  // kube's ReplicaSet message names deployments too.
  ValidateWorkloadSelector(spec, "empty selector is invalid for deployment", "invalid label selector", &errors,
                           &convertible);
  ValidateReplicaSetTemplate(spec, convertible, &errors);
  return errors;
}

FieldErrors ValidateReplicaSetUpdate(const json& obj, const json& old) {
  FieldErrors errors = ValidateReplicaSetSpec(obj);
  ImmutableSelector(obj, old, &errors);
  return errors;
}

FieldErrors ValidateReplicaSetStatusUpdate(const json& obj, const json& old) {
  static const StatusRules rules{
      {"replicas", "fullyLabeledReplicas", "readyReplicas", "availableReplicas", "observedGeneration"},
      {"fullyLabeledReplicas", "readyReplicas", "availableReplicas"},
      "cannot be greater than readyReplicas",
      /*collision_count=*/false};
  return ValidateControllerStatus(obj, old, rules);
}

// ---- StatefulSet ----

std::string InternalStatefulSetRolling(const json& rolling) {
  if (!rolling.is_object()) return "null";
  return RenderInternalStruct(
      {{"Partition", IntField(rolling, "partition").value_or(0)}, {"MaxUnavailable", ValueAt(rolling, "maxUnavailable")}});
}

void ValidateStatefulSetStrategy(const json& strategy, FieldErrors* errors) {
  const std::string type = StringAt(strategy, "type");
  const json rolling = ValueAt(strategy, "rollingUpdate");
  const std::string path = "spec.updateStrategy";
  if (type.empty()) {
    errors->push_back(Required(path));
  } else if (type == "OnDelete") {
    if (!rolling.is_null()) {
      errors->push_back(InvalidRendered(path + ".rollingUpdate", InternalStatefulSetRolling(rolling),
                                        "only allowed for updateStrategy 'RollingUpdate'"));
    }
  } else if (type == "RollingUpdate") {
    if (rolling.is_object()) {
      NonNegative(rolling, "partition", path + ".rollingUpdate.partition", errors);
      const json max_unavailable = ValueAt(rolling, "maxUnavailable");
      if (!max_unavailable.is_null()) {
        const std::string field = path + ".rollingUpdate.maxUnavailable";
        Append(errors, ValidatePositiveIntOrPercent(max_unavailable, field));
        if (IntOrPercentValue(max_unavailable) == 0) errors->push_back(Invalid(field, max_unavailable, "cannot be 0"));
        Append(errors, IsNotMoreThan100Percent(max_unavailable, field));
      }
    }
  } else {
    errors->push_back(InvalidRendered(
        path, RenderInternalStructRaw({{"Type", GoJsonMarshal(type)}, {"RollingUpdate", InternalStatefulSetRolling(rolling)}}),
        "must be 'RollingUpdate' or 'OnDelete'"));
  }
}

FieldErrors ValidateStatefulSetSpec(const json& obj) {
  FieldErrors errors;
  const json& spec = ObjectAt(obj, "spec");
  const std::string policy = StringAt(spec, "podManagementPolicy");
  if (policy.empty()) {
    errors.push_back(Required("spec.podManagementPolicy"));
  } else if (policy != "OrderedReady" && policy != "Parallel") {
    errors.push_back(Invalid("spec.podManagementPolicy", policy, "must be 'OrderedReady' or 'Parallel'"));
  }
  ValidateStatefulSetStrategy(ObjectAt(spec, "updateStrategy"), &errors);
  if (Has(spec, "persistentVolumeClaimRetentionPolicy")) {
    const json& retention = ObjectAt(spec, "persistentVolumeClaimRetentionPolicy");
    for (const char* key : {"whenDeleted", "whenScaled"}) {
      const std::string v = StringAt(retention, key);
      if (v != "Retain" && v != "Delete") {
        errors.push_back(NotSupported("spec.persistentVolumeClaimRetentionPolicy." + std::string(key), v,
                                      {"Retain", "Delete"}));
      }
    }
  }
  NonNegative(spec, "replicas", "spec.replicas", &errors);
  NonNegative(spec, "minReadySeconds", "spec.minReadySeconds", &errors);
  if (Has(spec, "ordinals")) NonNegative(ObjectAt(spec, "ordinals"), "start", "spec.ordinals.start", &errors);

  const json selector = ValueAt(spec, "selector");
  if (selector.is_null()) {
    errors.push_back(Required("spec.selector"));
  } else {
    Append(&errors, ValidateLabelSelector(selector, "spec.selector"));
    if (SelectorIsEmpty(selector)) errors.push_back(Invalid("spec.selector", selector, "empty selector is invalid for statefulset"));
  }
  if (!SelectorConvertible(selector)) {
    errors.push_back(Invalid("spec.selector", selector, ""));
  } else {
    // ValidatePodTemplateSpecForStatefulSet: the labels and annotations only, not the pod spec.
    CheckTemplateLabels(spec, &errors);
    const json& meta = ObjectAt(ObjectAt(spec, "template"), "metadata");
    Append(&errors, ValidateLabels(ValueAt(meta, "labels"), "spec.template.labels"));
  }
  ValidateAlwaysRestartTemplate(spec, "StatefulSet", &errors);
  return errors;
}

FieldErrors ValidateStatefulSetUpdate(const json& obj, const json& old) {
  FieldErrors errors = ValidateStatefulSetSpec(obj);
  static const std::initializer_list<const char*> kMutable = {
      "replicas", "ordinals", "template", "updateStrategy", "persistentVolumeClaimRetentionPolicy", "minReadySeconds"};
  if (Without(ObjectAt(obj, "spec"), kMutable) != Without(ObjectAt(old, "spec"), kMutable)) {
    errors.push_back(Forbidden("spec",
                               "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', "
                               "'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are "
                               "forbidden"));
  }
  return errors;
}

FieldErrors ValidateStatefulSetStatusUpdate(const json& obj, const json& old) {
  static const StatusRules rules{
      {"replicas", "readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas", "observedGeneration"},
      {"readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas"},
      "cannot be greater than status.readyReplicas"};
  return ValidateControllerStatus(obj, old, rules);
}

// ---- DaemonSet ----

void ValidateDaemonSetStrategy(const json& strategy, FieldErrors* errors) {
  const std::string type = StringAt(strategy, "type");
  const json rolling = ValueAt(strategy, "rollingUpdate");
  const std::string path = "spec.updateStrategy";
  if (type == "OnDelete") return;
  if (type != "RollingUpdate") {
    errors->push_back(NotSupportedRendered(
        path, RenderInternalStructRaw({{"Type", GoJsonMarshal(type)}, {"RollingUpdate", InternalRolling(rolling)}}),
        {"RollingUpdate", "OnDelete"}));
    return;
  }
  if (rolling.is_null()) {
    errors->push_back(Required(path + ".rollingUpdate"));
    return;
  }
  const json unavailable = ValueAt(rolling, "maxUnavailable");
  const json surge = ValueAt(rolling, "maxSurge");
  const std::string unavailable_path = path + ".rollingUpdate.maxUnavailable";
  const std::string surge_path = path + ".rollingUpdate.maxSurge";
  Append(errors, ValidatePositiveIntOrPercent(unavailable, unavailable_path));
  Append(errors, ValidatePositiveIntOrPercent(surge, surge_path));
  Append(errors, IsNotMoreThan100Percent(unavailable, unavailable_path));
  Append(errors, IsNotMoreThan100Percent(surge, surge_path));
  const bool has_unavailable = IntOrPercentValue(unavailable) != 0;
  const bool has_surge = IntOrPercentValue(surge) != 0;
  if (has_unavailable && has_surge) {
    errors->push_back(Invalid(surge_path, surge, "may not be set when maxUnavailable is non-zero"));
  } else if (!has_unavailable && !has_surge) {
    errors->push_back(Required(unavailable_path, "cannot be 0 when maxSurge is 0"));
  }
}

FieldErrors ValidateDaemonSetSpec(const json& obj) {
  FieldErrors errors;
  const json& spec = ObjectAt(obj, "spec");
  const json selector = ValueAt(spec, "selector");
  Append(&errors, ValidateLabelSelector(selector, "spec.selector"));
  const json labels = ValueAt(ObjectAt(ObjectAt(spec, "template"), "metadata"), "labels");
  if (SelectorConvertible(selector) && !(SelectorIsEmpty(selector) || SelectorMatches(selector, labels))) {
    errors.push_back(Invalid("spec.template.metadata.labels", labels, "`selector` does not match template `labels`"));
  }
  if (SelectorIsEmpty(selector)) errors.push_back(Invalid("spec.selector", selector, "empty selector is invalid for daemonset"));
  Append(&errors, ValidateWorkloadPodTemplate(ObjectAt(spec, "template"), "spec.template"));
  ValidateAlwaysRestartTemplate(spec, "DaemonSet", &errors);
  NonNegative(spec, "minReadySeconds", "spec.minReadySeconds", &errors);
  ValidateDaemonSetStrategy(ObjectAt(spec, "updateStrategy"), &errors);
  NonNegative(spec, "revisionHistoryLimit", "spec.revisionHistoryLimit", &errors);
  return errors;
}

FieldErrors ValidateDaemonSetUpdate(const json& obj, const json& old) {
  FieldErrors errors = ValidateDaemonSetSpec(obj);
  ImmutableSelector(obj, old, &errors);
  return errors;
}

FieldErrors ValidateDaemonSetStatusUpdate(const json& obj, const json& old) {
  FieldErrors errors;
  const json& status = ObjectAt(obj, "status");
  for (const char* key : {"currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled", "numberReady",
                          "observedGeneration", "updatedNumberScheduled", "numberAvailable", "numberUnavailable",
                          "collisionCount"}) {
    NonNegative(status, key, "status." + std::string(key), &errors);
  }
  CollisionCountNotDecremented(obj, old, &errors);
  return errors;
}

// ---- ControllerRevision ----

FieldErrors ValidateControllerRevision(const json& obj) {
  FieldErrors errors;
  if (!Has(obj, "data")) errors.push_back(Required("data", "data is mandatory"));
  NonNegative(obj, "revision", "revision", &errors);
  return errors;
}

FieldErrors ValidateControllerRevisionUpdate(const json& obj, const json& old) {
  FieldErrors errors = ValidateControllerRevision(obj);
  Append(&errors, ValidateImmutableField(ValueAt(obj, "data"), ValueAt(old, "data"), "data"));
  return errors;
}

}  // namespace

void AddAppsKinds(KindTable* table) {
  (*table)["apps/deployments"] = {ValidateDeploymentSpec, ValidateDeploymentUpdate, ValidateDeploymentStatusUpdate};
  (*table)["apps/replicasets"] = {ValidateReplicaSetSpec, ValidateReplicaSetUpdate, ValidateReplicaSetStatusUpdate};
  (*table)["apps/statefulsets"] = {ValidateStatefulSetSpec, ValidateStatefulSetUpdate, ValidateStatefulSetStatusUpdate};
  (*table)["apps/daemonsets"] = {ValidateDaemonSetSpec, ValidateDaemonSetUpdate, ValidateDaemonSetStatusUpdate};
  (*table)["apps/controllerrevisions"] = {ValidateControllerRevision, ValidateControllerRevisionUpdate, nullptr};
}

}  // namespace kube::validation
