// Tables for custom resources: kube's CRD table convertor columns and cells.

#include "printers/custom_resource_table.h"

#include <doctest/doctest.h>

#include <chrono>

namespace kube::printers {
namespace {

using Json = nlohmann::json;
using namespace std::chrono_literals;

const auto kNow = std::chrono::system_clock::time_point(std::chrono::seconds(1700000000));  // 2023-11-14T22:13:20Z

// cert-manager's Certificate columns.
const Json kCertColumns = Json::parse(R"([
  {"jsonPath": ".status.conditions[?(@.type==\"Ready\")].status", "name": "Ready", "type": "string"},
  {"jsonPath": ".spec.secretName", "name": "Secret", "type": "string"},
  {"jsonPath": ".spec.issuerRef.name", "name": "Issuer", "priority": 1, "type": "string"},
  {"jsonPath": ".status.conditions[?(@.type==\"Ready\")].message", "name": "Status", "priority": 1, "type": "string"},
  {"jsonPath": ".metadata.creationTimestamp", "name": "Age", "type": "date", "description": "CreationTimestamp is a timestamp"}
])");

const Json kCert = Json::parse(R"({
  "apiVersion": "cert-manager.io/v1", "kind": "Certificate",
  "metadata": {"name": "web-tls", "namespace": "default", "creationTimestamp": "2023-11-14T21:10:00Z"},
  "spec": {"secretName": "web-tls", "issuerRef": {"name": "letsencrypt", "kind": "ClusterIssuer"}},
  "status": {"conditions": [{"type": "Issuing", "status": "False"},
                            {"type": "Ready", "status": "True", "message": "Certificate is up to date and has not expired"}]}
})");

TEST_CASE("declared columns: Name first, no Age unless declared, priorities and descriptions") {
  std::string error;
  const CustomResourceTable t = CustomResourceTable::Build(kCertColumns, &error);
  CHECK(error.empty());
  REQUIRE(t.columns().size() == 6);
  CHECK(t.columns()[0].name == "Name");
  CHECK(t.columns()[0].format == "name");
  CHECK(t.columns()[0].description.starts_with("Name must be unique within a namespace. Is required when creating resources"));
  CHECK(t.columns()[1].name == "Ready");
  CHECK(t.columns()[1].description == R"(Custom resource definition column (in JSONPath format): .status.conditions[?(@.type=="Ready")].status)");
  CHECK(t.columns()[3].priority == 1);
  CHECK(t.columns()[5].type == "date");
  CHECK(t.columns()[5].description == "CreationTimestamp is a timestamp");
  CHECK(t.Cells(kCert, kNow) ==
        std::vector<Json>{"web-tls", "True", "web-tls", "letsencrypt", "Certificate is up to date and has not expired", "63m"});

  Json no_status = kCert;
  no_status.erase("status");
  CHECK(t.Cells(no_status, kNow) == std::vector<Json>{"web-tls", nullptr, "web-tls", "letsencrypt", nullptr, "63m"});
}

TEST_CASE("no declared columns: kube's default Age column of type date") {
  for (const Json& cols : {Json(), Json::array()}) {
    const CustomResourceTable t = CustomResourceTable::Build(cols);
    REQUIRE(t.columns().size() == 2);
    CHECK(t.columns()[1].name == "Age");
    CHECK(t.columns()[1].type == "date");
    CHECK(t.columns()[1].description.starts_with("CreationTimestamp is a timestamp representing the server time"));
    CHECK(t.Cells(kCert, kNow) == std::vector<Json>{"web-tls", "63m"});
  }
}

TEST_CASE("cells by column type") {
  const Json cols = Json::parse(R"([
    {"name": "I", "type": "integer", "jsonPath": ".v"},
    {"name": "N", "type": "number", "jsonPath": ".v"},
    {"name": "B", "type": "boolean", "jsonPath": ".v"},
    {"name": "S", "type": "string", "jsonPath": ".v"},
    {"name": "D", "type": "date", "jsonPath": ".v"}
  ])");
  const CustomResourceTable t = CustomResourceTable::Build(cols);
  struct Case {
    const char* v;
    std::vector<Json> want;  // I, N, B, S, D
  };
  const Case cases[] = {
      {"3", {3, 3, nullptr, "3", nullptr}},
      {"2.75", {2, 2.75, nullptr, "2.75", nullptr}},
      {"-2.75", {-2, -2.75, nullptr, "-2.75", nullptr}},
      {"3.0", {3, 3, nullptr, "3", nullptr}},
      {"1e6", {1000000, 1000000, nullptr, "1e+06", nullptr}},
      {"true", {nullptr, nullptr, true, "true", nullptr}},
      {R"("2023-11-14T22:13:15Z")", {nullptr, nullptr, nullptr, "2023-11-14T22:13:15Z", "5s"}},
      {R"("2023-11-12T22:13:20.5+01:00")", {nullptr, nullptr, nullptr, "2023-11-12T22:13:20.5+01:00", "2d"}},
      {R"("yesterday")", {nullptr, nullptr, nullptr, "yesterday", "<invalid>"}},
      {R"("")", {nullptr, nullptr, nullptr, "", "<unknown>"}},
      {R"("0001-01-01T00:00:00Z")", {nullptr, nullptr, nullptr, "0001-01-01T00:00:00Z", "<unknown>"}},
      {"null", {nullptr, nullptr, nullptr, "<no value>", nullptr}},
      {R"({"b": [1, "<x>"], "a": 1})", {nullptr, nullptr, nullptr, R"({"a":1,"b":[1,"\u003cx\u003e"]})", nullptr}},
      {R"(["x", "y"])", {nullptr, nullptr, nullptr, R"(["x","y"])", nullptr}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.v);
    Json obj = {{"metadata", {{"name", "n"}}}, {"v", Json::parse(c.v)}};
    std::vector<Json> want = c.want;
    want.insert(want.begin(), "n");
    const std::vector<Json> got = t.Cells(obj, kNow);
    CHECK(got == want);
    // Integral numbers are integers in the JSON, as Go writes float64 3 as `3`.
    if (got[2].is_number()) CHECK(got[2].dump() == want[2].dump());
  }
  // Missing field: every cell null.
  CHECK(t.Cells(Json{{"metadata", {{"name", "n"}}}}, kNow) ==
        std::vector<Json>{"n", nullptr, nullptr, nullptr, nullptr, nullptr});
}

TEST_CASE("multiple results: only the first value counts; errors give null") {
  const Json cols = Json::parse(R"([
    {"name": "Names", "type": "string", "jsonPath": ".spec.items[*].name"},
    {"name": "Count", "type": "integer", "jsonPath": ".spec.items[*].count"},
    {"name": "Bad", "type": "string", "jsonPath": ".spec.items[9].name"},
    {"name": "Obj", "type": "string", "jsonPath": ".spec.items[0]"}
  ])");
  const CustomResourceTable t = CustomResourceTable::Build(cols);
  const Json obj = Json::parse(R"({"metadata": {"name": "x"}, "spec": {"items": [{"name": "a", "count": 4}, {"name": "b", "count": 5}]}})");
  CHECK(t.Cells(obj, kNow) == std::vector<Json>{"x", "a", 4, nullptr, R"({"count":4,"name":"a"})"});
}

TEST_CASE("an unparsable jsonPath keeps the columns before it, as kube falls back") {
  const Json cols = Json::parse(R"([
    {"name": "A", "type": "string", "jsonPath": ".spec.a"},
    {"name": "B", "type": "string", "jsonPath": ".spec[x"},
    {"name": "C", "type": "string", "jsonPath": ".spec.c"}
  ])");
  std::string error;
  const CustomResourceTable t = CustomResourceTable::Build(cols, &error);
  CHECK(error == R"(unrecognized column definition ".spec[x")");
  REQUIRE(t.columns().size() == 2);
  CHECK(t.columns()[1].name == "A");
}

TEST_CASE("scale subresource table") {
  const Json version = Json::parse(R"({"name": "v1", "subresources": {"scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}}})");
  const CustomResourceTable t = CustomResourceTable::BuildForScale(version);
  REQUIRE(t.columns().size() == 4);
  CHECK(t.columns()[1].name == "Desired");
  CHECK(t.columns()[1].description == "Number of desired replicas");
  CHECK(t.columns()[2].name == "Available");
  CHECK(t.columns()[3].name == "Age");
  const Json scale = Json::parse(R"({"kind": "Scale", "apiVersion": "autoscaling/v1",
    "metadata": {"name": "w", "creationTimestamp": "2023-11-14T22:12:20Z"}, "spec": {"replicas": 3}, "status": {"replicas": 2}})");
  CHECK(t.Cells(scale, kNow) == std::vector<Json>{"w", 3, 2, "60s"});
  CHECK(CustomResourceTable::BuildForScale(Json::object()).columns().size() == 2);
}

TEST_CASE("BuildTable envelope for custom resources") {
  const CustomResourceTable t = CustomResourceTable::Build(kCertColumns);
  const Json table = t.BuildTable({&kCert, nullptr}, "42", "Object", kNow);
  CHECK(table["kind"] == "Table");
  CHECK(table["apiVersion"] == "meta.k8s.io/v1");
  CHECK(table["metadata"]["resourceVersion"] == "42");
  REQUIRE(table["columnDefinitions"].size() == 6);
  CHECK(table["columnDefinitions"][3] == Json::parse(R"({"name": "Issuer", "type": "string", "format": "",
    "description": "Custom resource definition column (in JSONPath format): .spec.issuerRef.name", "priority": 1})"));
  REQUIRE(table["rows"].size() == 1);
  CHECK(table["rows"][0]["cells"][1] == "True");
  CHECK(table["rows"][0]["object"] == kCert);
  CHECK_FALSE(table["rows"][0].contains("conditions"));
  const Json meta_only = t.BuildTable({&kCert}, "", "Metadata", kNow);
  CHECK(meta_only["rows"][0]["object"]["kind"] == "PartialObjectMetadata");
}

TEST_CASE("malformed objects never throw") {
  const CustomResourceTable t = CustomResourceTable::Build(kCertColumns);
  for (const char* text : {"null", "[]", "5", R"({"metadata": 1, "status": {"conditions": {"a": 1}}})",
                           R"({"status": {"conditions": [null, 1, {"type": 5}]}})"}) {
    CAPTURE(text);
    const Json obj = Json::parse(text);
    CHECK_NOTHROW(t.Cells(obj, kNow));
  }
}

}  // namespace
}  // namespace kube::printers
