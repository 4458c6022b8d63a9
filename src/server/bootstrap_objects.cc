#include "server/bootstrap_objects.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "server/ip_range.h"

namespace kube::server {

namespace {

using Json = storage::Object;

constexpr const char* kName = "kubernetes";
constexpr const char* kNamespace = "default";

bool Usable(const std::string& ip) {
  if (ip.empty() || IpFamilyOf(ip).empty()) return false;
  in_addr v4{};
  if (inet_pton(AF_INET, ip.c_str(), &v4) == 1) {
    const uint32_t a = ntohl(v4.s_addr);
    return a != 0 && (a >> 24) != 127;
  }
  in6_addr v6{};
  return inet_pton(AF_INET6, ip.c_str(), &v6) == 1 && !IN6_IS_ADDR_UNSPECIFIED(&v6) && !IN6_IS_ADDR_LOOPBACK(&v6);
}

// kube's ChooseHostInterface, simplified: the first non-loopback IPv4 address of an interface
// that is up.
std::string HostAddress() {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return "";
  std::string found;
  for (ifaddrs* i = list; i != nullptr && found.empty(); i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP) ||
        (i->ifa_flags & IFF_LOOPBACK)) {
      continue;
    }
    char buf[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr, buf, sizeof buf);
    if (Usable(buf)) found = buf;
  }
  freeifaddrs(list);
  return found;
}

// Creates `desired` when missing; when it exists and `differs` says so, writes `fix` of it.
Status Ensure(registry::ApiRegistry* registry, const std::string& group, const std::string& resource,
              const std::string& ns, const Json& desired, const std::function<bool(const Json&)>& differs,
              const std::function<void(Json*)>& fix) {
  registry::StorePtr store = registry->Find(group, group.empty() ? "v1" : "v1", resource);
  if (store == nullptr) return Status::OK();  // not served (runtime config)
  const std::string name = desired["metadata"]["name"];
  auto current = store->Get(ns, name, {});
  if (current.status().IsNotFound()) {
    auto created = store->Create(ns, desired, registry::WriteOptions{.field_manager = "kube-apiserver"});
    if (created.ok() || created.status().IsAlreadyExists()) return Status::OK();
    return created.status();
  }
  if (!current.ok()) return current.status();
  if (!differs(**current)) return Status::OK();
  auto updated = store->Update(
      ns, name, "",
      [&](const Json& now) -> Result<Json> {
        Json next = now;
        fix(&next);
        return next;
      },
      registry::WriteOptions{.field_manager = "kube-apiserver"});
  return updated.ok() ? Status::OK() : updated.status();
}

const Json& Member(const Json& obj, const char* key) {
  static const Json kNull;
  if (!obj.is_object()) return kNull;
  auto it = obj.find(key);
  return it == obj.end() ? kNull : *it;
}

}  // namespace

BootstrapObjects::BootstrapObjects(registry::ApiRegistry* registry, BootstrapObjectsOptions options)
    : registry_(registry), options_(std::move(options)) {
  for (const std::string& candidate : {options_.advertise_address, options_.bind_address}) {
    if (Usable(candidate)) {
      address_ = candidate;
      break;
    }
  }
  if (address_.empty()) address_ = HostAddress();
  // No interface at all: the loopback address, which Endpoints validation may refuse (kube
  // fails the same way with a loopback --advertise-address).
  if (address_.empty()) address_ = options_.advertise_address.empty() ? "127.0.0.1" : options_.advertise_address;
}

BootstrapObjects::~BootstrapObjects() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

Status BootstrapObjects::Start() {
  KUBE_RETURN_IF_ERROR(Reconcile());
  thread_ = std::thread([this] {
    std::unique_lock lock(mu_);
    while (!cv_.wait_for(lock, kReconcileInterval, [this] { return stop_; })) {
      lock.unlock();
      if (Status s = Reconcile(); !s.ok()) {
        std::fprintf(stderr, "kube-apiserver-lite: reconciling the kubernetes Service: %s\n", s.ToString().c_str());
      }
      lock.lock();
    }
  });
  return Status::OK();
}

Status BootstrapObjects::Reconcile() {
  KUBE_RETURN_IF_ERROR(EnsurePriorityClasses());
  KUBE_RETURN_IF_ERROR(EnsureService());
  return EnsureEndpoints();
}

Status BootstrapObjects::EnsurePriorityClasses() {
  struct System {
    const char* name;
    int64_t value;
    const char* description;
  };
  for (const System& pc : {System{"system-node-critical", 2000001000,
                                  "Used for system critical pods that must not be moved from their current node."},
                           System{"system-cluster-critical", 2000000000,
                                  "Used for system critical pods that must run in the cluster, but can be moved to "
                                  "another node if necessary."}}) {
    const Json desired = {{"apiVersion", "scheduling.k8s.io/v1"},
                          {"kind", "PriorityClass"},
                          {"metadata", {{"name", pc.name}}},
                          {"value", pc.value},
                          {"description", pc.description}};
    // The value is immutable: kube only creates these and leaves an existing one alone.
    KUBE_RETURN_IF_ERROR(Ensure(registry_, "scheduling.k8s.io", "priorityclasses", "", desired,
                                [](const Json&) { return false; }, [](Json*) {}));
  }
  return Status::OK();
}

Status BootstrapObjects::EnsureService() {
  if (options_.service_ip.empty()) return Status::OK();
  const Json ports = Json::array({{{"name", "https"}, {"port", 443}, {"protocol", "TCP"}, {"targetPort", options_.port}}});
  const Json labels = {{"component", "apiserver"}, {"provider", "kubernetes"}};
  const Json desired = {{"apiVersion", "v1"},
                        {"kind", "Service"},
                        {"metadata", {{"name", kName}, {"namespace", kNamespace}, {"labels", labels}}},
                        {"spec",
                         {{"type", "ClusterIP"},
                          {"clusterIP", options_.service_ip},
                          {"clusterIPs", Json::array({options_.service_ip})},
                          {"ports", ports},
                          {"sessionAffinity", "None"}}}};
  // kube's controller corrects the ports and type, never the cluster IP (immutable).
  return Ensure(
      registry_, "", "services", kNamespace, desired,
      [&](const Json& cur) {
        const Json& spec = Member(cur, "spec");
        const Json& port = Member(spec, "ports").is_array() && spec["ports"].size() == 1 ? spec["ports"][0] : Json();
        return Member(spec, "type") != "ClusterIP" || Member(port, "port") != 443 ||
               Member(port, "name") != "https" || Member(port, "targetPort") != options_.port ||
               Member(port, "protocol") != "TCP";
      },
      [&](Json* next) {
        (*next)["spec"]["type"] = "ClusterIP";
        (*next)["spec"]["ports"] = ports;
      });
}

Status BootstrapObjects::EnsureEndpoints() {
  const Json ports = Json::array({{{"name", "https"}, {"port", options_.port}, {"protocol", "TCP"}}});
  const Json subsets = Json::array({{{"addresses", Json::array({{{"ip", address_}}})}, {"ports", ports}}});
  const Json endpoints = {{"apiVersion", "v1"},
                          {"kind", "Endpoints"},
                          {"metadata",
                           {{"name", kName},
                            {"namespace", kNamespace},
                            {"labels", {{"endpointslice.kubernetes.io/skip-mirror", "true"}}}}},
                          {"subsets", subsets}};
  KUBE_RETURN_IF_ERROR(Ensure(
      registry_, "", "endpoints", kNamespace, endpoints,
      [&](const Json& cur) { return Member(cur, "subsets") != subsets; },
      [&](Json* next) { (*next)["subsets"] = subsets; }));
  const Json slice_endpoints = Json::array({{{"addresses", Json::array({address_})}, {"conditions", {{"ready", true}}}}});
  const Json slice = {{"apiVersion", "discovery.k8s.io/v1"},
                      {"kind", "EndpointSlice"},
                      {"metadata",
                       {{"name", kName}, {"namespace", kNamespace}, {"labels", {{"kubernetes.io/service-name", kName}}}}},
                      {"addressType", IpFamilyOf(address_) == "IPv6" ? "IPv6" : "IPv4"},
                      {"endpoints", slice_endpoints},
                      {"ports", ports}};
  return Ensure(
      registry_, "discovery.k8s.io", "endpointslices", kNamespace, slice,
      [&](const Json& cur) {
        return Member(cur, "endpoints") != slice_endpoints || Member(cur, "ports") != ports ||
               Member(cur, "addressType") != slice["addressType"];
      },
      [&](Json* next) {
        (*next)["endpoints"] = slice_endpoints;
        (*next)["ports"] = ports;
        (*next)["addressType"] = slice["addressType"];
      });
}

}  // namespace kube::server
