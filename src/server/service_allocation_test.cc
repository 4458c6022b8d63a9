// --service-cluster-ip-range and --service-node-port-range through the Service store: cluster IPs
// and node ports allocated from the ranges, never twice, requested ones checked with kube's 422s,
// freed by deleting the Service.
#include "server/service_allocation.h"

#include <doctest/doctest.h>

#include <arpa/inet.h>

#include <set>

#include "registry/api_registry.h"

namespace kube::server {

namespace {

struct Services {
  Services(const std::string& cidr, int lo, int hi) {
    strategy = std::make_shared<ServiceAllocationStrategy>(cidr, lo, hi);
    registry::RegistryOptions options;
    options.strategies["/services"] = strategy;
    auto opened = registry::ApiRegistry::Open(options, catalogue::Catalogue::BuiltIn());
    REQUIRE(opened.ok());
    registry = std::move(*opened);
    strategy->SetRegistry(registry.get());
    store = registry->Find("", "v1", "services");
    REQUIRE(store != nullptr);
  }
  Result<storage::ObjectPtr> Create(const std::string& name, nlohmann::json spec) {
    nlohmann::json svc = {{"apiVersion", "v1"}, {"kind", "Service"}, {"metadata", {{"name", name}}}, {"spec", spec}};
    return store->Create("default", svc, {});
  }
  std::shared_ptr<ServiceAllocationStrategy> strategy;
  std::unique_ptr<registry::ApiRegistry> registry;
  registry::StorePtr store;
};

nlohmann::json Port(int port, int node_port = 0) {
  // Named: kube requires port names once a Service has more than one port.
  nlohmann::json p = {{"name", "p" + std::to_string(port)}, {"port", port}, {"protocol", "TCP"}};
  if (node_port != 0) p["nodePort"] = node_port;
  return p;
}

}  // namespace

TEST_CASE("service allocation: cluster IPs from the range, each once, until it is full") {
  Services s("10.96.7.0/29", 30000, 30002);  // usable: .2 .. .6 (.1 is the kubernetes Service's)
  std::set<std::string> seen;
  for (int i = 0; i < 5; ++i) {
    auto svc = s.Create("s" + std::to_string(i), {{"ports", {Port(80)}}});
    REQUIRE_MESSAGE(svc.ok(), svc.status().ToString());
    const std::string ip = (**svc)["spec"]["clusterIP"];
    CHECK((**svc)["spec"]["clusterIPs"] == nlohmann::json{ip});
    CHECK(ip.starts_with("10.96.7."));
    const int last = std::stoi(ip.substr(ip.rfind('.') + 1));
    CHECK(last >= 2);
    CHECK(last <= 6);
    CHECK(seen.insert(ip).second);
  }
  auto full = s.Create("full", {{"ports", {Port(80)}}});
  CHECK(full.status().code() == StatusCode::kInvalid);
  CHECK(full.status().message().find("failed to allocate a serviceIP: range is full") != std::string::npos);
  // Headless and ExternalName Services need no address.
  CHECK(s.Create("headless", {{"clusterIP", "None"}, {"ports", {Port(80)}}}).ok());
  CHECK(s.Create("ext", {{"type", "ExternalName"}, {"externalName", "example.com"}}).ok());
}

TEST_CASE("service allocation: requested IPs and node ports are checked with kube's messages") {
  Services s("10.0.0.0/24", 30000, 30100);
  auto given = s.Create("given", {{"clusterIP", "10.0.0.50"}, {"ports", {Port(80)}}});
  REQUIRE(given.ok());
  CHECK((**given)["spec"]["clusterIP"] == "10.0.0.50");
  auto taken = s.Create("taken", {{"clusterIP", "10.0.0.50"}, {"ports", {Port(80)}}});
  CHECK(taken.status().message() ==
        "Service \"taken\" is invalid: spec.clusterIPs[0]: Invalid value: \"10.0.0.50\": failed to allocate IP "
        "10.0.0.50: provided IP is already allocated");
  auto outside = s.Create("outside", {{"clusterIP", "192.168.1.1"}, {"ports", {Port(80)}}});
  CHECK(outside.status().message() ==
        "Service \"outside\" is invalid: spec.clusterIPs[0]: Invalid value: \"192.168.1.1\": failed to allocate IP "
        "192.168.1.1: the provided IP (192.168.1.1) is not in the valid range. The range of valid IPs is 10.0.0.0/24");

  auto np = s.Create("np", {{"type", "NodePort"}, {"ports", {Port(80), Port(443, 30050)}}});
  REQUIRE_MESSAGE(np.ok(), np.status().ToString());
  const int allocated = (**np)["spec"]["ports"][0]["nodePort"];
  CHECK(allocated >= 30000);
  CHECK(allocated <= 30100);
  CHECK(allocated != 30050);
  CHECK((**np)["spec"]["ports"][1]["nodePort"] == 30050);
  auto dup = s.Create("dup", {{"type", "NodePort"}, {"ports", {Port(80, 30050)}}});
  CHECK(dup.status().message() ==
        "Service \"dup\" is invalid: spec.ports[0].nodePort: Invalid value: 30050: provided port is already allocated");
  auto low = s.Create("low", {{"type", "NodePort"}, {"ports", {Port(80, 80)}}});
  CHECK(low.status().message() ==
        "Service \"low\" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid "
        "range. The range of valid ports is 30000-30100");
  // ClusterIP Services get no node port.
  auto plain = s.Create("plain", {{"ports", {Port(80)}}});
  CHECK_FALSE((**plain)["spec"]["ports"][0].contains("nodePort"));

  // Deleting the Service frees its address.
  REQUIRE(s.store->Delete("default", "given", {}).ok());
  CHECK(s.Create("again", {{"clusterIP", "10.0.0.50"}, {"ports", {Port(80)}}}).ok());
}

}  // namespace kube::server
