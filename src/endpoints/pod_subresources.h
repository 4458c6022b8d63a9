// Two pod subresources kube-apiserver serves by itself, without a kubelet:
//  - pods/binding (and the namespaced `bindings` resource, whose body names the pod): a v1
//    Binding sets spec.nodeName, merges the Binding's annotations and marks the PodScheduled
//    condition True; a pod already bound, being deleted or with scheduling gates is a 409 on
//    pods/binding; the Binding's uid and resourceVersion are preconditions.
//  - pods/eviction: a policy/v1 (or v1beta1) Eviction deletes the pod when the one
//    PodDisruptionBudget selecting it allows a disruption, decrementing its
//    status.disruptionsAllowed and recording the pod in status.disruptedPods as kube's eviction
//    REST does; otherwise 429 TooManyRequests with the DisruptionBudget cause. Terminal, pending
//    and terminating pods are deleted without looking at budgets.
// Both answer 201 with a Success Status.
//
// Thread-safety: pure functions over the registry (safe for concurrent use).
#pragma once

#include <string_view>

#include "endpoints/http.h"
#include "endpoints/query.h"
#include "registry/api_registry.h"

namespace kube::endpoints {

// True for core/v1 `bindings`, a create-only resource with no storage of its own.
bool IsBindingsResource(std::string_view group, std::string_view resource);

// POST pods/<name>/binding (`name` from the URL) or POST bindings (`name` empty: the body's).
HttpResponse BindPod(registry::ApiRegistry* registry, const HttpRequest& request, const Query& query,
                     std::string_view ns, std::string_view name);

// POST pods/<name>/eviction.
HttpResponse EvictPod(registry::ApiRegistry* registry, const HttpRequest& request, const Query& query,
                      std::string_view ns, std::string_view name);

}  // namespace kube::endpoints
