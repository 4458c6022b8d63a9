// Conversion between served versions: round trips (A -> B -> A) per converted pair, kube's field
// mappings checked on the way, and the evidence that every other multi-version resource of the
// catalogue has field-identical schemas (so relabelling is its whole conversion).
#include <doctest/doctest.h>

#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "catalogue/catalogue.h"
#include "conversion/conversion.h"

namespace kube::conversion {
namespace {

using json = nlohmann::json;

json MustConvert(const json& in, std::string_view to) {
  auto out = Convert(in, to);
  REQUIRE(out.ok());
  return *out;
}

json HpaV2Full() {
  return json::parse(R"({
    "apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
    "metadata": {"name": "web", "namespace": "ns", "annotations": {"team": "a"}},
    "spec": {
      "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
      "minReplicas": 2, "maxReplicas": 10,
      "metrics": [
        {"type": "Resource", "resource": {"name": "memory", "target": {"type": "AverageValue", "averageValue": "500Mi"}}},
        {"type": "Pods", "pods": {"metric": {"name": "qps", "selector": {"matchLabels": {"a": "b"}}},
                                  "target": {"type": "AverageValue", "averageValue": "10"}}},
        {"type": "Object", "object": {"describedObject": {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "name": "main"},
                                      "metric": {"name": "hits"}, "target": {"type": "Value", "value": "2k"}}},
        {"type": "External", "external": {"metric": {"name": "queue", "selector": {"matchLabels": {"q": "w"}}},
                                          "target": {"type": "AverageValue", "averageValue": "30"}}},
        {"type": "ContainerResource", "containerResource": {"name": "cpu", "container": "app",
                                                            "target": {"type": "Utilization", "averageUtilization": 60}}},
        {"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}
      ],
      "behavior": {
        "scaleUp": {"stabilizationWindowSeconds": 0, "selectPolicy": "Max",
                    "policies": [{"type": "Pods", "value": 4, "periodSeconds": 15}, {"type": "Percent", "value": 100, "periodSeconds": 15}]},
        "scaleDown": {"stabilizationWindowSeconds": 300, "selectPolicy": "Min", "tolerance": "50m",
                      "policies": [{"type": "Percent", "value": 100, "periodSeconds": 15}]}
      }
    },
    "status": {
      "observedGeneration": 3, "currentReplicas": 4, "desiredReplicas": 5,
      "currentMetrics": [
        {"type": "Resource", "resource": {"name": "cpu", "current": {"averageValue": "120m", "averageUtilization": 55}}},
        {"type": "Pods", "pods": {"metric": {"name": "qps"}, "current": {"averageValue": "7"}}},
        {"type": "External", "external": {"metric": {"name": "queue"}, "current": {"value": "3", "averageValue": "1"}}}
      ],
      "conditions": [{"type": "AbleToScale", "status": "True", "lastTransitionTime": "2026-01-01T00:00:00Z",
                      "reason": "ReadyForNewScale", "message": "ok"}]
    }})");
}

TEST_CASE("HPA autoscaling/v2 -> v1 keeps cpu in the field and the rest in kube's annotations") {
  const json v1 = MustConvert(HpaV2Full(), "autoscaling/v1");
  CHECK(v1["apiVersion"] == "autoscaling/v1");
  CHECK(v1["spec"]["targetCPUUtilizationPercentage"] == 70);
  CHECK(!v1["spec"].contains("metrics"));
  CHECK(!v1["spec"].contains("behavior"));
  CHECK(v1["status"]["currentCPUUtilizationPercentage"] == 55);
  CHECK(!v1["status"].contains("currentMetrics"));
  CHECK(!v1["status"].contains("conditions"));
  const json& a = v1["metadata"]["annotations"];
  CHECK(a["team"] == "a");
  // The other metrics, in autoscaling/v1's MetricSpec layout.
  const json metrics = json::parse(a["autoscaling.alpha.kubernetes.io/metrics"].get<std::string>());
  REQUIRE(metrics.size() == 5);
  CHECK(metrics[0] == json::parse(R"({"type":"Resource","resource":{"name":"memory","targetAverageValue":"500Mi"}})"));
  CHECK(metrics[1]["pods"] == json::parse(R"({"metricName":"qps","targetAverageValue":"10","selector":{"matchLabels":{"a":"b"}}})"));
  CHECK(metrics[2]["object"]["target"] == json::parse(R"({"apiVersion":"networking.k8s.io/v1","kind":"Ingress","name":"main"})"));
  CHECK(metrics[2]["object"]["targetValue"] == "2k");
  CHECK(metrics[3]["external"]["metricSelector"] == json::parse(R"({"matchLabels":{"q":"w"}})"));
  CHECK(metrics[3]["external"]["targetAverageValue"] == "30");
  CHECK(metrics[4]["containerResource"] == json::parse(R"({"name":"cpu","container":"app","targetAverageUtilization":60})"));
  const json current = json::parse(a["autoscaling.alpha.kubernetes.io/current-metrics"].get<std::string>());
  REQUIRE(current.size() == 3);
  CHECK(current[0]["resource"] == json::parse(R"({"name":"cpu","currentAverageUtilization":55,"currentAverageValue":"120m"})"));
  CHECK(current[2]["external"] == json::parse(R"({"metricName":"queue","currentValue":"3","currentAverageValue":"1"})"));
  const json conditions = json::parse(a["autoscaling.alpha.kubernetes.io/conditions"].get<std::string>());
  CHECK(conditions == HpaV2Full()["status"]["conditions"]);
  // kube marshals its internal behavior type: Go field names, null for what is unset.
  const json behavior = json::parse(a["autoscaling.alpha.kubernetes.io/behavior"].get<std::string>());
  CHECK(behavior["ScaleUp"]["SelectPolicy"] == "Max");
  CHECK(behavior["ScaleUp"]["Tolerance"].is_null());
  CHECK(behavior["ScaleDown"]["Policies"][0] == json::parse(R"({"Type":"Percent","Value":100,"PeriodSeconds":15})"));
}

TEST_CASE("HPA round trips through the other version") {
  struct Case {
    const char* name;
    json object;
    const char* via;
    json expected;  // null: the object itself
  };
  json v1_plain = json::parse(R"({"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler",
      "metadata":{"name":"a"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"d"},"minReplicas":1,"maxReplicas":3,
      "targetCPUUtilizationPercentage":50},"status":{"currentReplicas":1,"desiredReplicas":2,"currentCPUUtilizationPercentage":40}})");
  // Without a cpu target, v2 gets kube's default (80%), which v1 then shows.
  json v1_default = json::parse(R"({"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler",
      "metadata":{"name":"b"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"d"},"maxReplicas":3}})");
  json v1_default_back = v1_default;
  v1_default_back["spec"]["targetCPUUtilizationPercentage"] = 80;
  v1_default_back["status"] = {{"currentReplicas", 0}, {"desiredReplicas", 0}};
  // kube keeps v2's currentMetrics in their annotation even when they only hold the cpu value.
  json v1_plain_back = v1_plain;
  v1_plain_back["metadata"]["annotations"]["autoscaling.alpha.kubernetes.io/current-metrics"] =
      json::parse(R"([{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":40,"currentAverageValue":"0"}}])")
          .dump();
  json v1_annotated = MustConvert(HpaV2Full(), "autoscaling/v1");
  std::vector<Case> cases = {
      {"v2 -> v1 -> v2, every metric type, behavior, conditions", HpaV2Full(), "autoscaling/v1", nullptr},
      {"v1 -> v2 -> v1, cpu only", v1_plain, "autoscaling/v2", v1_plain_back},
      {"v1 -> v2 -> v1, cpu only, stable from then on", v1_plain_back, "autoscaling/v2", nullptr},
      {"v1 -> v2 -> v1, no target", v1_default, "autoscaling/v2", v1_default_back},
      {"v1 with annotations -> v2 -> v1", v1_annotated, "autoscaling/v2", nullptr},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    const std::string back = c.object["apiVersion"];
    const json there = MustConvert(c.object, c.via);
    CHECK(there["apiVersion"] == c.via);
    CHECK(MustConvert(there, back) == (c.expected.is_null() ? c.object : c.expected));
  }
}

TEST_CASE("HPA autoscaling/v1 -> v2 maps the cpu field to a metric and reads the annotations") {
  json v1 = json::parse(R"({"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"a",
      "annotations":{"autoscaling.alpha.kubernetes.io/metrics":"[{\"type\":\"Pods\",\"pods\":{\"metricName\":\"qps\",\"targetAverageValue\":\"5\"}}]"}},
      "spec":{"scaleTargetRef":{"kind":"Deployment","name":"d"},"maxReplicas":3,"targetCPUUtilizationPercentage":50}})");
  const json v2 = MustConvert(v1, "autoscaling/v2");
  CHECK(!v2["metadata"].contains("annotations"));
  CHECK(v2["spec"]["metrics"] == json::parse(R"([
      {"type":"Pods","pods":{"metric":{"name":"qps"},"target":{"type":"AverageValue","averageValue":"5"}}},
      {"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":50}}}])"));
  CHECK(!v2["spec"].contains("targetCPUUtilizationPercentage"));
  // A metrics annotation that is not kube's JSON is a decoding error, as in kube.
  v1["metadata"]["annotations"]["autoscaling.alpha.kubernetes.io/metrics"] = "{not json";
  auto bad = Convert(v1, "autoscaling/v2");
  REQUIRE(!bad.ok());
  CHECK(bad.status().code() == StatusCode::kBadRequest);
}

TEST_CASE("Event round trips between core v1 and events.k8s.io/v1") {
  const json core = json::parse(R"({"apiVersion":"v1","kind":"Event","metadata":{"name":"e1","namespace":"ns"},
      "involvedObject":{"kind":"Pod","name":"p","namespace":"ns","uid":"u1"},
      "reason":"Started","message":"Started container","type":"Normal",
      "source":{"component":"kubelet","host":"node1"},
      "firstTimestamp":"2026-01-01T00:00:00Z","lastTimestamp":"2026-01-01T00:01:00Z","count":3,
      "eventTime":null,"reportingComponent":"kubelet","reportingInstance":"node1","action":"Start",
      "related":{"kind":"Node","name":"node1"},"series":{"count":2,"lastObservedTime":"2026-01-01T00:01:00.000000Z"}})");
  const json events = MustConvert(core, "events.k8s.io/v1");
  CHECK(events["apiVersion"] == "events.k8s.io/v1");
  CHECK(events["regarding"] == core["involvedObject"]);
  CHECK(events["note"] == "Started container");
  CHECK(events["deprecatedSource"] == core["source"]);
  CHECK(events["deprecatedFirstTimestamp"] == "2026-01-01T00:00:00Z");
  CHECK(events["deprecatedLastTimestamp"] == "2026-01-01T00:01:00Z");
  CHECK(events["deprecatedCount"] == 3);
  CHECK(events["reportingController"] == "kubelet");
  for (const char* same : {"reason", "type", "action", "related", "series", "reportingInstance", "eventTime"}) {
    CHECK(events[same] == core[same]);
  }
  for (const char* gone : {"involvedObject", "message", "source", "firstTimestamp", "lastTimestamp", "count",
                           "reportingComponent"}) {
    CHECK(!events.contains(gone));
  }
  CHECK(MustConvert(events, "v1") == core);
  const json events_first = json::parse(R"({"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e2"},
      "regarding":{"kind":"Pod","name":"p"},"note":"n","reason":"R","type":"Warning","action":"A",
      "eventTime":"2026-01-01T00:00:00.000000Z","reportingController":"c","reportingInstance":"i"})");
  const json as_core = MustConvert(events_first, "v1");
  CHECK(as_core["involvedObject"] == events_first["regarding"]);
  CHECK(as_core["message"] == "n");
  CHECK(as_core["reportingComponent"] == "c");
  CHECK(MustConvert(as_core, "events.k8s.io/v1") == events_first);
}

TEST_CASE("resource.k8s.io v1beta1 <-> v1 round trips") {
  const json claim_beta = json::parse(R"({"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceClaim","metadata":{"name":"c"},
      "spec":{"devices":{"requests":[
        {"name":"gpu","deviceClassName":"gpu.example.com","allocationMode":"ExactCount","count":2,
         "selectors":[{"cel":{"expression":"true"}}]},
        {"name":"any","firstAvailable":[{"name":"a","deviceClassName":"x"}]}]}}})");
  const json claim_v1 = MustConvert(claim_beta, "resource.k8s.io/v1");
  const json& requests = claim_v1["spec"]["devices"]["requests"];
  CHECK(requests[0] == json::parse(R"({"name":"gpu","exactly":{"deviceClassName":"gpu.example.com",
      "allocationMode":"ExactCount","count":2,"selectors":[{"cel":{"expression":"true"}}]}})"));
  CHECK(!requests[1].contains("exactly"));
  CHECK(MustConvert(claim_v1, "resource.k8s.io/v1beta1") == claim_beta);
  // v1beta2 has v1's layout.
  const json claim_beta2 = MustConvert(claim_beta, "resource.k8s.io/v1beta2");
  CHECK(claim_beta2["spec"] == claim_v1["spec"]);
  CHECK(MustConvert(claim_beta2, "resource.k8s.io/v1beta1") == claim_beta);

  json template_beta = {{"apiVersion", "resource.k8s.io/v1beta1"}, {"kind", "ResourceClaimTemplate"},
                        {"metadata", {{"name", "t"}}}, {"spec", {{"spec", claim_beta["spec"]}}}};
  const json template_v1 = MustConvert(template_beta, "resource.k8s.io/v1");
  CHECK(template_v1["spec"]["spec"] == claim_v1["spec"]);
  CHECK(MustConvert(template_v1, "resource.k8s.io/v1beta1") == template_beta);

  const json slice_beta = json::parse(R"({"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceSlice","metadata":{"name":"s"},
      "spec":{"driver":"d","nodeName":"n","pool":{"name":"p","generation":1,"resourceSliceCount":1},
      "devices":[{"name":"gpu-0","basic":{"attributes":{"model":{"string":"x"}},"capacity":{"mem":{"value":"1Gi"}}}}]}})");
  const json slice_v1 = MustConvert(slice_beta, "resource.k8s.io/v1");
  CHECK(slice_v1["spec"]["devices"][0] ==
        json::parse(R"({"name":"gpu-0","attributes":{"model":{"string":"x"}},"capacity":{"mem":{"value":"1Gi"}}})"));
  CHECK(MustConvert(slice_v1, "resource.k8s.io/v1beta1") == slice_beta);
}

// The structure of a definition, with $refs followed: property names, types and formats.
json Shape(const json& defs, const json& schema, std::set<std::string>& path) {
  if (schema.contains("$ref")) {
    const std::string name = schema["$ref"].get<std::string>().substr(std::string("#/definitions/").size());
    if (name.starts_with("io.k8s.apimachinery")) return name;  // shared by every version
    if (path.contains(name)) return "recursive";
    path.insert(name);
    json out = Shape(defs, defs[name], path);
    path.erase(name);
    return out;
  }
  json out = {{"type", schema.value("type", "")}, {"format", schema.value("format", "")}};
  if (schema.contains("items")) out["items"] = Shape(defs, schema["items"], path);
  if (schema.contains("additionalProperties") && schema["additionalProperties"].is_object()) {
    out["values"] = Shape(defs, schema["additionalProperties"], path);
  }
  if (schema.contains("properties")) {
    for (const auto& [k, v] : schema["properties"].items()) {
      if (k != "apiVersion") out["properties"][k] = Shape(defs, v, path);
    }
  }
  return out;
}

TEST_CASE("every other resource served at several versions has field-identical schemas") {
  const auto& catalogue = catalogue::Catalogue::BuiltIn();
  const json& defs = catalogue.RawDefinitions();
  auto definition_of = [&](const catalogue::ResourceInfo& r) -> std::string {
    for (const auto& [name, def] : defs.items()) {
      if (!def.contains("x-kubernetes-group-version-kind")) continue;
      for (const auto& g : def["x-kubernetes-group-version-kind"]) {
        if (g.value("group", "") == r.group && g.value("version", "") == r.version && g.value("kind", "") == r.kind) {
          return name;
        }
      }
    }
    return "";
  };
  std::map<std::string, std::vector<const catalogue::ResourceInfo*>> by_storage;
  for (const auto& r : catalogue.Resources()) {
    if (!r.storage_prefix.empty()) by_storage[r.storage_prefix].push_back(&r);
  }
  int relabel_pairs = 0, mapped_pairs = 0;
  for (const auto& [prefix, versions] : by_storage) {
    if (versions.size() < 2) continue;
    const std::string storage = StorageApiVersion(catalogue, versions[0]->group, versions[0]->resource);
    for (const auto* r : versions) {
      const std::string api_version = ApiVersionOf(r->group, r->version);
      if (api_version == storage) continue;
      const auto* hub = catalogue.Find(storage.find('/') == std::string::npos ? "" : storage.substr(0, storage.find('/')),
                                       storage.substr(storage.find('/') + 1), r->resource);
      REQUIRE(hub != nullptr);
      std::set<std::string> path;
      const json a = Shape(defs, defs[definition_of(*r)], path);
      const json b = Shape(defs, defs[definition_of(*hub)], path);
      CAPTURE(api_version);
      CAPTURE(r->resource);
      if (NeedsFieldMapping(r->kind, api_version, storage)) {
        CHECK(a != b);  // a mapping where nothing differs would be a sign of a stale table
        ++mapped_pairs;
      } else {
        CHECK(a == b);
        ++relabel_pairs;
      }
    }
  }
  CHECK(mapped_pairs == 5);  // HPA v1, events.k8s.io Event, three resource.k8s.io/v1beta1 kinds
  CHECK(relabel_pairs > 10);
}

TEST_CASE("storage versions") {
  const auto& catalogue = catalogue::Catalogue::BuiltIn();
  CHECK(StorageApiVersion(catalogue, "autoscaling", "horizontalpodautoscalers") == "autoscaling/v2");
  CHECK(StorageApiVersion(catalogue, "events.k8s.io", "events") == "v1");
  CHECK(StorageApiVersion(catalogue, "", "events") == "v1");
  CHECK(StorageApiVersion(catalogue, "resource.k8s.io", "resourceclaims") == "resource.k8s.io/v1");
  CHECK(StorageApiVersion(catalogue, "coordination.k8s.io", "leasecandidates") == "coordination.k8s.io/v1beta1");
  CHECK(StorageApiVersion(catalogue, "apps", "deployments") == "apps/v1");
}

}  // namespace
}  // namespace kube::conversion
