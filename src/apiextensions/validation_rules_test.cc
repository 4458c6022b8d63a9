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
  "x-kubernetes-validations": [{"rule": "self.metadata.name.startsWith('w') && self.kind == 'W'",
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
        "missing": {"type": "object", "additionalProperties": {"type": "integer"},
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

// Rules at nodes that correlate in each of kube's ways, for the ratcheting warnings.
constexpr const char* kRatchetSchema = R"j({"type": "object",
  "x-kubernetes-validations": [{"rule": "self.metadata.name != 'bad'", "message": "not bad"}],
  "properties": {"spec": {"type": "object", "properties": {
    "name": {"type": "string", "x-kubernetes-validations": [{"rule": "self.size() <= 3", "message": "name too long"}]},
    "tags": {"type": "array", "items": {"type": "string", "x-kubernetes-validations": [{"rule": "self != 'bad'"}]}},
    "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
              "x-kubernetes-validations": [{"rule": "self.size() <= 1", "message": "one port at most"}],
              "items": {"type": "object", "properties": {"name": {"type": "string"}, "port": {"type": "integer",
                "x-kubernetes-validations": [{"rule": "self < 100", "reason": "FieldValueForbidden", "message": "ports below 100"}]}}}},
    "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {"a": {"type": "integer"}},
              "x-kubernetes-validations": [{"rule": "self.a < 10", "message": "a below 10"}]},
    "ratio": {"type": "number", "x-kubernetes-validations": [{"rule": "self < 1.0", "message": "ratios below 1"}]},
    "locked": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf && self != 'x'", "message": "locked"}]},
    "div": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "x-kubernetes-validations": [{"rule": "self.a / self.b > 0", "message": "positive"}]}}}}})j";

struct Ratchet {
  std::unique_ptr<schema::SchemaGraph> graph = *schema::SchemaGraph::FromOpenAPIV3(json::parse(kRatchetSchema));
  std::shared_ptr<const ValidationRules> rules = ValidationRules::Compile(graph->Root());
  Errors errors, warnings;

  // Validates an update of spec `old_spec` to `spec`, keeping the errors and the warnings.
  void Update(const char* spec, const char* old_spec, const char* name = "ok") {
    json obj = {{"apiVersion", "x/v1"}, {"kind", "R"}, {"metadata", {{"name", name}}}, {"spec", json::parse(spec)}};
    json old = obj;
    old["spec"] = json::parse(old_spec);
    FieldErrors errs;
    warnings.clear();
    rules->Validate(obj, &old, &errs, &warnings);
    errors.clear();
    for (const auto& e : errs) errors.push_back(e.field + ": " + e.Body());
  }
};

TEST_CASE("validation rules: a ratcheted failure is a warning worded as its error") {
  Ratchet r;
  REQUIRE(r.rules != nullptr);
  // The value equals its old value: the failure is a warning, as field.Error.Error() renders it.
  r.Update(R"({"name": "abcd"})", R"({"name": "abcd"})");
  CHECK(r.errors.empty());
  CHECK(r.warnings == Errors{"spec.name: Invalid value: \"abcd\": name too long"});
  // Changed, it is an error again and nothing is warned.
  r.Update(R"({"name": "abcde"})", R"({"name": "abcd"})");
  CHECK(r.errors == Errors{"spec.name: Invalid value: \"abcde\": name too long"});
  CHECK(r.warnings.empty());
  // A create has nothing to ratchet against.
  FieldErrors errs;
  Errors warnings;
  r.rules->Validate(json{{"metadata", {{"name", "ok"}}}, {"spec", {{"name", "abcd"}}}}, nullptr, &errs, &warnings);
  CHECK(errs.size() == 1);
  CHECK(warnings.empty());
}

TEST_CASE("validation rules: values that do not correlate ratchet with their nearest correlated ancestor") {
  Ratchet r;
  // Items of an atomic list do not correlate: the list itself decides.
  r.Update(R"({"tags": ["ok", "bad"]})", R"({"tags": ["ok", "bad"]})");
  CHECK(r.errors.empty());
  CHECK(r.warnings == Errors{"spec.tags[1]: Invalid value: \"bad\": failed rule: self != 'bad'"});
  r.Update(R"({"tags": ["bad", "new"]})", R"({"tags": ["bad"]})");
  CHECK(r.errors == Errors{"spec.tags[0]: Invalid value: \"bad\": failed rule: self != 'bad'"});
  CHECK(r.warnings.empty());
  // List-type map items correlate by key: a reordered list is unchanged, and so are its items.
  r.Update(R"({"ports": [{"name": "b", "port": 1}, {"name": "a", "port": 200}]})",
           R"({"ports": [{"name": "a", "port": 200}, {"name": "b", "port": 1}]})");
  CHECK(r.errors.empty());
  CHECK(r.warnings == Errors{"spec.ports: Invalid value: one port at most", "spec.ports[1].port: Forbidden: ports below 100"});
  // A new item has no old value, and its list changed.
  r.Update(R"({"ports": [{"name": "c", "port": 300}]})", R"({"ports": [{"name": "a", "port": 1}]})");
  CHECK(r.errors == Errors{"spec.ports[0].port: Forbidden: ports below 100"});
}

TEST_CASE("validation rules: what kube never ratchets") {
  Ratchet r;
  // An object holding a field its schema does not declare never equals its old value.
  r.Update(R"({"extra": {"a": 20, "z": 1}})", R"({"extra": {"a": 20, "z": 1}})");
  CHECK(r.errors == Errors{"spec.extra: Invalid value: a below 10"});
  r.Update(R"({"extra": {"a": 20}})", R"({"extra": {"a": 20}})");
  CHECK(r.errors.empty());
  CHECK(r.warnings == Errors{"spec.extra: Invalid value: a below 10"});
  // Nor the resource root (its metadata is not declared), transition rules, evaluation errors.
  r.Update(R"({"locked": "x", "div": {"a": 1, "b": 0}})", R"({"locked": "x", "div": {"a": 1, "b": 0}})", "bad");
  CHECK(r.errors == Errors{"<nil>: Invalid value: not bad",
                           "spec.div: Invalid value: \"object\": division by zero evaluating rule: positive",
                           "spec.locked: Invalid value: \"x\": locked"});
  CHECK(r.warnings.empty());
  // A number that changes from an integer to a float changed, as Go's decoded JSON compares.
  r.Update(R"({"ratio": 2.0})", R"({"ratio": 2})");
  CHECK(r.errors == Errors{"spec.ratio: Invalid value: 2: ratios below 1"});
  r.Update(R"({"ratio": 2.0})", R"({"ratio": 2.0})");
  CHECK(r.warnings == Errors{"spec.ratio: Invalid value: 2: ratios below 1"});
}

TEST_CASE("validation rules: compile errors are kept for CRD validation and reported at evaluation") {
  CompiledRule bad = CompileRule(json::parse(R"({"rule": "self.x =="})"), nullptr, false);
  CHECK(bad.program == nullptr);
  CHECK(bad.compile_error.starts_with("compilation failed: ERROR: <input>:1:10: Syntax error: mismatched input '<EOF>'"));
  std::string message_error;
  CompiledRule undeclared = CompileRule(json::parse(R"({"rule": "self > 0", "messageExpression": "nope"})"), nullptr, false, &message_error);
  CHECK(undeclared.program != nullptr);
  CHECK(message_error ==
        "messageExpression compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')\n | nope\n | ^");
  CHECK(CompileRule(json::parse(R"({"rule": "self == oldSelf"})"), nullptr, false).uses_old_self);
  CHECK(ValidationRules::Compile(nullptr) == nullptr);
}

// kube binds oldSelf whenever there is an old object (validation.go's activation), so a
// messageExpression may read it even when its rule does not.
TEST_CASE("validation rules: a messageExpression reads oldSelf on update even when its rule does not") {
  auto graph = *schema::SchemaGraph::FromOpenAPIV3(json::parse(R"j({"type": "object", "properties": {"spec": {
    "type": "object", "properties": {"size": {"type": "integer"}},
    "x-kubernetes-validations": [{"rule": "self.size <= 5", "message": "size is at most 5",
                                  "messageExpression": "'size ' + string(self.size) + ' was ' + string(oldSelf.size)"}]}}})j"));
  auto rules = ValidationRules::Compile(graph->Root());
  REQUIRE(rules != nullptr);
  auto check = [&](const json& obj, const json* old) {
    FieldErrors errs;
    rules->Validate(obj, old, &errs);
    return errs.empty() ? std::string() : errs[0].Body();
  };
  const json old = {{"spec", {{"size", 3}}}};
  CHECK(check({{"spec", {{"size", 7}}}}, &old) == "Invalid value: size 7 was 3");
  // On create there is no oldSelf: the expression fails and the message stands.
  CHECK(check({{"spec", {{"size", 7}}}}, nullptr) == "Invalid value: size is at most 5");
}

// kube's validation.go: a messageExpression that passes the per-call limit stops validation with
// its own error at the rule's path; one that merely fails falls back to the message.
TEST_CASE("validation rules: a messageExpression out of cost stops validation, a failing one falls back") {
  auto graph = *schema::SchemaGraph::FromOpenAPIV3(json::parse(R"j({"type": "object", "properties": {"spec": {
    "type": "object", "properties": {"n": {"type": "array", "items": {"type": "integer"}}, "m": {"type": "integer"}},
    "x-kubernetes-validations": [
      {"rule": "self.n.size() < 3", "fieldPath": ".n", "message": "too many",
       "messageExpression": "string(self.n.map(a, self.n.map(b, self.n.map(c, a + b + c))).size())"},
      {"rule": "self.m < 3", "message": "m is small"}]}}})j"));
  auto rules = ValidationRules::Compile(graph->Root());
  REQUIRE(rules != nullptr);
  auto check = [&](const json& spec) {
    FieldErrors errs;
    rules->Validate({{"spec", spec}}, nullptr, &errs);
    std::vector<std::string> out;
    for (const auto& e : errs) out.push_back(e.field + ": " + e.Body());
    return out;
  };
  json many = json::array();
  for (int i = 0; i < 120; ++i) many.push_back(i);
  // 120^3 steps pass the per-call limit: the second rule does not run.
  CHECK(check({{"n", many}, {"m", 5}}) ==
        std::vector<std::string>{
            "spec.n: Invalid value: \"object\": no further validation rules will be run due to call cost exceeds limit "
            "for messageExpression: \"string(self.n.map(a, self.n.map(b, self.n.map(c, a + b + c))).size())\""});
  // Within the limit, its result is the message.
  CHECK(check({{"n", {1, 2, 3}}, {"m", 5}}) == std::vector<std::string>{"spec.n: Invalid value: 3", "spec: Invalid value: m is small"});
}

// Compiles `rule` at the root of `schema`; the compile error, or "" when it compiles.
std::string TypedCompileError(const char* schema, const char* rule, const char* message_expression = nullptr) {
  auto graph = *schema::SchemaGraph::FromOpenAPIV3(json::parse(schema));
  json r = {{"rule", rule}};
  if (message_expression) r["messageExpression"] = message_expression;
  std::string message_error;
  CompiledRule c = CompileRule(r, graph->Root()->Field("spec"), false, &message_error);
  return c.compile_error.empty() ? message_error : c.compile_error;
}

constexpr const char* kTyped = R"j({"type": "object", "properties": {"spec": {"type": "object", "properties": {
  "replicas": {"type": "integer"}, "ratio": {"type": "number"}, "name": {"type": "string"},
  "port-name": {"type": "string"}, "namespace": {"type": "string"}, "port": {"x-kubernetes-int-or-string": true},
  "window": {"type": "string", "format": "duration"}, "day": {"type": "string", "format": "date"},
  "data": {"type": "string", "format": "byte"},
  "labels": {"type": "object", "additionalProperties": {"type": "string"}},
  "raw": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
  "items": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}}}}}}}})j";

TEST_CASE("validation rules: rules are type-checked against the schema, as kube checks them") {
  CHECK(TypedCompileError(kTyped, "self.replicas > 0 && self.name != '' && self.items.all(i, i.n > 0)") == "");
  CHECK(TypedCompileError(kTyped, "self.replicaz > 0").find("compilation failed: ERROR: <input>:1:5: undefined field 'replicaz'") == 0);
  CHECK(TypedCompileError(kTyped, "self.ratio == 0").find("found no matching overload for '_==_' applied to '(double, int)'") !=
        std::string::npos);
  CHECK(TypedCompileError(kTyped, "self.replicas + 1") == "cel expression must evaluate to a bool");
  CHECK(TypedCompileError(kTyped, "self.replicas > 0", "self.replicas") == "messageExpression must evaluate to a string");
  CHECK(TypedCompileError(kTyped, "self.items.all(i, i.m > 0)").find("undefined field 'm'") != std::string::npos);
  // Property names are escaped; maps and int-or-string are as dynamic as their values.
  CHECK(TypedCompileError(kTyped, "self.port__dash__name != '' && self.__namespace__ != ''") == "");
  CHECK(TypedCompileError(kTyped, "self.labels.anything == 'x' && (self.port == 80 || self.port == 'http')") == "");
  // Formats type values: durations, dates (timestamps) and bytes.
  CHECK(TypedCompileError(kTyped, "self.window < duration('1h') && self.day.getFullYear() > 2000 && self.data.size() < 4") ==
        "");
  // Unknown fields of a preserve-unknown-fields object are not visible to rules.
  CHECK(TypedCompileError(kTyped, "self.raw.x == 1").find("undefined field 'x'") != std::string::npos);
}

// The estimated cost of `rule` at the root of `schema`, as kube's compilation tests expect it.
uint64_t EstimatedCost(const std::string& schema, const char* rule) {
  auto graph = *schema::SchemaGraph::FromOpenAPIV3(json::parse(schema));
  CompiledRule c = CompileRule(json{{"rule", rule}}, graph->Root(), false);
  REQUIRE_MESSAGE(c.compile_error.empty(), c.compile_error);
  return c.max_cost;
}

std::string ArrayOf(const char* type, const char* limit = "") {
  return std::string(R"({"type": "array", "items": {"type": ")") + type + R"("})" + limit + "}";
}
std::string MapOf(const char* type, const char* limit = "") {
  return std::string(R"({"type": "object", "additionalProperties": {"type": ")") + type + R"("})" + limit + "}";
}
std::string StringOf(const char* limit = "") { return std::string(R"({"type": "string")") + limit + "}"; }

TEST_CASE("validation rules: cost estimates match kube's for the same schemas") {
  CHECK(EstimatedCost(ArrayOf("number"), "self.all(x, true)") == 4718591);
  CHECK(EstimatedCost(ArrayOf("number", R"(, "maxItems": 10)"), "self.all(x, true)") == 32);
  CHECK(EstimatedCost(ArrayOf("string"), "self.all(x, true)") == 3145727);
  CHECK(EstimatedCost(ArrayOf("string", R"(, "maxItems": 20)"), "self.all(x, true)") == 62);
  CHECK(EstimatedCost(ArrayOf("boolean"), "self.all(x, true)") == 1887437);
  CHECK(EstimatedCost(R"({"type": "array", "items": {"type": "object", "required": ["required"], "properties": {
    "required": {"type": "string"}, "optional": {"type": "string"}}}})", "self.all(x, true)") == 555128);
  CHECK(EstimatedCost(MapOf("number"), "self.all(x, true)") == 1348169);
  CHECK(EstimatedCost(MapOf("number", R"(, "maxProperties": 10)"), "self.all(x, true)") == 32);
  CHECK(EstimatedCost(MapOf("string"), "self.all(x, true)") == 1179647);
  CHECK(EstimatedCost(MapOf("boolean"), "self.all(x, true)") == 943718);
  CHECK(EstimatedCost(MapOf("number"), "has(self.x)") == 1);  // kube's table leaves this unchecked (0); cel-go counts `self`
  CHECK(EstimatedCost(StringOf(), "self.contains('test')") == 314574);
  CHECK(EstimatedCost(StringOf(R"(, "maxLength": 10)"), "self.contains('test')") == 5);
  CHECK(EstimatedCost(StringOf(), "self.startsWith('test')") == 2);
  CHECK(EstimatedCost(StringOf(), "size(self + 'hello') > size('hello')") == 314578);
  CHECK(EstimatedCost(StringOf(R"(, "maxLength": 4)"), "size(self + 'hello') > size('hello')") == 7);
  CHECK(EstimatedCost(ArrayOf("number"), "self[1] == 0.0") == 2);
  CHECK(EstimatedCost(ArrayOf("string"), "self[1] == self[1]") == 314577);
  CHECK(EstimatedCost(ArrayOf("number", R"(, "maxItems": 10)"), "self.all(x, self.all(y, true))") == 352);
  CHECK(EstimatedCost(ArrayOf("number", R"(, "maxItems": 10)"), "self.all(x, self.all(y, self.all(z, true)))") == 3552);
  CHECK(EstimatedCost(StringOf(), "self.matches('x')") == 314574);
  CHECK(EstimatedCost(StringOf(R"(, "maxLength": 50)"), "self.matches('x')") == 22);
  CHECK(EstimatedCost(StringOf(), "self.matches('')") == 1);
  CHECK(EstimatedCost(StringOf(R"(, "maxLength": 0)"), "self == 'x'") == 1);
}

TEST_CASE("validation rules: formats and escaped names reach rules at evaluation too") {
  auto graph = *schema::SchemaGraph::FromOpenAPIV3(json::parse(R"j({"type": "object", "properties": {"spec": {
    "type": "object", "x-kubernetes-validations": [
      {"rule": "self.window < duration('1h')", "message": "short windows"},
      {"rule": "self.day < timestamp('2030-01-01T00:00:00Z')", "message": "past days"},
      {"rule": "self.data == b'hi'", "message": "hi data"},
      {"rule": "self.port__dash__name.startsWith('p')", "message": "p names"}],
    "properties": {"window": {"type": "string", "format": "duration"}, "day": {"type": "string", "format": "date"},
                   "data": {"type": "string", "format": "byte"}, "port-name": {"type": "string"}}}}})j"));
  auto rules = ValidationRules::Compile(graph->Root());
  REQUIRE(rules != nullptr);
  auto run = [&](json spec) {
    FieldErrors errs;
    rules->Validate(json{{"spec", spec}}, nullptr, &errs);
    std::vector<std::string> out;
    for (const auto& e : errs) out.push_back(e.detail);
    return out;
  };
  CHECK(run({{"window", "30m"}, {"day", "2024-02-03"}, {"data", "aGk="}, {"port-name", "pa"}}).empty());
  CHECK(run({{"window", "2h"}, {"day", "2031-02-03"}, {"data", "aGE="}, {"port-name", "qa"}}) ==
        std::vector<std::string>{"short windows", "past days", "hi data", "p names"});
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
