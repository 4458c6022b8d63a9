#include <doctest/doctest.h>

#include "schema/default_validation.h"
#include "schema/schema_test_util.h"

namespace kube::schema {
namespace {

using testing::Crd;
using testing::Rendered;
using json = nlohmann::json;
using Lines = std::vector<std::string>;

constexpr const char* kAt = "spec.versions[0].schema.openAPIV3Schema";

Lines Defaults(const std::string& schema, const DefaultValidationOptions& options = {}) {
  return Rendered(ValidateDefaults(*Crd(schema)->Root(), kAt, options));
}

TEST_CASE("default validation: valid defaults pass") {
  CHECK(Defaults(R"({"type":"object","properties":{"spec":{"type":"object","default":{"size":1},"properties":{
    "size":{"type":"integer","default":3,"minimum":1},
    "mode":{"type":"string","enum":["a","b"],"default":"a"},
    "list":{"type":"array","items":{"type":"string","default":"x"},"default":["y"]},
    "port":{"x-kubernetes-int-or-string":true,"default":"http"}}}}})").empty());
}

TEST_CASE("default validation: a default must validate against its node") {
  CHECK(Defaults(R"({"type":"object","properties":{"spec":{"type":"object","properties":{
    "size":{"type":"integer","default":"string"}}}}})") ==
        Lines{R"(spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[size].default: Invalid value: "string":  in body must be of type integer: "string")"});
  CHECK(Defaults(R"({"type":"object","properties":{"mode":{"type":"string","enum":["a"],"default":"x"}}})") ==
        Lines{R"(spec.versions[0].schema.openAPIV3Schema.properties[mode].default: Unsupported value: "x": supported values: "a")"});
  CHECK(Defaults(R"({"type":"object","properties":{"spec":{"type":"object","required":["a"],"default":{},
    "properties":{"a":{"type":"string"}}}}})") ==
        Lines{"spec.versions[0].schema.openAPIV3Schema.properties[spec].default.a: Required value"});
  CHECK(Defaults(R"({"type":"object","properties":{"l":{"type":"array","items":{"type":"integer","maximum":3,"default":5}}}})") ==
        Lines{"spec.versions[0].schema.openAPIV3Schema.properties[l].items.default: Invalid value: 5:  in body should be less than or equal to 3"});
}

TEST_CASE("default validation: a default pruning would change is refused") {
  const std::string schema = R"({"type":"object","properties":{"spec":{"type":"object","default":{"a":"x","bogus":1},
    "properties":{"a":{"type":"string"}}}}})";
  CHECK(Defaults(schema) ==
        Lines{R"(spec.versions[0].schema.openAPIV3Schema.properties[spec].default: Invalid value: {"a":"x","bogus":1}: must not have unknown fields)"});
  CHECK(HasUnprunedDefaults(*Crd(schema)->Root()));
  CHECK_FALSE(HasUnprunedDefaults(*Crd(R"({"type":"object","properties":{"a":{"type":"object","default":{"b":1},
    "properties":{"b":{"type":"integer"}}},"m":{"type":"object","additionalProperties":{"type":"object",
    "properties":{"x":{"type":"string","default":"y"}}}}}})")->Root()));
  CHECK(HasUnprunedDefaults(*Crd(R"({"type":"object","properties":{"m":{"type":"object","additionalProperties":{
    "type":"object","default":{"z":1},"properties":{"x":{"type":"string"}}}}}})")->Root()));
  DefaultValidationOptions lenient;
  lenient.require_pruned = false;
  CHECK(Defaults(schema, lenient).empty());
}

TEST_CASE("default validation: embedded resources and metadata") {
  CHECK(Defaults(R"({"type":"object","properties":{"t":{"type":"object","x-kubernetes-embedded-resource":true,
    "x-kubernetes-preserve-unknown-fields":true,"default":{"kind":"Pod"}}}})") ==
        Lines{"spec.versions[0].schema.openAPIV3Schema.properties[t].default.apiVersion: Required value"});
  CHECK(Defaults(R"({"type":"object","properties":{"t":{"type":"object","x-kubernetes-embedded-resource":true,
    "x-kubernetes-preserve-unknown-fields":true,"default":{"apiVersion":1,"kind":"Pod"}}}})") ==
        Lines{"spec.versions[0].schema.openAPIV3Schema.properties[t].default.apiVersion: Invalid value: 1: must be a string"});
  CHECK(Defaults(R"({"type":"object","properties":{"t":{"type":"object","x-kubernetes-embedded-resource":true,
    "x-kubernetes-preserve-unknown-fields":true,"properties":{"kind":{"type":"integer","default":5}}}}})") ==
        Lines{"spec.versions[0].schema.openAPIV3Schema.properties[t].properties[kind].default: Invalid value: 5: "
              "must result in valid metadata: kind: Invalid value: 5: must be a string"});
  CHECK(Defaults(R"({"type":"object","properties":{"metadata":{"type":"object","properties":{
    "name":{"type":"string","default":"fine"}}}}})").empty());
}

}  // namespace
}  // namespace kube::schema
