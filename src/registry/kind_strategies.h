// kube's per-kind create and update strategies (pkg/registry/<group>/<kind>/strategy.go) for what
// the generic Store and the KindRules table do not already do:
//  - Job: the generated selector (batch.kubernetes.io/controller-uid) and the pod template
//    labels batch.kubernetes.io/controller-uid, batch.kubernetes.io/job-name, controller-uid and
//    job-name, unless spec.manualSelector is true.
//  - DaemonSet: spec.templateGeneration (the deprecated.daemonset.template.generation annotation
//    in apps/v1): 1 on create, +1 when the pod template changes.
//  - Pod: the PodScheduled=False SchedulingGated condition for a pod created with scheduling
//    gates; pods/status keeps status.qosClass and observedGeneration when a writer leaves them
//    out; pods/ephemeralcontainers writes only spec.ephemeralContainers and pods/resize only the
//    containers' resources and resizePolicy (metadata and status kept), bumping generation.
//  - Node: spec.configSource and status.config are dropped (dynamic kubelet config is gone).
//  - PersistentVolume: status.lastPhaseTransitionTime set on create and on a phase change.
// Everything else kube's strategies do for served kinds is generic here (status reset on create
// and kept by the main resource, generation, namespace finalizers: store.cc, kind_rules.cc,
// namespace_lifecycle.cc) or belongs to validation.
//
// Thread-safety: the strategies are immutable; safe to share.
#pragma once

#include "registry/api_registry.h"

namespace kube::registry {

// Registers the strategies above in `options`, each chained after any strategy already there
// for its resource (StrategyChain).
void AddKindStrategies(RegistryOptions* options);

}  // namespace kube::registry
