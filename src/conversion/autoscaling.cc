// autoscaling/v1 <-> autoscaling/v2 HorizontalPodAutoscaler, as kube's autoscaling/v1
// conversion does it. v1 has one metric (targetCPUUtilizationPercentage, a Resource cpu
// Utilization metric in v2) and no conditions or behavior; the rest of a v2 object rides in
// annotations of the v1 object so that v1 clients that read-modify-write keep it:
//   autoscaling.alpha.kubernetes.io/metrics          spec.metrics but the cpu utilization one,
//                                                    as v1 MetricSpecs (the v2beta1 layout)
//   autoscaling.alpha.kubernetes.io/current-metrics  status.currentMetrics, as v1 MetricStatuses
//   autoscaling.alpha.kubernetes.io/conditions       status.conditions
//   autoscaling.alpha.kubernetes.io/behavior         spec.behavior, as kube writes it (its
//                                                    internal type: Go field names, no tags)
// A v1 object without any metric gets kube's implicit default: cpu at 80% utilization.
#include <cctype>

#include "conversion/conversion_internal.h"

namespace kube::conversion::internal {

namespace {

constexpr const char* kMetricsAnnotation = "autoscaling.alpha.kubernetes.io/metrics";
constexpr const char* kCurrentMetricsAnnotation = "autoscaling.alpha.kubernetes.io/current-metrics";
constexpr const char* kConditionsAnnotation = "autoscaling.alpha.kubernetes.io/conditions";
constexpr const char* kBehaviorAnnotation = "autoscaling.alpha.kubernetes.io/behavior";
constexpr int kDefaultCpuUtilization = 80;

const Object& Get(const Object& obj, const char* key) {
  static const Object kNull;
  if (!obj.is_object()) return kNull;
  auto it = obj.find(key);
  return it == obj.end() ? kNull : *it;
}

// Copies src[from] to dst[to] when present and not null.
void CopyIf(const Object& src, const char* from, Object& dst, const char* to) {
  const Object& v = Get(src, from);
  if (!v.is_null()) dst[to] = v;
}

// A Quantity field Go writes even when unset (non-pointer): "0".
Object QuantityOrZero(const Object& v) { return v.is_null() ? Object("0") : v; }

// v2's pods and object metric sources as v1's, in a spec (`side` "target") or a status
// ("current"): v1 names the quantities after the side (targetAverageValue, currentValue).
Object PodsSourceToV1(const Object& p, const std::string& side) {
  Object v1 = {{"metricName", Get(Get(p, "metric"), "name")},
               {side + "AverageValue", QuantityOrZero(Get(Get(p, side.c_str()), "averageValue"))}};
  CopyIf(Get(p, "metric"), "selector", v1, "selector");
  return v1;
}

Object ObjectSourceToV1(const Object& o, const std::string& side) {
  const Object& d = Get(o, "describedObject");
  Object ref = {{"kind", Get(d, "kind")}, {"name", Get(d, "name")}};
  CopyIf(d, "apiVersion", ref, "apiVersion");
  Object v1 = {{"target", std::move(ref)},
               {"metricName", Get(Get(o, "metric"), "name")},
               {side + "Value", QuantityOrZero(Get(Get(o, side.c_str()), "value"))}};
  CopyIf(Get(o, "metric"), "selector", v1, "selector");
  CopyIf(Get(o, side.c_str()), "averageValue", v1, "averageValue");
  return v1;
}

bool IsCpuResource(const Object& metric, const char* part) {
  return Get(metric, "type") == "Resource" && Get(Get(metric, part), "name") == "cpu";
}

// --- v2 -> v1 -------------------------------------------------------------------------------

Object MetricSpecToV1(const Object& m) {
  Object out = Object::object();
  out["type"] = Get(m, "type");
  const Object& target = Get(Get(m, "resource").is_null() ? Get(m, "containerResource") : Get(m, "resource"), "target");
  if (const Object& r = Get(m, "resource"); !r.is_null()) {
    Object v1 = {{"name", Get(r, "name")}};
    CopyIf(target, "averageUtilization", v1, "targetAverageUtilization");
    CopyIf(target, "averageValue", v1, "targetAverageValue");
    out["resource"] = std::move(v1);
  }
  if (const Object& r = Get(m, "containerResource"); !r.is_null()) {
    Object v1 = {{"name", Get(r, "name")}, {"container", Get(r, "container")}};
    CopyIf(target, "averageUtilization", v1, "targetAverageUtilization");
    CopyIf(target, "averageValue", v1, "targetAverageValue");
    out["containerResource"] = std::move(v1);
  }
  if (const Object& p = Get(m, "pods"); !p.is_null()) out["pods"] = PodsSourceToV1(p, "target");
  if (const Object& o = Get(m, "object"); !o.is_null()) out["object"] = ObjectSourceToV1(o, "target");
  if (const Object& e = Get(m, "external"); !e.is_null()) {
    Object v1 = {{"metricName", Get(Get(e, "metric"), "name")}};
    CopyIf(Get(e, "metric"), "selector", v1, "metricSelector");
    CopyIf(Get(e, "target"), "value", v1, "targetValue");
    CopyIf(Get(e, "target"), "averageValue", v1, "targetAverageValue");
    out["external"] = std::move(v1);
  }
  return out;
}

Object MetricStatusToV1(const Object& m) {
  Object out = Object::object();
  out["type"] = Get(m, "type");
  for (const char* part : {"resource", "containerResource"}) {
    const Object& r = Get(m, part);
    if (r.is_null()) continue;
    Object v1 = {{"name", Get(r, "name")}, {"currentAverageValue", QuantityOrZero(Get(Get(r, "current"), "averageValue"))}};
    if (std::string_view(part) == "containerResource") v1["container"] = Get(r, "container");
    CopyIf(Get(r, "current"), "averageUtilization", v1, "currentAverageUtilization");
    out[part] = std::move(v1);
  }
  if (const Object& p = Get(m, "pods"); !p.is_null()) out["pods"] = PodsSourceToV1(p, "current");
  if (const Object& o = Get(m, "object"); !o.is_null()) out["object"] = ObjectSourceToV1(o, "current");
  if (const Object& e = Get(m, "external"); !e.is_null()) {
    Object v1 = {{"metricName", Get(Get(e, "metric"), "name")},
                 {"currentValue", QuantityOrZero(Get(Get(e, "current"), "value"))}};
    CopyIf(Get(e, "metric"), "selector", v1, "metricSelector");
    CopyIf(Get(e, "current"), "averageValue", v1, "currentAverageValue");
    out["external"] = std::move(v1);
  }
  return out;
}

// kube marshals its internal behavior type, whose fields carry no JSON tags: Go field names,
// and null for every unset pointer.
Object ScalingRulesToInternal(const Object& rules) {
  if (rules.is_null()) return nullptr;
  Object policies = nullptr;
  if (const Object& p = Get(rules, "policies"); p.is_array()) {
    policies = Object::array();
    for (const auto& policy : p) {
      policies.push_back({{"Type", Get(policy, "type").is_null() ? Object("") : Get(policy, "type")},
                          {"Value", Get(policy, "value").is_null() ? Object(0) : Get(policy, "value")},
                          {"PeriodSeconds", Get(policy, "periodSeconds").is_null() ? Object(0) : Get(policy, "periodSeconds")}});
    }
  }
  return {{"StabilizationWindowSeconds", Get(rules, "stabilizationWindowSeconds")},
          {"SelectPolicy", Get(rules, "selectPolicy")},
          {"Policies", std::move(policies)},
          {"Tolerance", Get(rules, "tolerance")}};
}

// --- v1 -> v2 -------------------------------------------------------------------------------

// Go's decoder matches field names case-insensitively; so does this reader of the annotations.
const Object& GetFold(const Object& obj, std::string_view key) {
  static const Object kNull;
  if (!obj.is_object()) return kNull;
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const std::string& k = it.key();
    if (k.size() != key.size()) continue;
    bool same = true;
    for (size_t i = 0; i < k.size() && same; ++i) {
      same = std::tolower(static_cast<unsigned char>(k[i])) == std::tolower(static_cast<unsigned char>(key[i]));
    }
    if (same) return it.value();
  }
  return kNull;
}

Object MetricIdentifier(const Object& name, const Object& selector) {
  Object id = {{"name", name.is_null() ? Object("") : name}};
  if (!selector.is_null()) id["selector"] = selector;
  return id;
}

Object MetricSpecToV2(const Object& m) {
  Object out = {{"type", Get(m, "type")}};
  for (const char* part : {"resource", "containerResource"}) {
    const Object& r = Get(m, part);
    if (r.is_null()) continue;
    const Object& utilization = Get(r, "targetAverageUtilization");
    Object target = {{"type", utilization.is_null() ? "AverageValue" : "Utilization"}};
    CopyIf(r, "targetAverageUtilization", target, "averageUtilization");
    CopyIf(r, "targetAverageValue", target, "averageValue");
    Object v2 = {{"name", Get(r, "name")}, {"target", std::move(target)}};
    if (std::string_view(part) == "containerResource") v2["container"] = Get(r, "container");
    out[part] = std::move(v2);
  }
  if (const Object& p = Get(m, "pods"); !p.is_null()) {
    out["pods"] = {{"metric", MetricIdentifier(Get(p, "metricName"), Get(p, "selector"))},
                   {"target", {{"type", "AverageValue"}, {"averageValue", QuantityOrZero(Get(p, "targetAverageValue"))}}}};
  }
  if (const Object& o = Get(m, "object"); !o.is_null()) {
    const Object& average = Get(o, "averageValue");
    Object target = {{"type", average.is_null() ? "Value" : "AverageValue"},
                     {"value", QuantityOrZero(Get(o, "targetValue"))}};
    if (!average.is_null()) target["averageValue"] = average;
    out["object"] = {{"describedObject", Get(o, "target").is_null() ? Object::object() : Get(o, "target")},
                     {"metric", MetricIdentifier(Get(o, "metricName"), Get(o, "selector"))},
                     {"target", std::move(target)}};
  }
  if (const Object& e = Get(m, "external"); !e.is_null()) {
    const Object& value = Get(e, "targetValue");
    Object target = {{"type", value.is_null() ? "AverageValue" : "Value"}};
    CopyIf(e, "targetValue", target, "value");
    CopyIf(e, "targetAverageValue", target, "averageValue");
    out["external"] = {{"metric", MetricIdentifier(Get(e, "metricName"), Get(e, "metricSelector"))},
                       {"target", std::move(target)}};
  }
  return out;
}

Object MetricStatusToV2(const Object& m) {
  Object out = {{"type", Get(m, "type")}};
  for (const char* part : {"resource", "containerResource"}) {
    const Object& r = Get(m, part);
    if (r.is_null()) continue;
    Object current = {{"averageValue", QuantityOrZero(Get(r, "currentAverageValue"))}};
    CopyIf(r, "currentAverageUtilization", current, "averageUtilization");
    Object v2 = {{"name", Get(r, "name")}, {"current", std::move(current)}};
    if (std::string_view(part) == "containerResource") v2["container"] = Get(r, "container");
    out[part] = std::move(v2);
  }
  if (const Object& p = Get(m, "pods"); !p.is_null()) {
    out["pods"] = {{"metric", MetricIdentifier(Get(p, "metricName"), Get(p, "selector"))},
                   {"current", {{"averageValue", QuantityOrZero(Get(p, "currentAverageValue"))}}}};
  }
  if (const Object& o = Get(m, "object"); !o.is_null()) {
    Object current = {{"value", QuantityOrZero(Get(o, "currentValue"))}};
    CopyIf(o, "averageValue", current, "averageValue");
    out["object"] = {{"describedObject", Get(o, "target").is_null() ? Object::object() : Get(o, "target")},
                     {"metric", MetricIdentifier(Get(o, "metricName"), Get(o, "selector"))},
                     {"current", std::move(current)}};
  }
  if (const Object& e = Get(m, "external"); !e.is_null()) {
    Object current = {{"value", QuantityOrZero(Get(e, "currentValue"))}};
    CopyIf(e, "currentAverageValue", current, "averageValue");
    out["external"] = {{"metric", MetricIdentifier(Get(e, "metricName"), Get(e, "metricSelector"))},
                       {"current", std::move(current)}};
  }
  return out;
}

Object ScalingRulesFromInternal(const Object& rules) {
  Object out = Object::object();
  if (const Object& v = GetFold(rules, "StabilizationWindowSeconds"); !v.is_null()) out["stabilizationWindowSeconds"] = v;
  if (const Object& v = GetFold(rules, "SelectPolicy"); !v.is_null()) out["selectPolicy"] = v;
  if (const Object& v = GetFold(rules, "Policies"); v.is_array()) {
    Object policies = Object::array();
    for (const auto& p : v) {
      policies.push_back({{"type", GetFold(p, "Type").is_null() ? Object("") : GetFold(p, "Type")},
                          {"value", GetFold(p, "Value").is_null() ? Object(0) : GetFold(p, "Value")},
                          {"periodSeconds", GetFold(p, "PeriodSeconds").is_null() ? Object(0) : GetFold(p, "PeriodSeconds")}});
    }
    out["policies"] = std::move(policies);
  }
  if (const Object& v = GetFold(rules, "Tolerance"); !v.is_null()) out["tolerance"] = v;
  return out;
}

// The annotation's JSON array, or an error as kube's decoder answers a body it cannot convert.
Result<Object> ParseArrayAnnotation(const Object& text, const char* name) {
  Object parsed = Object::parse(text.is_string() ? text.get<std::string>() : std::string(), nullptr, false);
  if (parsed.is_null()) return Object::array();  // "null" unmarshals to an empty slice
  if (!parsed.is_array()) {
    return Status::BadRequest(std::string("the annotation ") + name + " of a HorizontalPodAutoscaler is not a JSON array");
  }
  return parsed;
}

}  // namespace

Object HpaV2ToV1(Object in) {
  in["apiVersion"] = "autoscaling/v1";
  Object& meta = in["metadata"];
  if (!meta.is_object()) meta = Object::object();
  Object annotations = Get(meta, "annotations").is_object() ? meta["annotations"] : Object::object();
  // Round-trip annotations come only from this conversion, never from what is stored.
  for (const char* a : {kMetricsAnnotation, kCurrentMetricsAnnotation, kConditionsAnnotation, kBehaviorAnnotation}) {
    annotations.erase(a);
  }
  if (Object* spec = in.contains("spec") && in["spec"].is_object() ? &in["spec"] : nullptr) {
    Object others = Object::array();
    bool cpu_seen = false;
    for (const auto& m : Get(*spec, "metrics").is_array() ? (*spec)["metrics"] : Object::array()) {
      const bool cpu = IsCpuResource(m, "resource");
      const Object& utilization = Get(Get(Get(m, "resource"), "target"), "averageUtilization");
      if (cpu && !cpu_seen) {
        cpu_seen = true;  // the first cpu metric is v1's field, as kube's loop breaks there
        if (!utilization.is_null()) (*spec)["targetCPUUtilizationPercentage"] = utilization;
      }
      if (cpu && !utilization.is_null()) continue;
      others.push_back(MetricSpecToV1(m));
    }
    if (!others.empty()) annotations[kMetricsAnnotation] = others.dump();
    if (const Object& b = Get(*spec, "behavior"); !b.is_null()) {
      Object internal = {{"ScaleUp", ScalingRulesToInternal(Get(b, "scaleUp"))},
                         {"ScaleDown", ScalingRulesToInternal(Get(b, "scaleDown"))}};
      annotations[kBehaviorAnnotation] = internal.dump();
    }
    spec->erase("metrics");
    spec->erase("behavior");
  }
  if (Object* status = in.contains("status") && in["status"].is_object() ? &in["status"] : nullptr) {
    const Object current = Get(*status, "currentMetrics").is_array() ? (*status)["currentMetrics"] : Object::array();
    Object v1_current = Object::array();
    for (const auto& m : current) {
      if (IsCpuResource(m, "resource")) {
        const Object& u = Get(Get(Get(m, "resource"), "current"), "averageUtilization");
        if (!u.is_null()) (*status)["currentCPUUtilizationPercentage"] = u;
      }
      v1_current.push_back(MetricStatusToV1(m));
    }
    if (!v1_current.empty()) annotations[kCurrentMetricsAnnotation] = v1_current.dump();
    if (const Object& c = Get(*status, "conditions"); c.is_array() && !c.empty()) {
      annotations[kConditionsAnnotation] = c.dump();
    }
    status->erase("currentMetrics");
    status->erase("conditions");
  }
  if (in.contains("spec")) {
    // v1's status counts are not omitempty: a served v1 object always has them.
    Object& status = in["status"];
    if (!status.is_object()) status = Object::object();
    if (!status.contains("currentReplicas")) status["currentReplicas"] = 0;
    if (!status.contains("desiredReplicas")) status["desiredReplicas"] = 0;
  }
  if (annotations.empty()) {
    meta.erase("annotations");
  } else {
    meta["annotations"] = std::move(annotations);
  }
  return in;
}

Result<Object> HpaV1ToV2(Object in) {
  in["apiVersion"] = "autoscaling/v2";
  Object& meta = in["metadata"];
  if (!meta.is_object()) meta = Object::object();
  Object annotations = Get(meta, "annotations").is_object() ? meta["annotations"] : Object::object();
  const bool has_spec = in.contains("spec") && in["spec"].is_object();
  if (has_spec) {
    Object& spec = in["spec"];
    spec.erase("metrics");
    spec.erase("behavior");
    Object metrics = Object::array();
    if (annotations.contains(kMetricsAnnotation)) {
      auto others = ParseArrayAnnotation(annotations[kMetricsAnnotation], kMetricsAnnotation);
      if (!others.ok()) return others.status();
      for (const auto& m : *others) metrics.push_back(MetricSpecToV2(m));
    }
    if (const Object& cpu = Get(spec, "targetCPUUtilizationPercentage"); !cpu.is_null()) {
      metrics.push_back({{"type", "Resource"},
                         {"resource", {{"name", "cpu"}, {"target", {{"type", "Utilization"}, {"averageUtilization", cpu}}}}}});
    }
    if (metrics.empty()) {
      // autoscaling/v1's implicit default, explicit in v2.
      metrics.push_back({{"type", "Resource"},
                         {"resource",
                          {{"name", "cpu"},
                           {"target", {{"type", "Utilization"}, {"averageUtilization", kDefaultCpuUtilization}}}}}});
    }
    spec["metrics"] = std::move(metrics);
    spec.erase("targetCPUUtilizationPercentage");
    if (annotations.contains(kBehaviorAnnotation)) {
      // Only well-formed data moves from the annotation to the field, as in kube.
      const Object& text = annotations[kBehaviorAnnotation];
      Object b = Object::parse(text.is_string() ? text.get<std::string>() : std::string(), nullptr, false);
      if (b.is_object()) {
        Object behavior = Object::object();
        if (const Object& up = GetFold(b, "ScaleUp"); up.is_object()) behavior["scaleUp"] = ScalingRulesFromInternal(up);
        if (const Object& down = GetFold(b, "ScaleDown"); down.is_object()) {
          behavior["scaleDown"] = ScalingRulesFromInternal(down);
        }
        if (!behavior.empty()) spec["behavior"] = std::move(behavior);
      }
    }
  }
  Object* status = in.contains("status") && in["status"].is_object() ? &in["status"] : nullptr;
  if (status != nullptr) {
    status->erase("conditions");
    Object current = Object::array();
    if (const Object& cpu = Get(*status, "currentCPUUtilizationPercentage"); !cpu.is_null()) {
      current.push_back({{"type", "Resource"}, {"resource", {{"name", "cpu"}, {"current", {{"averageUtilization", cpu}}}}}});
    }
    status->erase("currentCPUUtilizationPercentage");
    if (current.empty()) {
      status->erase("currentMetrics");
    } else {
      (*status)["currentMetrics"] = std::move(current);
    }
  }
  if (annotations.contains(kCurrentMetricsAnnotation)) {
    // These carry more than the v1 field: they replace it.
    auto current = ParseArrayAnnotation(annotations[kCurrentMetricsAnnotation], kCurrentMetricsAnnotation);
    if (!current.ok()) return current.status();
    Object v2 = Object::array();
    for (const auto& m : *current) v2.push_back(MetricStatusToV2(m));
    in["status"]["currentMetrics"] = std::move(v2);
  }
  if (annotations.contains(kConditionsAnnotation)) {
    auto conditions = ParseArrayAnnotation(annotations[kConditionsAnnotation], kConditionsAnnotation);
    if (!conditions.ok()) return conditions.status();
    in["status"]["conditions"] = std::move(*conditions);
  }
  for (const char* a : {kMetricsAnnotation, kCurrentMetricsAnnotation, kConditionsAnnotation, kBehaviorAnnotation}) {
    annotations.erase(a);
  }
  if (annotations.empty()) {
    meta.erase("annotations");
  } else {
    meta["annotations"] = std::move(annotations);
  }
  return in;
}

}  // namespace kube::conversion::internal
