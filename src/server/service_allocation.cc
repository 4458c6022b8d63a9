#include "server/service_allocation.h"

#include <arpa/inet.h>

#include <random>

namespace kube::server {

namespace {

using Json = storage::Object;

std::optional<uint32_t> ParseIpv4(const std::string& s) {
  in_addr a{};
  if (inet_pton(AF_INET, s.c_str(), &a) != 1) return std::nullopt;
  return ntohl(a.s_addr);
}

std::string FormatIpv4(uint32_t ip) {
  in_addr a{htonl(ip)};
  char buf[INET_ADDRSTRLEN];
  inet_ntop(AF_INET, &a, buf, sizeof buf);
  return buf;
}

std::string TypeOf(const Json& obj) {
  const auto spec = obj.find("spec");
  if (spec == obj.end() || !spec->is_object()) return "ClusterIP";
  return spec->value("type", "ClusterIP");
}

bool WantsNodePorts(const std::string& type) { return type == "NodePort" || type == "LoadBalancer"; }

constexpr auto kRecent = std::chrono::seconds(60);

}  // namespace

ServiceAllocationStrategy::ServiceAllocationStrategy(const std::string& cidrs, int node_port_min, int node_port_max)
    : port_min_(node_port_min), port_max_(node_port_max) {
  cidr_ = cidrs.substr(0, cidrs.find(','));
  const size_t slash = cidr_.find('/');
  auto base = ParseIpv4(cidr_.substr(0, slash));
  if (!base || slash == std::string::npos) return;
  const int bits = std::stoi(cidr_.substr(slash + 1));
  const uint32_t mask = bits == 0 ? 0 : ~uint32_t{0} << (32 - bits);
  const uint32_t network = *base & mask;
  const uint32_t broadcast = network | ~mask;
  if (broadcast - network < 3) return;  // too small to hand anything out
  ipv4_ = true;
  first_ = network + 2;  // network address and the kubernetes Service's first address excluded
  last_ = broadcast - 1;
}

ServiceAllocationStrategy::InUse ServiceAllocationStrategy::Used(const std::string& skip_uid) const {
  InUse used;
  registry::ApiRegistry* registry = registry_.load();
  registry::StorePtr services = registry ? registry->Find("", "v1", "services") : nullptr;
  if (services == nullptr) return used;
  auto list = services->List("", storage::ListOptions{});
  if (!list.ok()) return used;
  for (const auto& item : list->items) {
    const Json& svc = *item;
    if (!skip_uid.empty() && svc.contains("metadata") && svc["metadata"].value("uid", "") == skip_uid) continue;
    const auto spec = svc.find("spec");
    if (spec == svc.end() || !spec->is_object()) continue;
    if (auto ip = ParseIpv4(spec->value("clusterIP", ""))) used.ips.insert(*ip);
    if (const auto ports = spec->find("ports"); ports != spec->end() && ports->is_array()) {
      for (const auto& p : *ports) {
        if (p.is_object() && p.contains("nodePort") && p["nodePort"].is_number_integer()) {
          used.ports.insert(p["nodePort"].get<int>());
        }
      }
    }
  }
  return used;
}

void ServiceAllocationStrategy::PruneRecentLocked() const {
  const auto now = std::chrono::steady_clock::now();
  std::erase_if(recent_ips_, [&](const auto& e) { return now - e.second > kRecent; });
  std::erase_if(recent_ports_, [&](const auto& e) { return now - e.second > kRecent; });
}

void ServiceAllocationStrategy::PrepareForCreate(storage::Object* obj) const {
  Json& spec = (*obj)["spec"];
  if (!spec.is_object()) return;
  const std::string type = TypeOf(*obj);
  const bool wants_ip = type != "ExternalName" && spec.value("clusterIP", "").empty() && ipv4_;
  bool wants_port = false;
  if (WantsNodePorts(type) && spec.contains("ports") && spec["ports"].is_array()) {
    for (const auto& p : spec["ports"]) {
      if (p.is_object() && (!p.contains("nodePort") || p["nodePort"] == 0)) wants_port = true;
    }
  }
  if (!wants_ip && !wants_port) return;
  std::lock_guard lock(mu_);
  PruneRecentLocked();
  InUse used = Used("");
  const auto now = std::chrono::steady_clock::now();
  thread_local std::mt19937 rng{std::random_device{}()};
  if (wants_ip) {
    // A random free address, as kube's allocator picks; a full range leaves none (Validate says so).
    const uint32_t size = last_ - first_ + 1;
    const uint32_t start = std::uniform_int_distribution<uint32_t>(0, size - 1)(rng);
    for (uint32_t i = 0; i < size; ++i) {
      const uint32_t ip = first_ + (start + i) % size;
      if (used.ips.count(ip) || recent_ips_.count(ip)) continue;
      recent_ips_[ip] = now;
      spec["clusterIP"] = FormatIpv4(ip);
      spec["clusterIPs"] = Json::array({FormatIpv4(ip)});
      break;
    }
  }
  if (wants_port) {
    const int size = port_max_ - port_min_ + 1;
    for (auto& p : spec["ports"]) {
      if (!p.is_object() || (p.contains("nodePort") && p["nodePort"] != 0)) continue;
      const int start = std::uniform_int_distribution<int>(0, size - 1)(rng);
      for (int i = 0; i < size; ++i) {
        const int port = port_min_ + (start + i) % size;
        if (used.ports.count(port) || recent_ports_.count(port)) continue;
        recent_ports_[port] = now;
        used.ports.insert(port);
        p["nodePort"] = port;
        break;
      }
    }
  }
}

FieldErrors ServiceAllocationStrategy::Validate(const storage::Object& obj) const {
  FieldErrors errors;
  const auto spec = obj.find("spec");
  if (spec == obj.end() || !spec->is_object()) return errors;
  const std::string type = TypeOf(obj);
  const std::string uid = obj.contains("metadata") ? obj["metadata"].value("uid", "") : "";
  std::optional<InUse> used;
  auto in_use = [&]() -> const InUse& {
    if (!used) used = Used(uid);
    return *used;
  };
  const std::string ip_text = spec->value("clusterIP", "");
  if (type != "ExternalName" && ip_text.empty() && ipv4_) {
    errors.push_back({FieldError::Type::kInternal, "spec.clusterIPs", "",
                      "failed to allocate a serviceIP: range is full"});
  } else if (auto ip = ParseIpv4(ip_text); ip && ipv4_ && ip_text != "None") {
    const std::string prefix = "failed to allocate IP " + ip_text + ": ";
    if (*ip < first_ - 1 || *ip > last_) {
      errors.push_back({FieldError::Type::kInvalid, "spec.clusterIPs[0]", registry::GoQuote(ip_text),
                        prefix + "the provided IP (" + ip_text + ") is not in the valid range. The range of valid IPs is " + cidr_});
    } else if (in_use().ips.count(*ip)) {
      errors.push_back({FieldError::Type::kInvalid, "spec.clusterIPs[0]", registry::GoQuote(ip_text),
                        prefix + "provided IP is already allocated"});
    }
  }
  if (WantsNodePorts(type)) {
    if (const auto ports = spec->find("ports"); ports != spec->end() && ports->is_array()) {
      for (size_t i = 0; i < ports->size(); ++i) {
        const Json& p = (*ports)[i];
        if (!p.is_object() || !p.contains("nodePort") || !p["nodePort"].is_number_integer()) continue;
        const int port = p["nodePort"].get<int>();
        const std::string field = "spec.ports[" + std::to_string(i) + "].nodePort";
        if (port == 0) {
          errors.push_back({FieldError::Type::kInternal, field, "", "failed to allocate a nodePort: range is full"});
        } else if (port < port_min_ || port > port_max_) {
          errors.push_back({FieldError::Type::kInvalid, field, std::to_string(port),
                            "provided port is not in the valid range. The range of valid ports is " +
                                std::to_string(port_min_) + "-" + std::to_string(port_max_)});
        } else if (in_use().ports.count(port)) {
          errors.push_back({FieldError::Type::kInvalid, field, std::to_string(port), "provided port is already allocated"});
        }
      }
    }
  }
  return errors;
}

}  // namespace kube::server
