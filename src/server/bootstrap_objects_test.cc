// The objects a fresh server has: the kubernetes Service with its Endpoints and EndpointSlice,
// and the system PriorityClasses; created once, corrected and recreated by Reconcile.
#include "server/bootstrap_objects.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "registry/kind_strategies.h"
#include "server/service_allocation.h"

namespace kube::server {
namespace {

using nlohmann::json;

struct Fresh {
  explicit Fresh(const std::string& data_dir = "") {
    services = std::make_shared<ServiceAllocationStrategy>("10.0.0.0/24", 30000, 32767);
    registry::RegistryOptions options;
    options.kv.data_dir = data_dir;
    options.strategies["/services"] = services;
    registry::AddKindStrategies(&options);
    auto opened = registry::ApiRegistry::Open(options, catalogue::Catalogue::BuiltIn());
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    registry = std::move(*opened);
    services->SetRegistry(registry.get());
    bootstrap = std::make_unique<BootstrapObjects>(
        registry.get(), BootstrapObjectsOptions{services->KubernetesServiceIp(), "192.0.2.10", "0.0.0.0", 6443});
  }
  json Get(const std::string& group, const std::string& resource, const std::string& ns, const std::string& name) {
    auto obj = registry->Find(group, "v1", resource)->Get(ns, name, {});
    REQUIRE_MESSAGE(obj.ok(), obj.status().ToString());
    return **obj;
  }
  std::shared_ptr<ServiceAllocationStrategy> services;
  std::unique_ptr<registry::ApiRegistry> registry;
  std::unique_ptr<BootstrapObjects> bootstrap;
};

}  // namespace

TEST_CASE("bootstrap: the kubernetes Service, its Endpoints and EndpointSlice, the system PriorityClasses") {
  Fresh f;
  REQUIRE(f.bootstrap->Reconcile().ok());
  json svc = f.Get("", "services", "default", "kubernetes");
  CHECK(svc["metadata"]["labels"] == json{{"component", "apiserver"}, {"provider", "kubernetes"}});
  CHECK(svc["spec"]["clusterIP"] == "10.0.0.1");
  CHECK(svc["spec"]["clusterIPs"] == json{"10.0.0.1"});
  CHECK(svc["spec"]["type"] == "ClusterIP");
  CHECK(svc["spec"]["ipFamilies"] == json{"IPv4"});
  CHECK(svc["spec"]["ports"] ==
        json::array({{{"name", "https"}, {"port", 443}, {"protocol", "TCP"}, {"targetPort", 6443}}}));
  json eps = f.Get("", "endpoints", "default", "kubernetes");
  CHECK(eps["subsets"][0]["addresses"][0]["ip"] == "192.0.2.10");
  CHECK(eps["subsets"][0]["ports"][0]["port"] == 6443);
  CHECK(eps["subsets"][0]["ports"][0]["name"] == "https");
  json slice = f.Get("discovery.k8s.io", "endpointslices", "default", "kubernetes");
  CHECK(slice["addressType"] == "IPv4");
  CHECK(slice["metadata"]["labels"]["kubernetes.io/service-name"] == "kubernetes");
  CHECK(slice["endpoints"][0]["addresses"][0] == "192.0.2.10");
  CHECK(slice["endpoints"][0]["conditions"]["ready"] == true);
  json node_critical = f.Get("scheduling.k8s.io", "priorityclasses", "", "system-node-critical");
  CHECK(node_critical["value"] == 2000001000);
  CHECK(node_critical["description"] == "Used for system critical pods that must not be moved from their current node.");
  json cluster_critical = f.Get("scheduling.k8s.io", "priorityclasses", "", "system-cluster-critical");
  CHECK(cluster_critical["value"] == 2000000000);

  // Nothing else gets the kubernetes Service's address.
  auto other = f.registry->Find("", "v1", "services")
                   ->Create("default",
                            {{"apiVersion", "v1"},
                             {"kind", "Service"},
                             {"metadata", {{"name", "other"}}},
                             {"spec", {{"clusterIP", "10.0.0.1"}, {"ports", {{{"port", 80}}}}}}},
                            {});
  CHECK(other.status().message().find("provided IP is already allocated") != std::string::npos);
}

TEST_CASE("bootstrap: idempotent, deleted objects come back, changed ports are put back") {
  Fresh f;
  REQUIRE(f.bootstrap->Reconcile().ok());
  const std::string rv = f.Get("", "services", "default", "kubernetes")["metadata"]["resourceVersion"];
  REQUIRE(f.bootstrap->Reconcile().ok());
  CHECK(f.Get("", "services", "default", "kubernetes")["metadata"]["resourceVersion"] == rv);

  REQUIRE(f.registry->Find("", "v1", "endpoints")->Delete("default", "kubernetes", {}).ok());
  auto patched = f.registry->Find("", "v1", "services")
                     ->Update("default", "kubernetes", "",
                              [](const json& cur) -> Result<json> {
                                json next = cur;
                                next["spec"]["ports"][0]["port"] = 8443;
                                return next;
                              },
                              {});
  REQUIRE(patched.ok());
  REQUIRE(f.bootstrap->Reconcile().ok());
  CHECK(f.Get("", "services", "default", "kubernetes")["spec"]["ports"][0]["port"] == 443);
  CHECK(f.Get("", "endpoints", "default", "kubernetes")["subsets"][0]["ports"][0]["port"] == 6443);
}

TEST_CASE("bootstrap: a restart with a data dir finds its objects and keeps them") {
  char dir_template[] = "/tmp/bootstrap-XXXXXX";
  const std::string dir = mkdtemp(dir_template);
  std::string uid;
  {
    Fresh f(dir);
    REQUIRE(f.bootstrap->Start().ok());
    uid = f.Get("", "services", "default", "kubernetes")["metadata"]["uid"];
  }
  Fresh again(dir);
  REQUIRE(again.bootstrap->Start().ok());
  CHECK(again.Get("", "services", "default", "kubernetes")["metadata"]["uid"] == uid);
  CHECK(again.Get("", "services", "default", "kubernetes")["spec"]["clusterIP"] == "10.0.0.1");
  again.bootstrap.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace kube::server
