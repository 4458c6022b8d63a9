#include <doctest/doctest.h>

#include "schema/defaulting.h"
#include "schema/schema_test_util.h"

namespace kube::schema {
namespace {

using testing::Crd;
using json = nlohmann::json;

constexpr const char* kDefaults = R"({"type":"object","properties":{
  "spec":{"type":"object","properties":{
    "size":{"type":"integer","default":3},
    "mode":{"type":"string","default":"fast"},
    "note":{"type":"string","nullable":true,"default":"n"},
    "plain":{"type":"string"},
    "maybe":{"type":"string","nullable":true},
    "nested":{"type":"object","properties":{"depth":{"type":"integer","default":1}}},
    "policy":{"type":"object","default":{},"properties":{"retries":{"type":"integer","default":5}}},
    "items":{"type":"array","items":{"type":"object","default":{"kind":"x"},
             "properties":{"kind":{"type":"string"},"weight":{"type":"integer","default":10}}}},
    "map":{"type":"object","additionalProperties":{"type":"object","properties":{"on":{"type":"boolean","default":true}}}},
    "strings":{"type":"array","items":{"type":"string","default":"s"}}}}}})";

TEST_CASE("default: absent fields get defaults, deep inside objects that exist") {
  auto g = Crd(kDefaults);
  json obj = json::parse(R"({"spec":{"size":7,"nested":{},"items":[{"kind":"a"},{"kind":"b","weight":1}],
                                     "map":{"k":{}}}})");
  Default(g->Root(), &obj);
  CHECK(obj == json::parse(R"({"spec":{"size":7,"mode":"fast","note":"n","nested":{"depth":1},"policy":{"retries":5},
      "items":[{"kind":"a","weight":10},{"kind":"b","weight":1}],"map":{"k":{"on":true}}}})"));
}

TEST_CASE("default: nothing is defaulted inside an object that is absent") {
  auto g = Crd(kDefaults);
  json obj = json::object();
  Default(g->Root(), &obj);
  CHECK(obj == json::object());
  json spec_only = {{"spec", json::object()}};
  Default(g->Root(), &spec_only);
  CHECK_FALSE(spec_only["spec"].contains("nested"));
  CHECK(spec_only["spec"]["policy"] == json{{"retries", 5}});  // a defaulted object gets its own defaults
}

TEST_CASE("default: nulls") {
  auto g = Crd(kDefaults);
  json obj = json::parse(R"({"spec":{"size":null,"note":null,"plain":null,"maybe":null,
                                     "items":[null],"strings":[null,"t"],"nested":null}})");
  Default(g->Root(), &obj);
  // Non-nullable with a default: defaulted. Nullable: kept. Non-nullable without default: dropped.
  CHECK(obj["spec"]["size"] == 3);
  CHECK(obj["spec"]["note"].is_null());
  CHECK_FALSE(obj["spec"].contains("plain"));
  CHECK(obj["spec"]["maybe"].is_null());
  CHECK_FALSE(obj["spec"].contains("nested"));
  CHECK(obj["spec"]["items"] == json::parse(R"([{"kind":"x","weight":10}])"));
  CHECK(obj["spec"]["strings"] == json{"s", "t"});
}

TEST_CASE("default: defaults are copies") {
  auto g = Crd(kDefaults);
  json a = {{"spec", json::object()}};
  Default(g->Root(), &a);
  a["spec"]["policy"]["retries"] = 0;
  json b = {{"spec", json::object()}};
  Default(g->Root(), &b);
  CHECK(b["spec"]["policy"]["retries"] == 5);
  CHECK(*g->Root()->Field("spec")->Field("policy")->Default() == json::object());
}

TEST_CASE("default: a null schema does nothing") {
  json obj = {{"a", nullptr}};
  Default(nullptr, &obj);
  CHECK(obj == json{{"a", nullptr}});
}

}  // namespace
}  // namespace kube::schema
