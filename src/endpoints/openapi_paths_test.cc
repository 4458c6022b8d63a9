// Unit tests of the OpenAPI v3 paths of a group version: the installer's routes for built-ins and
// the CRD builder's for custom resources, kube's operationIds and the parameter layout.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "catalogue/catalogue.h"
#include "endpoints/openapi_paths.h"

namespace kube::endpoints {

namespace {

using nlohmann::json;

std::vector<const catalogue::ResourceInfo*> GroupVersion(std::string_view group, std::string_view version) {
  std::vector<const catalogue::ResourceInfo*> out;
  for (const auto& r : catalogue::Catalogue::BuiltIn().Resources()) {
    if (r.group == group && r.version == version) out.push_back(&r);
  }
  return out;
}

std::string Name(std::string_view g, std::string_view v, std::string_view k) {
  return std::string(g.empty() ? "core" : g) + "." + std::string(v) + "." + std::string(k);
}

std::vector<std::string> ParamNames(const json& params) {
  std::vector<std::string> out;
  for (const auto& p : params) out.push_back(p["name"].get<std::string>() + "/" + p["in"].get<std::string>());
  return out;
}

}  // namespace

TEST_CASE("openapi v3 paths: apps/v1 lists every route with kube's operations") {
  std::set<std::string> refs;
  const json paths = OpenApiV3Paths(GroupVersion("apps", "v1"), OpenApiFlavor::kBuiltIn, Name, &refs);
  const std::string ns = "/apis/apps/v1/namespaces/{namespace}/deployments";
  CHECK(paths["/apis/apps/v1/"]["get"]["operationId"] == "getAppsV1APIResources");
  CHECK(paths["/apis/apps/v1/deployments"]["get"]["operationId"] == "listAppsV1DeploymentForAllNamespaces");
  CHECK(paths[ns]["get"]["operationId"] == "listAppsV1NamespacedDeployment");
  CHECK(paths[ns]["post"]["operationId"] == "createAppsV1NamespacedDeployment");
  CHECK(paths[ns]["delete"]["operationId"] == "deleteAppsV1CollectionNamespacedDeployment");
  CHECK(paths[ns]["delete"]["x-kubernetes-action"] == "deletecollection");
  CHECK(paths[ns + "/{name}"].size() == 5);  // get put patch delete + parameters
  CHECK(paths[ns + "/{name}"]["put"]["operationId"] == "replaceAppsV1NamespacedDeployment");
  CHECK(paths[ns + "/{name}/status"]["get"]["operationId"] == "readAppsV1NamespacedDeploymentStatus");
  CHECK(paths[ns + "/{name}/scale"]["patch"]["x-kubernetes-group-version-kind"] ==
        json{{"group", "autoscaling"}, {"version", "v1"}, {"kind", "Scale"}});
  CHECK(paths["/apis/apps/v1/watch/namespaces/{namespace}/deployments/{name}"]["get"]["operationId"] ==
        "watchAppsV1NamespacedDeployment");
  CHECK(paths["/apis/apps/v1/watch/deployments"]["get"]["operationId"] ==
        "watchAppsV1DeploymentListForAllNamespaces");
  CHECK(paths[ns]["get"]["tags"] == json::array({"apps_v1"}));
  CHECK(paths[ns]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"] ==
        "#/components/schemas/apps.v1.DeploymentList");
  CHECK(refs.contains("io.k8s.apimachinery.pkg.apis.meta.v1.Status"));
  CHECK(refs.contains("io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent"));
  CHECK(refs.contains("io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList"));
  CHECK(refs.contains("autoscaling.v1.Scale"));

  // Shared parameters sit on the path, the others on their operation, sorted by name.
  CHECK(ParamNames(paths[ns + "/{name}"]["parameters"]) ==
        std::vector<std::string>{"name/path", "namespace/path", "pretty/query"});
  const json& patch = paths[ns + "/{name}"]["patch"];
  CHECK(ParamNames(patch["parameters"]) ==
        std::vector<std::string>{"dryRun/query", "fieldManager/query", "fieldValidation/query", "force/query"});
  CHECK_FALSE(paths[ns + "/{name}"]["get"].contains("parameters"));
  CHECK_FALSE(paths["/apis/apps/v1/deployments"]["get"].contains("parameters"));
  CHECK(paths["/apis/apps/v1/deployments"]["parameters"].size() == 12);
  // kubectl builds strategic merge patches from its own types: the document offers none.
  CHECK(patch["requestBody"]["content"].contains("application/merge-patch+json"));
  CHECK(patch["requestBody"]["content"].contains("application/json-patch+json"));
  CHECK(patch["requestBody"]["content"].contains("application/apply-patch+yaml"));
  CHECK_FALSE(patch["requestBody"]["content"].contains("application/strategic-merge-patch+json"));
}

TEST_CASE("openapi v3 paths: core/v1 subresources, connect and cluster-scoped resources") {
  std::set<std::string> refs;
  const json paths = OpenApiV3Paths(GroupVersion("", "v1"), OpenApiFlavor::kBuiltIn, Name, &refs);
  const std::string pod = "/api/v1/namespaces/{namespace}/pods/{name}";
  CHECK(paths["/api/v1/"]["get"]["operationId"] == "getCoreV1APIResources");
  CHECK(paths[pod + "/log"]["get"]["operationId"] == "readCoreV1NamespacedPodLog");
  CHECK(paths[pod + "/exec"]["post"]["operationId"] == "connectCoreV1PostNamespacedPodExec");
  CHECK(paths[pod + "/proxy/{path}"]["head"]["operationId"] == "connectCoreV1HeadNamespacedPodProxyWithPath");
  CHECK(paths[pod + "/proxy/{path}"].size() == 8);
  CHECK(paths[pod + "/binding"]["post"]["operationId"] == "createCoreV1NamespacedPodBinding");
  CHECK(paths[pod + "/eviction"]["post"]["x-kubernetes-group-version-kind"]["kind"] == "Eviction");
  CHECK(paths["/api/v1/namespaces/{namespace}/bindings"].size() == 2);  // post + parameters
  CHECK(paths["/api/v1/namespaces/{name}/finalize"]["put"]["operationId"] == "replaceCoreV1NamespaceFinalize");
  CHECK(paths["/api/v1/nodes"]["get"]["operationId"] == "listCoreV1Node");
  CHECK(paths["/api/v1/watch/nodes/{name}"]["get"]["operationId"] == "watchCoreV1Node");
  CHECK_FALSE(paths.contains("/api/v1/watch/componentstatuses"));
  CHECK(paths["/api/v1/componentstatuses/{name}"].size() == 2);  // get + parameters
  CHECK(paths["/api/v1/namespaces/{namespace}/events"]["post"]["description"] == "create an Event");
  CHECK(paths["/api/v1/namespaces/{namespace}/endpoints"]["post"]["description"] == "create Endpoints");
  CHECK(paths[pod + "/eviction"]["post"]["description"] == "create eviction of a Pod");
  // Pods answer a DELETE with the pod, ConfigMaps with a Status.
  CHECK(paths[pod]["delete"]["responses"]["202"]["content"]["application/json"]["schema"]["$ref"] ==
        "#/components/schemas/core.v1.Pod");
  CHECK(paths["/api/v1/namespaces/{namespace}/configmaps/{name}"]["delete"]["responses"]["200"]["content"]
             ["application/json"]["schema"]["$ref"] == "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Status");
  CHECK(ParamNames(paths[pod + "/proxy/{path}"]["parameters"]) ==
        std::vector<std::string>{"name/path", "namespace/path", "path/path", "path/query"});
}

TEST_CASE("openapi v3 paths: custom resources follow the CRD builder") {
  catalogue::ResourceInfo gadget{.group = "tests.kal.example.com",
                                 .version = "v1",
                                 .resource = "gadgets",
                                 .singular = "gadget",
                                 .kind = "Gadget",
                                 .list_kind = "GadgetList",
                                 .namespaced = true,
                                 .verbs = {"create", "delete", "deletecollection", "get", "list", "patch", "update",
                                           "watch"}};
  gadget.subresources.push_back(
      {.name = "scale", .group = "autoscaling", .version = "v1", .kind = "Scale", .verbs = {"get", "patch", "update"}});
  std::set<std::string> refs;
  const json paths = OpenApiV3Paths({&gadget}, OpenApiFlavor::kCustomResource, Name, &refs);
  const std::string base = "/apis/tests.kal.example.com/v1";
  CHECK(paths.size() == 4);  // no root, no watch paths
  CHECK(paths[base + "/gadgets"]["get"]["operationId"] == "listTestsKalExampleComV1GadgetForAllNamespaces");
  CHECK(paths[base + "/namespaces/{namespace}/gadgets/{name}/scale"]["get"]["operationId"] ==
        "readTestsKalExampleComV1NamespacedGadgetScale");
  CHECK(paths[base + "/namespaces/{namespace}/gadgets/{name}/scale"]["get"]["x-kubernetes-group-version-kind"]["kind"] ==
        "Gadget");
  const json& list = paths[base + "/namespaces/{namespace}/gadgets"]["get"];
  CHECK(list["tags"] == json::array({"testsKalExampleCom_v1"}));
  CHECK(list["responses"]["200"]["content"].size() == 2);  // JSON and YAML only
  CHECK_FALSE(paths[base + "/namespaces/{namespace}/gadgets"]["delete"].contains("requestBody"));

  const json schema = OpenApiCustomListSchema(gadget, "com.example.kal.tests.v1.Gadget");
  CHECK(schema["properties"]["items"]["items"]["$ref"] == "#/components/schemas/com.example.kal.tests.v1.Gadget");
  CHECK(schema["x-kubernetes-group-version-kind"][0]["kind"] == "GadgetList");
}

TEST_CASE("openapi v3 paths: operationId and tag spellings of group versions") {
  CHECK(OpenApiOperationGroupVersion("", "v1") == "CoreV1");
  CHECK(OpenApiOperationGroupVersion("rbac.authorization.k8s.io", "v1") == "RbacAuthorizationV1");
  CHECK(OpenApiOperationGroupVersion("flowcontrol.apiserver.k8s.io", "v1beta3") == "FlowcontrolApiserverV1beta3");
  CHECK(OpenApiTag("rbac.authorization.k8s.io", "v1") == "rbacAuthorization_v1");
  CHECK(OpenApiTag("", "v1") == "core_v1");
}

}  // namespace kube::endpoints
