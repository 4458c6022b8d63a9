#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "apiextensions/rule_values.h"
#include "apiextensions/validation_rules.h"
#include "schema/graph.h"

namespace kube::apiextensions {
namespace {

using json = nlohmann::json;

constexpr const char* kSchema = R"j({"type": "object", "properties": {
  "apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object"},
  "spec": {"type": "object", "properties": {
    "replicas": {"type": "integer"}, "max": {"type": "integer"}, "port-name": {"type": "string"},
    "namespace": {"type": "string"}, "start": {"type": "string", "format": "date-time"},
    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
    "items": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}},
    "nested": {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "integer"}}},
                                                "c": {"type": "string"}}}}}}})j";

constexpr const char* kObject = R"j({"apiVersion": "x/v1", "kind": "W",
  "metadata": {"name": "w1", "namespace": "ns", "labels": {"a": "b"}},
  "spec": {"replicas": 2, "max": 5, "port-name": "p1", "namespace": "n", "start": "2026-01-01T00:00:00Z",
           "labels": {"app": "db", "tier-x": "t"}, "items": [{"name": "a"}, {"name": "b"}],
           "nested": {"a": {"b": 3}, "c": "x"}}})j";

// A rule compiled at the resource root, evaluated with self built for its use and built whole.
struct Both {
  std::string projected, whole;
};
Both Evaluate(const schema::Schema* root, const json& obj, const char* rule) {
  CompiledRule c = CompileRule(json{{"rule", rule}}, root, /*resource_root=*/true);
  REQUIRE_MESSAGE(c.program != nullptr, c.compile_error);
  auto run = [&](const cel::FieldUse* use) {
    auto plan = ValuePlan::Build(root, true, use);
    cel::Activation vars;
    vars.Bind("self", plan->Convert(obj));
    vars.Bind("oldSelf", plan->Convert(obj));
    cel::EvalResult r = c.program->Evaluate(vars);
    return r.value.IsError() ? "error: " + r.value.ErrorMessage() : cel::DebugString(r.value);
  };
  return {run(&c.self_use), run(nullptr)};
}

TEST_CASE("rule values: a value built for a rule's use evaluates as the whole value does") {
  // With the resource root's apiVersion, kind and metadata declared, and without, as many CRDs.
  json undeclared = json::parse(kSchema);
  for (const char* k : {"apiVersion", "kind", "metadata"}) undeclared["properties"].erase(k);
  for (const json& schema_json : {json::parse(kSchema), undeclared}) {
  auto graph = *schema::SchemaGraph::FromOpenAPIV3(schema_json);
  const json obj = json::parse(kObject);
  for (const char* rule :
       {"self.spec.replicas <= self.spec.max", "self.metadata.name == 'w1'", "!has(self.metadata.generateName)",
        "self.spec.port__dash__name == 'p1'", "self.spec.__namespace__ == 'n'",
        "self.spec.start < timestamp('2030-01-01T00:00:00Z')", "self.spec.labels.app == 'db'",
        "self.spec.labels['tier-x'] == 't'", "!has(self.spec.labels.missing)", "self.spec.items.all(i, i.name != '')",
        "self.spec.items.size() == 2 && self.spec.items[1].name == 'b'", "self.spec.nested.a.b == 3",
        "has(self.spec.nested.a) && self.spec.nested.c == 'x'", "self.spec.nested.?a.b.orValue(0) == 3",
        "self.spec.labels.?zz.orValue('') == ''", "self.spec.labels.size() == 2", "self.spec == oldSelf.spec",
        "self.kind == 'W' && self.apiVersion == 'x/v1'", "self.spec.nested.a.b == 4 || self.spec.max == 5"}) {
    INFO(std::string(rule));
    const Both both = Evaluate(graph->Root(), obj, rule);
    CHECK(both.projected == both.whole);
    CHECK(both.projected == "true");
  }
  }
}

TEST_CASE("rule values: only the used fields are built") {
  auto graph = *schema::SchemaGraph::FromOpenAPIV3(json::parse(kSchema));
  const json obj = json::parse(kObject);
  cel::FieldUse use;
  use.fields["spec"].fields["nested"].fields["a"].whole = true;
  use.fields["metadata"].fields["name"].whole = true;
  auto plan = ValuePlan::Build(graph->Root(), true, &use);
  const cel::Value v = plan->Convert(obj);
  CHECK(cel::DebugString(v) == R"({"metadata": {"name": "w1"}, "spec": {"nested": {"a": {"b": 3}}}})");
  // Whole: every visible field, metadata cut to its name.
  auto whole_plan = ValuePlan::Build(graph->Root(), true);
  const cel::Value whole = whole_plan->Convert(obj);
  CHECK(whole.FindField("kind") != nullptr);
  CHECK(cel::DebugString(*whole.FindField("metadata")) == R"({"name": "w1"})");
  CHECK(whole.FindField("spec")->FindField("port__dash__name") != nullptr);
}

}  // namespace
}  // namespace kube::apiextensions
