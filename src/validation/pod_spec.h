// kube's validation of pod specs and pod templates (pkg/apis/core/validation ValidatePodSpec,
// ValidatePodTemplateSpec), for Pods, PodTemplates and ReplicationControllers here and for every
// workload kind that embeds a pod template (Deployments, Jobs, ...). The spec is the v1 JSON as
// stored, built-in defaults applied (restartPolicy, dnsPolicy, terminationGracePeriodSeconds,
// terminationMessagePolicy, imagePullPolicy, port protocols are all set by then).
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "util/field_error.h"

namespace kube::validation {

// kube's ValidatePodSpec at `path` ("spec"); `resource_is_pod` for a Pod's own spec (host ports
// must then equal container ports under hostNetwork, image volumes need a reference).
FieldErrors ValidatePodSpec(const nlohmann::json& spec, const std::string& path, bool resource_is_pod);

// kube's ValidatePodTemplateSpec at `path` ("spec.template"): its labels and annotations, the pod
// spec, and no ephemeral containers.
FieldErrors ValidatePodTemplateSpec(const nlohmann::json& tmpl, const std::string& path);

}  // namespace kube::validation
