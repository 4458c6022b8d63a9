#include <doctest/doctest.h>

#include "schema/schema_test_util.h"
#include "schema/validation.h"

namespace kube::schema {
namespace {

using testing::Crd;
using testing::Rendered;
using json = nlohmann::json;
using Lines = std::vector<std::string>;

// Validates {"spec": {field: value}} against a spec whose only property is `field`.
Lines Check(const std::string& field_schema, const json& value, const std::string& field = "x") {
  auto g = Crd(R"({"type":"object","properties":{"spec":{"type":"object","properties":{")" + field + "\":" +
               field_schema + "}}}}");
  return Rendered(Validate(*g->Root(), json{{"spec", {{field, value}}}}));
}

TEST_CASE("validate: types, with the JSON type as the value") {
  auto g = Crd(R"({"type":"object","properties":{"spec":{"type":"object","properties":{"size":{"type":"integer"}}}}})");
  FieldErrors errs = Validate(*g->Root(), json::parse(R"({"spec":{"size":"string"}})"));
  REQUIRE(errs.size() == 1);
  CHECK(errs[0].CauseType() == "FieldValueTypeInvalid");
  CHECK(Rendered(errs) == Lines{R"(spec.size: Invalid value: "string": spec.size in body must be of type integer: "string")"});
  CHECK(Check(R"({"type":"string"})", 5) == Lines{R"(spec.x: Invalid value: "integer": spec.x in body must be of type string: "integer")"});
  CHECK(Check(R"({"type":"boolean"})", json::array()) == Lines{R"(spec.x: Invalid value: "array": spec.x in body must be of type boolean: "array")"});
  CHECK(Check(R"({"type":"object"})", 1.5) == Lines{R"(spec.x: Invalid value: "number": spec.x in body must be of type object: "number")"});
  CHECK(Check(R"({"type":"integer"})", 2.0).empty());  // an integral float is an integer
  CHECK(Check(R"({"type":"number"})", 2).empty());
  CHECK(Check(R"({"x-kubernetes-preserve-unknown-fields":true})", json{{"any", 1}}).empty());
}

TEST_CASE("validate: nullable") {
  CHECK(Check(R"({"type":"string"})", nullptr) == Lines{R"(spec.x: Invalid value: "null": spec.x in body must be of type string: "null")"});
  CHECK(Check(R"({"type":"string","nullable":true})", nullptr).empty());
  CHECK(Check(R"({"type":"string","nullable":true,"enum":["a"]})", nullptr) == Lines{R"(spec.x: Unsupported value: null: supported values: "a")"});
}

TEST_CASE("validate: required and enum") {
  auto g = Crd(R"({"type":"object","required":["spec"],"properties":{"spec":{"type":"object","required":["x","y"],
    "properties":{"x":{"type":"string"},"y":{"type":"string"}}}}})");
  FieldErrors errs = Validate(*g->Root(), json::parse(R"({"spec":{"y":"v"}})"));
  CHECK(Rendered(errs) == Lines{"spec.x: Required value"});
  CHECK(errs[0].CauseType() == "FieldValueRequired");
  CHECK(Rendered(Validate(*g->Root(), json::object())) == Lines{"spec: Required value"});
  errs = Validate(*Crd(R"({"type":"object","properties":{"spec":{"type":"object","properties":{"x":{"type":"string","enum":["b","c"]}}}}})")->Root(),
                  json::parse(R"({"spec":{"x":"a"}})"));
  CHECK(Rendered(errs) == Lines{R"(spec.x: Unsupported value: "a": supported values: "b", "c")"});
  CHECK(errs[0].CauseType() == "FieldValueNotSupported");
  CHECK(Check(R"({"type":"integer","enum":[1,2]})", 3) == Lines{R"(spec.x: Unsupported value: 3: supported values: "1", "2")"});
  CHECK(Check(R"({"type":"integer","enum":[1,2]})", 2).empty());
  CHECK(Check(R"({"type":"object","enum":[{"a":1}]})", json{{"a", 1}}).empty());
}

TEST_CASE("validate: strings") {
  CHECK(Check(R"({"type":"string","pattern":"^[a-z]+$"})", "ABC") == Lines{R"(spec.x: Invalid value: "ABC": spec.x in body should match '^[a-z]+$')"});
  CHECK(Check(R"({"type":"string","pattern":"^[a-z]+$"})", "abc").empty());
  CHECK(Check(R"({"type":"string","pattern":"\\p{L}+"})", "\xc3\xa9t\xc3\xa9").empty());  // Go's (RE2) syntax
  CHECK(Check(R"({"type":"string","maxLength":3})", "abcd") == Lines{"spec.x: Too long: may not be more than 3 bytes"});
  CHECK(Check(R"({"type":"string","maxLength":1})", "ab") == Lines{"spec.x: Too long: may not be more than 1 byte"});
  CHECK(Check(R"({"type":"string","maxLength":3})", "\xc3\xa9\xc3\xa9\xc3\xa9").empty());  // lengths count characters
  CHECK(Check(R"({"type":"string","minLength":2})", "a") == Lines{R"(spec.x: Invalid value: "a": spec.x in body should be at least 2 chars long)"});
  // Only the first failing string check is reported.
  CHECK(Check(R"({"type":"string","minLength":5,"pattern":"^z"})", "a").size() == 1);
  CHECK(Check(R"({"type":"string","pattern":"+"})", "foo") ==
        Lines{"spec.x: Invalid value: \"foo\": spec.x in body should match '+, but pattern is invalid: error parsing "
              "regexp: missing argument to repetition operator: `+`'"});
  CHECK(Check(R"({"type":"string","pattern":"(a"})", "foo") ==
        Lines{"spec.x: Invalid value: \"foo\": spec.x in body should match '(a, but pattern is invalid: error parsing "
              "regexp: missing closing ): `(a`'"});
}

TEST_CASE("validate: numbers") {
  CHECK(Check(R"({"type":"integer","minimum":1})", 0) == Lines{"spec.x: Invalid value: 0: spec.x in body should be greater than or equal to 1"});
  CHECK(Check(R"({"type":"integer","minimum":1,"exclusiveMinimum":true})", 1) == Lines{"spec.x: Invalid value: 1: spec.x in body should be greater than 1"});
  CHECK(Check(R"({"type":"integer","maximum":10})", 11) == Lines{"spec.x: Invalid value: 11: spec.x in body should be less than or equal to 10"});
  CHECK(Check(R"({"type":"integer","maximum":10,"exclusiveMaximum":true})", 10) == Lines{"spec.x: Invalid value: 10: spec.x in body should be less than 10"});
  CHECK(Check(R"({"type":"number","maximum":1.5})", 2.25) == Lines{"spec.x: Invalid value: 2.25: spec.x in body should be less than or equal to 1.5"});
  CHECK(Check(R"({"type":"number","maximum":1000000})", 2e6) == Lines{"spec.x: Invalid value: 2e+06: spec.x in body should be less than or equal to 1e+06"});
  CHECK(Check(R"({"type":"integer","multipleOf":5})", 7) == Lines{"spec.x: Invalid value: 7: spec.x in body should be a multiple of 5"});
  CHECK(Check(R"({"type":"number","multipleOf":0.5})", 1.25) == Lines{"spec.x: Invalid value: 1.25: spec.x in body should be a multiple of 0.5"});
  CHECK(Check(R"({"type":"number","multipleOf":0.5})", 1.5).empty());
  CHECK(Check(R"({"type":"integer","format":"int32"})", 3000000000LL) ==
        Lines{R"(<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.x)"});
  CHECK(Check(R"({"type":"integer","format":"int32"})", 7).empty());
}

TEST_CASE("validate: formats kube supports in CRDs; others are ignored") {
  CHECK(Check(R"({"type":"string","format":"date-time"})", "yesterday") ==
        Lines{R"(spec.x: Invalid value: "yesterday": spec.x in body must be of type date-time: "yesterday")"});
  CHECK(Check(R"({"type":"string","format":"date-time"})", "2024-02-29T10:00:00Z").empty());
  CHECK(Check(R"({"type":"string","format":"date"})", "2023-02-29").size() == 1);
  CHECK(Check(R"({"type":"string","format":"ipv4"})", "10.0.0.1").empty());
  CHECK(Check(R"({"type":"string","format":"ipv4"})", "10.0.0").size() == 1);
  CHECK(Check(R"({"type":"string","format":"ipv6"})", "fe80::1").empty());
  CHECK(Check(R"({"type":"string","format":"ipv6"})", "10.0.0.1").size() == 1);
  CHECK(Check(R"({"type":"string","format":"cidr"})", "10.0.0.0/8").empty());
  CHECK(Check(R"({"type":"string","format":"cidr"})", "10.0.0.0/33").size() == 1);
  CHECK(Check(R"({"type":"string","format":"uri"})", "https://example.com/a?b=c").empty());
  CHECK(Check(R"({"type":"string","format":"uri"})", "not a uri").size() == 1);
  CHECK(Check(R"({"type":"string","format":"email"})", "a@example.com").empty());
  CHECK(Check(R"({"type":"string","format":"email"})", "nobody").size() == 1);
  CHECK(Check(R"({"type":"string","format":"hostname"})", "my-host.example.com").empty());
  CHECK(Check(R"({"type":"string","format":"hostname"})", "-bad-").size() == 1);
  CHECK(Check(R"({"type":"string","format":"uuid"})", "123e4567-e89b-12d3-a456-426614174000").empty());
  CHECK(Check(R"({"type":"string","format":"uuid"})", "123").size() == 1);
  CHECK(Check(R"({"type":"string","format":"mac"})", "01:23:45:67:89:ab").empty());
  CHECK(Check(R"({"type":"string","format":"mac"})", "01:23:45").size() == 1);
  CHECK(Check(R"({"type":"string","format":"byte"})", "aGVsbG8=").empty());
  CHECK(Check(R"({"type":"string","format":"byte"})", "hello!").size() == 1);
  CHECK(Check(R"({"type":"string","format":"duration"})", "1h30m").empty());
  CHECK(Check(R"({"type":"string","format":"duration"})", "3 days").empty());
  CHECK(Check(R"({"type":"string","format":"duration"})", "soon").size() == 1);
  CHECK(Check(R"({"type":"string","format":"k8s-short-name"})", "Bad_Name").size() == 1);
  CHECK(Check(R"({"type":"string","format":"k8s-long-name"})", "a.b-c.d").empty());
  CHECK(Check(R"({"type":"string","format":"isbn13"})", "978-0321751041").empty());
  CHECK(Check(R"({"type":"string","format":"creditcard"})", "4111 1111 1111 1111").empty());
  CHECK(Check(R"({"type":"string","format":"ssn"})", "123-45-6789").empty());
  CHECK(Check(R"({"type":"string","format":"hexcolor"})", "#ffeeaa").empty());
  CHECK(Check(R"({"type":"string","format":"rgbcolor"})", "rgb(1,2,300)").size() == 1);
  CHECK(Check(R"({"type":"string","format":"bsonobjectid"})", "507f1f77bcf86cd799439011").empty());
  CHECK(Check(R"({"type":"string","format":"my-own-format"})", "anything").empty());
  CHECK(Check(R"({"type":"integer","format":"int-or-string"})", 5).empty());
}

TEST_CASE("validate: int-or-string") {
  constexpr const char* kPort = R"({"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]})";
  CHECK(Check(kPort, 80).empty());
  CHECK(Check(kPort, "http").empty());
  CHECK(Check(kPort, true) == Lines{R"(spec.x: Invalid value: "boolean": spec.x in body must be of type integer,string: "boolean")",
                                    R"(<nil>: Invalid value: "": "spec.x" must validate at least one schema (anyOf))",
                                    R"(spec.x: Invalid value: "boolean": spec.x in body must be of type integer: "boolean")"});
  CHECK(Check(R"({"x-kubernetes-int-or-string":true})", 1.5) ==
        Lines{R"(spec.x: Invalid value: "number": spec.x in body must be of type integer,string: "number")"});
}

TEST_CASE("validate: arrays and objects: counts and uniqueness") {
  CHECK(Check(R"({"type":"array","maxItems":2,"items":{"type":"string"}})", json{"a", "b", "c"}) ==
        Lines{"spec.x: Too many: 3: must have at most 2 items"});
  CHECK(Check(R"({"type":"array","maxItems":1,"items":{"type":"string"}})", json{"a", "b"}) ==
        Lines{"spec.x: Too many: 2: must have at most 1 item"});
  CHECK(Check(R"({"type":"array","minItems":1,"items":{"type":"string"}})", json::array()) ==
        Lines{"spec.x: Invalid value: 0: spec.x in body should have at least 1 items"});
  CHECK(Check(R"({"type":"array","items":{"type":"integer","minimum":0}})", json{1, -1}) ==
        Lines{"spec.x[1]: Invalid value: -1: spec.x[1] in body should be greater than or equal to 0"});
  CHECK(Check(R"({"type":"array","uniqueItems":true,"items":{"type":"integer"}})", json{1, 1}) ==
        Lines{R"(spec.x: Invalid value: "": spec.x in body shouldn't contain duplicates)"});
  CHECK(Check(R"({"type":"object","maxProperties":1,"additionalProperties":{"type":"string"}})", json{{"a", "1"}, {"b", "2"}}) ==
        Lines{"spec.x: Too many: 2: must have at most 1 item"});
  CHECK(Check(R"({"type":"object","minProperties":1,"additionalProperties":{"type":"string"}})", json::object()) ==
        Lines{"spec.x: Invalid value: 0: spec.x in body should have at least 1 properties"});
  CHECK(Check(R"({"type":"object","additionalProperties":{"type":"string"}})", json{{"a", 1}}) ==
        Lines{R"(spec.x.a: Invalid value: "integer": spec.x.a in body must be of type string: "integer")"});
}

TEST_CASE("validate: list-type set and map uniqueness") {
  CHECK(Check(R"({"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}})", json{"a", "b", "a", "a"}) ==
        Lines{R"(spec.x[2]: Duplicate value: "a")"});
  constexpr const char* kMap = R"({"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
    "items":{"type":"object","properties":{"name":{"type":"string"},"v":{"type":"integer"}}}})";
  auto errs = Check(kMap, json::parse(R"([{"name":"a","v":1},{"name":"b"},{"name":"a","v":2}])"));
  CHECK(errs == Lines{R"(spec.x[2]: Duplicate value: {"name":"a"})"});
  CHECK(Check(kMap, json::parse(R"([{"v":1},{"v":2}])")) == Lines{"spec.x[1]: Duplicate value: {}"});
  CHECK(Check(R"({"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["a","b"],
    "items":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}}}})",
              json::parse(R"([{"a":"x","b":1},{"a":"x","b":2},{"a":"x","b":1}])")) ==
        Lines{R"(spec.x[2]: Duplicate value: {"a":"x","b":1})"});
  CHECK(Check(R"({"type":"array","x-kubernetes-list-type":"set","items":{"type":"integer"}})", json{1, 2}).empty());
}

TEST_CASE("validate: embedded resources need apiVersion and kind") {
  constexpr const char* kTemplate = R"({"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true})";
  CHECK(Check(kTemplate, json{{"spec", json::object()}}) == Lines{"spec.x.apiVersion: Required value", "spec.x.kind: Required value"});
  CHECK(Check(kTemplate, json{{"apiVersion", "v1"}, {"kind", "ConfigMap"}}).empty());
  CHECK(Check(kTemplate, json{{"apiVersion", "a/b/c"}, {"kind", "Bad_Kind"}, {"metadata", "x"}}) ==
        Lines{R"(spec.x.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c)",
              R"(spec.x.kind: Invalid value: "Bad_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?'))",
              R"(spec.x.metadata: Invalid value: "x": json: cannot unmarshal string into Go value of type v1.ObjectMeta)"});
  auto g = Crd(R"({"type":"object","properties":{"spec":{"type":"object","properties":{"x":)" + std::string(kTemplate) + "}}}}");
  ValidateOptions options;
  options.embedded_metadata = [](const json& meta, const std::string& path) {
    FieldErrors errs;
    if (meta.value("name", "") == "Bad") errs.push_back({FieldError::Type::kInvalid, path + ".name", "\"Bad\"", "bad name"});
    return errs;
  };
  CHECK(Rendered(Validate(*g->Root(), json::parse(R"({"spec":{"x":{"apiVersion":"v1","kind":"K","metadata":{"name":"Bad"}}}})"),
                          options)) == Lines{R"(spec.x.metadata.name: Invalid value: "Bad": bad name)"});
}

TEST_CASE("validate: allOf, anyOf, oneOf, not") {
  CHECK(Check(R"({"type":"integer","allOf":[{"minimum":1},{"maximum":5}]})", 3).empty());
  CHECK(Check(R"({"type":"integer","allOf":[{"minimum":1},{"maximum":5}]})", 9) ==
        Lines{"spec.x: Invalid value: 9: spec.x in body should be less than or equal to 5",
              R"(<nil>: Invalid value: "": "spec.x" must validate all the schemas (allOf))"});
  CHECK(Check(R"({"type":"integer","allOf":[{"minimum":10},{"maximum":5}]})", 12).back() ==
        R"(<nil>: Invalid value: "": "spec.x" must validate all the schemas (allOf))");
  CHECK(Check(R"({"type":"integer","allOf":[{"minimum":10},{"minimum":20}]})", 7).back() ==
        R"(<nil>: Invalid value: "": "spec.x" must validate all the schemas (allOf). None validated)");
  CHECK(Check(R"({"type":"string","anyOf":[{"pattern":"^a"},{"pattern":"^b"}]})", "b").empty());
  CHECK(Check(R"({"type":"string","oneOf":[{"pattern":"^a"},{"pattern":"b$"}]})", "ab") ==
        Lines{R"(<nil>: Invalid value: "": "spec.x" must validate one and only one schema (oneOf). Found 2 valid alternatives)"});
  CHECK(Check(R"({"type":"string","oneOf":[{"pattern":"^a"},{"pattern":"b$"}]})", "c") ==
        Lines{R"(<nil>: Invalid value: "": "spec.x" must validate one and only one schema (oneOf). Found none valid)",
              R"(spec.x: Invalid value: "c": spec.x in body should match '^a')"});
  CHECK(Check(R"({"type":"string","not":{"enum":["no"]}})", "no") ==
        Lines{R"(<nil>: Invalid value: "": "spec.x" must not validate the schema (not))"});
  CHECK(Check(R"({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},
                  "oneOf":[{"required":["a"]},{"required":["b"]}]})", json{{"a", "1"}}).empty());
}

TEST_CASE("validate: a path prefix for values validated on their own") {
  auto g = Crd(R"({"type":"object","required":["ready"],"properties":{"ready":{"type":"boolean"}}})");
  ValidateOptions options;
  options.path = "status";
  CHECK(Rendered(Validate(*g->Root(), json::object(), options)) == Lines{"status.ready: Required value"});
  CHECK(Rendered(Validate(*g->Root(), json::array(), options)) ==
        Lines{R"(status: Invalid value: "array":  in body must be of type object: "array")"});
  CHECK(Rendered(Validate(*g->Root(), json::array())) ==
        Lines{R"(<nil>: Invalid value: "array":  in body must be of type object: "array")"});
}

}  // namespace
}  // namespace kube::schema

namespace kube::schema {
namespace {

TEST_CASE("validate: on update, unchanged invalid values ratchet") {
  auto g = Crd(R"({"type":"object","properties":{"spec":{"type":"object","properties":{
    "a":{"type":"string","maxLength":2},"b":{"type":"string","maxLength":2},
    "items":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],
             "items":{"type":"object","properties":{"k":{"type":"string"},"v":{"type":"integer","maximum":1}}}},
    "tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}}}})");
  json old = json::parse(R"({"spec":{"a":"long","b":"ok","items":[{"k":"x","v":5}],"tags":["t","t"]}})");
  ValidateOptions update;
  update.old = &old;
  // The stored invalid values stay; a changed one is checked.
  json next = json::parse(R"({"spec":{"a":"long","b":"longer","items":[{"k":"y","v":1},{"k":"x","v":5}],"tags":["t","t","u"]}})");
  CHECK(Rendered(Validate(*g->Root(), next, update)) == Lines{"spec.b: Too long: may not be more than 2 bytes"});
  // Without the old object everything is checked.
  CHECK(Rendered(Validate(*g->Root(), next)) == Lines{"spec.a: Too long: may not be more than 2 bytes",
                                                       "spec.b: Too long: may not be more than 2 bytes",
                                                       "spec.items[1].v: Invalid value: 5: spec.items[1].v in body should be less than or equal to 1",
                                                       R"(spec.tags[1]: Duplicate value: "t")"});
  // A changed invalid item of a list-type map is checked.
  json changed = json::parse(R"({"spec":{"a":"ok","items":[{"k":"x","v":6}]}})");
  CHECK(Rendered(Validate(*g->Root(), changed, update)) ==
        Lines{"spec.items[0].v: Invalid value: 6: spec.items[0].v in body should be less than or equal to 1"});
}

}  // namespace
}  // namespace kube::schema

#include "schema/defaulting.h"
#include "schema/prune.h"

namespace kube::schema {
namespace {

TEST_CASE("a kubebuilder-shaped custom resource goes through prune, default and validate cleanly") {
  auto g = Crd(R"({"type":"object","description":"CronTab","properties":{
    "apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},
    "spec":{"type":"object","required":["cronSpec"],"properties":{
      "cronSpec":{"type":"string","pattern":"^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$"},
      "image":{"type":"string","default":"busybox"},
      "replicas":{"type":"integer","format":"int32","minimum":1,"maximum":10,"default":1},
      "port":{"anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true},
      "env":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
             "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"value":{"type":"string"}}}}}},
    "status":{"type":"object","properties":{
      "conditions":{"type":"array","items":{"type":"object","required":["type","status"],"properties":{
        "type":{"type":"string"},"status":{"type":"string","enum":["True","False","Unknown"]},
        "lastTransitionTime":{"type":"string","format":"date-time"}}}}}}}})");
  json cr = json::parse(R"({"apiVersion":"stable.example.com/v1","kind":"CronTab",
    "metadata":{"name":"c","namespace":"default","uid":"u","labels":{"a":"b"},"creationTimestamp":"2024-01-01T00:00:00Z"},
    "spec":{"cronSpec":"* * * * */5","port":"http","env":[{"name":"A","value":"1"}],"typo":1},
    "status":{"conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2024-01-01T00:00:00Z"}]}})");
  PruneOptions options;
  options.resource_root = true;
  CHECK(Prune(g->Root(), &cr, options) == std::vector<std::string>{"spec.typo"});
  Default(g->Root(), &cr);
  CHECK(cr["spec"]["image"] == "busybox");
  CHECK(cr["spec"]["replicas"] == 1);
  CHECK(Validate(*g->Root(), cr).empty());
  cr["spec"]["replicas"] = 11;
  cr["spec"]["cronSpec"] = "never";
  cr["status"]["conditions"][0]["status"] = "Maybe";
  CHECK(Rendered(Validate(*g->Root(), cr)) ==
        Lines{R"(spec.cronSpec: Invalid value: "never": spec.cronSpec in body should match '^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$')",
              "spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10",
              R"(status.conditions[0].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown")"});
}

}  // namespace
}  // namespace kube::schema

namespace kube::schema {
namespace {

TEST_CASE("prune, default and validate take values of any shape without throwing") {
  auto g = Crd(R"({"type":"object","properties":{"spec":{"type":"object","required":["a"],"properties":{
    "a":{"type":"string","pattern":"^x","minLength":1,"maxLength":3,"format":"uri","enum":["x"]},
    "n":{"type":"integer","format":"int32","minimum":0,"maximum":5,"multipleOf":2,"default":2},
    "f":{"type":"number","format":"float","minimum":0.5,"exclusiveMaximum":true,"maximum":1e300},
    "l":{"type":"array","minItems":1,"maxItems":2,"uniqueItems":true,"x-kubernetes-list-type":"map",
         "x-kubernetes-list-map-keys":["k"],"items":{"type":"object","properties":{"k":{"type":"string"}}}},
    "m":{"type":"object","minProperties":1,"maxProperties":1,"additionalProperties":{"type":"boolean","nullable":true}},
    "p":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}],"not":{"enum":[0]}},
    "e":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,
         "oneOf":[{"required":["kind"]},{"required":["apiVersion"]}]}}}}})");
  const json odd[] = {nullptr, true, -1, 18446744073709551615ULL, -9223372036854775807LL - 1, 1e308, -0.0, 0.5,
                      "", "\xff\xfe", json::array(), json::array({nullptr, json::array({json::array()})}),
                      json::object(), json{{"k", nullptr}}, json{{"", json{{"", 1}}}}};
  auto meta = testing::ObjectMeta();
  for (const auto& v : odd) {
    for (const char* field : {"a", "n", "f", "l", "m", "p", "e", "unknown"}) {
      json obj = {{"spec", {{field, v}}}, {"metadata", v}, {"kind", v}};
      json old = {{"spec", {{field, v}, {"l", json::array({v, v})}}}};
      PruneOptions options;
      options.resource_root = true;
      options.object_meta = meta->Root();
      CHECK_NOTHROW(Prune(g->Root(), &obj, options));
      CHECK_NOTHROW(Default(g->Root(), &obj));
      ValidateOptions update;
      update.old = &old;
      CHECK_NOTHROW(Validate(*g->Root(), obj));
      CHECK_NOTHROW(Validate(*g->Root(), obj, update));
      CHECK_NOTHROW(Validate(*g->Root(), v));
    }
  }
}

}  // namespace
}  // namespace kube::schema

#include <algorithm>

namespace kube::schema {
namespace {

// kube compares these as sets; so do we.
Lines Sorted(Lines l) {
  std::sort(l.begin(), l.end());
  return l;
}

TEST_CASE("validate: apiextensions' own cases (pkg/apiserver/validation)") {
  auto g = Crd(R"({"type":"object","properties":{"field":{"nullable":true,"x-kubernetes-int-or-string":true,
    "allOf":[{"anyOf":[{"type":"integer"},{"type":"string"}]}]}}})");
  for (const json& ok : {json::object(), json{{"field", nullptr}}, json{{"field", 42}}, json{{"field", "foo"}}}) {
    CHECK(Validate(*g->Root(), ok).empty());
  }
  auto errors = [&](const json& v) { return Sorted(Rendered(Validate(*g->Root(), json{{"field", v}}))); };
  CHECK(errors(true) == Sorted({R"(<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated)",
                                R"(<nil>: Invalid value: "": "field" must validate at least one schema (anyOf))",
                                R"(field: Invalid value: "boolean": field in body must be of type integer,string: "boolean")",
                                R"(field: Invalid value: "boolean": field in body must be of type integer: "boolean")"}));
  CHECK(errors(1.2) == Sorted({R"(<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated)",
                               R"(<nil>: Invalid value: "": "field" must validate at least one schema (anyOf))",
                               R"(field: Invalid value: "number": field in body must be of type integer,string: "number")",
                               R"(field: Invalid value: "number": field in body must be of type integer: "number")",
                               R"(<nil>: Invalid value: "": Checked value must be of type integer (default format) in field)"}));
  CHECK(errors(json::array()) == Sorted({R"(<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated)",
                                         R"(<nil>: Invalid value: "": "field" must validate at least one schema (anyOf))",
                                         R"(field: Invalid value: "array": field in body must be of type integer,string: "array")",
                                         R"(field: Invalid value: "array": field in body must be of type integer: "array")"}));

  auto required = Crd(R"({"type":"object","required":["field"],"properties":{"field":{"type":"object",
    "required":["nested"],"properties":{"nested":{}}}}})");
  CHECK(Rendered(Validate(*required->Root(), json{{"test", "a"}})) == Lines{"field: Required value"});
  CHECK(Rendered(Validate(*required->Root(), json{{"field", json::object()}})) == Lines{"field.nested: Required value"});

  auto enums = Crd(R"({"type":"object","properties":{"field":{"type":"object","required":["nestedint","nestedstring"],
    "properties":{"nestedint":{"type":"integer","enum":[1,2]},"nestedstring":{"type":"string","enum":["a","b"]}}}}})");
  CHECK(Sorted(Rendered(Validate(*enums->Root(), json::parse(R"({"field":{"nestedint":"x","nestedstring":true}})")))) ==
        Sorted({R"(field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string")",
                R"(field.nestedint: Unsupported value: "x": supported values: "1", "2")",
                R"(field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean")",
                R"(field.nestedstring: Unsupported value: true: supported values: "a", "b")"}));

  auto numbers = Crd(R"({"type":"object","properties":{"intThirtyTwo":{"type":"integer","format":"int32"},
    "intSixtyFour":{"type":"integer","format":"int64"},"floatThreeTwo":{"type":"number","format":"float"},
    "floatSixFour":{"type":"number","format":"double"}}})");
  CHECK(Validate(*numbers->Root(), json{{"intThirtyTwo", -2147483648LL}, {"intSixtyFour", INT64_MIN},
                                        {"floatThreeTwo", -3.4028234663852886e38}, {"floatSixFour", -1.7976931348623157e308}})
            .empty());
  CHECK(Rendered(Validate(*numbers->Root(), json{{"intThirtyTwo", 2147483648LL}})) ==
        Lines{R"(<nil>: Invalid value: "": Checked value must be of type integer with format int32 in intThirtyTwo)"});
  CHECK(Sorted(Rendered(Validate(*numbers->Root(), json{{"intSixtyFour", 9223372036854775807.0 * 1.1}}))) ==
        Sorted({R"(intSixtyFour: Invalid value: "float64": intSixtyFour in body must be of type int64: "float64")",
                R"(<nil>: Invalid value: "": Checked value must be of type integer with format int64 in intSixtyFour)"}));
  CHECK(Rendered(Validate(*numbers->Root(), json{{"floatThreeTwo", 3.4028234663852886e38 * 1.1}})) ==
        Lines{R"(<nil>: Invalid value: "": Checked value must be of type number with format float in floatThreeTwo)"});
  auto names = Crd(R"({"type":"object","properties":{"l":{"type":"string","format":"k8s-long-name"},
    "s":{"type":"string","format":"k8s-short-name"}}})");
  CHECK(Rendered(Validate(*names->Root(), json{{"l", "a.-"}, {"s", "a-"}})) ==
        Lines{R"(l: Invalid value: "a.-": l in body must be of type k8s-long-name: "a.-")",
              R"(s: Invalid value: "a-": s in body must be of type k8s-short-name: "a-")"});
}

}  // namespace
}  // namespace kube::schema
