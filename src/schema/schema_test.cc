#include <doctest/doctest.h>

#include "schema/schema_test_util.h"

namespace kube::schema {
namespace {

using testing::Crd;
using json = nlohmann::json;
using Type = Schema::Type;

TEST_CASE("graph: a CRD version's schema builds into owned nodes of every kind") {
  auto graph = Crd(R"({"type":"object","properties":{
    "spec":{"type":"object","required":["size"],"x-kubernetes-validations":[{"rule":"self.size > 0"}],
      "properties":{
        "size":{"type":"integer","format":"int32","minimum":1,"maximum":10,"exclusiveMaximum":true,"multipleOf":2,"default":2},
        "name":{"type":"string","minLength":1,"maxLength":5,"pattern":"^[a-z]+$","enum":["a","b"],"nullable":true},
        "labels":{"type":"object","additionalProperties":{"type":"string"},"x-kubernetes-map-type":"atomic","maxProperties":3},
        "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["port"],"minItems":1,
                 "items":{"type":"object","properties":{"port":{"type":"integer"}}}},
        "port":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]},
        "raw":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
        "template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
        "free":{"x-kubernetes-preserve-unknown-fields":true},
        "anything":{"type":"object","additionalProperties":true}}},
    "status":{"type":"object"}}})");
  const Schema* root = graph->Root();
  REQUIRE(root != nullptr);
  CHECK(root->type() == Type::kObject);
  CHECK(root->OpenAPIType() == "object");
  CHECK(root->FieldNames() == std::vector<std::string>{"spec", "status"});
  const Schema* spec = root->Field("spec");
  CHECK(spec->Required() == std::vector<std::string>{"size"});
  REQUIRE(spec->CelRules() != nullptr);
  CHECK((*spec->CelRules())[0]["rule"] == "self.size > 0");

  const Schema* size = spec->Field("size");
  CHECK(size->type() == Type::kInteger);
  CHECK(*size->Default() == 2);
  const ValueValidation* v = size->Validation();
  REQUIRE(v != nullptr);
  CHECK(v->format == "int32");
  CHECK(*v->minimum == 1);
  CHECK(*v->maximum == 10);
  CHECK(v->exclusive_maximum);
  CHECK_FALSE(v->exclusive_minimum);
  CHECK(*v->multiple_of == 2);

  const Schema* name = spec->Field("name");
  CHECK(name->Nullable());
  CHECK(*name->Validation()->min_length == 1);
  CHECK(*name->Validation()->max_length == 5);
  CHECK(name->Validation()->compiled_pattern != nullptr);
  CHECK(*name->Validation()->enum_values == json{"a", "b"});

  const Schema* labels = spec->Field("labels");
  CHECK(labels->type() == Type::kMap);
  CHECK(labels->Items()->type() == Type::kString);
  CHECK(labels->MapType() == "atomic");
  CHECK(*labels->Validation()->max_properties == 3);

  const Schema* ports = spec->Field("ports");
  CHECK(ports->type() == Type::kArray);
  CHECK(ports->ListType() == "map");
  CHECK(ports->ListMapKeys() == std::vector<std::string>{"port"});
  CHECK(ports->Items()->Field("port")->type() == Type::kInteger);

  const Schema* port = spec->Field("port");
  CHECK(port->type() == Type::kIntOrString);
  CHECK(port->OpenAPIType().empty());
  REQUIRE(port->Validation()->any_of.size() == 2);
  CHECK(port->Validation()->any_of[1]->OpenAPIType() == "string");

  CHECK(spec->Field("raw")->type() == Type::kAny);
  CHECK(spec->Field("raw")->PreserveUnknownFields());
  CHECK(spec->Field("template")->EmbeddedResource());
  CHECK(spec->Field("free")->type() == Type::kAny);
  CHECK(spec->Field("free")->OpenAPIType().empty());
  const Schema* anything = spec->Field("anything");
  CHECK(anything->type() == Type::kMap);
  CHECK_FALSE(anything->Items()->PreserveUnknownFields());

  const Schema* status = root->Field("status");
  CHECK(status->type() == Type::kObject);
  CHECK(status->FieldNames().empty());
  CHECK_FALSE(status->PreserveUnknownFields());
  CHECK(status->Validation() == nullptr);
}

TEST_CASE("graph: a CRD schema owns its JSON, so the source may go") {
  std::unique_ptr<SchemaGraph> graph;
  {
    json source = json::parse(R"({"type":"object","properties":{"a":{"type":"string","default":"x","enum":["x"]}}})");
    auto built = SchemaGraph::FromOpenAPIV3(source);
    REQUIRE(built.ok());
    graph = std::move(*built);
  }
  CHECK(*graph->Root()->Field("a")->Default() == "x");
  CHECK(graph->Source()["properties"]["a"]["default"] == "x");
  CHECK((*graph->Root()->Field("a")->Validation()->enum_values)[0] == "x");
}

TEST_CASE("graph: malformed CRD schemas are refused, not crashed on") {
  CHECK(SchemaGraph::FromOpenAPIV3(json::parse(R"({"$ref":"#/definitions/x"})")).status().code() ==
        StatusCode::kBadRequest);
  CHECK_FALSE(SchemaGraph::FromOpenAPIV3(json::parse(R"({"type":"string","maxLength":"five"})")).ok());
  CHECK_FALSE(SchemaGraph::FromOpenAPIV3(json::parse(R"({"type":"object","properties":[1]})")).ok());
  CHECK_FALSE(SchemaGraph::FromOpenAPIV3(json::parse(R"({"type":"object","required":"a"})")).ok());
  CHECK_FALSE(SchemaGraph::FromOpenAPIV3(json::parse(R"("object")")).ok());
  // An invalid pattern builds; validation reports it.
  auto graph = SchemaGraph::FromOpenAPIV3(json::parse(R"({"type":"string","pattern":"(["})"));
  REQUIRE(graph.ok());
  CHECK((*graph)->Root()->Validation()->compiled_pattern == nullptr);
}

TEST_CASE("graph: definitions with refs, cycles and aliases") {
  json defs = json::parse(R"({
    "a.Node":{"type":"object","properties":{"child":{"$ref":"#/definitions/a.Node"},
      "list":{"type":"array","x-kubernetes-list-type":"map","items":{"$ref":"#/definitions/a.Leaf"}},
      "alias":{"$ref":"#/definitions/a.Leaf","x-kubernetes-patch-strategy":"retainKeys"},
      "when":{"type":"string","format":"date-time"}}},
    "a.Leaf":{"type":"object","properties":{"v":{"type":"string"}}},
    "a.Raw":{"type":"object"}})");
  auto graph = SchemaGraph::FromDefinitions(defs, json{{"a.Raw", "any"}});
  REQUIRE(graph.ok());
  const Schema* node = (*graph)->Definition("a.Node");
  CHECK(node->Field("child") == node);
  CHECK(node->Field("list")->Items() == (*graph)->Definition("a.Leaf"));
  CHECK(node->Field("alias")->PatchStrategy() == "retainKeys");
  CHECK(node->Field("alias")->Field("v")->type() == Type::kString);
  CHECK(node->Field("when")->type() == Type::kTime);
  CHECK((*graph)->Definition("a.Raw")->type() == Type::kAny);
  CHECK((*graph)->Definition("a.Raw")->PreserveUnknownFields());
  CHECK((*graph)->Definitions().size() == 3);
  CHECK((*graph)->Root() == nullptr);
  CHECK_FALSE(SchemaGraph::FromDefinitions(json::parse(R"({"a":{"$ref":"#/definitions/b"}})"), json::object()).ok());
  CHECK_FALSE(SchemaGraph::FromDefinitions(defs, json{{"a.Missing", "any"}}).ok());
}

}  // namespace
}  // namespace kube::schema
