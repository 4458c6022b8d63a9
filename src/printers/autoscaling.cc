// The horizontalpodautoscalers printer. kube prints the internal HPA, i.e. the autoscaling/v2
// shape: spec.metrics and status.currentMetrics. An object in the autoscaling/v1 shape (no
// spec.metrics) reads as its conversion does: targetCPUUtilizationPercentage becomes a cpu
// Utilization metric and currentCPUUtilizationPercentage its current value; with neither,
// autoscaling/v2's default (cpu at 80%) applies, as it does when kube reads the object back
// from storage.

#include "printers/internal.h"

namespace kube::printers::internal {

namespace {

constexpr int64_t kDefaultCpuUtilization = 80;

// A *resource.Quantity as Go's String() prints it: "<nil>" for a nil pointer.
std::string QuantityPtr(const Json* q) { return IsSet(q) ? Quantity(q) : "<nil>"; }

// The v2 metric lists, converting the v1 shape.
Json SpecMetrics(const Json& hpa) {
  const Json* metrics = Path(&hpa, {"spec", "metrics"});
  if (metrics != nullptr && metrics->is_array() && !metrics->empty()) return *metrics;
  const Json* target = Path(&hpa, {"spec", "targetCPUUtilizationPercentage"});
  const int64_t utilization = IsSet(target) && target->is_number() ? Int32(target) : kDefaultCpuUtilization;
  return Json::array({Json{{"type", "Resource"},
                           {"resource",
                            {{"name", "cpu"}, {"target", {{"type", "Utilization"}, {"averageUtilization", utilization}}}}}}});
}

Json StatusMetrics(const Json& hpa) {
  const Json* metrics = Path(&hpa, {"status", "currentMetrics"});
  if (metrics != nullptr && metrics->is_array()) return *metrics;
  const Json* current = Path(&hpa, {"status", "currentCPUUtilizationPercentage"});
  if (IsSet(current) && current->is_number()) {
    return Json::array({Json{{"type", "Resource"},
                             {"resource", {{"name", "cpu"}, {"current", {{"averageUtilization", Int32(current)}}}}}}});
  }
  return Json::array();
}

// One Resource or ContainerResource metric: "<name>: <current>/<target>".
std::string ResourceMetric(const Json* spec, const Json* status) {
  const Json* target = Field(spec, "target");
  const std::string name = Str(Field(spec, "name"));
  if (IsSet(Field(target, "averageValue"))) {
    const std::string current = IsObject(status) ? QuantityPtr(Path(status, {"current", "averageValue"})) : "<unknown>";
    return name + ": " + current + "/" + QuantityPtr(Field(target, "averageValue"));
  }
  std::string current = "<unknown>";
  if (const Json* u = Path(status, {"current", "averageUtilization"}); IsSet(u)) current = std::to_string(Int32(u)) + "%";
  std::string goal = "<auto>";
  if (const Json* u = Field(target, "averageUtilization"); IsSet(u)) goal = std::to_string(Int32(u)) + "%";
  return name + ": " + current + "/" + goal;
}

// An Object or External metric: average value targets are marked "(avg)".
std::string ValueMetric(const Json* spec, const Json* status) {
  const Json* target = Field(spec, "target");
  if (IsSet(Field(target, "averageValue"))) {
    std::string current = "<unknown>";
    if (const Json* v = Path(status, {"current", "averageValue"}); IsSet(v)) current = Quantity(v);
    return current + "/" + QuantityPtr(Field(target, "averageValue")) + " (avg)";
  }
  const std::string current = IsObject(status) ? QuantityPtr(Path(status, {"current", "value"})) : "<unknown>";
  return current + "/" + QuantityPtr(Field(target, "value"));
}

// kube's formatHPAMetrics: the first two metrics, then "+ N more...".
std::string FormatMetrics(const Json& specs, const Json& statuses) {
  if (specs.empty()) return "<none>";
  std::vector<std::string> list;
  for (size_t i = 0; i < specs.size(); ++i) {
    const Json& spec = specs[i];
    const Json* status = i < statuses.size() ? &statuses[i] : nullptr;
    const std::string type = Str(Field(&spec, "type"));
    auto part = [&](std::string_view key) { return Field(status, key); };
    if (type == "External") {
      list.push_back(ValueMetric(Field(&spec, "external"), part("external")));
    } else if (type == "Object") {
      list.push_back(ValueMetric(Field(&spec, "object"), part("object")));
    } else if (type == "Pods") {
      const std::string current =
          IsObject(part("pods")) ? QuantityPtr(Path(part("pods"), {"current", "averageValue"})) : "<unknown>";
      list.push_back(current + "/" + QuantityPtr(Path(&spec, {"pods", "target", "averageValue"})));
    } else if (type == "Resource") {
      list.push_back(ResourceMetric(Field(&spec, "resource"), IsObject(part("resource")) ? part("resource") : nullptr));
    } else if (type == "ContainerResource") {
      list.push_back(ResourceMetric(Field(&spec, "containerResource"),
                                    IsObject(part("containerResource")) ? part("containerResource") : nullptr));
    } else {
      list.push_back("<unknown type>");
    }
  }
  constexpr size_t kMax = 2;
  if (list.size() <= kMax) return Join(list, ", ");
  const size_t count = list.size();
  list.resize(kMax);
  return Join(list, ", ") + " + " + std::to_string(count - kMax) + " more...";
}

}  // namespace

const std::vector<Column>& HorizontalPodAutoscalerColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Reference", "string", "", "The target of the scaling (kind/name).", 0},
      {"Targets", "string", "", "Current and target values of the scaling metrics.", 0},
      {"MinPods", "string", "", "The lower limit of replicas.", 0},
      {"MaxPods", "string", "", "The upper limit of replicas.", 0},
      {"Replicas", "string", "", "The current number of replicas.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells HorizontalPodAutoscalerCells(const Json& hpa, TimePoint now) {
  const Json* ref = Path(&hpa, {"spec", "scaleTargetRef"});
  const Json* min = Path(&hpa, {"spec", "minReplicas"});
  // Both served versions default minReplicas to 1.
  const std::string min_pods = IsSet(min) && min->is_number() ? std::to_string(Int32(min)) : "1";
  const Json specs = SpecMetrics(hpa);
  const Json statuses = StatusMetrics(hpa);
  return {
      Name(hpa),
      Str(Field(ref, "kind")) + "/" + Str(Field(ref, "name")),
      FormatMetrics(specs, statuses),
      min_pods,
      Int32(Path(&hpa, {"spec", "maxReplicas"})),
      Int32(Path(&hpa, {"status", "currentReplicas"})),
      Age(hpa, now),
  };
}

}  // namespace kube::printers::internal
