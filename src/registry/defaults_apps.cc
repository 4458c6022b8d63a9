// Defaults of apps/v1 (Deployment, ReplicaSet, StatefulSet, DaemonSet) and batch/v1 (Job,
// CronJob). Their pod templates get the pod-spec defaults of defaults_core.cc (not the Pod-only
// ones: enableServiceLinks, requests from limits). See defaults.h for the contract.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>

#include "registry/defaults.h"

namespace kube::registry::defaults_internal {
namespace {

// A rolling update strategy: type RollingUpdate when unset, and when it is RollingUpdate the
// rollingUpdate parameters. StatefulSets differ (below).
void DefaultRollingStrategy(Json* strategy, const Json& max_unavailable, const Json& max_surge) {
  DefaultString(strategy, "type", "RollingUpdate");
  if (GetString(strategy, "type") != "RollingUpdate") return;
  Json* rolling = EnsureObject(strategy, "rollingUpdate");
  DefaultValue(rolling, "maxUnavailable", max_unavailable);
  DefaultValue(rolling, "maxSurge", max_surge);
}

void DefaultDeployment(Json* spec) {
  DefaultValue(spec, "replicas", 1);
  DefaultRollingStrategy(EnsureObject(spec, "strategy"), "25%", "25%");
  DefaultValue(spec, "revisionHistoryLimit", 10);
  DefaultValue(spec, "progressDeadlineSeconds", 600);
}

void DefaultDaemonSet(Json* spec) {
  DefaultRollingStrategy(EnsureObject(spec, "updateStrategy"), 1, 0);
  DefaultValue(spec, "revisionHistoryLimit", 10);
}

void DefaultStatefulSet(Json* spec) {
  DefaultString(spec, "podManagementPolicy", "OrderedReady");
  if (Json* strategy = EnsureObject(spec, "updateStrategy")) {
    // Only a strategy with no type gets rollingUpdate created; an explicit RollingUpdate without
    // parameters keeps none.
    Json* type = Get(strategy, "type");
    if (type == nullptr || (type->is_string() && type->get_ref<const std::string&>().empty())) {
      (*strategy)["type"] = "RollingUpdate";
      DefaultValue(strategy, "rollingUpdate", Json::object());
    }
    if (GetString(strategy, "type") == "RollingUpdate") {
      DefaultValue(GetObject(strategy, "rollingUpdate"), "partition", 0);
    }
  }
  if (Json* retention = EnsureObject(spec, "persistentVolumeClaimRetentionPolicy")) {
    DefaultString(retention, "whenDeleted", "Retain");
    DefaultString(retention, "whenScaled", "Retain");
  }
  DefaultValue(spec, "replicas", 1);
  DefaultValue(spec, "revisionHistoryLimit", 10);
  for (Json* claim : Objects(GetArray(spec, "volumeClaimTemplates"))) {
    // apps/v1 always writes the claim templates' type meta (kube's conversion sets it).
    (*claim)["apiVersion"] = "v1";
    (*claim)["kind"] = "PersistentVolumeClaim";
    DefaultPersistentVolumeClaim(claim);
  }
}

// Pod failure policy rules matching pod conditions match status True by default.
void DefaultPodFailurePolicy(Json* job_spec) {
  for (Json* rule : Objects(GetArray(GetObject(job_spec, "podFailurePolicy"), "rules"))) {
    for (Json* pattern : Objects(GetArray(rule, "onPodConditions"))) DefaultString(pattern, "status", "True");
  }
}

void DefaultJob(Json* obj) {
  Json* spec = EnsureObject(obj, "spec");
  if (spec == nullptr) return;
  // Leaving both unset means one pod to completion.
  if (Get(spec, "completions") == nullptr && Get(spec, "parallelism") == nullptr) (*spec)["completions"] = 1;
  DefaultValue(spec, "parallelism", 1);
  if (Get(spec, "backoffLimitPerIndex") != nullptr) {
    DefaultValue(spec, "backoffLimit", std::numeric_limits<std::int32_t>::max());
  } else {
    DefaultValue(spec, "backoffLimit", 6);
  }
  // A Job without labels takes its pod template's.
  Json* tmpl = EnsureObject(spec, "template");
  Json* template_labels = GetObject(GetObject(tmpl, "metadata"), "labels");
  Json* meta = EnsureObject(obj, "metadata");
  Json* labels = Get(meta, "labels");
  const bool unlabelled = labels == nullptr || (labels->is_object() && labels->empty());
  if (meta != nullptr && unlabelled && IsNonEmptyObject(template_labels)) {
    (*meta)["labels"] = *template_labels;
  }
  DefaultValue(spec, "completionMode", "NonIndexed");
  DefaultValue(spec, "suspend", false);
  // Pods are replaced once terminating, or only once failed when a pod failure policy decides.
  const bool failure_policy = Get(spec, "podFailurePolicy") != nullptr;
  DefaultValue(spec, "podReplacementPolicy", failure_policy ? "Failed" : "TerminatingOrFailed");
  // Recent kube defaults manualSelector to false (the registry then generates the selector).
  DefaultValue(spec, "manualSelector", false);
  DefaultPodFailurePolicy(spec);
  DefaultPodTemplateSpec(tmpl);
}

// The job template of a CronJob gets no Job defaults (kube defaults Job objects, not JobSpecs);
// only the pod template and the pod failure policy inside it are defaulted.
void DefaultCronJob(Json* obj) {
  Json* spec = EnsureObject(obj, "spec");
  if (spec == nullptr) return;
  DefaultString(spec, "concurrencyPolicy", "Allow");
  DefaultValue(spec, "suspend", false);
  DefaultValue(spec, "successfulJobsHistoryLimit", 3);
  DefaultValue(spec, "failedJobsHistoryLimit", 1);
  Json* job_spec = EnsureObject(EnsureObject(spec, "jobTemplate"), "spec");
  DefaultPodFailurePolicy(job_spec);
  DefaultPodTemplateSpec(EnsureObject(job_spec, "template"));
}

}  // namespace

void DefaultAppsV1(std::string_view kind, Json* obj) {
  const bool known = kind == "Deployment" || kind == "ReplicaSet" || kind == "StatefulSet" || kind == "DaemonSet";
  if (!known) return;  // ControllerRevision: nothing
  Json* spec = EnsureObject(obj, "spec");
  if (spec == nullptr) return;
  if (kind == "Deployment") DefaultDeployment(spec);
  if (kind == "ReplicaSet") DefaultValue(spec, "replicas", 1);
  if (kind == "StatefulSet") DefaultStatefulSet(spec);
  if (kind == "DaemonSet") DefaultDaemonSet(spec);
  DefaultPodTemplateSpec(EnsureObject(spec, "template"));
}

void DefaultBatchV1(std::string_view kind, Json* obj) {
  if (kind == "Job") DefaultJob(obj);
  if (kind == "CronJob") DefaultCronJob(obj);
}

}  // namespace kube::registry::defaults_internal
