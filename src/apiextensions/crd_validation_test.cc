// CRD create/update validation: real-world CRDs pass; every rule fails with kube's path and
// message.

#include "apiextensions/crd_validation.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "apiextensions/apiextensions_test_util.h"

namespace kube::apiextensions {
namespace {

using testing::CreateErrors;
using testing::J;
using testing::Json;
using testing::Stored;
using testing::UpdateErrors;
using testing::WidgetCrd;

using Strings = std::vector<std::string>;

Json& SchemaOf(Json& crd, size_t version = 0) {
  return crd["spec"]["versions"][version]["schema"]["openAPIV3Schema"];
}
Json& SpecProps(Json& crd) { return SchemaOf(crd)["properties"]["spec"]["properties"]; }

constexpr const char* kDns1035 =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
    "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation "
    "is '[a-z]([-a-z0-9]*[a-z0-9])?')";

TEST_CASE("real-world CRDs are valid") {
  CHECK(CreateErrors(WidgetCrd()) == Strings{});
  CHECK(CreateErrors(testing::KubebuilderCronJobCrd()) == Strings{});
  CHECK(CreateErrors(testing::CertManagerCertificateCrd()) == Strings{});
}

struct Case {
  const char* name;
  std::function<void(Json&)> mutate;
  Strings want;
};

void RunCases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    INFO(c.name);
    Json crd = WidgetCrd();
    c.mutate(crd);
    CHECK(testing::Lines(CreateErrors(crd)) == testing::Lines(c.want));
  }
}

TEST_CASE("metadata, group, scope and names") {
  RunCases({
      {"name must be plural.group", [](Json& c) { c["metadata"]["name"] = "gadgets.example.com"; },
       {R"(metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group)"}},
      {"generateName follows the same rule", [](Json& c) { c["metadata"]["generateName"] = "widgets-"; },
       {R"(metadata.generateName: Invalid value: "widgets-": must be spec.names.plural+"."+spec.group)"}},
      {"group needs a dot",
       [](Json& c) {
         c["spec"]["group"] = "example";
         c["metadata"]["name"] = "widgets.example";
       },
       {R"(spec.group: Invalid value: "example": should be a domain with at least one dot)"}},
      {"group must be a DNS subdomain",
       [](Json& c) {
         c["spec"]["group"] = "Example.com";
         c["metadata"]["name"] = "widgets.Example.com";
       },
       {R"(spec.group: Invalid value: "Example.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'))"}},
      {"group required",
       [](Json& c) {
         c["spec"].erase("group");
         c["metadata"]["name"] = "widgets.";
       },
       {"spec.group: Required value"}},
      {"scope required", [](Json& c) { c["spec"].erase("scope"); }, {"spec.scope: Required value"}},
      {"scope enum", [](Json& c) { c["spec"]["scope"] = "Global"; },
       {R"(spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced")"}},
      {"plural must be a DNS-1035 label",
       [](Json& c) {
         c["spec"]["names"]["plural"] = "Widgets";
         c["metadata"]["name"] = "Widgets.example.com";
       },
       {std::string(R"(spec.names.plural: Invalid value: "Widgets": )") + kDns1035}},
      {"kind may be mixed case but otherwise a label", [](Json& c) { c["spec"]["names"]["kind"] = "My_Widget"; },
       {std::string(R"(spec.names.singular: Invalid value: "my_widget": )") + kDns1035,
        std::string(R"(spec.names.kind: Invalid value: "My_Widget": may have mixed case, but should otherwise match: )") + kDns1035,
        std::string(R"(spec.names.listKind: Invalid value: "My_WidgetList": may have mixed case, but should otherwise match: )") + kDns1035}},
      {"kind and listKind distinct", [](Json& c) { c["spec"]["names"]["listKind"] = "Widget"; },
       {R"(spec.names.listKind: Invalid value: "Widget": kind and listKind may not be the same)"}},
      {"kind required (and what defaults from it)", [](Json& c) { c["spec"]["names"].erase("kind"); },
       {"spec.names.singular: Required value", "spec.names.kind: Required value", "spec.names.listKind: Required value"}},
      {"short names and categories are labels",
       [](Json& c) {
         c["spec"]["names"]["shortNames"] = {"wd", "W D"};
         c["spec"]["names"]["categories"] = {"all", "9lives"};
       },
       {std::string(R"(spec.names.shortNames[1]: Invalid value: "W D": )") + kDns1035,
        std::string(R"(spec.names.categories[1]: Invalid value: "9lives": )") + kDns1035}},
      {"plural too long",
       [](Json& c) {
         const std::string p(64, 'a');
         c["spec"]["names"]["plural"] = p;
         c["metadata"]["name"] = p + ".example.com";
       },
       {R"(spec.names.plural: Invalid value: ")" + std::string(64, 'a') + R"(": must be no more than 63 characters)"}},
  });
}

TEST_CASE("versions") {
  const std::string v1_rendered =
      R"({"Name":"v1","Served":true,"Storage":false,"Deprecated":false,"DeprecationWarning":null,"Schema":null,)"
      R"("Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null})";
  RunCases({
      {"no storage version", [](Json& c) { c["spec"]["versions"][0]["storage"] = false; },
       {"spec.versions: Invalid value: [" + v1_rendered + "]: must have exactly one version marked as storage version",
        "status.storedVersions: Invalid value: null: must have at least one stored version"}},
      {"no versions at all", [](Json& c) { c["spec"].erase("versions"); },
       {"spec.versions: Invalid value: null: must have exactly one version marked as storage version",
        "status.storedVersions: Invalid value: null: must have at least one stored version"}},
      {"version names are DNS-1035 labels (reported for the internal spec.version too)",
       [](Json& c) { c["spec"]["versions"][0]["name"] = "V1"; },
       {std::string(R"(spec.versions[0].name: Invalid value: "V1": )") + kDns1035,
        std::string(R"(spec.version: Invalid value: "V1": )") + kDns1035}},
      {"schema required in v1", [](Json& c) { c["spec"]["versions"][0].erase("schema"); },
       {"spec.versions[0].schema.openAPIV3Schema: Required value"}},
      {"schema object without openAPIV3Schema", [](Json& c) { c["spec"]["versions"][0]["schema"] = Json::object(); },
       {"spec.versions[0].schema.openAPIV3Schema: Required value"}},
      {"deprecationWarning only on deprecated versions",
       [](Json& c) { c["spec"]["versions"][0]["deprecationWarning"] = "old"; },
       {R"(spec.versions[0].deprecationWarning: Invalid value: "old": can only be set for deprecated versions)"}},
      {"deprecationWarning length and content",
       [](Json& c) {
         c["spec"]["versions"][0]["deprecated"] = true;
         c["spec"]["versions"][0]["deprecationWarning"] = "bad\twarning";
       },
       {R"(spec.versions[0].deprecationWarning: Invalid value: "bad\twarning": must only contain printable UTF-8 characters; non-printable character found at index 3)"}},
      {"empty deprecationWarning",
       [](Json& c) {
         c["spec"]["versions"][0]["deprecated"] = true;
         c["spec"]["versions"][0]["deprecationWarning"] = "";
       },
       {R"(spec.versions[0].deprecationWarning: Invalid value: "": must not be an empty string)"}},
  });
}

TEST_CASE("multiple versions report per-version paths and accumulate errors in the internal layout") {
  Json crd = WidgetCrd();
  Json v2 = crd["spec"]["versions"][0];
  v2["name"] = "v2";
  v2["storage"] = false;
  v2["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["size"] = {{"minimum", 1}};
  crd["spec"]["versions"].push_back(v2);
  // The subresources are identical in both versions, so they move to the top (no error there);
  // the schemas differ and stay per version.
  CHECK(CreateErrors(crd) ==
        Strings{"spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[size].type: Required value: must "
                "not be empty for specified object fields"});

  SUBCASE("duplicate names and two storage versions") {
    crd["spec"]["versions"][1]["name"] = "v1";
    crd["spec"]["versions"][1]["storage"] = true;
    const Strings errs = CreateErrors(crd);
    REQUIRE(errs.size() == 3);
    CHECK(errs[1].starts_with(R"(spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":true,)"));
    CHECK(errs[1].ends_with("]: must contain unique version names"));
    CHECK(errs[2].ends_with("]: must have exactly one version marked as storage version"));
    // Folded fields render as null in each version; per-version schemas render as Go structs.
    CHECK(errs[1].find(R"("Subresources":null)") != std::string::npos);
    CHECK(errs[1].find(R"("Schema":{"OpenAPIV3Schema":{"ID":"","Schema":"","Ref":null,"Description":"","Type":"object",)") !=
          std::string::npos);
    CHECK(errs[1].find(R"("Minimum":1,)") != std::string::npos);
  }
}

TEST_CASE("structural schema rules") {
  RunCases({
      {"type required for fields", [](Json& c) { SpecProps(c)["size"].erase("type"); },
       {"spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Required value: must not be empty for specified object fields"}},
      {"type required for items", [](Json& c) { SpecProps(c)["tags"]["items"] = Json::object(); },
       {"spec.validation.openAPIV3Schema.properties[spec].properties[tags].items.type: Required value: must not be empty for specified array items"}},
      {"type required at the root", [](Json& c) { SchemaOf(c).erase("type"); },
       {"spec.validation.openAPIV3Schema.type: Required value: must not be empty at the root"}},
      {"root must be an object",
       [](Json& c) {
         SchemaOf(c) = {{"type", "string"}};
         c["spec"]["versions"][0].erase("subresources");
       },
       {R"(spec.validation.openAPIV3Schema.type: Invalid value: "string": must be object at the root)"}},
      {"status subresource needs an object root", [](Json& c) { SchemaOf(c) = {{"type", "string"}}; },
       {R"(spec.validation.openAPIV3Schema.type: Invalid value: "string": only "object" is allowed as the type at the root of the schema if the status subresource is enabled)",
        R"(spec.validation.openAPIV3Schema.type: Invalid value: "string": must be object at the root)"}},
      {"arrays need items", [](Json& c) { SpecProps(c)["tags"].erase("items"); },
       {"spec.validation.openAPIV3Schema.properties[spec].properties[tags].items: Required value: must be specified"}},
      {"int-or-string and preserve-unknown-fields exempt from type",
       [](Json& c) {
         SpecProps(c)["port"] = {{"x-kubernetes-int-or-string", true}};
         SpecProps(c)["raw"] = {{"x-kubernetes-preserve-unknown-fields", true}};
       },
       {}},
      {"int-or-string anyOf pattern is allowed, other typed anyOf is not",
       [](Json& c) {
         SpecProps(c)["port"] = J(R"({"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]})");
         SpecProps(c)["other"] = J(R"({"type": "string", "anyOf": [{"type": "string", "maxLength": 3}, {"pattern": "^a"}]})");
       },
       {"spec.validation.openAPIV3Schema.properties[spec].properties[other].anyOf[0].type: Forbidden: must be empty to be structural"}},
      {"nested value validations may not declare structure",
       [](Json& c) {
         SpecProps(c)["size"]["allOf"] = J(R"([{"description": "d", "nullable": true, "default": 1,
           "x-kubernetes-list-type": "set", "additionalProperties": {"type": "string"}}])");
       },
       {"spec.validation.openAPIV3Schema.properties[spec].properties[size].allOf[0].additionalProperties: Forbidden: must be undefined to be structural",
        "spec.validation.openAPIV3Schema.properties[spec].properties[size].allOf[0].default: Forbidden: must be undefined to be structural",
        "spec.validation.openAPIV3Schema.properties[spec].properties[size].allOf[0].description: Forbidden: must be empty to be structural",
        "spec.validation.openAPIV3Schema.properties[spec].properties[size].allOf[0].nullable: Forbidden: must be false to be structural",
        "spec.validation.openAPIV3Schema.properties[spec].properties[size].allOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural",
        "spec.validation.openAPIV3Schema.properties[spec].properties[size].allOf[0].type: Required value: must be array if x-kubernetes-list-type is specified"}},
      {"value validations need a structural counterpart",
       [](Json& c) {
         // (anyOf at the root is not allowed together with the status subresource.)
         c["spec"]["versions"][0].erase("subresources");
         SchemaOf(c)["anyOf"] = J(R"([{"required": ["spec"]}, {"properties": {"bogus": {"minimum": 1}}}])");
       },
       {"spec.validation.openAPIV3Schema.properties[bogus]: Required value: because it is defined in spec.validation.openAPIV3Schema.anyOf[1].properties[bogus]"}},
      {"metadata may only restrict name and generateName",
       [](Json& c) {
         SchemaOf(c)["properties"]["metadata"] =
             J(R"({"type": "object", "properties": {"name": {"type": "string", "maxLength": 20}, "labels": {"type": "object"}}})");
       },
       {"spec.validation.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"}},
      {"metadata restricting only the name is fine",
       [](Json& c) {
         SchemaOf(c)["properties"]["metadata"] =
             J(R"({"type": "object", "properties": {"name": {"type": "string", "maxLength": 20}}})");
       },
       {}},
      {"metadata must be an object, kind and apiVersion strings",
       [](Json& c) {
         SchemaOf(c)["properties"]["metadata"] = {{"type", "string"}};
         SchemaOf(c)["properties"]["kind"] = {{"type", "integer"}};
       },
       {R"(spec.validation.openAPIV3Schema.properties[kind].type: Invalid value: "integer": must be string)",
        R"(spec.validation.openAPIV3Schema.properties[metadata].type: Invalid value: "string": must be object)"}},
      {"additionalProperties at the root",
       [](Json& c) {
         SchemaOf(c) = J(R"({"type": "object", "additionalProperties": {"type": "string"}})");
         c["spec"]["versions"][0].erase("subresources");
       },
       {"spec.validation.openAPIV3Schema.additionalProperties: Forbidden: must not be used at the root"}},
      {"properties and additionalProperties exclusive",
       [](Json& c) { SchemaOf(c)["properties"]["spec"]["additionalProperties"] = {{"type", "string"}}; },
       {"spec.validation.openAPIV3Schema.properties[spec].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive"}},
      {"embedded resources are objects",
       [](Json& c) { SpecProps(c)["template"] = {{"x-kubernetes-embedded-resource", true}, {"x-kubernetes-preserve-unknown-fields", true}}; },
       {"spec.validation.openAPIV3Schema.properties[spec].properties[template].type: Required value: must be object if x-kubernetes-embedded-resource is true"}},
      {"embedded resources without preserve need properties",
       [](Json& c) { SpecProps(c)["template"] = {{"type", "object"}, {"x-kubernetes-embedded-resource", true}}; },
       {"spec.validation.openAPIV3Schema.properties[spec].properties[template].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"}},
      {"embedded resource metadata is checked like the root",
       [](Json& c) {
         SpecProps(c)["template"] = J(R"({"type": "object", "x-kubernetes-embedded-resource": true,
            "properties": {"kind": {"type": "string"}, "metadata": {"type": "string"}}})");
       },
       {R"(spec.validation.openAPIV3Schema.properties[spec].properties[template].properties[metadata].type: Invalid value: "string": must be object)"}},
      {"int-or-string excludes preserve and embedded",
       [](Json& c) {
         SpecProps(c)["port"] = {{"x-kubernetes-int-or-string", true}, {"x-kubernetes-preserve-unknown-fields", true}};
       },
       {"spec.validation.openAPIV3Schema.properties[spec].properties[port].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true"}},
      {"patterns are Go regular expressions", [](Json& c) { SpecProps(c)["color"]["pattern"] = "^[a-z]+(-[a-z]+"; },
       {"spec.validation.openAPIV3Schema.properties[spec].properties[color].pattern: Invalid value: \"^[a-z]+(-[a-z]+\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `^[a-z]+(-[a-z]+`"}},
      {"valid Go patterns pass", [](Json& c) {
         SpecProps(c)["color"]["pattern"] = R"(^(?P<word>[\p{L}_][\w.-]{0,62})(?i:x)?$)";
         SpecProps(c)["size"]["anyOf"] = J(R"([{"pattern": "\\d{1,3}"}])");
       },
       {}},
  });
}

TEST_CASE("keyword rules of the OpenAPI schema") {
  RunCases({
      {"uniqueItems", [](Json& c) { SpecProps(c)["tags"]["uniqueItems"] = true; },
       {"spec.validation.openAPIV3Schema.properties[spec].properties[tags].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic"}},
      {"$ref (conversion error hidden behind it)", [](Json& c) { SpecProps(c)["size"]["$ref"] = "#/definitions/x"; },
       {"spec.validation.openAPIV3Schema.properties[spec].properties[size].$ref: Forbidden: $ref is not supported"}},
      {"$schema is only caught by the structural conversion",
       [](Json& c) {
         c["spec"]["versions"][0].erase("subresources");
         SchemaOf(c)["$schema"] = "http://json-schema.org/draft-04/schema#";
       },
       {R"(spec.validation.openAPIV3Schema: Invalid value: "": OpenAPIV3Schema 'schema' is not supported)"}},
      {"type null", [](Json& c) { SpecProps(c)["size"]["type"] = "null"; },
       {R"(spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string")",
        "spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Forbidden: type cannot be set to null, use nullable as an alternative"}},
      {"unknown type", [](Json& c) { SpecProps(c)["size"]["type"] = "int"; },
       {R"(spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string")"}},
      {"id, definitions, patternProperties, dependencies, additionalItems",
       [](Json& c) {
         SpecProps(c)["size"]["id"] = "x";
         SpecProps(c)["tags"]["additionalItems"] = false;
         SchemaOf(c)["properties"]["spec"]["patternProperties"] = {{"^a", {{"type", "string"}}}};
         SchemaOf(c)["properties"]["spec"]["dependencies"] = {{"size", {"color"}}};
       },
       {"spec.validation.openAPIV3Schema.properties[spec].patternProperties: Forbidden: patternProperties is not supported",
        "spec.validation.openAPIV3Schema.properties[spec].dependencies: Forbidden: dependencies is not supported",
        "spec.validation.openAPIV3Schema.properties[spec].properties[size].id: Forbidden: id is not supported",
        "spec.validation.openAPIV3Schema.properties[spec].properties[tags].additionalItems: Forbidden: additionalItems is not supported"}},
      {"items as an array", [](Json& c) { SpecProps(c)["tags"]["items"] = J(R"([{"type": "string"}])"); },
       {"spec.validation.openAPIV3Schema.properties[spec].properties[tags].items: Forbidden: items must be a schema object and not an array"}},
      {"defaults forbidden in metadata", [](Json& c) { SchemaOf(c)["properties"]["metadata"] = {{"type", "object"}, {"default", {{"name", "x"}}}}; },
       {"spec.validation.openAPIV3Schema.properties[metadata].default: Forbidden: must not be set in top-level metadata"}},
      {"nullable root", [](Json& c) {
         SchemaOf(c)["nullable"] = true;
         c["spec"]["versions"][0].erase("subresources");
       },
       {"spec.validation.openAPIV3Schema.nullable: Forbidden: nullable cannot be true at the root"}},
      {"preserve-unknown-fields false", [](Json& c) { SpecProps(c)["size"]["x-kubernetes-preserve-unknown-fields"] = false; },
       {"spec.validation.openAPIV3Schema.properties[spec].properties[size].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined"}},
      {"map-type on a non-object and unknown value", [](Json& c) { SpecProps(c)["size"]["x-kubernetes-map-type"] = "merge"; },
       {R"(spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Invalid value: "integer": must be object if x-kubernetes-map-type is specified)",
        R"(spec.validation.openAPIV3Schema.properties[spec].properties[size].x-kubernetes-map-type: Unsupported value: "merge": supported values: "atomic", "granular")"}},
      {"list-type unknown", [](Json& c) { SpecProps(c)["tags"]["x-kubernetes-list-type"] = "bag"; },
       {R"(spec.validation.openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map")"}},
      {"list-type map needs keys and object items",
       [](Json& c) { SpecProps(c)["tags"]["x-kubernetes-list-type"] = "map"; },
       {"spec.validation.openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map",
        R"(spec.validation.openAPIV3Schema.properties[spec].properties[tags].items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map)"}},
      {"list-map-keys must name scalar, required or defaulted item properties",
       [](Json& c) {
         SpecProps(c)["ports"] = J(R"({"type": "array", "x-kubernetes-list-type": "map",
           "x-kubernetes-list-map-keys": ["port", "name", "port", "opts"],
           "items": {"type": "object", "required": ["port"], "properties": {
             "port": {"type": "integer"}, "name": {"type": "string", "nullable": true},
             "opts": {"type": "object"}}}})");
       },
       {R"(spec.validation.openAPIV3Schema.properties[spec].properties[ports].x-kubernetes-list-map-keys: Invalid value: ["port","name","port","opts"]: must not contain duplicate entries)",
        R"(spec.validation.openAPIV3Schema.properties[spec].properties[ports].items.properties[opts].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map)",
        "spec.validation.openAPIV3Schema.properties[spec].properties[ports].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
        "spec.validation.openAPIV3Schema.properties[spec].properties[ports].items.properties[name].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
        "spec.validation.openAPIV3Schema.properties[spec].properties[ports].items.properties[opts].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"}},
      {"list-map-keys without list-type", [](Json& c) { SpecProps(c)["tags"]["x-kubernetes-list-map-keys"] = {"a"}; },
       {"spec.validation.openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty"}},
      {"set of non-atomic objects",
       [](Json& c) {
         SpecProps(c)["refs"] = J(R"({"type": "array", "x-kubernetes-list-type": "set",
           "items": {"type": "object", "properties": {"name": {"type": "string"}}}})");
       },
       {"spec.validation.openAPIV3Schema.properties[spec].properties[refs].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set"}},
      {"set items not nullable",
       [](Json& c) {
         SpecProps(c)["tags"]["x-kubernetes-list-type"] = "set";
         SpecProps(c)["tags"]["items"]["nullable"] = true;
       },
       {"spec.validation.openAPIV3Schema.properties[spec].properties[tags].items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set"}},
      {"embedded resource inside resource meta",
       [](Json& c) {
         SchemaOf(c)["properties"]["metadata"] = J(R"({"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true})");
       },
       {"spec.validation.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified",
        "spec.validation.openAPIV3Schema.properties[metadata].x-kubernetes-embedded-resource: Forbidden: must not be used inside of resource meta"}},
  });
}

TEST_CASE("x-kubernetes-validations: shape, then compilation") {
  RunCases({
      {"valid rules compile",
       [](Json& c) {
         SchemaOf(c)["properties"]["spec"]["x-kubernetes-validations"] =
             J(R"j([{"rule": "self.size <= 10", "message": "too big", "fieldPath": ".size", "reason": "FieldValueForbidden"},
                   {"rule": "has(self.color)", "messageExpression": "'color ' + self.color"}])j");
       },
       {}},
      {"bad shapes",
       [](Json& c) {
         SchemaOf(c)["properties"]["spec"]["x-kubernetes-validations"] =
             J(R"([{"rule": "  "},
                   {"rule": "a", "message": "   "},
                   {"rule": "a", "message": "two\nlines"},
                   {"rule": "a &&\n b"},
                   {"rule": "a", "messageExpression": " ", "reason": "FieldValueBogus"},
                   {"rule": "a", "fieldPath": ".nope"},
                   {"rule": "a", "fieldPath": " "}])");
       },
       {"spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified",
        R"(spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].message: Invalid value: "   ": must be non-empty if specified)",
        R"(spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[2].message: Invalid value: "two\nlines": must not contain line breaks)",
        "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[3].message: Required value: message must be specified if rule contains line breaks",
        "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[4].messageExpression: Required value: messageExpression must be non-empty if specified",
        R"(spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[4].reason: Unsupported value: "FieldValueBogus": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired")",
        R"(spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[5].fieldPath: Invalid value: ".nope": must be a valid path)",
        R"(spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[6].fieldPath: Invalid value: " ": must be non-empty if specified)",
        R"(spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[6].fieldPath: Invalid value: " ": must be a valid path)"}},
      {"rules that do not compile are refused with cel-go's errors",
       [](Json& c) {
         SchemaOf(c)["properties"]["spec"]["x-kubernetes-validations"] =
             J(R"j([{"rule": "self.size ==", "message": "m"},
                   {"rule": "size > 1"},
                   {"rule": "self.size > 1", "messageExpression": "nope"},
                   {"rule": "self.size > 1", "optionalOldSelf": true},
                   {"rule": "self.size >= oldSelf.size", "optionalOldSelf": false, "reason": "FieldValueForbidden"}])j");
       },
       {"spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: "
        R"({"Rule":"self.size ==","Message":"m","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: )"
        "compilation failed: ERROR: <input>:1:13: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', "
        "'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.size ==\n | ............^",
        "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].rule: Invalid value: "
        R"({"Rule":"size \u003e 1","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: )"
        "compilation failed: ERROR: <input>:1:1: undeclared reference to 'size' (in container '')\n | size > 1\n | ^",
        "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[2].messageExpression: Invalid value: "
        R"({"Rule":"self.size \u003e 1","Message":"","MessageExpression":"nope","Reason":null,"FieldPath":"","OptionalOldSelf":null}: )"
        "messageExpression compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')\n | nope\n | ^",
        "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[3].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule"}},
      {"string.format calls that cannot work are compile errors (ext.Strings' validator)",
       [](Json& c) {
         SchemaOf(c)["properties"]["spec"]["x-kubernetes-validations"] =
             J(R"j([{"rule": "'%s has %d tags'.format([self.color, size(self.tags)]) != ''"},
                   {"rule": "'%d widgets'.format([self.color]) != ''"},
                   {"rule": "self.size > 0", "messageExpression": "'%s %s'.format([self.color])"}])j");
       },
       {"spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].rule: Invalid value: "
        R"({"Rule":"'%d widgets'.format([self.color]) != ''","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: )"
        "compilation failed: ERROR: <input>:1:26: error during formatting: decimal clause can only be used on integers, "
        "was given string\n | '%d widgets'.format([self.color]) != ''\n | .........................^",
        "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[2].messageExpression: Invalid value: "
        R"x({"Rule":"self.size \u003e 0","Message":"","MessageExpression":"'%s %s'.format([self.color])","Reason":null,"FieldPath":"","OptionalOldSelf":null}: )x"
        "messageExpression compilation failed: ERROR: <input>:1:15: index 1 out of range\n | '%s %s'.format([self.color])\n"
        " | ..............^"}},
      {"rules nested in value validations are not structural",
       [](Json& c) { SpecProps(c)["size"]["allOf"] = J(R"([{"x-kubernetes-validations": [{"rule": "self > 1"}]}])"); },
       {"spec.validation.openAPIV3Schema.properties[spec].properties[size].allOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural"}},
  });
}

TEST_CASE("status subresource restricts the root schema") {
  Json crd = WidgetCrd();
  SchemaOf(crd)["maxProperties"] = 3;
  const Strings errs = CreateErrors(crd);
  REQUIRE(errs.size() == 1);
  CHECK(errs[0].starts_with(
      R"(spec.validation.openAPIV3Schema: Invalid value: {"ID":"","Schema":"","Ref":null,"Description":"","Type":"object","Nullable":false,)"));
  CHECK(errs[0].find(R"("MaxProperties":3,"MinProperties":null,"Required":null,"Items":null,)") != std::string::npos);
  CHECK(errs[0].find(R"("Properties":{"spec":{"ID":"")") != std::string::npos);
  CHECK(errs[0].ends_with(
      R"("XListType":null,"XMapType":null,"XValidations":null}: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled)"));
}

TEST_CASE("subresources, printer columns and selectable fields") {
  RunCases({
      {"scale paths",
       [](Json& c) {
         c["spec"]["versions"][0]["subresources"]["scale"] =
             J(R"({"specReplicasPath": ".replicas", "statusReplicasPath": "status.replicas", "labelSelectorPath": ".metadata.selector"})");
       },
       {R"(spec.subresources.scale.specReplicasPath: Invalid value: ".replicas": should be a json path under .spec)",
        R"(spec.subresources.scale.statusReplicasPath: Invalid value: "status.replicas": must be a simple json path starting with .)",
        R"(spec.subresources.scale.labelSelectorPath: Invalid value: ".metadata.selector": should be a json path under either .spec or .status)"}},
      {"scale paths required", [](Json& c) { c["spec"]["versions"][0]["subresources"]["scale"] = Json::object(); },
       {"spec.subresources.scale.specReplicasPath: Required value", "spec.subresources.scale.statusReplicasPath: Required value"}},
      {"good scale", [](Json& c) {
         c["spec"]["versions"][0]["subresources"]["scale"] =
             J(R"({"specReplicasPath": ".spec.size", "statusReplicasPath": ".status.replicas", "labelSelectorPath": ".status.selector"})");
       },
       {}},
      {"printer columns",
       [](Json& c) {
         c["spec"]["versions"][0]["additionalPrinterColumns"] = J(R"([
           {"name": "Size", "type": "integer", "jsonPath": ".spec.size"},
           {"name": "Color", "type": "text", "format": "uuid", "jsonPath": "spec.color"},
           {"type": "string"},
           {"name": "X", "jsonPath": ".spec.tags[*]"}])");
       },
       {R"(spec.additionalPrinterColumns[1].type: Invalid value: "text": must be one of boolean,date,integer,number,string)",
        R"(spec.additionalPrinterColumns[1].format: Invalid value: "uuid": must be one of byte,date,date-time,double,float,int32,int64,password)",
        R"(spec.additionalPrinterColumns[1].JSONPath: Invalid value: "spec.color": must be a simple json path starting with .)",
        "spec.additionalPrinterColumns[2].name: Required value",
        "spec.additionalPrinterColumns[2].JSONPath: Required value",
        "spec.additionalPrinterColumns[3].type: Required value: must be one of boolean,date,integer,number,string"}},
      {"selectable fields",
       [](Json& c) {
         c["spec"]["versions"][0]["selectableFields"] = J(R"([
           {"jsonPath": ".spec.color"}, {"jsonPath": ".spec.size"}, {"jsonPath": ".spec.tags"},
           {"jsonPath": ".metadata.name"}, {"jsonPath": ".spec.nope"}, {"jsonPath": ".spec['color']"},
           {"jsonPath": ".spec.color"}, {"jsonPath": ""}, {"jsonPath": "spec"}])");
       },
       {R"(spec.selectableFields[2].jsonPath: Invalid value: ".spec.tags": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.)",
        R"(spec.selectableFields[3].jsonPath: Invalid value: ".metadata.name": is an invalid path: does not refer to a valid field)",
        R"(spec.selectableFields[4].jsonPath: Invalid value: ".spec.nope": is an invalid path: does not refer to a valid field)",
        R"(spec.selectableFields[5].jsonPath: Invalid value: ".spec['color']": is an invalid path: array notation is not allowed)",
        R"(spec.selectableFields[6].jsonPath: Duplicate value: ".spec.color")",
        "spec.selectableFields[7].jsonPath: Required value",
        R"(spec.selectableFields[8].jsonPath: Invalid value: "spec": is an invalid path: expected [ or . but got: spec)"}},
      {"selectable fields in metadata",
       [](Json& c) {
         SchemaOf(c)["properties"]["metadata"] = J(R"({"type": "object", "properties": {"name": {"type": "string"}}})");
         c["spec"]["versions"][0]["selectableFields"] = J(R"([{"jsonPath": ".metadata.name"}])");
       },
       {R"(spec.selectableFields[0].jsonPath: Invalid value: ".metadata.name": must not point to fields in metadata)"}},
      {"at most 8 selectable fields",
       [](Json& c) {
         Json fields = Json::array();
         for (int i = 0; i < 9; ++i) {
           SpecProps(c)["f" + std::to_string(i)] = {{"type", "string"}};
           fields.push_back({{"jsonPath", ".spec.f" + std::to_string(i)}});
         }
         c["spec"]["versions"][0]["selectableFields"] = fields;
       },
       {"spec.selectableFields: Too many: 9: must have at most 8 items"}},
  });
}

TEST_CASE("conversion") {
  RunCases({
      {"None is the default", [](Json& c) {}, {}},
      {"Webhook needs a client config and review versions", [](Json& c) { c["spec"]["conversion"] = {{"strategy", "Webhook"}}; },
       {"spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook",
        "spec.conversion.conversionReviewVersions: Required value"}},
      {"unknown strategy", [](Json& c) { c["spec"]["conversion"] = {{"strategy", "Magic"}}; },
       {R"(spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook")"}},
      {"webhook URL rules",
       [](Json& c) {
         c["spec"]["conversion"] = J(R"({"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1"],
           "clientConfig": {"url": "http://user@conv.example.com/convert?x=1#frag"}}})");
       },
       {R"(spec.conversion.webhookClientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path])",
        R"(spec.conversion.webhookClientConfig.url: Invalid value: "user": user information is not permitted in the URL)",
        R"(spec.conversion.webhookClientConfig.url: Invalid value: "frag": fragments are not permitted in the URL)",
        R"(spec.conversion.webhookClientConfig.url: Invalid value: "x=1": query parameters are not permitted in the URL)"}},
      {"webhook service rules (port defaulted to 443)",
       [](Json& c) {
         c["spec"]["conversion"] = J(R"({"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v2", "v2"],
           "clientConfig": {"service": {"name": "conv", "path": "/a//Bad"}}}})");
       },
       {"spec.conversion.webhookClientConfig.service.namespace: Required value",
        R"(spec.conversion.webhookClientConfig.service.path: Invalid value: "/a//Bad": segment[1] may not be empty)",
        R"(spec.conversion.webhookClientConfig.service.path: Invalid value: "/a//Bad": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'))",
        R"(spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version)",
        R"(spec.conversion.conversionReviewVersions: Invalid value: ["v2","v2"]: must include at least one of v1, v1beta1)"}},
      {"url and service exclusive",
       [](Json& c) {
         c["spec"]["conversion"] = J(R"({"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1"],
           "clientConfig": {"url": "https://x", "service": {"name": "a", "namespace": "b"}}}})");
       },
       {"spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required"}},
      {"valid webhook",
       [](Json& c) {
         c["spec"]["conversion"] = J(R"({"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1", "v1beta1"],
           "clientConfig": {"service": {"name": "conv", "namespace": "system", "path": "/convert"}}}})");
       },
       {}},
      {"None with webhook settings",
       [](Json& c) {
         c["spec"]["conversion"] = J(R"({"strategy": "None", "webhook": {"conversionReviewVersions": ["v1"], "clientConfig": {"url": "https://x"}}})");
       },
       {"spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook",
        "spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook"}},
  });
}

TEST_CASE("preserveUnknownFields, API approval and accepted names") {
  RunCases({
      {"preserveUnknownFields true", [](Json& c) { c["spec"]["preserveUnknownFields"] = true; },
       {"spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"}},
      {"protected group needs the approval annotation",
       [](Json& c) {
         c["spec"]["group"] = "widgets.k8s.io";
         c["metadata"]["name"] = "widgets.widgets.k8s.io";
       },
       {R"(metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111)"}},
      {"approval annotation must be a URL or unapproved",
       [](Json& c) {
         c["spec"]["group"] = "x.kubernetes.io";
         c["metadata"]["name"] = "widgets.x.kubernetes.io";
         c["metadata"]["annotations"] = {{"api-approved.kubernetes.io", "yes"}};
       },
       {R"(metadata.annotations[api-approved.kubernetes.io]: Invalid value: "yes": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111)"}},
      {"approved or bypassed",
       [](Json& c) {
         c["spec"]["group"] = "x.k8s.io";
         c["metadata"]["name"] = "widgets.x.k8s.io";
         c["metadata"]["annotations"] = {{"api-approved.kubernetes.io", "https://github.com/kubernetes/kubernetes/pull/78458"}};
       },
       {}},
  });
  Json crd = Stored(WidgetCrd());
  crd["status"]["acceptedNames"] = {{"plural", "Widgets"}, {"kind", "Widget"}};
  CHECK(testing::Format(ValidateCustomResourceDefinitionStatusUpdate(crd, crd)) ==
        Strings{std::string(R"(status.acceptedNames.plural: Invalid value: "Widgets": )") + kDns1035});
}

TEST_CASE("updates: immutable fields and stored versions") {
  const Json old = Stored(WidgetCrd());
  CHECK(UpdateErrors(WidgetCrd(), old) == Strings{});

  Json changed = WidgetCrd();
  changed["spec"]["group"] = "other.io";
  changed["spec"]["names"]["plural"] = "gadgets";
  changed["spec"]["scope"] = "Cluster";
  CHECK(UpdateErrors(changed, old) == Strings{R"(spec.group: Invalid value: "other.io": field is immutable)",
                                             R"(spec.names.plural: Invalid value: "gadgets": field is immutable)"});

  Json established = old;
  established["status"]["conditions"] = J(R"([{"type": "Established", "status": "True"}])");
  Json rescoped = WidgetCrd();
  rescoped["spec"]["scope"] = "Cluster";
  rescoped["spec"]["names"]["kind"] = "Gadget";
  CHECK(UpdateErrors(rescoped, established) ==
        Strings{R"(spec.scope: Invalid value: "Cluster": field is immutable)",
                R"(spec.names.kind: Invalid value: "Gadget": field is immutable)"});

  SUBCASE("a new storage version accumulates in storedVersions; dropping a stored one is refused") {
    Json two = WidgetCrd();
    Json v2 = two["spec"]["versions"][0];
    v2["name"] = "v2";
    two["spec"]["versions"][0]["storage"] = false;
    two["spec"]["versions"].push_back(v2);
    Json prepared = two;
    SetDefaults(&prepared);
    PrepareForUpdate(&prepared, old);
    CHECK(prepared["status"]["storedVersions"] == J(R"(["v1", "v2"])"));
    CHECK(prepared["metadata"]["generation"] == 2);
    CHECK(UpdateErrors(two, old) == Strings{});

    Json only_v2 = two;
    only_v2["spec"]["versions"].erase(0);
    CHECK(UpdateErrors(only_v2, prepared) ==
          Strings{R"(status.storedVersions[0]: Invalid value: "v1": missing from spec.versions; v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 and removes v1 from status.storedVersions)"});
  }
}

TEST_CASE("defaults hook: called with kube's path once the schema is structural") {
  std::vector<std::string> calls;
  CrdValidationOptions options;
  options.validate_defaults = [&](const Json& schema, const FieldPath& path, bool require_pruned) {
    calls.push_back(path.str() + (require_pruned ? " pruned" : " unpruned-ok"));
    FieldErrors errs;
    if (schema["properties"]["spec"]["properties"]["size"].value("default", Json()) == "x") {
      errs.push_back(Invalid(path.Child("properties").Key("spec").Child("properties").Key("size").Child("default"),
                             "x", "fake: default does not validate"));
    }
    return errs;
  };
  Json crd = WidgetCrd();
  SpecProps(crd)["size"]["default"] = "x";
  CHECK(CreateErrors(crd, options) ==
        Strings{R"(spec.validation.openAPIV3Schema.properties[spec].properties[size].default: Invalid value: "x": fake: default does not validate)"});
  CHECK(calls == Strings{"spec.validation.openAPIV3Schema pruned"});

  // Not called when the structural checks fail.
  calls.clear();
  SpecProps(crd)["color"].erase("type");
  CHECK(CreateErrors(crd, options).size() == 1);
  CHECK(calls.empty());

  // On update, a stored schema with unpruned defaults relaxes the pruning requirement.
  calls.clear();
  options.has_unpruned_defaults = [](const Json&) { return true; };
  Json old = WidgetCrd();
  SpecProps(old)["size"]["default"] = 2;
  old = Stored(old);
  Json next = WidgetCrd();
  SpecProps(next)["size"]["default"] = 3;
  CHECK(testing::Lines(UpdateErrors(next, old, options)) == "");
  CHECK(calls == Strings{"spec.validation.openAPIV3Schema unpruned-ok"});
}

TEST_CASE("pattern hook") {
  CrdValidationOptions options;
  options.check_pattern = [](std::string_view p) -> std::string {
    return p == "(" ? "error parsing regexp: missing closing ): `(`" : "";
  };
  Json crd = WidgetCrd();
  SpecProps(crd)["color"]["pattern"] = "(";
  SpecProps(crd)["size"]["anyOf"] = J(R"([{"pattern": "("}])");
  CHECK(CreateErrors(crd, options) ==
        Strings{R"(spec.validation.openAPIV3Schema.properties[spec].properties[color].pattern: Invalid value: "(": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `(`)",
                R"(spec.validation.openAPIV3Schema.properties[spec].properties[size].anyOf[0].pattern: Invalid value: "(": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `(`)"});
}

TEST_CASE("malformed CRDs never throw") {
  for (const char* text : {R"(null)", R"([])", R"({"spec": 5})", R"({"spec": {"versions": [5, null, {"schema": 3}]}})",
                           R"({"spec": {"versions": [{"name": "v1", "storage": true, "schema": {"openAPIV3Schema": {"properties": [1], "items": 5, "allOf": {}}}}]}})",
                           R"({"spec": {"names": [], "conversion": {"webhook": 1}}, "status": {"storedVersions": [1]}})"}) {
    CAPTURE(text);
    Json crd = Json::parse(text);
    CHECK_NOTHROW(CreateErrors(crd));
    CHECK_NOTHROW(UpdateErrors(crd, crd));
  }
}

}  // namespace
}  // namespace kube::apiextensions

namespace kube::apiextensions {
namespace {

TEST_CASE("CEL rule costs: over the per-rule limit is refused, unless an update leaves the schema as it was") {
  Json crd = testing::WidgetCrd();
  SpecProps(crd)["names"] = J(R"j({"type": "array", "items": {"type": "string"},
    "x-kubernetes-validations": [{"rule": "self.all(a, self.exists_one(b, a == b))"}]})j");
  const std::string path =
      "spec.validation.openAPIV3Schema.properties[spec].properties[names].x-kubernetes-validations[0].rule";
  const Strings refused = CreateErrors(crd);
  REQUIRE(refused.size() >= 1);
  CHECK(refused[0] == path + ": Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try "
                              "simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, "
                              "maps, and strings are declared)");
  // The same schema stored before (e.g. by an older server): the per-rule limit is not enforced
  // again; the schema-wide total still is, as in kube.
  const Strings updated = UpdateErrors(crd, Stored(crd));
  CHECK(std::find(updated.begin(), updated.end(), refused[0]) == updated.end());
  CHECK(std::find(updated.begin(), updated.end(),
                  path + ": Forbidden: contributed to estimated rule cost total exceeding cost limit for entire "
                         "OpenAPIv3 schema") != updated.end());
  // Bounded, the rule is cheap enough.
  SpecProps(crd)["names"]["maxItems"] = 20;
  SpecProps(crd)["names"]["items"]["maxLength"] = 64;
  CHECK(CreateErrors(crd) == Strings{});
}

}  // namespace
}  // namespace kube::apiextensions
