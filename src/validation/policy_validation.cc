// policy/v1 PodDisruptionBudget and coordination.k8s.io/v1 Lease, as kube's
// pkg/apis/policy/validation and pkg/apis/coordination/validation check them.
#include <nlohmann/json.hpp>

#include "validation/group_primitives.h"
#include "validation/group_validators.h"
#include "validation/primitives.h"

namespace kube::validation {
namespace {

using nlohmann::json;

// ---- PodDisruptionBudget ----

FieldErrors ValidatePodDisruptionBudget(const json& obj) {
  FieldErrors errors;
  const json& spec = ObjectAt(obj, "spec");
  const json min_available = ValueAt(spec, "minAvailable");
  const json max_unavailable = ValueAt(spec, "maxUnavailable");
  if (!min_available.is_null() && !max_unavailable.is_null()) {
    // kube quotes the internal spec (Go field names, in declaration order).
    errors.push_back(InvalidRendered("spec",
                                     RenderInternalStruct({{"MinAvailable", min_available},
                                                           {"Selector", ValueAt(spec, "selector")},
                                                           {"MaxUnavailable", max_unavailable},
                                                           {"UnhealthyPodEvictionPolicy",
                                                            ValueAt(spec, "unhealthyPodEvictionPolicy")}}),
                                     "minAvailable and maxUnavailable cannot be both set"));
  }
  for (const auto& [key, value] : {std::pair{"minAvailable", min_available}, std::pair{"maxUnavailable", max_unavailable}}) {
    if (value.is_null()) continue;
    const std::string path = std::string("spec.") + key;
    Append(&errors, ValidatePositiveIntOrPercent(value, path));
    Append(&errors, IsNotMoreThan100Percent(value, path));
  }
  if (Has(spec, "selector")) Append(&errors, ValidateLabelSelector(spec["selector"], "spec.selector"));
  if (Has(spec, "unhealthyPodEvictionPolicy")) {
    const std::string policy = StringAt(spec, "unhealthyPodEvictionPolicy");
    if (policy != "AlwaysAllow" && policy != "IfHealthyBudget") {
      errors.push_back(NotSupported("spec.unhealthyPodEvictionPolicy", policy, {"AlwaysAllow", "IfHealthyBudget"}));
    }
  }
  return errors;
}

FieldErrors ValidatePodDisruptionBudgetUpdate(const json& obj, const json&) { return ValidatePodDisruptionBudget(obj); }

FieldErrors ValidatePodDisruptionBudgetStatusUpdate(const json& obj, const json&) {
  FieldErrors errors;
  const json& status = ObjectAt(obj, "status");
  for (const char* key : {"disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods"}) {
    if (auto v = IntField(status, key)) Append(&errors, ValidateNonnegativeField(*v, "status." + std::string(key)));
  }
  return errors;
}

// ---- Lease ----

FieldErrors ValidateLease(const json& obj) {
  FieldErrors errors;
  const json& spec = ObjectAt(obj, "spec");
  if (auto d = IntField(spec, "leaseDurationSeconds"); d && *d <= 0) {
    errors.push_back(Invalid("spec.leaseDurationSeconds", *d, "must be greater than 0"));
  }
  if (auto t = IntField(spec, "leaseTransitions"); t && *t < 0) {
    errors.push_back(Invalid("spec.leaseTransitions", *t, "must be greater than or equal to 0"));
  }
  const std::string strategy = StringAt(spec, "strategy");
  if (Has(spec, "strategy")) {
    if (strategy.find('/') == std::string::npos) {
      if (strategy != "OldestEmulationVersion") {
        errors.push_back(NotSupported("spec.strategy", strategy, {"OldestEmulationVersion"}));
      }
    } else {
      for (const auto& msg : IsQualifiedName(strategy)) errors.push_back(Invalid("spec.strategy", strategy, msg));
    }
  }
  if (!StringAt(spec, "preferredHolder").empty() && strategy.empty()) {
    errors.push_back(Forbidden("spec.preferredHolder", "may only be specified if `strategy` is defined"));
  }
  return errors;
}

FieldErrors ValidateLeaseUpdate(const json& obj, const json&) { return ValidateLease(obj); }

}  // namespace

void AddPolicyKinds(KindTable* table) {
  (*table)["policy/poddisruptionbudgets"] = {ValidatePodDisruptionBudget, ValidatePodDisruptionBudgetUpdate,
                                             ValidatePodDisruptionBudgetStatusUpdate};
}

void AddCoordinationKinds(KindTable* table) {
  (*table)["coordination.k8s.io/leases"] = {ValidateLease, ValidateLeaseUpdate, nullptr};
}

}  // namespace kube::validation
