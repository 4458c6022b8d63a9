// The autoscaling/v1 Scale subresource of workload kinds (deployments, replicasets,
// statefulsets, replicationcontrollers): a view of spec.replicas, status.replicas and the
// selector as a string.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

namespace kube::endpoints {

// The Scale object for `obj` (metadata name/namespace/uid/resourceVersion/creationTimestamp).
nlohmann::json ScaleOf(const nlohmann::json& obj);
// `obj` with spec.replicas taken from `scale` (spec.replicas).
nlohmann::json WithReplicas(nlohmann::json obj, const nlohmann::json& scale);

}  // namespace kube::endpoints
