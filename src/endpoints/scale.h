// The autoscaling/v1 Scale subresource: for workload kinds (deployments, replicasets,
// statefulsets, replicationcontrollers) a view of spec.replicas, status.replicas and the
// selector as a string; for custom resources of the paths their CRD names.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>

#include "registry/store.h"

namespace kube::endpoints {

// The Scale object for `obj` (metadata name/namespace/uid/resourceVersion/creationTimestamp).
// `paths`: where a custom resource keeps replicas and selector; null for built-in workloads.
nlohmann::json ScaleOf(const nlohmann::json& obj, const registry::ScalePaths* paths = nullptr);
// `obj` with its desired replicas taken from `scale` (spec.replicas).
nlohmann::json WithReplicas(nlohmann::json obj, const nlohmann::json& scale,
                            const registry::ScalePaths* paths = nullptr);
// A write through the Scale, as kube's scale storage runs it: `write` makes the new Scale from the
// object's Scale view, whose managedFields are the object's as the Scale sees them, and records
// its manager there (registry::ScaleFieldManager()); the result is `current` with the new desired
// replicas, the Scale's resourceVersion (a precondition) and those managedFields mapped back.
Result<nlohmann::json> WriteThroughScale(const registry::Store& store, const nlohmann::json& current,
                                         const std::function<Result<nlohmann::json>(const nlohmann::json&)>& write);

// The scale paths of a store's kind (null for built-in workloads).
inline const registry::ScalePaths* ScalePathsOf(const registry::Store& store) {
  return store.strategy() ? store.strategy()->Scale() : nullptr;
}

}  // namespace kube::endpoints
