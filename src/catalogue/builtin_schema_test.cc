// The built-in kinds through kube_schema's algorithms: the catalogue's nodes answer the CRD-only
// questions with "none", and pruning reports what typed decoding reports.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "catalogue/catalogue.h"
#include "schema/defaulting.h"
#include "schema/prune.h"

namespace kube::catalogue {
namespace {

using json = nlohmann::json;
using Paths = std::vector<std::string>;

schema::PruneOptions BuiltInStyle() {
  schema::PruneOptions options;
  options.bracket_map_keys = true;
  return options;
}

TEST_CASE("built-in schemas: pruning reports unknown fields in typed decoding's path form") {
  const auto& cat = Catalogue::BuiltIn();
  json pod = {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"name", "p"}, {"bogus", 1}}},
              {"spec", {{"containers", {{{"name", "c"}, {"image", "x"}, {"colour", "red"}}}}, {"foo", true}}}};
  CHECK(schema::Prune(cat.KindSchema("", "v1", "Pod"), &pod, BuiltInStyle()) ==
        Paths{"metadata.bogus", "spec.containers[0].colour", "spec.foo"});
  CHECK_FALSE(pod["spec"].contains("foo"));
  CHECK(pod["spec"]["containers"][0]["image"] == "x");

  json cm = {{"data", {{"any-key", "v"}}}, {"metadata", {{"labels", {{"a", "b"}}}}}};
  CHECK(schema::Prune(cat.KindSchema("", "v1", "ConfigMap"), &cm, BuiltInStyle()).empty());

  json dep = {{"spec", {{"template", {{"metadata", {{"annotations", {{"k", "v"}}}, {"x", 1}}}}}}}};
  CHECK(schema::Prune(cat.KindSchema("apps", "v1", "Deployment"), &dep, BuiltInStyle()) ==
        Paths{"spec.template.metadata.x"});
}

TEST_CASE("built-in schemas: free-form values are kept whole") {
  const auto& cat = Catalogue::BuiltIn();
  const Schema* revision = cat.KindSchema("apps", "v1", "ControllerRevision");
  REQUIRE(revision != nullptr);
  CHECK(revision->Field("data")->PreserveUnknownFields());  // a RawExtension
  json cr = {{"revision", 1}, {"data", {{"spec", {{"anything", {{"goes", 1}}}}}}}};
  CHECK(schema::Prune(revision, &cr, BuiltInStyle()).empty());
  CHECK(cr["data"]["spec"]["anything"]["goes"] == 1);
}

TEST_CASE("built-in schemas: no defaults, nullability or preserve flags on structured nodes") {
  const auto& cat = Catalogue::BuiltIn();
  const Schema* pod = cat.KindSchema("", "v1", "Pod");
  CHECK(pod->Default() == nullptr);
  CHECK_FALSE(pod->Nullable());
  CHECK_FALSE(pod->PreserveUnknownFields());
  CHECK_FALSE(pod->EmbeddedResource());
  CHECK(pod->CelRules() == nullptr);
  CHECK(pod->OpenAPIType() == "object");
  json p = {{"spec", {{"containers", json::array()}}}};
  schema::Default(pod, &p);
  CHECK(p == json{{"spec", {{"containers", json::array()}}}});
}

}  // namespace
}  // namespace kube::catalogue
