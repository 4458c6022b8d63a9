// The field manager (field_manager.h) on ConfigMaps and Deployments of the catalogue: managers of
// plain writes and their times, the client's managedFields (kept, replaced, reset, ignored), the
// cap on Update entries, apply with conflicts, force, removal and shared values, its 400s and
// 500s, kubectl's client-side apply taken over, the scale subresource's view of the entries, and
// times kept on writes that change nothing.
#include "registry/field_manager.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "catalogue/catalogue.h"
#include "registry/managed_fields.h"
#include "registry/scale_fields.h"

namespace kube::registry {
namespace {

using nlohmann::json;

FieldManagerConfig Config(std::string group, std::string kind, std::string subresource = "") {
  const std::string api_version = group.empty() ? "v1" : group + "/v1";
  return {.schema = catalogue::Catalogue::BuiltIn().KindSchema(group, "v1", kind),
          .api_version = api_version,
          .kind = kind,
          .subresource = std::move(subresource)};
}

json ConfigMap(json data) {
  return {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "cm"}, {"namespace", "ns"}}},
          {"data", std::move(data)}};
}

// An object as stored: with a uid (it exists) and the given entries.
json Stored(json obj, json entries = nullptr) {
  obj["metadata"]["uid"] = "u-1";
  obj["metadata"]["resourceVersion"] = "5";
  if (!entries.is_null()) obj["metadata"]["managedFields"] = std::move(entries);
  return obj;
}

// "manager/Operation[/subresource]" of each entry, in order.
std::string Managers(const json& obj) {
  std::string out;
  const json& entries = obj["metadata"].value("managedFields", json::array());
  for (const auto& e : entries) {
    out += (out.empty() ? "" : " ") + e["manager"].get<std::string>() + "/" + e["operation"].get<std::string>();
    if (e.contains("subresource")) out += "/" + e["subresource"].get<std::string>();
  }
  return out;
}

json FieldsOf(const json& obj, std::string_view manager) {
  for (const auto& e : obj["metadata"].value("managedFields", json::array())) {
    if (e["manager"] == manager) return e["fieldsV1"];
  }
  return nullptr;
}

json Entry(std::string manager, std::string operation, json fields, std::string time = "2024-01-01T00:00:00Z") {
  json e = {{"manager", manager}, {"operation", operation}, {"apiVersion", "v1"}, {"fieldsType", "FieldsV1"},
            {"fieldsV1", std::move(fields)}};
  if (!time.empty()) e["time"] = time;
  return e;
}

const json kDataA = {{"f:data", {{"f:a", json::object()}}}};

TEST_CASE("update: a create records its manager's fields, defaults included, and a time") {
  FieldManager fm(Config("", "ConfigMap"));
  json obj = ConfigMap({{"a", "1"}});
  obj["metadata"]["labels"] = {{"app", "x"}};
  fm.Update(json::object(), &obj, "kubectl-create");
  CHECK(Managers(obj) == "kubectl-create/Update");
  CHECK(FieldsOf(obj, "kubectl-create") ==
        json::parse(R"({"f:data": {".": {}, "f:a": {}}, "f:metadata": {"f:labels": {".": {}, "f:app": {}}}})"));
  const json& entry = obj["metadata"]["managedFields"][0];
  CHECK(entry["apiVersion"] == "v1");
  CHECK(entry["fieldsType"] == "FieldsV1");
  CHECK(ParseRfc3339(entry["time"].get<std::string>()).has_value());
}

TEST_CASE("update: changed fields move to the writer; an unchanged write keeps every time") {
  FieldManager fm(Config("", "ConfigMap"));
  const json live = Stored(ConfigMap({{"a", "1"}, {"b", "2"}}),
                           json::array({Entry("creator", "Update", {{"f:data", {{"f:a", json::object()}, {"f:b", json::object()}}}})}));
  json next = live;
  next["data"]["a"] = "9";
  fm.Update(live, &next, "editor");
  CHECK(Managers(next) == "creator/Update editor/Update");
  CHECK(FieldsOf(next, "creator") == json{{"f:data", {{"f:b", json::object()}}}});
  CHECK(FieldsOf(next, "editor") == kDataA);
  json same = live;
  fm.Update(live, &same, "editor");
  CHECK(same["metadata"]["managedFields"] == live["metadata"]["managedFields"]);
  // A manager "" is "unknown".
  json unnamed = live;
  unnamed["data"]["c"] = "3";
  fm.Update(live, &unnamed, "");
  CHECK(Managers(unnamed) == "creator/Update unknown/Update");
}

TEST_CASE("update: a manager changing only its own fields moves its time, the entries stay as encoded") {
  FieldManager fm(Config("", "ConfigMap"));
  const json labels = {{"f:metadata", {{"f:labels", {{"f:x", json::object()}}}}}};
  json live = Stored(ConfigMap({{"a", "1"}, {"b", "2"}}),
                     json::array({Entry("creator", "Update", {{"f:data", {{"f:a", json::object()}, {"f:b", json::object()}}}},
                                        "2024-01-01T00:00:00Z"),
                                  Entry("labeler", "Update", labels, "2024-06-01T00:00:00Z")}));
  live["metadata"]["labels"] = {{"x", "y"}};
  json next = live;
  next["data"]["a"] = "9";
  fm.Update(live, &next, "creator");
  // Its entry is newer now, so it sorts after the other.
  CHECK(Managers(next) == "labeler/Update creator/Update");
  CHECK(next["metadata"]["managedFields"][0] == live["metadata"]["managedFields"][1]);
  CHECK(FieldsOf(next, "creator") == live["metadata"]["managedFields"][0]["fieldsV1"]);
  CHECK(next["metadata"]["managedFields"][1]["time"] != "2024-01-01T00:00:00Z");
  // A field another manager holds too changes hands the long way: it leaves the other.
  json shared = live;
  shared["metadata"]["managedFields"][1]["fieldsV1"]["f:data"] = {{"f:a", json::object()}};
  json next_shared = shared;
  next_shared["data"]["a"] = "9";
  fm.Update(shared, &next_shared, "creator");
  CHECK(FieldsOf(next_shared, "labeler") == labels);
}

TEST_CASE("update: the client's managedFields replace the recorded ones, reset them, or are ignored") {
  FieldManager fm(Config("", "ConfigMap"));
  const json live = Stored(ConfigMap({{"a", "1"}}), json::array({Entry("creator", "Update", kDataA)}));
  json replaced = live;
  replaced["metadata"]["managedFields"] = json::array({Entry("someone", "Apply", kDataA)});
  fm.Update(live, &replaced, "writer");
  CHECK(Managers(replaced) == "someone/Apply");
  json reset = live;
  reset["metadata"]["managedFields"] = json::array({json::object()});
  reset["data"]["b"] = "2";
  fm.Update(live, &reset, "writer");
  CHECK_FALSE(reset["metadata"].contains("managedFields"));
  json invalid = live;
  invalid["metadata"]["managedFields"] = json::array({Entry("x", "Patch", kDataA)});
  fm.Update(live, &invalid, "writer");
  CHECK(Managers(invalid) == "creator/Update");
  // Through a subresource the client's list never counts.
  FieldManager status(Config("apps", "Deployment", "status"));
  json dep = Stored({{"apiVersion", "apps/v1"}, {"kind", "Deployment"}, {"metadata", {{"name", "d"}}}},
                    json::array({Entry("creator", "Update", {{"f:spec", {{"f:paused", json::object()}}}})}));
  dep["metadata"]["managedFields"][0]["apiVersion"] = "apps/v1";
  json dep_next = dep;
  dep_next["metadata"]["managedFields"] = json::array();
  dep_next["status"] = {{"replicas", 1}};
  status.Update(dep, &dep_next, "ctrl");
  CHECK(Managers(dep_next) == "creator/Update ctrl/Update/status");
}

TEST_CASE("update: an existing object without managers stays without until it is applied") {
  FieldManager fm(Config("", "ConfigMap"));
  const json live = Stored(ConfigMap({{"a", "1"}}));
  json next = live;
  next["data"]["a"] = "2";
  fm.Update(live, &next, "writer");
  CHECK_FALSE(next["metadata"].contains("managedFields"));
  auto applied = fm.Apply(live, ConfigMap({{"z", "1"}}), "late", false);
  REQUIRE(applied.ok());
  CHECK(Managers(*applied) == "late/Apply before-first-apply/Update");
  CHECK(FieldsOf(*applied, "before-first-apply") == json{{"f:data", {{".", json::object()}, {"f:a", json::object()}}}});
}

TEST_CASE("update: more than 10 Update entries fold the oldest into ancient-changes") {
  FieldManager fm(Config("", "ConfigMap"));
  json entries = json::array();
  json data = json::object();
  for (int i = 0; i < 10; ++i) {
    const std::string key = "k" + std::to_string(i);
    data[key] = "v";
    entries.push_back(Entry("m" + std::to_string(i), "Update", {{"f:data", {{"f:" + key, json::object()}}}},
                            FormatRfc3339(1000 + i)));
  }
  const json live = Stored(ConfigMap(data), entries);
  json next = live;
  next["data"]["new"] = "v";
  fm.Update(live, &next, "eleventh");
  const std::string managers = Managers(next);
  CHECK(next["metadata"]["managedFields"].size() == 10);
  CHECK(managers.find("ancient-changes/Update") != std::string::npos);
  CHECK(managers.find("m0/") == std::string::npos);
  CHECK(managers.find("m1/") == std::string::npos);
  CHECK(FieldsOf(next, "ancient-changes") ==
        json{{"f:data", {{"f:k0", json::object()}, {"f:k1", json::object()}}}});
}

TEST_CASE("apply: create, re-apply without change, a removed field, shared values and conflicts") {
  FieldManager fm(Config("", "ConfigMap"));
  auto created = fm.Apply(json::object(), ConfigMap({{"a", "1"}, {"b", "2"}}), "kubectl", false);
  REQUIRE(created.ok());
  CHECK(Managers(*created) == "kubectl/Apply");
  CHECK(FieldsOf(*created, "kubectl") == json{{"f:data", {{"f:a", json::object()}, {"f:b", json::object()}}}});
  const json live = Stored(*created);

  auto again = fm.Apply(live, ConfigMap({{"a", "1"}, {"b", "2"}}), "kubectl", false);
  REQUIRE(again.ok());
  CHECK(*again == live);

  auto dropped = fm.Apply(live, ConfigMap({{"a", "1"}}), "kubectl", false);
  REQUIRE(dropped.ok());
  CHECK((*dropped)["data"] == json{{"a", "1"}});

  auto shared = fm.Apply(live, ConfigMap({{"a", "1"}}), "other", false);
  REQUIRE(shared.ok());
  // An apply that changes nothing sets no time, so it sorts first.
  CHECK(Managers(*shared) == "other/Apply kubectl/Apply");
  CHECK(FieldsOf(*shared, "other") == kDataA);

  auto conflict = fm.Apply(live, ConfigMap({{"a", "9"}}), "other", false);
  REQUIRE_FALSE(conflict.ok());
  CHECK(conflict.status().code() == StatusCode::kConflict);
  CHECK(conflict.status().message() == "Apply failed with 1 conflict: conflict with \"kubectl\": .data.a");
  REQUIRE(conflict.status().details().causes.size() == 1);
  CHECK(conflict.status().details().causes[0].field == ".data.a");

  auto forced = fm.Apply(live, ConfigMap({{"a", "9"}}), "other", true);
  REQUIRE(forced.ok());
  CHECK((*forced)["data"] == json{{"a", "9"}, {"b", "2"}});
  CHECK(FieldsOf(*forced, "kubectl") == json{{"f:data", {{"f:b", json::object()}}}});
  CHECK(FieldsOf(*forced, "other") == kDataA);
}

TEST_CASE("apply: a field another manager owns stays when the applier drops it") {
  FieldManager fm(Config("", "ConfigMap"));
  const json live = Stored(ConfigMap({{"a", "1"}, {"b", "2"}}),
                           json::array({Entry("kubectl", "Apply", {{"f:data", {{"f:a", json::object()}, {"f:b", json::object()}}}}),
                                         Entry("editor", "Update", {{"f:data", {{"f:b", json::object()}}}})}));
  auto applied = fm.Apply(live, ConfigMap({{"a", "1"}}), "kubectl", false);
  REQUIRE(applied.ok());
  CHECK((*applied)["data"] == json{{"a", "1"}, {"b", "2"}});
  CHECK(FieldsOf(*applied, "kubectl") == kDataA);
}

TEST_CASE("apply: the body's type, managedFields and values are checked as kube checks them") {
  FieldManager fm(Config("", "ConfigMap"));
  auto message = [&](json config) {
    auto r = fm.Apply(json::object(), config, "m", false);
    return std::to_string(r.ok() ? 200 : r.status().HttpCode()) + " " + (r.ok() ? "" : r.status().message());
  };
  CHECK(message({{"metadata", {{"name", "cm"}}}}) == "400 invalid object type: /, Kind=");
  CHECK(message({{"apiVersion", "v1"}, {"kind", "Secret"}}) == "400 invalid object type: /v1, Kind=Secret");
  CHECK(message({{"apiVersion", "apps/v1"}, {"kind", "ConfigMap"}}) == "400 invalid object type: apps/v1, Kind=ConfigMap");
  json with_managed = ConfigMap({{"a", "1"}});
  with_managed["metadata"]["managedFields"] = json::array();
  CHECK(message(with_managed) == "400 metadata.managedFields must be nil");
  CHECK(message(ConfigMap({{"a", 1}})) ==
        "500 failed to create typed patch object (ns/cm; /v1, Kind=ConfigMap): .data.a: expected string, got "
        "&value.valueUnstructured{Value:1}");
}

TEST_CASE("apply: kubectl takes over its client-side apply without conflicts and keeps the annotation current") {
  FieldManager fm(Config("", "ConfigMap"));
  const std::string last_applied =
      R"({"apiVersion":"v1","data":{"a":"1","b":"2"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"cm","namespace":"ns"}})"
      "\n";
  json live = Stored(ConfigMap({{"a", "1"}, {"b", "2"}}),
                     json::array({Entry("kubectl-client-side-apply", "Update",
                                        {{"f:data", {{".", json::object()}, {"f:a", json::object()}, {"f:b", json::object()}}},
                                         {"f:metadata", {{"f:annotations", {{".", json::object()},
                                                                            {"f:kubectl.kubernetes.io/last-applied-configuration", json::object()}}}}}})}));
  live["metadata"]["annotations"] = {{"kubectl.kubernetes.io/last-applied-configuration", last_applied}};
  // Another manager than kubectl conflicts as usual.
  CHECK(fm.Apply(live, ConfigMap({{"a", "1b"}}), "someone", false).status().code() == StatusCode::kConflict);
  auto applied = fm.Apply(live, ConfigMap({{"a", "1b"}}), "kubectl", false);
  REQUIRE_MESSAGE(applied.ok(), applied.status().message());
  CHECK((*applied)["data"]["a"] == "1b");
  CHECK((*applied)["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"] ==
        R"({"apiVersion":"v1","data":{"a":"1b"},"kind":"ConfigMap","metadata":{"name":"cm","namespace":"ns"}})"
        "\n");
  // A field whose live value no longer matches the annotation is no longer kubectl's to take.
  json drifted = live;
  drifted["data"]["a"] = "edited";
  CHECK(fm.Apply(drifted, ConfigMap({{"a", "1b"}}), "kubectl", false).status().code() == StatusCode::kConflict);
}

TEST_CASE("scale: the Scale sees the entries owning replicas, and writes through it map back") {
  const json parent = json::array(
      {Entry("kubectl", "Apply", {{"f:spec", {{"f:replicas", json::object()}, {"f:paused", json::object()}}}}),
       Entry("other", "Update", {{"f:spec", {{"f:minReadySeconds", json::object()}}}})});
  json view = ScaleView(parent, ".spec.replicas");
  REQUIRE(view.size() == 1);
  CHECK(view[0]["manager"] == "kubectl");
  CHECK(view[0]["apiVersion"] == "autoscaling/v1");
  CHECK(view[0]["fieldsV1"] == json{{"f:spec", {{"f:replicas", json::object()}}}});
  // An HPA writes the replicas through the Scale.
  json scale = {{"apiVersion", "autoscaling/v1"}, {"kind", "Scale"}, {"metadata", {{"name", "d"}, {"uid", "u"}, {"managedFields", view}}},
                {"spec", {{"replicas", 1}}}};
  json next_scale = scale;
  next_scale["spec"]["replicas"] = 3;
  ScaleFieldManager().Update(scale, &next_scale, "hpa");
  json entries = ParentAfter(parent, next_scale["metadata"]["managedFields"], "v1", ".spec.replicas");
  REQUIRE(entries.size() == 3);
  CHECK(entries[0]["manager"] == "kubectl");
  CHECK(entries[0]["fieldsV1"] == json{{"f:spec", {{"f:paused", json::object()}}}});
  // As kube does, a manager new to the object gets no time through the Scale (so it sorts first).
  CHECK(entries[1]["manager"] == "hpa");
  CHECK(entries[1]["subresource"] == "scale");
  CHECK(entries[1]["apiVersion"] == "v1");
  CHECK_FALSE(entries[1].contains("time"));
  CHECK(entries[1]["fieldsV1"] == json{{"f:spec", {{"f:replicas", json::object()}}}});
  CHECK(entries[2]["manager"] == "other");
}

TEST_CASE("times: a write that changes nothing but times keeps the old ones") {
  const json current = Stored(ConfigMap({{"a", "1"}}), json::array({Entry("m", "Update", kDataA, "2024-01-01T00:00:00Z")}));
  json next = current;
  next["metadata"]["managedFields"][0]["time"] = "2025-01-01T00:00:00Z";
  json changed = next;
  changed["data"]["a"] = "2";
  KeepTimesOfUnchangedObject(current, &next);
  CHECK(next == current);
  KeepTimesOfUnchangedObject(current, &changed);
  CHECK(changed["metadata"]["managedFields"][0]["time"] == "2025-01-01T00:00:00Z");
}

}  // namespace
}  // namespace kube::registry
