#include "validation/workload_template.h"

#include <nlohmann/json.hpp>

#include "validation/pod_spec.h"

namespace kube::validation {

FieldErrors ValidateWorkloadPodTemplate(const nlohmann::json& pod_template, const std::string& path) {
  return ValidatePodTemplateSpec(pod_template, path);
}

}  // namespace kube::validation
