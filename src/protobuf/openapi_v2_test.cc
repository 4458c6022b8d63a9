// Tests for EncodeOpenApiV2: small Swagger documents encoded to the exact bytes gnostic's
// openapi.v2.Document marshals to (expected bytes built by hand, field by field), and the YAML
// gnostic stores in Any values.
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <string>

#include "protobuf/openapi_v2.h"

using nlohmann::json;
using kube::protobuf::EncodeOpenApiV2;
using kube::protobuf::OpenApiV2Yaml;

namespace {

std::string Varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}
std::string Len(int field, const std::string& payload) {
  return Varint(static_cast<uint64_t>(field) << 3 | 2) + Varint(payload.size()) + payload;
}
std::string VarintField(int field, uint64_t v) { return Varint(static_cast<uint64_t>(field) << 3) + Varint(v); }
std::string DoubleField(int field, double d) {
  std::string out = Varint(static_cast<uint64_t>(field) << 3 | 1);
  const auto bits = std::bit_cast<uint64_t>(d);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
  return out;
}
std::string Named(const std::string& name, const std::string& value) { return Len(1, name) + Len(2, value); }
std::string Any(const std::string& yaml) { return Len(2, yaml); }

// The Document bytes of {"definitions": {name: schema}}.
std::string Definition(const std::string& name, const std::string& schema) {
  return Len(9, Len(1, Named(name, schema)));
}
std::string Encode(const char* text) {
  auto r = EncodeOpenApiV2(json::parse(text));
  REQUIRE(r.ok());
  return *r;
}

}  // namespace

TEST_CASE("document header: swagger, info, host, basePath, schemes, empty paths") {
  const std::string got = Encode(R"({"swagger": "2.0", "info": {"title": "Kubernetes", "version": "v1.36.0"},
      "host": "h", "basePath": "/b", "schemes": ["https"], "paths": {}})");
  const std::string want = Len(1, "2.0") + Len(2, Len(1, "Kubernetes") + Len(2, "v1.36.0")) + Len(3, "h") +
                           Len(4, "/b") + Len(5, "https") + Len(8, "");
  CHECK(got == want);
  CHECK_FALSE(EncodeOpenApiV2(json::array()).ok());
}

TEST_CASE("schema scalars in field-number order, zero values omitted") {
  const std::string got = Encode(R"({"definitions": {"A": {
      "type": "string", "format": "int-or-string", "title": "", "description": "d", "maxLength": 5,
      "minLength": 0, "pattern": "^a$", "maximum": 2.5, "exclusiveMaximum": true, "minimum": -1,
      "multipleOf": 0.5, "maxItems": 3, "minItems": 1, "uniqueItems": true, "maxProperties": 9,
      "minProperties": 2, "readOnly": true, "discriminator": "kind", "required": ["a", "b"],
      "exclusiveMinimum": false}}})");
  const std::string schema = Len(2, "int-or-string") + Len(4, "d") + DoubleField(6, 0.5) + DoubleField(7, 2.5) +
                             VarintField(8, 1) + DoubleField(9, -1) + VarintField(11, 5) + Len(13, "^a$") +
                             VarintField(14, 3) + VarintField(15, 1) + VarintField(16, 1) + VarintField(17, 9) +
                             VarintField(18, 2) + Len(19, "a") + Len(19, "b") + Len(22, Len(1, "string")) +
                             Len(26, "kind") + VarintField(27, 1);
  CHECK(got == Definition("A", schema));
}

TEST_CASE("schema references, items, allOf, properties in document order, additionalProperties") {
  const std::string got = Encode(R"({"definitions": {"A": {
      "$ref": "#/definitions/B", "type": ["object", "null"],
      "items": {"type": "string"}, "allOf": [{"$ref": "#/definitions/C"}, {}],
      "properties": {"a": {"type": "integer"}, "b": {}},
      "additionalProperties": false}, "B": {"items": [{}, {"format": "f"}], "additionalProperties": {"type": "string"}}}})");
  const std::string a = Len(1, "#/definitions/B") + Len(21, VarintField(2, 0)) +
                        Len(22, Len(1, "object") + Len(1, "null")) + Len(23, Len(1, Len(22, Len(1, "string")))) +
                        Len(24, Len(1, "#/definitions/C")) + Len(24, "") +
                        Len(25, Len(1, Named("a", Len(22, Len(1, "integer")))) + Len(1, Named("b", "")));
  const std::string b = Len(21, Len(1, Len(22, Len(1, "string")))) + Len(23, Len(1, "") + Len(1, Len(2, "f")));
  CHECK(got == Len(9, Len(1, Named("A", a)) + Len(1, Named("B", b))));
}

TEST_CASE("default, enum, example and vendor extensions are Any values holding YAML") {
  const std::string got = Encode(R"({"definitions": {"A": {
      "default": "x", "enum": ["a", "", 1], "example": {"k": true},
      "x-kubernetes-group-version-kind": [{"group": "", "kind": "Pod", "version": "v1"}],
      "x-kubernetes-list-type": "atomic"}}})");
  const std::string schema = Len(5, Any("x\n")) + Len(20, Any("a\n")) + Len(20, Any("\"\"\n")) + Len(20, Any("1\n")) +
                             Len(30, Any("k: true\n")) +
                             Len(31, Named("x-kubernetes-group-version-kind",
                                           Any("- group: \"\"\n  kind: Pod\n  version: v1\n"))) +
                             Len(31, Named("x-kubernetes-list-type", Any("atomic\n")));
  CHECK(got == Definition("A", schema));
}

TEST_CASE("xml and externalDocs messages; unknown keys skipped") {
  const std::string got = Encode(R"({"definitions": {"A": {"xml": {"name": "n", "attribute": true},
      "externalDocs": {"url": "u"}, "nullable": true, "anyOf": [{}]}}})");
  CHECK(got == Definition("A", Len(28, Len(1, "n") + VarintField(4, 1)) + Len(29, Len(2, "u"))));
}

TEST_CASE("paths: operations, parameters by kind, responses, path extensions first") {
  const std::string got = Encode(R"({"paths": {"x-p": 1, "/api/v1/pods": {
      "parameters": [{"$ref": "#/parameters/pretty"}, {"name": "ns", "in": "path", "required": true, "type": "string"}],
      "get": {"operationId": "list", "produces": ["application/json"], "tags": ["core_v1"],
              "parameters": [{"name": "limit", "in": "query", "type": "integer", "uniqueItems": true},
                             {"name": "body", "in": "body", "required": true, "schema": {"$ref": "#/definitions/P"}}],
              "responses": {"200": {"description": "OK", "schema": {"$ref": "#/definitions/P"}},
                            "401": {"$ref": "#/responses/u"}},
              "x-kubernetes-action": "list"}}}})");
  const std::string ref_param = Len(2, Len(1, "#/parameters/pretty"));
  // PathParameterSubSchema: required 1, in 2, name 4, type 5 (NonBodyParameter field 4).
  const std::string path_param =
      Len(1, Len(2, Len(4, VarintField(1, 1) + Len(2, "path") + Len(4, "ns") + Len(5, "string"))));
  // QueryParameterSubSchema: in 2, name 4, type 6, unique_items 20 (NonBodyParameter field 3).
  const std::string query_param =
      Len(1, Len(2, Len(3, Len(2, "query") + Len(4, "limit") + Len(6, "integer") + VarintField(20, 1))));
  const std::string body_param =
      Len(1, Len(1, Len(2, "body") + Len(3, "body") + VarintField(4, 1) + Len(5, Len(1, "#/definitions/P"))));
  const std::string responses =
      Len(1, Named("200", Len(1, Len(1, "OK") + Len(2, Len(1, Len(1, "#/definitions/P")))))) +
      Len(1, Named("401", Len(2, Len(1, "#/responses/u"))));
  const std::string op = Len(1, "core_v1") + Len(5, "list") + Len(6, "application/json") + Len(8, query_param) +
                         Len(8, body_param) + Len(9, responses) + Len(13, Named("x-kubernetes-action", Any("list\n")));
  const std::string item = Len(2, op) + Len(9, ref_param) + Len(9, path_param);
  CHECK(got == Len(8, Len(1, Named("x-p", Any("1\n"))) + Len(2, Named("/api/v1/pods", item))));
}

TEST_CASE("security definitions and requirements") {
  const std::string got = Encode(R"({"securityDefinitions": {"BearerToken": {"type": "apiKey", "name": "authorization",
      "in": "header", "description": "Bearer"}}, "security": [{"BearerToken": []}]})");
  const std::string api_key = Len(1, "apiKey") + Len(2, "authorization") + Len(3, "header") + Len(4, "Bearer");
  CHECK(got == Len(12, Len(1, Named("BearerToken", ""))) + Len(13, Len(1, Named("BearerToken", Len(2, api_key)))));
}

TEST_CASE("YAML as gnostic writes it (yaml.v3, styles cleared)") {
  CHECK(OpenApiV2Yaml(json("merge")) == "merge\n");
  CHECK(OpenApiV2Yaml(json("retainKeys,merge")) == "retainKeys,merge\n");
  CHECK(OpenApiV2Yaml(json("")) == "\"\"\n");
  CHECK(OpenApiV2Yaml(json("*")) == "'*'\n");
  CHECK(OpenApiV2Yaml(json("true")) == "\"true\"\n");
  CHECK(OpenApiV2Yaml(json("10")) == "\"10\"\n");
  CHECK(OpenApiV2Yaml(json("a: b")) == "'a: b'\n");
  CHECK(OpenApiV2Yaml(json(true)) == "true\n");
  CHECK(OpenApiV2Yaml(json(nullptr)) == "null\n");
  CHECK(OpenApiV2Yaml(json(3)) == "3\n");
  CHECK(OpenApiV2Yaml(json::object()) == "{}\n");
  CHECK(OpenApiV2Yaml(json::array()) == "[]\n");
  CHECK(OpenApiV2Yaml(json::parse(R"(["name", "protocol"])")) == "- name\n- protocol\n");
  CHECK(OpenApiV2Yaml(json::parse(R"({"a": {"b": 1}, "c": ["d"]})")) == "a:\n    b: 1\nc:\n    - d\n");
  CHECK(OpenApiV2Yaml(json::parse(R"([{"a": {"b": 1}}, ["x", "y"]])")) == "- a:\n    b: 1\n- - x\n  - y\n");
  CHECK(OpenApiV2Yaml(json("line1\nline2")) == "|-\n    line1\n    line2\n");
  CHECK(OpenApiV2Yaml(json("a\nb\n")) == "|\n    a\n    b\n");
  CHECK(OpenApiV2Yaml(json::parse(R"(["l1\nl2"])")) == "- |-\n  l1\n  l2\n");
  CHECK(OpenApiV2Yaml(json::parse(R"({"k": "l1\nl2"})")) == "k: |-\n    l1\n    l2\n");
  CHECK(OpenApiV2Yaml(json("yes")) == "yes\n");
  CHECK(OpenApiV2Yaml(json("2024-01-01")) == "\"2024-01-01\"\n");
  CHECK(OpenApiV2Yaml(json("1.5")) == "\"1.5\"\n");
  CHECK(OpenApiV2Yaml(json("- x")) == "'- x'\n");
  CHECK(OpenApiV2Yaml(json("a #b")) == "'a #b'\n");
  CHECK(OpenApiV2Yaml(json(" a")) == "' a'\n");
  CHECK(OpenApiV2Yaml(json("x:y")) == "x:y\n");
  CHECK(OpenApiV2Yaml(json("a, b")) == "a, b\n");
  CHECK(OpenApiV2Yaml(json("a'b")) == "a'b\n");
  CHECK(OpenApiV2Yaml(json("tab\there")) == "\"tab\\there\"\n");
  CHECK(OpenApiV2Yaml(json("0x1F")) == "\"0x1F\"\n");
  CHECK(OpenApiV2Yaml(json("~")) == "\"~\"\n");
  CHECK(OpenApiV2Yaml(json(".5")) == "\".5\"\n");
  CHECK(OpenApiV2Yaml(json("<<")) == "<<\n");
}
