// Helpers for kube_schema's tests: schema graphs from JSON text and errors as kube renders them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "schema/graph.h"
#include "util/field_error.h"

namespace kube::schema::testing {

using json = nlohmann::json;

// A CRD schema graph from its JSON text; fails the test when it does not build.
inline std::unique_ptr<SchemaGraph> Crd(const std::string& text) {
  auto graph = SchemaGraph::FromOpenAPIV3(json::parse(text));
  REQUIRE_MESSAGE(graph.ok(), graph.status().message());
  return std::move(*graph);
}

// "<field>: <body>", as in a 422 message.
inline std::vector<std::string> Rendered(const FieldErrors& errs) {
  std::vector<std::string> out;
  for (const auto& e : errs) out.push_back(e.field + ": " + e.Body());
  return out;
}

// The ObjectMeta fields the tests need, standing in for the catalogue's definition.
inline std::unique_ptr<SchemaGraph> ObjectMeta() {
  return Crd(R"({"type":"object","properties":{
      "name":{"type":"string"},"namespace":{"type":"string"},
      "labels":{"type":"object","additionalProperties":{"type":"string"}},
      "ownerReferences":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}}}}}})");
}

}  // namespace kube::schema::testing
