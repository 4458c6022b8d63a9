// The pod template of a workload (Deployment, ReplicaSet, DaemonSet, Job, CronJob's job
// template), validated as kube's ValidatePodTemplateSpec validates it, at `path`
// ("spec.template"). The core group's pod validation does the work; this is the named groups'
// one entry to it.
//
// Thread-safety: pure function.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>

#include "util/field_error.h"

namespace kube::validation {

FieldErrors ValidateWorkloadPodTemplate(const nlohmann::json& pod_template, const std::string& path);

}  // namespace kube::validation
