#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "apiextensions/validation_rules.h"
#include "schema/graph.h"

namespace kube::apiextensions {
namespace {

using json = nlohmann::json;

// A schema with rules at several nodes; `extra` is merged into spec's properties.
constexpr const char* kSchema = R"j({
  "type": "object",
  "x-kubernetes-validations": [{"rule": "self.metadata.name.startsWith('w') && !has(self.metadata.labels)",
                                "message": "names start with w"}],
  "properties": {
    "spec": {
      "type": "object",
      "x-kubernetes-validations": [
        {"rule": "self.replicas <= self.maxReplicas", "message": "replicas must not exceed maxReplicas"},
        {"rule": "!has(self.minReplicas) || self.minReplicas <= self.replicas", "fieldPath": ".minReplicas",
         "reason": "FieldValueForbidden", "messageExpression": "'minReplicas ' + string(self.minReplicas) + ' is too high'"},
        {"rule": "self.ratio < 1.0"},
        {"rule": "!has(self.start) || self.start < timestamp('2030-01-01T00:00:00Z')"}],
      "properties": {
        "replicas": {"type": "integer"},
        "maxReplicas": {"type": "integer"},
        "minReplicas": {"type": "integer"},
        "ratio": {"type": "number"},
        "start": {"type": "string", "format": "date-time"},
        "lockedId": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "lockedId is immutable"}]},
        "counter": {"type": "integer", "x-kubernetes-validations": [
          {"rule": "oldSelf.hasValue() ? self >= oldSelf.value() : self == 0", "optionalOldSelf": true, "message": "counter only grows"}]},
        "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                  "items": {"type": "object", "properties": {"name": {"type": "string"}, "port": {"type": "integer"}},
                            "x-kubernetes-validations": [{"rule": "self.port == oldSelf.port", "message": "port is immutable"}]}},
        "tags": {"type": "array", "items": {"type": "string", "x-kubernetes-validations": [{"rule": "self.size() <= 3"}]}},
        "missing": {"type": "object", "properties": {"a": {"type": "integer"}},
                    "x-kubernetes-validations": [{"rule": "self.b == 1"}]}
      }
    }
  }
})j";

struct Fixture {
  std::unique_ptr<schema::SchemaGraph> graph = *schema::SchemaGraph::FromOpenAPIV3(json::parse(kSchema));
  std::shared_ptr<const ValidationRules> rules = ValidationRules::Compile(graph->Root());

  std::vector<std::string> Check(const char* spec, const char* old_spec = nullptr, const char* name = "w1") {
    json obj = {{"apiVersion", "x/v1"}, {"kind", "W"}, {"metadata", {{"name", name}}}, {"spec", json::parse(spec)}};
    json old;
    if (old_spec) old = {{"apiVersion", "x/v1"}, {"kind", "W"}, {"metadata", {{"name", name}}}, {"spec", json::parse(old_spec)}};
    FieldErrors errs;
    rules->Validate(obj, old_spec ? &old : nullptr, &errs);
    std::vector<std::string> out;
    for (const auto& e : errs) out.push_back(std::string(e.CauseType()) + " " + e.field + ": " + e.Body());
    return out;
  }
};

using Errors = std::vector<std::string>;
constexpr const char* kGood = R"({"replicas": 2, "maxReplicas": 5, "ratio": 0.5})";

TEST_CASE("validation rules: passing rules report nothing; failing ones their message at their node") {
  Fixture f;
  REQUIRE(f.rules != nullptr);
  CHECK(f.Check(kGood).empty());
  CHECK(f.Check(R"({"replicas": 7, "maxReplicas": 5, "ratio": 0.5})") ==
        Errors{"FieldValueInvalid spec: Invalid value: replicas must not exceed maxReplicas"});
}

TEST_CASE("validation rules: fieldPath, reason and messageExpression shape the cause") {
  Fixture f;
  CHECK(f.Check(R"({"replicas": 2, "maxReplicas": 5, "minReplicas": 3, "ratio": 0.5})") ==
        Errors{"FieldValueForbidden spec.minReplicas: Forbidden: minReplicas 3 is too high"});
}

TEST_CASE("validation rules: the default message, schema-typed values, evaluation errors") {
  Fixture f;
  // A JSON integer under type number is a double: 1.0 < 1.0 fails with the rule as message.
  CHECK(f.Check(R"({"replicas": 2, "maxReplicas": 5, "ratio": 1})") ==
        Errors{"FieldValueInvalid spec: Invalid value: failed rule: self.ratio < 1.0"});
  // date-time strings are timestamps.
  CHECK(f.Check(R"({"replicas": 2, "maxReplicas": 5, "ratio": 0.5, "start": "2031-05-01T00:00:00Z"})") ==
        Errors{"FieldValueInvalid spec: Invalid value: failed rule: !has(self.start) || self.start < timestamp('2030-01-01T00:00:00Z')"});
  CHECK(f.Check(R"({"replicas": 2, "maxReplicas": 5, "ratio": 0.5, "missing": {"a": 1}})") ==
        Errors{"FieldValueInvalid spec.missing: Invalid value: \"object\": no such key: b evaluating rule: self.b == 1"});
  // Scalars show their value; list items are validated one by one.
  CHECK(f.Check(R"({"replicas": 2, "maxReplicas": 5, "ratio": 0.5, "tags": ["ok", "long"]})") ==
        Errors{"FieldValueInvalid spec.tags[1]: Invalid value: \"long\": failed rule: self.size() <= 3"});
}

TEST_CASE("validation rules: the resource root sees apiVersion, kind and metadata name only") {
  Fixture f;
  CHECK(f.Check(kGood, nullptr, "x1") == Errors{"FieldValueInvalid <nil>: Invalid value: names start with w"});
}

TEST_CASE("validation rules: transition rules run on update against the correlated old value") {
  Fixture f;
  const char* locked = R"({"replicas": 2, "maxReplicas": 5, "ratio": 0.5, "lockedId": "a"})";
  CHECK(f.Check(locked).empty());  // create: no oldSelf, the rule does not run
  CHECK(f.Check(locked, locked).empty());
  CHECK(f.Check(R"({"replicas": 2, "maxReplicas": 5, "ratio": 0.5, "lockedId": "b"})", locked) ==
        Errors{"FieldValueInvalid spec.lockedId: Invalid value: \"b\": lockedId is immutable"});
  // A field added on update has no old value: the rule does not run.
  CHECK(f.Check(locked, kGood).empty());
  // List-type map items correlate by key, wherever they move.
  const char* ports = R"({"replicas": 2, "maxReplicas": 5, "ratio": 0.5, "ports": [{"name": "a", "port": 1}, {"name": "b", "port": 2}]})";
  CHECK(f.Check(R"({"replicas": 2, "maxReplicas": 5, "ratio": 0.5, "ports": [{"name": "b", "port": 2}, {"name": "a", "port": 1}]})", ports).empty());
  CHECK(f.Check(R"({"replicas": 2, "maxReplicas": 5, "ratio": 0.5, "ports": [{"name": "b", "port": 3}]})", ports) ==
        Errors{"FieldValueInvalid spec.ports[0]: Invalid value: port is immutable"});
}

TEST_CASE("validation rules: optionalOldSelf runs on create with oldSelf as an optional") {
  Fixture f;
  CHECK(f.Check(R"({"replicas": 2, "maxReplicas": 5, "ratio": 0.5, "counter": 0})").empty());
  CHECK(f.Check(R"({"replicas": 2, "maxReplicas": 5, "ratio": 0.5, "counter": 4})") ==
        Errors{"FieldValueInvalid spec.counter: Invalid value: 4: counter only grows"});
  CHECK(f.Check(R"({"replicas": 2, "maxReplicas": 5, "ratio": 0.5, "counter": 3})",
                R"({"replicas": 2, "maxReplicas": 5, "ratio": 0.5, "counter": 4})") ==
        Errors{"FieldValueInvalid spec.counter: Invalid value: 3: counter only grows"});
}

TEST_CASE("validation rules: ratcheting keeps an unchanged invalid value") {
  Fixture f;
  const char* bad = R"({"replicas": 7, "maxReplicas": 5, "ratio": 0.5})";
  CHECK(f.Check(bad, bad).empty());
  CHECK(f.Check(R"({"replicas": 8, "maxReplicas": 5, "ratio": 0.5})", bad).size() == 1);
}

TEST_CASE("validation rules: compile errors are kept for CRD validation and reported at evaluation") {
  CompiledRule bad = CompileRule(json::parse(R"({"rule": "self.x =="})"));
  CHECK(bad.program == nullptr);
  CHECK(bad.compile_error.starts_with("compilation failed: ERROR: <input>:1:10: Syntax error: mismatched input '<EOF>'"));
  std::string message_error;
  CompiledRule undeclared = CompileRule(json::parse(R"({"rule": "self > 0", "messageExpression": "nope"})"), &message_error);
  CHECK(undeclared.program != nullptr);
  CHECK(message_error ==
        "messageExpression compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')\n | nope\n | ^");
  CHECK(CompileRule(json::parse(R"({"rule": "self == oldSelf"})")).uses_old_self);
  CHECK(ValidationRules::Compile(nullptr) == nullptr);
}

TEST_CASE("validation rules: the cost budget stops runaway rules") {
  auto graph = *schema::SchemaGraph::FromOpenAPIV3(json::parse(R"j({"type": "object", "properties": {"spec": {
    "type": "object", "properties": {"l": {"type": "array", "items": {"type": "integer"}}},
    "x-kubernetes-validations": [{"rule": "self.l.all(a, self.l.all(b, self.l.all(c, a + b + c >= 0)))"}]}}})j"));
  auto rules = ValidationRules::Compile(graph->Root());
  json obj = {{"spec", {{"l", json::array()}}}};
  for (int i = 0; i < 300; ++i) obj["spec"]["l"].push_back(i);
  FieldErrors errs;
  rules->Validate(obj, nullptr, &errs);
  REQUIRE(errs.size() == 1);
  CHECK(errs[0].detail.starts_with("'operation cancelled: actual cost limit exceeded': no further validation rules will be run"));
}

}  // namespace
}  // namespace kube::apiextensions
