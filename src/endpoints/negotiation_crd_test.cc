// Unit tests of what the endpoints layer does differently for custom resources and YAML:
// negotiation without a protobuf form, YAML responses, discovery of custom resources, and the
// scale subresource at a CRD's paths.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "catalogue/catalogue.h"
#include "endpoints/discovery.h"
#include "endpoints/negotiation.h"
#include "endpoints/scale.h"

namespace kube::endpoints {

using nlohmann::json;

TEST_CASE("negotiation: custom resources have no protobuf form, YAML is a plain representation") {
  // Protobuf alone is not acceptable for a kind without a protobuf form ...
  CHECK(Negotiate("application/vnd.kubernetes.protobuf", false, /*allow_protobuf=*/false).status().code() ==
        StatusCode::kNotAcceptable);
  // ... and a later JSON range is taken instead.
  auto fallback = Negotiate("application/vnd.kubernetes.protobuf, application/json", false, false);
  REQUIRE(fallback.ok());
  CHECK_FALSE(fallback->protobuf);
  CHECK(Negotiate("application/vnd.kubernetes.protobuf", false, true)->protobuf);
  auto yaml = Negotiate("application/yaml");
  REQUIRE(yaml.ok());
  CHECK(yaml->yaml);
  CHECK(yaml->as == Representation::As::kObject);
  CHECK(Negotiate("application/yaml", /*allow_discovery=*/true).status().code() == StatusCode::kNotAcceptable);
}

catalogue::ResourceInfo Widget(std::string version) {
  catalogue::ResourceInfo w;
  w.group = "kal.example.com";
  w.version = std::move(version);
  w.resource = "widgets";
  w.singular = "widget";
  w.kind = "Widget";
  w.list_kind = "WidgetList";
  w.namespaced = true;
  w.verbs = {"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"};
  w.short_names = {"wd"};
  w.categories = {"kalcat"};
  w.subresources = {{"scale", "autoscaling", "v1", "Scale", {"get", "patch", "update"}},
                    {"status", w.group, w.version, "Widget", {"get", "patch", "update"}}};
  return w;
}

TEST_CASE("go-restful's Accept check of a built-in route: */* or a produced media type, parameters dropped") {
  CHECK(RouteAccepts("", false));
  CHECK(RouteAccepts("application/json;as=Table;v=v1;g=meta.k8s.io,application/json", false));
  CHECK(RouteAccepts("application/vnd.kubernetes.protobuf, */*", false));
  CHECK(RouteAccepts("text/html, */*;q=0.8", false));
  CHECK_FALSE(RouteAccepts("application/xml", false));
  CHECK_FALSE(RouteAccepts("application/*", true));
  // A clause is compared without its parameters: a stream type passes through its bare type.
  CHECK(RouteAccepts("application/json;stream=watch", false));
  const Status refused = RouteNotAcceptable(true);
  CHECK(refused.HttpCode() == 406);
  CHECK(refused.message() ==
        "406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, "
        "application/vnd.kubernetes.protobuf, application/json;stream=watch, "
        "application/vnd.kubernetes.protobuf;stream=watch");
  CHECK(RouteNotAcceptable(false).message() ==
        "406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, "
        "application/vnd.kubernetes.protobuf");
}

TEST_CASE("discovery: custom resources join legacy and aggregated documents in version priority order") {
  const auto& cat = catalogue::Catalogue::BuiltIn();
  Discovery d(cat, [](const catalogue::ResourceInfo&) { return true; }, {Widget("v1beta1"), Widget("v1")});
  const json* group = d.Group("kal.example.com");
  REQUIRE(group != nullptr);
  CHECK((*group)["preferredVersion"]["version"] == "v1");
  CHECK((*group)["versions"][0]["version"] == "v1");
  CHECK((*group)["versions"][1]["version"] == "v1beta1");
  const json* list = d.ResourceList("kal.example.com", "v1");
  REQUIRE(list != nullptr);
  CHECK((*list)["resources"].size() == 3);  // widgets, widgets/scale, widgets/status
  CHECK((*list)["resources"][1]["name"] == "widgets/scale");
  CHECK((*list)["resources"][1]["group"] == "autoscaling");
  const json agg = d.Aggregated(false, "v2");
  const json& last = agg["items"].back();
  CHECK(last["metadata"]["name"] == "kal.example.com");
  CHECK(last["versions"][0]["resources"][0]["shortNames"] == json::array({"wd"}));
  // Built-in groups stay first.
  CHECK(d.GroupList()["groups"][0]["name"] != "kal.example.com");
  // Without custom resources the group is gone.
  Discovery none(cat, [](const catalogue::ResourceInfo&) { return true; });
  CHECK(none.Group("kal.example.com") == nullptr);
}

TEST_CASE("scale: a custom resource's Scale reads and writes the CRD's paths") {
  const registry::ScalePaths paths{.spec_replicas = ".spec.size.replicas",
                                   .status_replicas = ".status.count",
                                   .label_selector = ".status.selector"};
  json w = {{"metadata", {{"name", "w1"}, {"resourceVersion", "7"}}},
            {"spec", {{"size", {{"replicas", 3}}}}},
            {"status", {{"count", 2}, {"selector", "app=w"}}}};
  json s = ScaleOf(w, &paths);
  CHECK(s["spec"]["replicas"] == 3);
  CHECK(s["status"]["replicas"] == 2);
  CHECK(s["status"]["selector"] == "app=w");
  CHECK(s["metadata"]["resourceVersion"] == "7");
  json scaled = WithReplicas(w, json{{"spec", {{"replicas", 5}}}}, &paths);
  CHECK(scaled["spec"]["size"]["replicas"] == 5);
  // Missing paths read as zero replicas and no selector; writing creates the path.
  json empty = {{"metadata", {{"name", "w2"}}}};
  CHECK(ScaleOf(empty, &paths)["spec"]["replicas"] == 0);
  CHECK_FALSE(ScaleOf(empty, &paths)["status"].contains("selector"));
  CHECK(WithReplicas(empty, json{{"spec", {{"replicas", 1}}}}, &paths)["spec"]["size"]["replicas"] == 1);
}

}  // namespace kube::endpoints
