#include <doctest/doctest.h>

#include "schema/prune.h"
#include "schema/schema_test_util.h"

namespace kube::schema {
namespace {

using testing::Crd;
using json = nlohmann::json;
using Paths = std::vector<std::string>;

constexpr const char* kWidget = R"({"type":"object","properties":{
  "spec":{"type":"object","properties":{
    "size":{"type":"integer"},
    "list":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}}}},
    "labels":{"type":"object","additionalProperties":{"type":"object","properties":{"v":{"type":"string"}}}},
    "raw":{"type":"object","x-kubernetes-preserve-unknown-fields":true,
           "properties":{"known":{"type":"object","properties":{"a":{"type":"string"}}}}},
    "free":{"x-kubernetes-preserve-unknown-fields":true},
    "template":{"type":"object","x-kubernetes-embedded-resource":true,
                "properties":{"spec":{"type":"object","properties":{"replicas":{"type":"integer"}}}}},
    "anything":{"type":"object","additionalProperties":true},
    "scalar":{"type":"string"}}},
  "status":{"type":"object","properties":{"ready":{"type":"boolean"}}}}})";

TEST_CASE("prune: unknown fields go, nested ones with their paths, sorted") {
  auto g = Crd(kWidget);
  json obj = json::parse(R"({"spec":{"size":1,"bogus":true,"list":[{"name":"a","x":1},{"name":"b"}],
    "labels":{"k":{"v":"1","w":2}}},"status":{"ready":true,"phase":"x"},"extra":{}})");
  CHECK(Prune(g->Root(), &obj) == Paths{"extra", "spec.bogus", "spec.labels.k.w", "spec.list[0].x", "status.phase"});
  CHECK(obj == json::parse(R"({"spec":{"size":1,"list":[{"name":"a"},{"name":"b"}],"labels":{"k":{"v":"1"}}},
                               "status":{"ready":true}})"));
}

TEST_CASE("prune: built-in style paths put map keys in brackets") {
  auto g = Crd(kWidget);
  json obj = json::parse(R"({"spec":{"labels":{"k":{"w":2}}}})");
  PruneOptions options;
  options.bracket_map_keys = true;
  CHECK(Prune(g->Root(), &obj, options) == Paths{"spec.labels[k].w"});
}

TEST_CASE("prune: preserve-unknown-fields keeps unknown fields but prunes described ones") {
  auto g = Crd(kWidget);
  json obj = json::parse(R"({"spec":{"raw":{"mine":{"deep":1},"known":{"a":"x","b":"y"}},"free":{"any":[{"thing":1}]}}})");
  CHECK(Prune(g->Root(), &obj) == Paths{"spec.raw.known.b"});
  CHECK(obj == json::parse(R"({"spec":{"raw":{"mine":{"deep":1},"known":{"a":"x"}},"free":{"any":[{"thing":1}]}}})"));
}

TEST_CASE("prune: objects where the schema has no structure lose their fields") {
  auto g = Crd(kWidget);
  json obj = json::parse(R"({"spec":{"scalar":{"a":1},"anything":{"k":{"nested":1},"s":"kept"}}})");
  CHECK(Prune(g->Root(), &obj) == Paths{"spec.anything.k.nested", "spec.scalar.a"});
  CHECK(obj == json::parse(R"({"spec":{"scalar":{},"anything":{"k":{},"s":"kept"}}})"));
}

TEST_CASE("prune: a custom resource keeps apiVersion and kind and prunes metadata to ObjectMeta") {
  auto g = Crd(kWidget);
  auto meta = testing::ObjectMeta();
  json obj = json::parse(R"({"apiVersion":"example.com/v1","kind":"Widget",
    "metadata":{"name":"w","colour":"red","ownerReferences":[{"name":"o","x":1}]},
    "spec":{"bogus":1,"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","junk":1},
                                  "spec":{"replicas":1,"other":2},"unknown":true}}})");
  PruneOptions options;
  options.resource_root = true;
  options.object_meta = meta->Root();
  CHECK(Prune(g->Root(), &obj, options) ==
        Paths{"metadata.colour", "metadata.ownerReferences[0].x", "spec.bogus", "spec.template.spec.other",
              "spec.template.unknown", "spec.template.metadata.junk"});
  CHECK(obj == json::parse(R"({"apiVersion":"example.com/v1","kind":"Widget",
    "metadata":{"name":"w","ownerReferences":[{"name":"o"}]},
    "spec":{"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"replicas":1}}}})"));
}

TEST_CASE("prune: without resource_root, apiVersion/kind/metadata at the root go silently") {
  auto g = Crd(R"({"type":"object","properties":{"a":{"type":"string"}}})");
  json obj = json::parse(R"({"apiVersion":"v1","kind":"X","metadata":{},"a":"x","b":1})");
  CHECK(Prune(g->Root(), &obj) == Paths{"b"});
  CHECK(obj == json{{"a", "x"}});
}

TEST_CASE("prune: embedded resources inside a preserving node keep their own metadata rules") {
  auto g = Crd(R"({"type":"object","properties":{"items":{"type":"array","items":{
    "type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}})");
  auto meta = testing::ObjectMeta();
  json obj = json::parse(R"({"items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","bad":1},"data":{"k":"v"}}]})");
  PruneOptions options;
  options.object_meta = meta->Root();
  CHECK(Prune(g->Root(), &obj, options) == Paths{"items[0].metadata.bad"});
  CHECK(obj["items"][0]["data"]["k"] == "v");
}

TEST_CASE("prune: reports stop at the byte budget, pruning does not") {
  auto g = Crd(kWidget);
  json obj = json::parse(R"({"spec":{"list":[]}})");
  auto& list = obj["spec"]["list"];
  for (int i = 0; i < 1000; ++i) list.push_back(json{{"name", "n"}, {"unknown-field-with-a-long-name", i}});
  PruneOptions options;
  options.max_reported_path_bytes = 1024;
  Paths reported = Prune(g->Root(), &obj, options);
  size_t bytes = 0;
  for (const auto& p : reported) bytes += p.size() + 1;
  CHECK(!reported.empty());
  CHECK(reported.size() < 1000);
  CHECK(bytes < 1024 + 64);  // the last path may cross the budget, none after it
  for (const auto& item : obj["spec"]["list"]) CHECK(item == json{{"name", "n"}});
}

TEST_CASE("prune: a null schema or value prunes nothing") {
  json obj = {{"a", 1}};
  CHECK(Prune(nullptr, &obj).empty());
  CHECK(obj == json{{"a", 1}});
  auto g = Crd(kWidget);
  CHECK(Prune(g->Root(), nullptr).empty());
  json scalar = 5;
  CHECK(Prune(g->Root(), &scalar).empty());
}

}  // namespace
}  // namespace kube::schema

namespace kube::schema {
namespace {

TEST_CASE("prune: apiextensions' own cases (pkg/apiserver/schema/pruning)") {
  auto nested = Crd(R"({"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{
    "alpha":{"type":"string"},"beta":{"type":"number"},
    "pruning":{"type":"object","properties":{
      "preserving":{"type":"object","x-kubernetes-preserve-unknown-fields":true},"pruning":{"type":"object"}}},
    "preserving":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{
      "preserving":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
      "preservingUnknownType":{"x-kubernetes-preserve-unknown-fields":true},
      "pruning":{"type":"object"}}},
    "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields":{"type":"object","x-kubernetes-preserve-unknown-fields":true,
      "additionalProperties":{"type":"object","properties":{"specified":{"type":"object"}}}},
    "preservingAdditionalPropertiesKeyPruneValues":{"type":"object",
      "additionalProperties":{"type":"object","properties":{"specified":{"type":"object"}}}}}})");
  json obj = json::parse(R"({"unspecified":"bar","alpha":"abc","beta":42.0,"unspecifiedObject":{"unspecified":"bar"},
    "pruning":{"unspecified":"bar","unspecifiedObject":{"unspecified":"bar"},"pruning":{"unspecified":"bar"},
               "apiVersion":"unknown","preserving":{"unspecified":"bar"}},
    "preserving":{"unspecified":"bar","unspecifiedObject":{"unspecified":"bar"},"pruning":{"unspecified":"bar"},
                  "preserving":{"unspecified":"bar"},"preservingUnknownType":[{"foo":true},{"bar":true}]},
    "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields":{"foo":{"specified":{"unspecified":"bar"},"unspecified":"bar"}},
    "preservingAdditionalPropertiesKeyPruneValues":{"foo":{"specified":{"unspecified":"bar"},"unspecified":"bar"}}})");
  CHECK(Prune(nested->Root(), &obj) ==
        Paths{"preserving.pruning.unspecified", "preservingAdditionalPropertiesKeyPruneValues.foo.specified.unspecified",
              "preservingAdditionalPropertiesKeyPruneValues.foo.unspecified",
              "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.specified.unspecified",
              "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.unspecified", "pruning.apiVersion",
              "pruning.pruning.unspecified", "pruning.unspecified", "pruning.unspecifiedObject"});
  CHECK(obj == json::parse(R"({"unspecified":"bar","alpha":"abc","beta":42.0,"unspecifiedObject":{"unspecified":"bar"},
    "pruning":{"pruning":{},"preserving":{"unspecified":"bar"}},
    "preserving":{"unspecified":"bar","unspecifiedObject":{"unspecified":"bar"},"pruning":{},"preserving":{"unspecified":"bar"},
                  "preservingUnknownType":[{"foo":true},{"bar":true}]},
    "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields":{"foo":{"specified":{}}},
    "preservingAdditionalPropertiesKeyPruneValues":{"foo":{"specified":{}}}})"));

  auto embedded = Crd(R"({"type":"object","properties":{
    "pruned":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object"}}},
    "preserving":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
    "nested":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object","properties":{
      "embedded":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object"}}}}}}}}})");
  const std::string resource =
      R"({"apiVersion":"foo/v1","kind":"Foo","unspecified":"bar","metadata":{"name":"instance","unspecified":"bar"},"spec":{"unspecified":"bar"}})";
  json in = json::parse(resource);
  in.erase("spec");
  in["pruned"] = json::parse(resource);
  in["preserving"] = json::parse(resource);
  in["nested"] = json::parse(resource);
  in["nested"]["spec"]["embedded"] = json::parse(resource);
  CHECK(Prune(embedded->Root(), &in) ==
        Paths{"nested.spec.embedded.spec.unspecified", "nested.spec.embedded.unspecified", "nested.spec.unspecified",
              "nested.unspecified", "pruned.spec.unspecified", "pruned.unspecified", "unspecified"});
  const json kept = json::parse(R"({"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance","unspecified":"bar"},"spec":{}})");
  CHECK(in["pruned"] == kept);
  CHECK(in["preserving"] == json::parse(resource));
  json nested_kept = kept;
  nested_kept["spec"] = {{"embedded", kept}};
  CHECK(in["nested"] == nested_kept);
  CHECK_FALSE(in.contains("apiVersion"));  // not a resource root: dropped without a word
  CHECK_FALSE(in.contains("metadata"));

  auto array = Crd(R"({"type":"array","items":{"type":"object","properties":{"a":{},"c":{}}}})");
  json list = json::parse(R"([{"a":1},{"b":1},{"a":1,"b":2,"c":3}])");
  CHECK(Prune(array->Root(), &list) == Paths{"[1].b", "[2].b"});
  CHECK(list == json::parse(R"([{"a":1},{},{"a":1,"c":3}])"));
}

}  // namespace
}  // namespace kube::schema
