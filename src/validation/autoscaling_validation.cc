// autoscaling HorizontalPodAutoscaler in its storage form (autoscaling/v2), as kube's
// pkg/apis/autoscaling/validation checks it (HPAScaleToZero off, as in 1.36 by default).
#include <nlohmann/json.hpp>

#include <set>

#include "util/go_format.h"
#include "validation/group_primitives.h"
#include "validation/group_validators.h"
#include "validation/object_meta.h"
#include "validation/primitives.h"

namespace kube::validation {
namespace {

using nlohmann::json;

constexpr int64_t kMaxPeriodSeconds = 1800;
constexpr int64_t kMaxStabilizationWindowSeconds = 3600;

std::string At(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

// ValidateCrossVersionObjectReference: kind and name required, each a path segment.
void ValidateReference(const json& ref, const std::string& path, FieldErrors* errors) {
  for (const char* key : {"kind", "name"}) {
    const std::string v = StringAt(ref, key);
    if (v.empty()) {
      errors->push_back(Required(path + "." + key));
    } else {
      for (const auto& msg : PathSegmentNameProblems(v)) errors->push_back(Invalid(path + "." + key, v, msg));
    }
  }
}

void ValidateMetricIdentifier(const json& id, const std::string& path, FieldErrors* errors) {
  const std::string name = StringAt(id, "name");
  if (name.empty()) {
    errors->push_back(Required(path + ".name", "must specify a metric name"));
  } else {
    for (const auto& msg : PathSegmentNameProblems(name)) errors->push_back(Invalid(path + ".name", name, msg));
  }
}

// A quantity that is not positive ("must be positive"), quoted as its JSON form.
void PositiveQuantity(const json& target, const char* key, const std::string& path, FieldErrors* errors) {
  if (!Has(target, key)) return;
  auto q = ParseQuantity(target[key]);
  if (q && q->Sign() != 1) errors->push_back(Invalid(path + "." + key, QuantityText(target[key]), "must be positive"));
}

void ValidateMetricTarget(const json& target, const std::string& path, FieldErrors* errors) {
  const std::string type = StringAt(target, "type");
  if (type.empty()) errors->push_back(Required(path + ".type", "must specify a metric target type"));
  if (type != "Utilization" && type != "Value" && type != "AverageValue") {
    errors->push_back(Invalid(path + ".type", type, "must be either Utilization, Value, or AverageValue"));
  }
  PositiveQuantity(target, "value", path, errors);
  PositiveQuantity(target, "averageValue", path, errors);
  if (auto u = IntField(target, "averageUtilization"); u && *u < 1) {
    errors->push_back(Invalid(path + ".averageUtilization", *u, "must be greater than 0"));
  }
}

void ValidateSource(const std::string& kind, const json& src, const std::string& path, FieldErrors* errors) {
  const json& target = ObjectAt(src, "target");
  const std::string target_path = path + ".target";
  const bool value = Has(target, "value");
  const bool average = Has(target, "averageValue");
  const bool utilization = Has(target, "averageUtilization");
  if (kind == "object") {
    ValidateReference(ObjectAt(src, "describedObject"), path + ".describedObject", errors);
    ValidateMetricIdentifier(ObjectAt(src, "metric"), path + ".metric", errors);
    ValidateMetricTarget(target, target_path, errors);
    if (!value && !average) {
      errors->push_back(Required(target_path + ".averageValue", "must set either a target value or averageValue"));
    }
  } else if (kind == "external") {
    ValidateMetricIdentifier(ObjectAt(src, "metric"), path + ".metric", errors);
    ValidateMetricTarget(target, target_path, errors);
    if (!value && !average) {
      errors->push_back(
          Required(target_path + ".averageValue", "must set either a target value for metric or a per-pod target"));
    }
    if (value && average) {
      errors->push_back(
          Forbidden(target_path + ".value", "may not set both a target value for metric and a per-pod target"));
    }
  } else if (kind == "pods") {
    ValidateMetricIdentifier(ObjectAt(src, "metric"), path + ".metric", errors);
    ValidateMetricTarget(target, target_path, errors);
    if (!average) errors->push_back(Required(target_path + ".averageValue", "must specify a positive target averageValue"));
  } else {  // resource, containerResource
    if (StringAt(src, "name").empty()) errors->push_back(Required(path + ".name", "must specify a resource name"));
    if (kind == "containerResource") {
      const std::string container = StringAt(src, "container");
      if (container.empty()) {
        errors->push_back(Required(path + ".container", "must specify a container"));
      } else {
        Append(errors, ValidateDns1123Label(container, path + ".container"));
      }
    }
    ValidateMetricTarget(target, target_path, errors);
    if (!utilization && !average) {
      errors->push_back(
          Required(target_path + ".averageUtilization", "must set either a target raw value or a target utilization"));
    }
    if (utilization && average) {
      errors->push_back(
          Forbidden(target_path + ".averageValue", "may not set both a target raw value and a target utilization"));
    }
  }
}

void ValidateMetricSpec(const json& metric, const std::string& path, FieldErrors* errors) {
  static const std::vector<std::string> kTypes = {"ContainerResource", "External", "Object", "Pods", "Resource"};
  const std::string type = StringAt(metric, "type");
  if (type.empty()) errors->push_back(Required(path + ".type", "must specify a metric source type"));
  const bool known = std::find(kTypes.begin(), kTypes.end(), type) != kTypes.end();
  if (!known) errors->push_back(NotSupported(path + ".type", type, kTypes));
  // Only the first source present is validated (kube's order), the others are refused below.
  std::vector<std::string> present;
  for (const char* source : {"object", "external", "pods", "resource", "containerResource"}) {
    if (!Has(metric, source)) continue;
    present.push_back(source);
    if (present.size() == 1) ValidateSource(source, metric[source], path + "." + source, errors);
  }
  std::string expected;
  if (type == "Object") expected = "object";
  if (type == "Pods") expected = "pods";
  if (type == "Resource") expected = "resource";
  if (type == "External") expected = "external";
  if (type == "ContainerResource") expected = "containerResource";
  if (!expected.empty() && !Has(metric, expected.c_str())) {
    errors->push_back(Required(path + "." + expected, "must populate information for the given metric source"));
  }
  // kube's switch refuses an unknown type a second time.
  if (!known) errors->push_back(NotSupported(path + ".type", type, kTypes));
  if (present.size() != 1) {
    for (const auto& source : present) {
      if (source != expected) errors->push_back(Forbidden(path + "." + source, "must populate the given metric source only"));
    }
  }
}

void ValidateScalingRules(const json& rules, const std::string& path, FieldErrors* errors) {
  if (auto w = IntField(rules, "stabilizationWindowSeconds")) {
    if (*w < 0) errors->push_back(Invalid(path + ".stabilizationWindowSeconds", *w, "must be greater than or equal to zero"));
    if (*w > kMaxStabilizationWindowSeconds) {
      errors->push_back(Invalid(path + ".stabilizationWindowSeconds", *w, "must be less than or equal to 3600"));
    }
  }
  if (Has(rules, "selectPolicy")) {
    const std::string policy = StringAt(rules, "selectPolicy");
    if (policy != "Max" && policy != "Min" && policy != "Disabled") {
      errors->push_back(NotSupported(path + ".selectPolicy", policy, {"Disabled", "Max", "Min"}));
    }
  }
  const json& policies = ArrayField(rules, "policies");
  if (policies.empty()) errors->push_back(Required(path + ".policies", "must specify at least one Policy"));
  for (size_t i = 0; i < policies.size(); ++i) {
    const std::string p = At(path + ".policies", i);
    const std::string type = StringAt(policies[i], "type");
    if (type != "Pods" && type != "Percent") errors->push_back(NotSupported(p + ".type", type, {"Percent", "Pods"}));
    const int64_t value = IntField(policies[i], "value").value_or(0);
    if (value <= 0) errors->push_back(Invalid(p + ".value", value, "must be greater than zero"));
    const int64_t period = IntField(policies[i], "periodSeconds").value_or(0);
    if (period <= 0) errors->push_back(Invalid(p + ".periodSeconds", period, "must be greater than zero"));
    if (period > kMaxPeriodSeconds) errors->push_back(Invalid(p + ".periodSeconds", period, "must be less than or equal to 1800"));
  }
}

FieldErrors ValidateSpec(const json& obj, int64_t min_replicas_lower_bound) {
  FieldErrors errors;
  const json& spec = ObjectAt(obj, "spec");
  const auto min_replicas = IntField(spec, "minReplicas");
  const int64_t max_replicas = IntField(spec, "maxReplicas").value_or(0);
  if (min_replicas && *min_replicas < min_replicas_lower_bound) {
    errors.push_back(Invalid("spec.minReplicas", *min_replicas,
                             "must be greater than or equal to " + std::to_string(min_replicas_lower_bound)));
  }
  if (max_replicas < 1) errors.push_back(Invalid("spec.maxReplicas", max_replicas, "must be greater than 0"));
  if (min_replicas && max_replicas < *min_replicas) {
    errors.push_back(Invalid("spec.maxReplicas", max_replicas, "must be greater than or equal to `minReplicas`"));
  }
  ValidateReference(ObjectAt(spec, "scaleTargetRef"), "spec.scaleTargetRef", &errors);
  const json& metrics = ArrayField(spec, "metrics");
  bool object_or_external = false;
  for (size_t i = 0; i < metrics.size(); ++i) {
    ValidateMetricSpec(metrics[i], At("spec.metrics", i), &errors);
    const std::string type = StringAt(metrics[i], "type");
    object_or_external = object_or_external || type == "Object" || type == "External";
  }
  if (min_replicas && *min_replicas == 0 && !object_or_external) {
    errors.push_back(Forbidden("spec.metrics",
                               "must specify at least one Object or External metric to support scaling to zero replicas"));
  }
  if (Has(spec, "behavior")) {
    const json& behavior = spec["behavior"];
    for (const char* direction : {"scaleUp", "scaleDown"}) {
      if (Has(behavior, direction)) ValidateScalingRules(behavior[direction], std::string("spec.behavior.") + direction, &errors);
    }
  }
  return errors;
}

FieldErrors ValidateHorizontalPodAutoscaler(const json& obj) { return ValidateSpec(obj, 1); }

FieldErrors ValidateHorizontalPodAutoscalerUpdate(const json& obj, const json& old) {
  // An autoscaler already at zero replicas may stay there.
  const auto old_min = IntField(ObjectAt(old, "spec"), "minReplicas");
  return ValidateSpec(obj, old_min && *old_min == 0 ? 0 : 1);
}

FieldErrors ValidateHorizontalPodAutoscalerStatusUpdate(const json& obj, const json&) {
  FieldErrors errors;
  const json& status = ObjectAt(obj, "status");
  for (const char* key : {"currentReplicas", "desiredReplicas"}) {
    Append(&errors, ValidateNonnegativeField(IntField(status, key).value_or(0), "status." + std::string(key)));
  }
  return errors;
}

}  // namespace

void AddAutoscalingKinds(KindTable* table) {
  (*table)["autoscaling/horizontalpodautoscalers"] = {ValidateHorizontalPodAutoscaler,
                                                      ValidateHorizontalPodAutoscalerUpdate,
                                                      ValidateHorizontalPodAutoscalerStatusUpdate};
}

}  // namespace kube::validation
