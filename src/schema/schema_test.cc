#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "schema/graph.h"

namespace kube::schema {
namespace {

using json = nlohmann::json;

TEST_CASE("graph: a CRD schema builds into owned nodes") {
  auto graph = SchemaGraph::FromOpenAPIV3(json::parse(R"({"type":"object","properties":{"spec":{"type":"object","properties":{"size":{"type":"integer","default":3}}}}})"));
  REQUIRE(graph.ok());
  const Schema* root = (*graph)->Root();
  REQUIRE(root != nullptr);
  CHECK(root->type() == Schema::Type::kObject);
  CHECK(*root->Field("spec")->Field("size")->Default() == 3);
}

}  // namespace
}  // namespace kube::schema
