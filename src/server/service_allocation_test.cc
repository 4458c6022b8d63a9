// --service-cluster-ip-range and --service-node-port-range through the Service store: cluster IPs
// and node ports allocated from the ranges, never twice, requested ones checked with kube's 422s,
// freed by deleting the Service.
#include "server/service_allocation.h"

#include <doctest/doctest.h>

#include <arpa/inet.h>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

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
        "Service \"taken\" is invalid: spec.clusterIPs: Invalid value: [\"10.0.0.50\"]: failed to allocate IP "
        "10.0.0.50: provided IP is already allocated");
  auto outside = s.Create("outside", {{"clusterIP", "192.168.1.1"}, {"ports", {Port(80)}}});
  CHECK(outside.status().message() ==
        "Service \"outside\" is invalid: spec.clusterIPs: Invalid value: [\"192.168.1.1\"]: failed to allocate IP "
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

namespace kube::server {

namespace {

std::vector<std::string> Ips(const nlohmann::json& svc) {
  std::vector<std::string> out;
  for (const auto& ip : svc["spec"]["clusterIPs"]) out.push_back(ip);
  return out;
}

}  // namespace

TEST_CASE("service allocation: dual-stack families and addresses follow ipFamilyPolicy") {
  Services s("10.0.0.0/24,fd00::/108", 30000, 30100);
  auto single = s.Create("single", {{"ports", {Port(80)}}});
  REQUIRE_MESSAGE(single.ok(), single.status().ToString());
  CHECK((**single)["spec"]["ipFamilies"] == nlohmann::json{"IPv4"});
  CHECK(Ips(**single).size() == 1);
  auto require = s.Create("require", {{"ipFamilyPolicy", "RequireDualStack"}, {"ports", {Port(80)}}});
  REQUIRE_MESSAGE(require.ok(), require.status().ToString());
  CHECK((**require)["spec"]["ipFamilies"] == nlohmann::json{"IPv4", "IPv6"});
  auto ips = Ips(**require);
  REQUIRE(ips.size() == 2);
  CHECK(ips[0].starts_with("10.0.0."));
  CHECK(ips[1].starts_with("fd00::"));
  CHECK((**require)["spec"]["clusterIP"] == ips[0]);
  auto prefer6 = s.Create("prefer6", {{"ipFamilyPolicy", "PreferDualStack"}, {"ipFamilies", {"IPv6"}}, {"ports", {Port(80)}}});
  REQUIRE_MESSAGE(prefer6.ok(), prefer6.status().ToString());
  CHECK((**prefer6)["spec"]["ipFamilies"] == nlohmann::json{"IPv6", "IPv4"});
  CHECK(Ips(**prefer6)[0].starts_with("fd00::"));
  auto only6 = s.Create("only6", {{"ipFamilies", {"IPv6"}}, {"ports", {Port(80)}}});
  REQUIRE_MESSAGE(only6.ok(), only6.status().ToString());
  CHECK(Ips(**only6).size() == 1);
  CHECK(Ips(**only6)[0].starts_with("fd00::"));
}

TEST_CASE("service allocation: single-stack clusters refuse RequireDualStack; IPv6-only clusters allocate IPv6") {
  Services s("10.0.0.0/24", 30000, 30100);
  auto require = s.Create("require", {{"ipFamilyPolicy", "RequireDualStack"}, {"ports", {Port(80)}}});
  CHECK(require.status().message() ==
        "Service \"require\" is invalid: spec.ipFamilyPolicy: Invalid value: \"RequireDualStack\": this cluster is not "
        "configured for dual-stack services");
  auto prefer = s.Create("prefer", {{"ipFamilyPolicy", "PreferDualStack"}, {"ports", {Port(80)}}});
  REQUIRE_MESSAGE(prefer.ok(), prefer.status().ToString());
  CHECK(Ips(**prefer).size() == 1);
  auto v6 = s.Create("v6", {{"ipFamilies", {"IPv6"}}, {"ports", {Port(80)}}});
  CHECK(v6.status().message() ==
        "Service \"v6\" is invalid: spec.ipFamilies[0]: Invalid value: \"IPv6\": not configured on this cluster");

  Services six("fd00:10::/120", 30000, 30100);
  auto svc = six.Create("svc", {{"ports", {Port(80)}}});
  REQUIRE_MESSAGE(svc.ok(), svc.status().ToString());
  CHECK((**svc)["spec"]["ipFamilies"] == nlohmann::json{"IPv6"});
  CHECK(Ips(**svc)[0].starts_with("fd00:10::"));
  CHECK(six.strategy->KubernetesServiceIp() == "fd00:10::1");
}

TEST_CASE("service allocation: healthCheckNodePort for LoadBalancer with externalTrafficPolicy Local") {
  Services s("10.0.0.0/24", 30000, 30100);
  auto lb = s.Create("lb", {{"type", "LoadBalancer"}, {"externalTrafficPolicy", "Local"}, {"ports", {Port(80)}}});
  REQUIRE_MESSAGE(lb.ok(), lb.status().ToString());
  const int hc = (**lb)["spec"]["healthCheckNodePort"];
  const int np = (**lb)["spec"]["ports"][0]["nodePort"];
  CHECK(hc >= 30000);
  CHECK(hc <= 30100);
  CHECK(hc != np);
  // Ports of one number share a node port (DNS over TCP and UDP).
  auto dns = s.Create("dns", {{"type", "NodePort"},
                              {"ports", {{{"name", "tcp"}, {"port", 53}, {"protocol", "TCP"}},
                                         {{"name", "udp"}, {"port", 53}, {"protocol", "UDP"}}}}});
  REQUIRE_MESSAGE(dns.ok(), dns.status().ToString());
  CHECK((**dns)["spec"]["ports"][0]["nodePort"] == (**dns)["spec"]["ports"][1]["nodePort"]);
}

TEST_CASE("service allocation: updates keep, release and refuse as kube does") {
  Services s("10.0.0.0/24", 30000, 30100);
  auto svc = s.Create("svc", {{"type", "NodePort"}, {"ports", {Port(80)}}});
  REQUIRE_MESSAGE(svc.ok(), svc.status().ToString());
  const std::string ip = (**svc)["spec"]["clusterIP"];
  const int node_port = (**svc)["spec"]["ports"][0]["nodePort"];
  auto update = [&](const std::function<void(nlohmann::json*)>& change) {
    return s.store->Update("default", "svc", "",
                           [&](const nlohmann::json& cur) -> Result<nlohmann::json> {
                             nlohmann::json next = cur;
                             change(&next);
                             return next;
                           },
                           {});
  };
  // A PUT without the allocated values keeps them.
  auto kept = update([](nlohmann::json* n) {
    (*n)["spec"].erase("clusterIP");
    (*n)["spec"].erase("clusterIPs");
    (*n)["spec"]["ports"][0].erase("nodePort");
  });
  REQUIRE_MESSAGE(kept.ok(), kept.status().ToString());
  CHECK((**kept)["spec"]["clusterIP"] == ip);
  CHECK((**kept)["spec"]["ports"][0]["nodePort"] == node_port);
  // The cluster IP cannot change.
  auto moved = update([](nlohmann::json* n) {
    (*n)["spec"]["clusterIP"] = "10.0.0.77";
    (*n)["spec"]["clusterIPs"] = {"10.0.0.77"};
  });
  CHECK(moved.status().message() ==
        "Service \"svc\" is invalid: spec.clusterIPs[0]: Invalid value: [\"10.0.0.77\"]: may not change once set");
  // Back to ClusterIP: the node port goes, and another Service may take it.
  auto plain = update([](nlohmann::json* n) { (*n)["spec"]["type"] = "ClusterIP"; });
  REQUIRE_MESSAGE(plain.ok(), plain.status().ToString());
  CHECK_FALSE((**plain)["spec"]["ports"][0].contains("nodePort"));
  CHECK(s.Create("np", {{"type", "NodePort"}, {"ports", {Port(80, node_port)}}}).ok());
  // To ExternalName: the address goes, and another Service may take it.
  auto external = update([](nlohmann::json* n) {
    (*n)["spec"]["type"] = "ExternalName";
    (*n)["spec"]["externalName"] = "example.com";
  });
  REQUIRE_MESSAGE(external.ok(), external.status().ToString());
  CHECK_FALSE((**external)["spec"].contains("clusterIP"));
  CHECK_FALSE((**external)["spec"].contains("ipFamilies"));
  CHECK(s.Create("taker", {{"clusterIP", ip}, {"ports", {Port(80)}}}).ok());
  // And back: a new address.
  auto back = update([](nlohmann::json* n) {
    (*n)["spec"]["type"] = "ClusterIP";
    (*n)["spec"].erase("externalName");
  });
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK((**back)["spec"]["clusterIP"].is_string());
  CHECK((**back)["spec"]["clusterIP"] != ip);
}

TEST_CASE("service allocation: 16 concurrent creators never share an address or a node port") {
  Services s("10.0.0.0/24", 30000, 30500);
  constexpr int kThreads = 16, kEach = 8;
  std::vector<std::thread> threads;
  std::mutex mu;
  std::vector<nlohmann::json> created;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        auto svc = s.Create("s-" + std::to_string(t) + "-" + std::to_string(i), {{"type", "NodePort"}, {"ports", {Port(80)}}});
        if (!svc.ok()) {
          ++failures;
          continue;
        }
        std::lock_guard lock(mu);
        created.push_back(**svc);
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(failures == 0);
  REQUIRE(created.size() == kThreads * kEach);
  std::set<std::string> ips;
  std::set<int> ports;
  for (const auto& svc : created) {
    CHECK(ips.insert(svc["spec"]["clusterIP"].get<std::string>()).second);
    CHECK(ports.insert(svc["spec"]["ports"][0]["nodePort"].get<int>()).second);
  }
}

TEST_CASE("service allocation: what is stored stays allocated across a restart with a data dir") {
  char dir_template[] = "/tmp/svc-alloc-XXXXXX";
  const std::string dir = mkdtemp(dir_template);
  std::string ip;
  int node_port = 0;
  auto open = [&](std::shared_ptr<ServiceAllocationStrategy>* strategy) {
    *strategy = std::make_shared<ServiceAllocationStrategy>("10.0.0.0/29", 30000, 30002);
    registry::RegistryOptions options;
    options.kv.data_dir = dir;
    options.strategies["/services"] = *strategy;
    auto opened = registry::ApiRegistry::Open(options, catalogue::Catalogue::BuiltIn());
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    (*strategy)->SetRegistry(opened->get());
    return std::move(*opened);
  };
  nlohmann::json svc = {{"apiVersion", "v1"}, {"kind", "Service"}, {"metadata", {{"name", "first"}}},
                        {"spec", {{"type", "NodePort"}, {"ports", {Port(80)}}}}};
  {
    std::shared_ptr<ServiceAllocationStrategy> strategy;
    auto registry = open(&strategy);
    auto created = registry->Find("", "v1", "services")->Create("default", svc, {});
    REQUIRE_MESSAGE(created.ok(), created.status().ToString());
    ip = (**created)["spec"]["clusterIP"];
    node_port = (**created)["spec"]["ports"][0]["nodePort"];
  }
  std::shared_ptr<ServiceAllocationStrategy> strategy;
  auto registry = open(&strategy);
  auto store = registry->Find("", "v1", "services");
  svc["metadata"]["name"] = "same";
  svc["spec"]["clusterIP"] = ip;
  auto again = store->Create("default", svc, {});
  CHECK(again.status().message().find("provided IP is already allocated") != std::string::npos);
  svc["metadata"]["name"] = "second";
  svc["spec"].erase("clusterIP");
  auto second = store->Create("default", svc, {});
  REQUIRE_MESSAGE(second.ok(), second.status().ToString());
  CHECK((**second)["spec"]["clusterIP"] != ip);
  CHECK((**second)["spec"]["ports"][0]["nodePort"] != node_port);
  std::filesystem::remove_all(dir);
}

}  // namespace kube::server
