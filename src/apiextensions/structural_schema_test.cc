// Direct tests of the structural-schema rules, the schema field paths, the internal-type view
// and the URL parsing the CRD validation builds on.

#include "apiextensions/structural_schema.h"

#include <doctest/doctest.h>

#include "apiextensions/apiextensions_test_util.h"
#include "apiextensions/crd_internal.h"
#include "apiextensions/go_url.h"
#include "apiextensions/schema_field_path.h"

namespace kube::apiextensions {
namespace {

using testing::J;
using testing::Json;
using testing::Lines;

const FieldPath kRoot("root");

std::string Structural(const char* schema) {
  return Lines(testing::Format(ValidateStructural(J(schema), kRoot, nullptr)));
}

TEST_CASE("NewStructural conversion errors, first in kube's traversal order") {
  struct Case {
    const char* schema;
    const char* want;
  };
  const Case cases[] = {
      {R"({"type": "object"})", ""},
      {R"({"id": "x", "$ref": "#"})", "OpenAPIV3Schema 'id' is not supported"},
      {R"({"$ref": ""})", ""},
      {R"({"properties": {"a": {"definitions": {"d": {}}}}})", "OpenAPIV3Schema 'definitions' is not supported"},
      {R"({"not": {"additionalItems": false}, "items": [{}]})", "OpenAPIV3Schema 'additionalItems' is not supported"},
      {R"({"items": [{}]})", "OpenAPIV3Schema 'items' must be a schema, but is an array"},
      {R"({"anyOf": [{"x-kubernetes-preserve-unknown-fields": false}]})",
       "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"},
      {R"({"additionalProperties": {"patternProperties": {"a": {}}}})", "OpenAPIV3Schema 'patternProperties' is not supported"},
      {R"({"properties": {"a": {"dependencies": {"b": ["c"]}}}})", "OpenAPIV3Schema 'dependencies' is not supported"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.schema);
    CHECK(StructuralConversionError(J(c.schema)) == c.want);
  }
}

TEST_CASE("ValidateStructural: invariants, sorted by message") {
  CHECK(Structural(R"({"type": "object", "properties": {"b": {}, "a": {"type": "array"}}})") ==
        Lines({"root.properties[a].items: Required value: must be specified",
               "root.properties[b].type: Required value: must not be empty for specified object fields"}));
  CHECK(Structural(R"({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {}}}})") ==
        Lines({"root.properties[m].additionalProperties.type: Required value: must not be empty for specified object fields"}));
  CHECK(Structural(R"({"type": "object", "additionalProperties": false})") ==
        Lines({"root.additionalProperties: Forbidden: must not be used at the root"}));
  CHECK(Structural(R"({"type": "object", "properties": {"e": {"type": "object", "x-kubernetes-embedded-resource": true,
      "x-kubernetes-preserve-unknown-fields": true, "additionalProperties": {"type": "string"}}}})") ==
        Lines({"root.properties[e].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set"}));
  CHECK(Structural(R"({"type": "object", "properties": {"p": {"x-kubernetes-int-or-string": true, "x-kubernetes-embedded-resource": true}}})") ==
        Lines({"root.properties[p].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
               "root.properties[p].type: Required value: must be object if x-kubernetes-embedded-resource is true",
               "root.properties[p].x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true"}));
}

TEST_CASE("ValidateStructural: int-or-string patterns and nested value validations") {
  // Pattern 1 (anyOf) and pattern 2 (allOf whose first clause is the anyOf) are exempt.
  CHECK(Structural(R"({"type": "object", "properties": {"p": {"x-kubernetes-int-or-string": true,
      "anyOf": [{"type": "integer"}, {"type": "string"}]}}})") == "");
  CHECK(Structural(R"({"type": "object", "properties": {"p": {"x-kubernetes-int-or-string": true,
      "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}, {"pattern": "^x"}]}}})") == "");
  // Anything more in the clauses breaks the pattern.
  CHECK(Structural(R"({"type": "object", "properties": {"p": {"x-kubernetes-int-or-string": true,
      "anyOf": [{"type": "integer", "minimum": 1}, {"type": "string"}]}}})") ==
        Lines({"root.properties[p].anyOf[0].type: Forbidden: must be empty to be structural",
               "root.properties[p].anyOf[1].type: Forbidden: must be empty to be structural"}));
  CHECK(Structural(R"({"type": "object", "not": {"properties": {"metadata": {}}, "items": {"title": "t"}}})") ==
        Lines({"root.items: Required value: because it is defined in root.not.items",
               "root.not.items.title: Forbidden: must be empty to be structural",
               "root.not.properties[metadata]: Forbidden: must not be specified in a nested context",
               "root.properties[metadata]: Required value: because it is defined in root.not.properties[metadata]"}));
}

TEST_CASE("ValidateStructural: completeness walks nested value validations from the root only") {
  CHECK(Structural(R"({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}}},
      "oneOf": [{"properties": {"a": {"properties": {"b": {}, "c": {}}}}}, {"items": {"maximum": 1}}]})") ==
        Lines({"root.items: Required value: because it is defined in root.oneOf[1].items",
               "root.properties[a].properties[c]: Required value: because it is defined in root.oneOf[0].properties[a].properties[c]"}));
  // Nested value validations below the root are not checked for completeness (as kube).
  CHECK(Structural(R"({"type": "object", "properties": {"a": {"type": "object", "anyOf": [{"properties": {"zz": {}}}]}}})") == "");
}

TEST_CASE("ValidateStructural: metadata restrictions at the root only") {
  CHECK(Structural(R"({"type": "object", "properties": {"metadata": {"type": "object", "default": {},
      "properties": {"name": {"type": "string"}, "generateName": {"type": "string"}}}}})") == "");
  CHECK(Structural(R"({"type": "object", "properties": {"metadata": {"type": "object", "description": "meta"}}})") ==
        Lines({"root.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"}));
  CHECK(Structural(R"({"type": "object", "properties": {"metadata": {"type": "object", "required": []}}})") ==
        Lines({"root.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"}));
  // Below the root (not embedded) metadata is an ordinary field.
  CHECK(Structural(R"({"type": "object", "properties": {"t": {"type": "object", "properties": {"metadata": {"type": "string"}}}}})") == "");
}

TEST_CASE("ResolveSchemaFieldPath (cel.ValidFieldPath)") {
  const Json schema = J(R"({"type": "object", "properties": {
    "spec": {"type": "object", "properties": {"a.b": {"type": "string"}, "n": {"type": "integer"}}},
    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
    "flags": {"type": "object", "additionalProperties": true}}})");
  struct Case {
    const char* path;
    bool arrays;
    const char* error;
    const char* field_path;
    const char* type;
  };
  const Case cases[] = {
      {".spec.n", false, "", "spec.n", "integer"},
      {".spec['a.b']", true, "", "spec.a.b", "string"},
      {".spec['a.b']", false, "array notation is not allowed", "", ""},
      {".labels.app", false, "", "labels[app]", "string"},
      {".labels['x\\ty']", true, "", "labels[x\ty]", "string"},
      {".labels['x\\qy']", true, "invalid string literal: invalid escape char \\q", "", ""},
      {".flags.x", false, "does not refer to a valid field", "", ""},
      {".spec.m", false, "does not refer to a valid field", "", ""},
      {".spec.n.x", false, "does not refer to a valid field", "", ""},
      {".spec.", false, "unexpected end of JSON path", "", ""},
      {".spec[", true, "unexpected end of JSON path", "", ""},
      {".spec[n]", true, "expected single quoted string but got n", "", ""},
      {".spec['n'", true, "unexpected end of JSON path", "", ""},
      {".spec['n'.", true, "expected ] but got .", "", ""},
      {"spec", false, "expected [ or . but got: spec", "", ""},
  };
  for (const Case& c : cases) {
    CAPTURE(c.path);
    const SchemaFieldPath r = ResolveSchemaFieldPath(c.path, schema, c.arrays);
    CHECK(r.error == c.error);
    if (r.error.empty()) {
      CHECK(r.path == c.field_path);
      REQUIRE(r.schema != nullptr);
      CHECK((*r.schema)["type"] == c.type);
    }
  }
  CHECK(ResolveSchemaFieldPath(".labels.x", schema, false).root == "labels");
}

TEST_CASE("internal view: per-version fields fold when identical") {
  Json crd = testing::WidgetCrd();
  Json v2 = crd["spec"]["versions"][0];
  v2["name"] = "v2";
  v2["storage"] = false;
  v2["additionalPrinterColumns"] = J(R"([{"name": "C", "type": "string", "jsonPath": ".spec.color"}])");
  // Null members and empty lists count as absent when comparing.
  v2["schema"]["openAPIV3Schema"]["nullable"] = false;
  v2["schema"]["openAPIV3Schema"]["required"] = Json::array();
  crd["spec"]["versions"].push_back(v2);
  const InternalSpec spec = ToInternal(crd);
  CHECK(spec.validation != nullptr);
  CHECK(spec.subresources != nullptr);
  CHECK(spec.columns == nullptr);
  CHECK(spec.versions[0].schema == nullptr);
  CHECK(spec.versions[1].columns != nullptr);
  CHECK(spec.versions[0].columns == nullptr);
  CHECK(spec.version == "v1");
}

TEST_CASE("identical schemas but different selectable fields: kube's internal layout rejects the version's fields") {
  Json crd = testing::WidgetCrd();
  Json v2 = crd["spec"]["versions"][0];
  v2["name"] = "v2";
  v2["storage"] = false;
  v2["selectableFields"] = J(R"([{"jsonPath": ".spec.color"}])");
  crd["spec"]["versions"].push_back(v2);
  CHECK(testing::CreateErrors(crd) ==
        std::vector<std::string>{R"(spec.versions[1].selectableFields: Invalid value: "": may only be set when `version.schema.openAPIV3Schema` is not included)"});
}

TEST_CASE("Go URL parsing") {
  GoUrl u = ParseGoUrl("https://user:pw@host:8443/path?q=1#frag", false);
  CHECK(u.error.empty());
  CHECK(u.scheme == "https");
  CHECK(u.user == "user:pw");
  CHECK(u.host == "host:8443");
  CHECK(u.raw_query == "q=1");
  CHECK(u.fragment == "frag");
  CHECK(ParseGoUrl("://x", false).error == R"(parse "://x": missing protocol scheme)");
  CHECK(ParseGoUrl("a:b/c", false).host.empty());
  CHECK(ParseGoUrl("x\ny", false).error == "parse \"x\ny\": net/url: invalid control character in URL");
  CHECK(ParseGoUrl("foo/a:b", false).error.empty());
  CHECK(ParseGoUrl("a/b", true).error == R"(parse "a/b": invalid URI for request)");
  CHECK(ParseGoUrl("HTTPS://Example.com", true).scheme == "https");
}

}  // namespace
}  // namespace kube::apiextensions
