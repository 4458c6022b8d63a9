// Strategic merge patch against fake Pod/Deployment/Namespace schemas that carry the real patch
// strategies and merge keys. Expected orders follow upstream's algorithm (see smp_lists.cc).
#include <doctest/doctest.h>

#include <string>

#include "patch/merge_patch.h"
#include "patch/strategic_merge_patch.h"
#include "patch/test_schema.h"

namespace kube::patch {
namespace {

using nlohmann::json;
using testing::FakeSchema;

const FakeSchema& Deployment() {
  static const FakeSchema* s = new FakeSchema(testing::DeploymentDesc());
  return *s;
}
const FakeSchema& Pod() {
  static const FakeSchema* s = new FakeSchema(testing::PodDesc());
  return *s;
}

const json kDeployment = json::parse(R"({
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "web", "annotations": {"a": "1"}, "labels": {"app": "web"},
               "finalizers": ["x/a", "x/b"]},
  "spec": {
    "replicas": 2,
    "selector": {"matchLabels": {"app": "web"}},
    "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
    "extra": {"a": 1, "b": {"c": 2}, "list": [1, 2]},
    "template": {
      "metadata": {"labels": {"app": "web"}},
      "spec": {
        "containers": [
          {"name": "nginx", "image": "nginx:1.25", "ports": [{"containerPort": 80, "name": "http"}],
           "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]},
          {"name": "sidecar", "image": "busybox:1.36", "args": ["sleep", "infinity"]}],
        "volumes": [{"name": "data", "emptyDir": {}}],
        "tolerations": [{"key": "k1", "operator": "Exists"}],
        "imagePullSecrets": [{"name": "reg"}]}}}})");

// A patch body that changes only the Deployment's pod template spec.
std::string PodSpecPatch(std::string_view pod_spec) {
  return R"({"spec":{"template":{"spec":)" + std::string(pod_spec) + "}}}";
}

json Apply(const json& doc, std::string_view body, const catalogue::Schema* schema) {
  Result<json> r = ApplyStrategicMergePatch(doc, body, schema);
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return *r;
}
json ApplyD(std::string_view body) { return Apply(kDeployment, body, &Deployment()); }

json PodSpecOf(const json& deployment) { return deployment["spec"]["template"]["spec"]; }
json Names(const json& list) {
  json names = json::array();
  for (const json& item : list) names.push_back(item["name"]);
  return names;
}

void CheckError(std::string_view body, StatusCode code, std::string_view message,
                const json& doc = kDeployment) {
  Result<json> r = ApplyStrategicMergePatch(doc, body, &Deployment());
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == code);
  CHECK(r.status().message() == message);
}

TEST_CASE("smp: kubectl apply's three-way patch against a Deployment") {
  json out = ApplyD(R"({"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"kind\":\"Deployment\"}\n"}},)"
                    R"("spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"nginx"},)"
                    R"({"name":"sidecar"}],"containers":[{"image":"nginx:1.26","name":"nginx"}]}}}})");
  json expected = kDeployment;
  expected["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"] =
      "{\"kind\":\"Deployment\"}\n";
  expected["spec"]["template"]["spec"]["containers"][0]["image"] = "nginx:1.26";
  CHECK(out == expected);
}

TEST_CASE("smp: containers merge by name") {
  json out = ApplyD(PodSpecPatch(R"({"containers":[{"name":"sidecar","image":"busybox:1.37"}]})"));
  json containers = PodSpecOf(out)["containers"];
  CHECK(Names(containers) == json({"nginx", "sidecar"}));
  CHECK(containers[1]["image"] == "busybox:1.37");
  CHECK(containers[1]["args"] == json({"sleep", "infinity"}));
  CHECK(containers[0] == PodSpecOf(kDeployment)["containers"][0]);

  // Added items the server does not know land first unless $setElementOrder says otherwise.
  out = ApplyD(PodSpecPatch(R"({"containers":[{"name":"debug","image":"busybox"}]})"));
  CHECK(Names(PodSpecOf(out)["containers"]) == json({"debug", "nginx", "sidecar"}));
  out = ApplyD(PodSpecPatch(R"({"$setElementOrder/containers":[{"name":"nginx"},{"name":"sidecar"},)"
                            R"({"name":"debug"}],"containers":[{"name":"debug","image":"busybox"}]})"));
  CHECK(Names(PodSpecOf(out)["containers"]) == json({"nginx", "sidecar", "debug"}));
  CHECK(PodSpecOf(out)["containers"][2] == json({{"name", "debug"}, {"image", "busybox"}}));

  out = ApplyD(PodSpecPatch(R"({"containers":[{"name":"sidecar","$patch":"delete"}]})"));
  CHECK(Names(PodSpecOf(out)["containers"]) == json({"nginx"}));
  // Deleting an absent item is not an error.
  out = ApplyD(PodSpecPatch(R"({"containers":[{"name":"nope","$patch":"delete"}]})"));
  CHECK(out == kDeployment);

  out = ApplyD(PodSpecPatch(R"({"containers":[{"$patch":"replace"},{"name":"solo",)"
                            R"("image":"solo:1"}]})"));
  CHECK(PodSpecOf(out)["containers"] == json::parse(R"([{"name":"solo","image":"solo:1"}])"));
}

TEST_CASE("smp: env and ports merge by their keys") {
  json out = ApplyD(PodSpecPatch(R"({"containers":[{"name":"nginx",
      "env":[{"name":"B","value":"20"},{"name":"C","value":"3"}],
      "ports":[{"containerPort":80,"name":"web"},{"containerPort":443,"name":"https"}]}]})"));
  json nginx = PodSpecOf(out)["containers"][0];
  CHECK(nginx["env"] == json::parse(R"([{"name":"A","value":"1"},{"name":"B","value":"20"},)"
                                    R"({"name":"C","value":"3"}])"));
  CHECK(nginx["ports"] == json::parse(R"([{"containerPort":80,"name":"web"},{"containerPort":443,)"
                                      R"("name":"https"}])"));
  CHECK(Names(PodSpecOf(out)["containers"]) == json({"nginx", "sidecar"}));

  // Removing a member of a merged item.
  out = ApplyD(PodSpecPatch(R"({"containers":[{"name":"nginx","env":[{"name":"A","value":null}]}]})"));
  CHECK(PodSpecOf(out)["containers"][0]["env"][0] == json({{"name", "A"}}));
}

TEST_CASE("smp: kubectl swapping an item next to a server-only one keeps upstream's order") {
  // Upstream deletes A in place and appends C into the freed slot of the same array, which the
  // $setElementOrder step then uses as the server order: S ends up first. (Checked against
  // k8s.io/apimachinery.)
  json doc = kDeployment;
  doc["spec"]["template"]["spec"]["containers"][0]["env"] =
      json::parse(R"([{"name":"A","value":"1"},{"name":"S","value":"server"},{"name":"B",)"
                  R"("value":"2"}])");
  json out = Apply(doc, PodSpecPatch(R"({"containers":[{"name":"nginx",)"
                                     R"("$setElementOrder/env":[{"name":"C"},{"name":"B"}],)"
                                     R"("env":[{"name":"C","value":"3"},{"name":"A",)"
                                     R"("$patch":"delete"}]}]})"),
                   &Deployment());
  CHECK(Names(PodSpecOf(out)["containers"][0]["env"]) == json({"S", "C", "B"}));
}

TEST_CASE("smp: $setElementOrder reorders a list on its own") {
  json out = ApplyD(PodSpecPatch(R"({"$setElementOrder/containers":[{"name":"sidecar"},)"
                                 R"({"name":"nginx"}]})"));
  CHECK(Names(PodSpecOf(out)["containers"]) == json({"sidecar", "nginx"}));
  CHECK(PodSpecOf(out)["containers"][1] == PodSpecOf(kDeployment)["containers"][0]);
}

TEST_CASE("smp: $retainKeys") {
  json out = ApplyD(R"({"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}})");
  CHECK(out["spec"]["strategy"] == json({{"type", "Recreate"}}));
  // Volumes are "merge,retainKeys": switching a volume's source.
  out = ApplyD(PodSpecPatch(R"({"volumes":[{"name":"data","$retainKeys":["configMap","name"],)"
                            R"("configMap":{"name":"cm"}}]})"));
  CHECK(PodSpecOf(out)["volumes"] == json::parse(R"([{"name":"data","configMap":{"name":"cm"}}])"));

  CheckError(R"({"spec":{"strategy":{"$retainKeys":["type"],"rollingUpdate":{"maxSurge":1}}}})",
             StatusCode::kBadRequest, "invalid patch format of retainKeys");
  CheckError(R"({"spec":{"strategy":{"$retainKeys":"type"}}})", StatusCode::kBadRequest,
             "invalid patch format of retainKeys");
}

TEST_CASE("smp: lists of primitives") {
  // metadata.finalizers has patchStrategy merge: a union, patch items first.
  json out = ApplyD(R"({"metadata":{"finalizers":["x/c","x/a"]}})");
  CHECK(out["metadata"]["finalizers"] == json({"x/c", "x/a", "x/b"}));
  out = ApplyD(R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["x/a"]}})");
  CHECK(out["metadata"]["finalizers"] == json({"x/b"}));
  out = ApplyD(R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["x/a"],"finalizers":["x/c"]}})");
  CHECK(out["metadata"]["finalizers"] == json({"x/c", "x/b"}));
  // Deletion lists run after the merge: an item both added and deleted is gone.
  out = ApplyD(R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["x/c"],"finalizers":["x/c"]}})");
  CHECK(out["metadata"]["finalizers"] == json({"x/a", "x/b"}));
  // What kubectl apply sends when it swaps x/a for x/c.
  out = ApplyD(R"({"metadata":{"$setElementOrder/finalizers":["x/b","x/c"],)"
               R"("$deleteFromPrimitiveList/finalizers":["x/a"],"finalizers":["x/c"]}})");
  CHECK(out["metadata"]["finalizers"] == json({"x/b", "x/c"}));
  // A deletion list never creates its target.
  out = ApplyD(R"({"spec":{"template":{"metadata":{"$deleteFromPrimitiveList/finalizers":["x"]}}}})");
  CHECK_FALSE(out["spec"]["template"]["metadata"].contains("finalizers"));

  // Namespace spec.finalizers has no strategy: replaced.
  FakeSchema ns(testing::NamespaceDesc());
  json ns_doc = json::parse(R"({"kind":"Namespace","spec":{"finalizers":["kubernetes"]}})");
  CHECK(Apply(ns_doc, R"({"spec":{"finalizers":["other"]}})", &ns)["spec"]["finalizers"] ==
        json({"other"}));
}

TEST_CASE("smp: lists without merge strategy are replaced") {
  json out = ApplyD(PodSpecPatch(R"({"tolerations":[{"key":"k2","operator":"Exists","value":null}]})"));
  CHECK(PodSpecOf(out)["tolerations"] == json::parse(R"([{"key":"k2","operator":"Exists"}])"));
  out = ApplyD(PodSpecPatch(R"({"containers":[{"name":"sidecar","args":["sleep","1"]}]})"));
  CHECK(PodSpecOf(out)["containers"][1]["args"] == json({"sleep", "1"}));
  out = ApplyD(PodSpecPatch(R"({"imagePullSecrets":[{"name":"other"}]})"));
  CHECK(Names(PodSpecOf(out)["imagePullSecrets"]) == json({"other", "reg"}));
}

TEST_CASE("smp: maps, nulls and $patch on objects") {
  json out = ApplyD(R"({"metadata":{"labels":{"$patch":"replace","team":"a"}}})");
  CHECK(out["metadata"]["labels"] == json({{"team", "a"}}));
  out = ApplyD(R"({"spec":{"selector":{"$patch":"delete"}}})");
  CHECK(out["spec"]["selector"] == json::object());
  out = ApplyD(R"({"spec":{"replicas":null,"paused":null,)"
               R"("template":{"spec":{"nodeSelector":{"disk":"ssd","gone":null}}}}})");
  CHECK_FALSE(out["spec"].contains("replicas"));
  CHECK_FALSE(out["spec"].contains("paused"));
  CHECK(PodSpecOf(out)["nodeSelector"] == json({{"disk", "ssd"}}));
  // A value of another type replaces.
  out = ApplyD(R"({"spec":{"replicas":"three","strategy":"Recreate"}})");
  CHECK(out["spec"]["replicas"] == "three");
  CHECK(out["spec"]["strategy"] == "Recreate");
  out = Apply(kDeployment, R"({"$patch":"replace","kind":"X"})", &Deployment());
  CHECK(out == json({{"kind", "X"}}));
  // "null" is an empty patch.
  CHECK(ApplyD("null") == kDeployment);
}

TEST_CASE("smp: unknown fields and no schema behave like a merge patch") {
  json out = ApplyD(R"({"spec":{"extra":{"a":null,"b":{"d":3},"list":[3]}}})");
  CHECK(out["spec"]["extra"] == json::parse(R"({"b":{"c":2,"d":3},"list":[3]})"));
  for (const char* body :
       {R"({"spec":{"extra":{"a":null,"b":{"d":3}},)"
        R"("template":{"spec":{"containers":[{"name":"x"}]}}}})",
        R"({"metadata":{"labels":{"app":null,"new":"1"}},"spec":{"replicas":5}})"}) {
    Result<json> merged = ApplyMergePatch(kDeployment, body);
    REQUIRE(merged.ok());
    CHECK(Apply(kDeployment, body, nullptr) == *merged);
  }
  // Directives still work without a schema.
  out = Apply(kDeployment, R"({"metadata":{"labels":{"$patch":"replace","z":"1"}}})", nullptr);
  CHECK(out["metadata"]["labels"] == json({{"z", "1"}}));
}

TEST_CASE("smp: directives never leak into new content") {
  json pod = json::parse(R"({"kind":"Pod","metadata":{"name":"p",)"
                         R"("ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet",)"
                         R"("name":"rs","uid":"u1"}]},"spec":{"containers":[{"name":"app",)"
                         R"("image":"app:1"}]}})");
  json out = Apply(pod, R"({"spec":{"$setElementOrder/initContainers":[{"name":"init"}],)"
                        R"("initContainers":[{"name":"init","image":"busybox",)"
                        R"("$setElementOrder/env":[{"name":"X"}],"env":[{"name":"X",)"
                        R"("value":"1"}]}]}})",
                   &Pod());
  CHECK(out["spec"]["initContainers"] == json::parse(R"([{"name":"init","image":"busybox",)"
                                                     R"("env":[{"name":"X","value":"1"}]}])"));
  out = Apply(json::parse(R"({"metadata":{"name":"d"}})"),
              R"({"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"a"}],)"
              R"("containers":[{"name":"a","image":"i","ports":[{"containerPort":1,)"
              R"("$patch":"delete"}]}]}}}})",
              &Deployment());
  CHECK(out["spec"] == json::parse(R"({"template":{"spec":{"containers":[{"name":"a","image":"i",)"
                                   R"("ports":[]}]}}})"));
  // ownerReferences merge by uid.
  out = Apply(pod, R"({"metadata":{"ownerReferences":[{"uid":"u1","name":"rs2"}]}})", &Pod());
  CHECK(out["metadata"]["ownerReferences"][0]["name"] == "rs2");
  CHECK(out["metadata"]["ownerReferences"][0]["kind"] == "ReplicaSet");
}

TEST_CASE("smp: malformed bodies and directives are errors, never exceptions") {
  CheckError("not json", StatusCode::kBadRequest, "invalid JSON patch");
  CheckError("[]", StatusCode::kBadRequest,
             "json: cannot unmarshal array into Go value of type map[string]interface {}");
  CheckError("\"s\"", StatusCode::kBadRequest,
             "json: cannot unmarshal string into Go value of type map[string]interface {}");
  CheckError(R"({"metadata":{"$patch":"merge"}})", StatusCode::kUnknown,
             "unknown patch type: merge in map: map[$patch:merge]");
  CheckError(R"({"metadata":{"labels":{"$patch":5}}})", StatusCode::kUnknown,
             "unknown patch type: %!s(int64=5) in map: map[$patch:5]");
  CheckError(PodSpecPatch(R"({"containers":[{"image":"x"}]})"),
             StatusCode::kUnknown, "map: map[image:x] does not contain declared merge key: name");
  CheckError(PodSpecPatch(R"({"containers":[{"name":"nginx","$patch":"merge"}]})"),
             StatusCode::kUnknown, "merging lists cannot yet be specified in the patch");
  CheckError(PodSpecPatch(R"({"containers":[{"name":"nginx","$patch":"bogus"}]})"),
             StatusCode::kUnknown, "unknown patch type: bogus in map: map[$patch:bogus name:nginx]");
  CheckError(PodSpecPatch(R"({"$setElementOrder/containers":"nginx"})"),
             StatusCode::kUnknown, "expected a []interface {}, but received a string");
  CheckError(PodSpecPatch(R"({"$setElementOrder":[]})"), StatusCode::kBadRequest,
             "invalid patch format of setElementOrder list");
  CheckError(R"({"metadata":{"$deleteFromPrimitiveList":["a"]}})", StatusCode::kBadRequest,
             "invalid patch format of primitive list");
  CheckError(PodSpecPatch(R"({"$setElementOrder/containers":[{"name":"nginx"}],)"
                          R"("containers":[{"name":"sidecar"}]})"),
             StatusCode::kUnknown,
             "The order in patch list:\n[map[name:sidecar]]\n doesn't match $setElementOrder "
             "list:\n[map[name:nginx]]\n");
  CheckError(PodSpecPatch(R"({"$setElementOrder/bogus":[]})"), StatusCode::kUnknown,
             "unable to find api field in struct PodSpec for the json field \"bogus\"");
  CheckError(R"({"metadata":{"labels":{"$setElementOrder/x":[]}}})", StatusCode::kUnknown,
             "merging an object in json but data type is not struct, instead is: map");
  CheckError(R"({"metadata":{"finalizers":[1]}})", StatusCode::kUnknown,
             "list element types are not identical: [[x/a x/b] [1]]");
  json no_finalizers = kDeployment;
  no_finalizers["metadata"]["finalizers"] = json::array();
  Result<json> r = ApplyStrategicMergePatch(no_finalizers, R"({"metadata":{"finalizers":[["a"]]}})",
                                            &Deployment());
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().HttpCode() == 422);
  CHECK(r.status().Reason() == "Invalid");
  // Unknown errors are 500s without a reason, as kube reports errors that are not API statuses.
  r = ApplyStrategicMergePatch(kDeployment, R"({"metadata":{"$patch":"x"}})", &Deployment());
  CHECK(r.status().HttpCode() == 500);
  CHECK(r.status().Reason().empty());
}

}  // namespace
}  // namespace kube::patch
