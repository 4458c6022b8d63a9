#include "validation/workload_template.h"

#include <nlohmann/json.hpp>

#include "validation/group_primitives.h"
#include "validation/primitives.h"

namespace kube::validation {

FieldErrors ValidateWorkloadPodTemplate(const nlohmann::json& pod_template, const std::string& path) {
  // The template's own labels; the pod spec rules are the core group's ValidatePodTemplateSpec,
  // which replaces this body once merged.
  return ValidateLabels(ValueAt(ObjectAt(pod_template, "metadata"), "labels"), path + ".labels");
}

}  // namespace kube::validation
