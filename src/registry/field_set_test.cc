// Field paths and sets (field_set.h) and the typed merge (typed_value.h) against the catalogue's
// schemas: set algebra over paths with list keys, kube's FieldsV1 form, and for each list and map
// type the field sets, comparison, merge and removal structured-merge-diff defines.
#include "registry/field_set.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "catalogue/catalogue.h"
#include "registry/typed_value.h"

namespace kube::registry {
namespace {

using nlohmann::json;

PathElement F(std::string name) { return PathElement::Field(std::move(name)); }

FieldSet Fields(const json& fields_v1) {
  auto set = FieldSet::FromFieldsV1(fields_v1);
  REQUIRE_MESSAGE(set.ok(), set.status().message());
  return *set;
}

const catalogue::Schema* Kind(std::string_view group, std::string_view kind) {
  return catalogue::Catalogue::BuiltIn().KindSchema(group, "v1", kind);
}

// kube's FieldsV1 of `kubectl apply --server-side` of a small Deployment (one container, one port).
const json kDeploymentFields = json::parse(R"({
  "f:spec": {"f:replicas": {}, "f:selector": {},
    "f:template": {"f:metadata": {"f:labels": {"f:app": {}}},
      "f:spec": {"f:containers": {"k:{\"name\":\"app\"}": {".": {}, "f:image": {}, "f:name": {},
        "f:ports": {"k:{\"containerPort\":80,\"protocol\":\"TCP\"}": {".": {}, "f:containerPort": {}, "f:protocol": {}}}}}}}}})");

const json kDeployment = json::parse(R"({
  "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
  "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "web"}},
    "template": {"metadata": {"labels": {"app": "web"}},
      "spec": {"containers": [{"name": "app", "image": "nginx:1.25", "ports": [{"containerPort": 80, "protocol": "TCP"}]}]}}}})");

TEST_CASE("field sets: insert, membership and the algebra over paths with list keys") {
  const FieldPath replicas{F("spec"), F("replicas")};
  const FieldPath app{F("spec"), F("containers"), PathElement::Key({{"name", "app"}})};
  const FieldPath app_image{F("spec"), F("containers"), PathElement::Key({{"name", "app"}}), F("image")};
  const FieldPath side_image{F("spec"), F("containers"), PathElement::Key({{"name", "side"}}), F("image")};
  FieldSet a, b;
  a.Insert(replicas);
  a.Insert(app);
  a.Insert(app_image);
  b.Insert(app_image);
  b.Insert(side_image);
  CHECK(a.Has(app));
  CHECK_FALSE(a.Has({F("spec")}));
  CHECK_FALSE(a.Has({}));
  FieldSet u = a.Union(b);
  CHECK((u.Has(replicas) && u.Has(app) && u.Has(app_image) && u.Has(side_image)));
  FieldSet i = a.Intersection(b);
  CHECK(i.Has(app_image));
  CHECK_FALSE(i.Has(app));
  CHECK_FALSE(i.Has(side_image));
  FieldSet d = a.Difference(b);
  CHECK((d.Has(replicas) && d.Has(app) && !d.Has(app_image)));
  // A parent in `other` takes everything below it only in the recursive difference.
  FieldSet parent;
  parent.Insert({F("spec"), F("containers")});
  CHECK(a.Difference(parent).Has(app_image));
  FieldSet rd = a.RecursiveDifference(parent);
  CHECK((rd.Has(replicas) && !rd.Has(app) && !rd.Has(app_image)));
  CHECK(a.Difference(a).Empty());
  CHECK(a == a.Union(FieldSet()));
}

TEST_CASE("field sets: kube's FieldsV1 form, both ways") {
  FieldSet set = Fields(kDeploymentFields);
  CHECK(set.Has({F("spec"), F("selector")}));
  CHECK(set.Has({F("spec"), F("template"), F("spec"), F("containers"), PathElement::Key({{"name", "app"}})}));
  CHECK(set.Has({F("spec"), F("template"), F("spec"), F("containers"), PathElement::Key({{"name", "app"}}), F("ports"),
                 PathElement::Key({{"containerPort", 80}, {"protocol", "TCP"}}), F("protocol")}));
  CHECK_FALSE(set.Has({F("spec"), F("template")}));
  CHECK(set.ToFieldsV1() == kDeploymentFields);
  // Set entries by value, old positional entries, and "." on its own.
  FieldSet finalizers = Fields({{"f:metadata", {{"f:finalizers", {{".", json::object()}, {"v:\"a/b\"", json::object()}}}}},
                                {"f:list", {{"i:3", json::object()}}}});
  CHECK(finalizers.Has({F("metadata"), F("finalizers"), PathElement::Value("a/b")}));
  CHECK(finalizers.Has({F("metadata"), F("finalizers")}));
  CHECK(finalizers.Has({F("list"), PathElement::Index(3)}));
  CHECK(finalizers.ToFieldsV1()["f:metadata"]["f:finalizers"].contains("."));
  // Keys of an unknown kind are skipped, as kube skips them.
  CHECK(Fields({{"x:whatever", json::object()}}).Empty());
}

TEST_CASE("field sets: malformed FieldsV1 is an error") {
  CHECK_FALSE(FieldSet::FromFieldsV1({{"f", json::object()}}).ok());
  CHECK_FALSE(FieldSet::FromFieldsV1({{"fx", json::object()}}).ok());
  CHECK_FALSE(FieldSet::FromFieldsV1({{"f:a", 1}}).ok());
  CHECK_FALSE(FieldSet::FromFieldsV1({{"k:[1]", json::object()}}).ok());
  CHECK_FALSE(FieldSet::FromFieldsV1({{"k:{", json::object()}}).ok());
  CHECK_FALSE(FieldSet::FromFieldsV1({{"i:x", json::object()}}).ok());
  CHECK_FALSE(FieldSet::FromFieldsV1(json::array()).ok());
  CHECK(FieldSet::FromFieldsV1(json::object())->Empty());
}

TEST_CASE("field paths print as kube prints them in conflicts") {
  CHECK(FieldPathString({F("data"), F("a")}) == ".data.a");
  CHECK(FieldPathString({F("spec"), F("ports"), PathElement::Key({{"containerPort", 80}, {"protocol", "TCP"}})}) ==
        ".spec.ports[containerPort=80,protocol=\"TCP\"]");
  CHECK(FieldPathString({F("metadata"), F("finalizers"), PathElement::Value("x")}) == ".metadata.finalizers[=\"x\"]");
  CHECK(FieldPathString({F("list"), PathElement::Index(2)}) == ".list[2]");
  CHECK(PathElement::Key({{"b", 1}, {"a", "x"}}).Serialize() == "k:{\"a\":\"x\",\"b\":1}");
}

TEST_CASE("typed: an applied Deployment's fields are kube's (list maps by key, atomic selector)") {
  json expected = kDeploymentFields;
  expected["f:apiVersion"] = json::object();
  expected["f:kind"] = json::object();
  expected["f:metadata"] = {{"f:name", json::object()}};
  CHECK(FieldsOfValue(Kind("apps", "Deployment"), kDeployment).ToFieldsV1() == expected);
  // A port without protocol is keyed by the default kube gives it.
  json port_only = kDeployment;
  port_only["spec"]["template"]["spec"]["containers"][0]["ports"][0].erase("protocol");
  const FieldSet fields = FieldsOfValue(Kind("apps", "Deployment"), port_only);
  CHECK(fields.Has({F("spec"), F("template"), F("spec"), F("containers"), PathElement::Key({{"name", "app"}}), F("ports"),
                    PathElement::Key({{"containerPort", 80}, {"protocol", "TCP"}}), F("containerPort")}));
}

TEST_CASE("typed: merge by list type — list maps by key, sets by value, atomic lists replaced, maps by key") {
  const auto* pod = Kind("", "Pod");
  json live = json::parse(R"({"metadata": {"labels": {"a": "1"}, "finalizers": ["x"]},
    "spec": {"containers": [{"name": "app", "image": "v1", "args": ["--a"]}, {"name": "side", "image": "s1"}],
             "tolerations": [{"key": "k1"}]}})");
  json config = json::parse(R"({"metadata": {"labels": {"b": "2"}, "finalizers": ["y"]},
    "spec": {"containers": [{"name": "app", "image": "v2", "args": ["--b"]}], "tolerations": [{"key": "k2"}]}})");
  json merged = MergeValues(pod, live, config);
  CHECK(merged["metadata"]["labels"] == json{{"a", "1"}, {"b", "2"}});
  CHECK(merged["metadata"]["finalizers"] == json{"x", "y"});
  CHECK(merged["spec"]["containers"] ==
        json::parse(R"([{"name": "app", "image": "v2", "args": ["--b"]}, {"name": "side", "image": "s1"}])"));
  CHECK(merged["spec"]["tolerations"] == json::parse(R"([{"key": "k2"}])"));
}

TEST_CASE("typed: list merge order follows the applied order for shared entries") {
  const auto* pod = Kind("", "Pod");
  auto names = [](const json& v) {
    std::string out;
    for (const auto& c : v["spec"]["containers"]) out += c["name"].get<std::string>();
    return out;
  };
  auto containers = [](std::vector<std::string> ns) {
    json list = json::array();
    for (auto& n : ns) list.push_back({{"name", n}});
    return json{{"spec", {{"containers", list}}}};
  };
  CHECK(names(MergeValues(pod, containers({"a", "b", "c"}), containers({"c", "a"}))) == "bca");
  CHECK(names(MergeValues(pod, containers({"a", "b"}), containers({"b", "d"}))) == "abd");
  CHECK(names(MergeValues(pod, containers({"a"}), containers({"x", "a", "y"}))) == "xay");
}

TEST_CASE("typed: comparison reports modified, added and removed fields") {
  const auto* cm = Kind("", "ConfigMap");
  Comparison c = CompareValues(cm, json::parse(R"({"data": {"a": "1", "b": "2"}})"),
                               json::parse(R"({"data": {"a": "9", "c": "3"}, "metadata": {"labels": {"x": "y"}}})"));
  CHECK(c.modified.Has({F("data"), F("a")}));
  CHECK(c.added.Has({F("data"), F("c")}));
  CHECK(c.added.Has({F("metadata"), F("labels"), F("x")}));
  CHECK(c.added.Has({F("metadata"), F("labels")}));
  CHECK(c.added.Has({F("metadata")}));
  CHECK(c.removed.Has({F("data"), F("b")}));
  CHECK_FALSE(c.modified.Has({F("data")}));
  // An atomic list changes as a whole.
  Comparison t = CompareValues(Kind("", "Pod"), json::parse(R"({"spec": {"tolerations": [{"key": "a"}]}})"),
                               json::parse(R"({"spec": {"tolerations": [{"key": "b"}]}})"));
  CHECK(t.modified.Has({F("spec"), F("tolerations")}));
  CHECK(CompareValues(cm, kDeployment, kDeployment).modified.Empty());
}

TEST_CASE("typed: removal takes what the last apply had and no one owns, and empties with it") {
  const auto* cm = Kind("", "ConfigMap");
  json obj = json::parse(R"({"metadata": {"name": "a", "labels": {"x": "1"}}, "data": {"a": "1", "b": "2"}})");
  FieldSet last = Fields({{"f:data", {{"f:a", json::object()}, {"f:b", json::object()}}},
                          {"f:metadata", {{"f:labels", {{"f:x", json::object()}}}}}});
  FieldSet now = Fields({{"f:data", {{"f:a", json::object()}}}, {"f:metadata", {{"f:name", json::object()}}}});
  FieldSet other = Fields({{"f:metadata", {{"f:labels", {{"f:x", json::object()}}}}}});
  json pruned = obj;
  RemoveUnowned(cm, &pruned, last, {&now, &other});
  CHECK(pruned == json::parse(R"({"metadata": {"name": "a", "labels": {"x": "1"}}, "data": {"a": "1"}})"));
  pruned = obj;
  RemoveUnowned(cm, &pruned, last, {&now});
  CHECK(pruned == json::parse(R"({"metadata": {"name": "a"}, "data": {"a": "1"}})"));
}

TEST_CASE("typed: validation words errors as structured-merge-diff does") {
  const auto* cm = Kind("", "ConfigMap");
  CHECK(ValidateTyped(cm, json::parse(R"({"data": {"a": "1"}})"), false).ok());
  CHECK(ValidateTyped(cm, json::parse(R"({"spec": {}})"), false).message() == ".spec: field not declared in schema");
  CHECK(ValidateTyped(cm, json::parse(R"({"data": {"a": 1}})"), false).message() ==
        ".data.a: expected string, got &value.valueUnstructured{Value:1}");
  CHECK(ValidateTyped(Kind("apps", "Deployment"), json::parse(R"({"spec": {"replicas": "x"}})"), false).message() ==
        ".spec.replicas: expected numeric (int or float), got string");
  const json dup = json::parse(R"({"spec": {"containers": [{"name": "a"}, {"name": "a"}]}})");
  CHECK(ValidateTyped(Kind("", "Pod"), dup, false).message() ==
        ".spec.containers: duplicate entries for key [name=\"a\"]");
  CHECK(ValidateTyped(Kind("", "Pod"), dup, /*allow_duplicates=*/true).ok());
  CHECK(ValidateTyped(Kind("", "Pod"), json::parse(R"({"spec": {"containers": [{"image": "x"}]}})"), false).message() ==
        ".spec.containers: element 0: associative list with keys has an element that omits all key fields "
        "[\"name\"] (and doesn't have default values for any key fields)");
  CHECK(ValidateTyped(cm, json::parse(R"({"data": {"a": 1}, "binaryData": {"b": 2}})"), false).message().starts_with(
      "errors:\n  .binaryData.b: expected string"));
}

}  // namespace
}  // namespace kube::registry
