#include "server/service_allocation.h"

#include <random>

namespace kube::server {

namespace {

using Json = storage::Object;

// A reservation whose Service never got stored (a refused or dry-run create) lapses after this.
constexpr auto kReservationLifetime = std::chrono::seconds(60);

const Json& Member(const Json& obj, const char* key) {
  static const Json kNull;
  if (!obj.is_object()) return kNull;
  auto it = obj.find(key);
  return it == obj.end() ? kNull : *it;
}

std::string Str(const Json& obj, const char* key) {
  const Json& v = Member(obj, key);
  return v.is_string() ? v.get<std::string>() : "";
}

std::string UidOf(const Json& obj) { return Str(Member(obj, "metadata"), "uid"); }

std::string TypeOf(const Json& spec) {
  const std::string t = Str(spec, "type");
  return t.empty() ? "ClusterIP" : t;
}

// kube's needsClusterIP / needsNodePort / needsHCNodePort.
bool NeedsClusterIp(const Json& spec) { return TypeOf(spec) != "ExternalName"; }
bool NeedsNodePorts(const Json& spec) {
  const std::string t = TypeOf(spec);
  if (t == "NodePort") return true;
  return t == "LoadBalancer" && Member(spec, "allocateLoadBalancerNodePorts") != Json(false);
}
bool NeedsHealthCheckPort(const Json& spec) {
  return TypeOf(spec) == "LoadBalancer" && Str(spec, "externalTrafficPolicy") == "Local";
}

int NodePortOf(const Json& port) {
  const Json& v = Member(port, "nodePort");
  return v.is_number_integer() ? v.get<int>() : 0;
}

std::vector<std::string> Strings(const Json& v) {
  std::vector<std::string> out;
  if (!v.is_array()) return out;
  for (const auto& s : v) out.push_back(s.is_string() ? s.get<std::string>() : "");
  return out;
}

// A []string as kube's field errors print a non-scalar value: JSON (json.Marshal).
std::string JsonStrings(const std::vector<std::string>& v) { return Json(v).dump(); }

bool Headless(const Json& spec) { return Str(spec, "clusterIP") == "None"; }

std::mt19937_64& Rng() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  return rng;
}

}  // namespace

ServiceAllocationStrategy::ServiceAllocationStrategy(const std::string& cidrs, int node_port_min, int node_port_max)
    : port_min_(node_port_min), port_max_(node_port_max) {
  size_t start = 0;
  while (start <= cidrs.size()) {
    const size_t comma = cidrs.find(',', start);
    const std::string one = cidrs.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (auto range = IpRange::Parse(one); range && range->LastDynamic() >= range->FirstDynamic()) {
      // A second range counts only when it is of the other family (the flag's rule).
      if (ranges_.empty() || (ranges_.size() == 1 && ranges_[0].ipv6() != range->ipv6())) ranges_.push_back(*range);
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
}

std::string ServiceAllocationStrategy::KubernetesServiceIp() const {
  return ranges_.empty() ? "" : ranges_[0].First();
}

const IpRange* ServiceAllocationStrategy::RangeFor(const std::string& family) const {
  for (const auto& r : ranges_) {
    if (r.family() == family) return &r;
  }
  return nullptr;
}

ServiceAllocationStrategy::InUse ServiceAllocationStrategy::UsedLocked(const std::string& skip_uid) const {
  InUse used;
  // What each stored Service holds, by uid: a reservation it holds is no longer needed.
  std::set<std::pair<std::string, std::string>> stored_ips;
  std::set<std::pair<std::string, int>> stored_ports;
  registry::ApiRegistry* registry = registry_.load();
  registry::StorePtr services = registry ? registry->Find("", "v1", "services") : nullptr;
  if (services != nullptr) {
    if (auto list = services->List("", storage::ListOptions{}); list.ok()) {
      for (const auto& item : list->items) {
        const std::string uid = UidOf(*item);
        const bool skipped = !skip_uid.empty() && uid == skip_uid;
        const Json& spec = Member(*item, "spec");
        auto add_ip = [&](const std::string& ip) {
          const std::string c = CanonicalIp(ip);
          if (c.empty()) return;
          stored_ips.emplace(uid, c);
          if (!skipped) used.ips.insert(c);
        };
        auto add_port = [&](int port) {
          if (port == 0) return;
          stored_ports.emplace(uid, port);
          if (!skipped) used.ports.insert(port);
        };
        for (const auto& ip : Strings(Member(spec, "clusterIPs"))) add_ip(ip);
        add_ip(Str(spec, "clusterIP"));
        const Json& ports = Member(spec, "ports");
        for (const auto& p : ports.is_array() ? ports : Json::array()) add_port(NodePortOf(p));
        const Json& hc = Member(spec, "healthCheckNodePort");
        if (hc.is_number_integer()) add_port(hc.get<int>());
      }
    }
  }
  // A stored Service speaks for itself; a reservation of another not stored yet still holds.
  const auto now = std::chrono::steady_clock::now();
  std::erase_if(recent_ips_, [&](const auto& e) {
    return stored_ips.count({e.second.uid, e.first}) || now - e.second.when > kReservationLifetime;
  });
  std::erase_if(recent_ports_, [&](const auto& e) {
    return stored_ports.count({e.second.uid, e.first}) || now - e.second.when > kReservationLifetime;
  });
  for (const auto& [ip, r] : recent_ips_) {
    if (r.uid != skip_uid) used.ips.insert(ip);
  }
  for (const auto& [port, r] : recent_ports_) {
    if (r.uid != skip_uid) used.ports.insert(port);
  }
  return used;
}

void ServiceAllocationStrategy::SettleFamilies(Json* spec) const {
  if (ranges_.empty()) return;
  std::vector<std::string> families = Strings(Member(*spec, "ipFamilies"));
  const std::vector<std::string> ips = Strings(Member(*spec, "clusterIPs"));
  const bool asked_ips = !ips.empty() && !ips[0].empty() && ips[0] != "None";
  // Defaulting filled in ["IPv4"] for a Service that named no family: on a cluster whose primary
  // range is IPv6 that stands for "the primary family".
  if (families == std::vector<std::string>{"IPv4"} && !asked_ips && ranges_[0].ipv6()) families.clear();
  if (families.empty()) families.push_back(asked_ips && !IpFamilyOf(ips[0]).empty() ? IpFamilyOf(ips[0]) : ranges_[0].family());
  const std::string policy = Str(*spec, "ipFamilyPolicy");
  if ((policy == "PreferDualStack" || policy == "RequireDualStack") && ranges_.size() == 2 && families.size() == 1) {
    families.push_back(families[0] == "IPv4" ? "IPv6" : "IPv4");
  }
  (*spec)["ipFamilies"] = families;
}

void ServiceAllocationStrategy::AllocateLocked(Json* spec, const std::string& uid, InUse* used) const {
  const auto now = std::chrono::steady_clock::now();
  if (NeedsClusterIp(*spec) && !Headless(*spec)) {
    std::vector<std::string> ips = Strings(Member(*spec, "clusterIPs"));
    if (ips.empty() && !Str(*spec, "clusterIP").empty()) ips.push_back(Str(*spec, "clusterIP"));
    const std::vector<std::string> families = Strings(Member(*spec, "ipFamilies"));
    for (size_t i = 0; i < families.size(); ++i) {
      if (i < ips.size() && !ips[i].empty()) continue;
      const IpRange* range = RangeFor(families[i]);
      if (range == nullptr) break;  // Validate says the family is not configured
      // A random free address, as kube's allocator picks; a full range leaves none (Validate says so).
      const Uint128 span = range->LastDynamic() - range->FirstDynamic() + 1;
      const uint64_t tries = span > Uint128{1} << 20 ? uint64_t{1} << 20 : static_cast<uint64_t>(span);
      const Uint128 start = Rng()() % span;
      std::string chosen;
      for (uint64_t k = 0; k < tries && chosen.empty(); ++k) {
        const std::string ip = range->At(range->FirstDynamic() + (start + k) % span);
        if (!used->ips.count(ip)) chosen = ip;
      }
      if (chosen.empty()) break;
      used->ips.insert(chosen);
      recent_ips_[chosen] = {now, uid};
      if (i < ips.size()) {
        ips[i] = chosen;
      } else {
        ips.push_back(chosen);
      }
    }
    if (!ips.empty() && !ips[0].empty()) {
      (*spec)["clusterIPs"] = ips;
      (*spec)["clusterIP"] = ips[0];
    }
  }
  auto free_port = [&]() -> int {
    const int size = port_max_ - port_min_ + 1;
    if (size <= 0) return 0;
    const int start = static_cast<int>(Rng()() % size);
    for (int i = 0; i < size; ++i) {
      const int port = port_min_ + (start + i) % size;
      if (used->ports.count(port)) continue;
      used->ports.insert(port);
      recent_ports_[port] = {now, uid};
      return port;
    }
    return 0;
  };
  if (NeedsNodePorts(*spec) && Member(*spec, "ports").is_array()) {
    // Ports of one number (TCP and UDP of 53) share a node port, as kube hands them out.
    std::map<int64_t, int> by_number;
    for (const auto& p : (*spec)["ports"]) {
      if (NodePortOf(p) != 0 && Member(p, "port").is_number_integer()) by_number.emplace(p["port"].get<int64_t>(), NodePortOf(p));
    }
    for (auto& p : (*spec)["ports"]) {
      if (!p.is_object() || NodePortOf(p) != 0) continue;
      const int64_t number = Member(p, "port").is_number_integer() ? p["port"].get<int64_t>() : -1;
      auto it = by_number.find(number);
      p["nodePort"] = it != by_number.end() ? it->second : free_port();
      by_number.emplace(number, NodePortOf(p));
    }
  }
  if (NeedsHealthCheckPort(*spec)) {
    const Json& hc = Member(*spec, "healthCheckNodePort");
    if (!hc.is_number_integer() || hc.get<int>() == 0) (*spec)["healthCheckNodePort"] = free_port();
  }
}

void ServiceAllocationStrategy::PrepareForCreate(Json* obj) const {
  Json& spec = (*obj)["spec"];
  if (!spec.is_object() || !NeedsClusterIp(spec)) return;
  SettleFamilies(&spec);
  if (Headless(spec)) {
    spec["clusterIPs"] = Json::array({"None"});
    return;
  }
  std::lock_guard lock(mu_);
  const std::string uid = UidOf(*obj);
  InUse used = UsedLocked(uid);
  AllocateLocked(&spec, uid, &used);
}

void ServiceAllocationStrategy::PrepareForUpdate(std::string_view subresource, Json* next, const Json& current) const {
  if (!subresource.empty()) return;
  Json& spec = (*next)["spec"];
  const Json& old = Member(current, "spec");
  if (!spec.is_object() || !old.is_object()) return;
  // What the client left out of an update stays allocated (kube's patchAllocatedValues).
  if (NeedsClusterIp(old) && NeedsClusterIp(spec)) {
    const bool kept = Str(spec, "clusterIP").empty() && Strings(Member(spec, "clusterIPs")).empty();
    if (Str(spec, "clusterIP").empty()) spec["clusterIP"] = Member(old, "clusterIP");
    if (Strings(Member(spec, "clusterIPs")).empty() && Member(old, "clusterIPs").is_array()) {
      spec["clusterIPs"] = old["clusterIPs"];
    }
    // ... with the families they were allocated for (defaulting knows only ["IPv4"]).
    if (kept && Member(old, "ipFamilies").is_array() && Strings(Member(spec, "ipFamilies")) == std::vector<std::string>{"IPv4"}) {
      spec["ipFamilies"] = old["ipFamilies"];
    }
    if (spec["clusterIP"].is_null()) spec.erase("clusterIP");
  }
  if (NeedsNodePorts(old) && NeedsNodePorts(spec) && Member(spec, "ports").is_array() && Member(old, "ports").is_array()) {
    std::map<std::string, int> by_name;
    for (const auto& p : old["ports"]) by_name[Str(p, "name")] = NodePortOf(p);
    std::set<int> in_new;
    for (const auto& p : spec["ports"]) in_new.insert(NodePortOf(p));
    for (auto& p : spec["ports"]) {
      if (!p.is_object() || NodePortOf(p) != 0) continue;
      auto it = by_name.find(Str(p, "name"));
      if (it != by_name.end() && it->second != 0 && !in_new.count(it->second)) p["nodePort"] = it->second;
    }
  }
  if (NeedsHealthCheckPort(old) && NeedsHealthCheckPort(spec) && !Member(spec, "healthCheckNodePort").is_number_integer()) {
    spec["healthCheckNodePort"] = Member(old, "healthCheckNodePort");
  }
  // A type change drops what the new type cannot use, unless the client changed it itself.
  if (NeedsClusterIp(old) && !NeedsClusterIp(spec)) {
    if (Member(spec, "clusterIPs") == Member(old, "clusterIPs") || Member(spec, "clusterIPs").is_null()) {
      spec.erase("clusterIP");
      spec.erase("clusterIPs");
    }
    if (Member(spec, "ipFamilies") == Member(old, "ipFamilies")) spec.erase("ipFamilies");
    if (Member(spec, "ipFamilyPolicy") == Member(old, "ipFamilyPolicy")) spec.erase("ipFamilyPolicy");
  }
  if (NeedsNodePorts(old) && !NeedsNodePorts(spec) && Member(spec, "ports").is_array() && Member(old, "ports").is_array()) {
    bool same = spec["ports"].size() == old["ports"].size();
    for (size_t i = 0; same && i < spec["ports"].size(); ++i) same = NodePortOf(spec["ports"][i]) == NodePortOf(old["ports"][i]);
    if (same) {
      for (auto& p : spec["ports"]) {
        if (p.is_object()) p.erase("nodePort");
      }
    }
  }
  if (NeedsHealthCheckPort(old) && !NeedsHealthCheckPort(spec) &&
      Member(spec, "healthCheckNodePort") == Member(old, "healthCheckNodePort")) {
    spec.erase("healthCheckNodePort");
  }
  const std::string type = TypeOf(spec);
  const bool external = type == "NodePort" || type == "LoadBalancer" ||
                        (type == "ClusterIP" && Member(spec, "externalIPs").is_array() && !spec["externalIPs"].empty());
  if (!external && Member(spec, "externalTrafficPolicy") == Member(old, "externalTrafficPolicy")) {
    spec.erase("externalTrafficPolicy");
  }
  if (type != "LoadBalancer") {
    for (const char* f : {"allocateLoadBalancerNodePorts", "loadBalancerClass"}) {
      if (Member(spec, f) == Member(old, f)) spec.erase(f);
    }
  }
  if (!NeedsClusterIp(spec)) {
    if (!NeedsNodePorts(spec) && !NeedsHealthCheckPort(spec)) return;
  } else if (!Headless(spec)) {
    SettleFamilies(&spec);
  }
  std::lock_guard lock(mu_);
  const std::string uid = UidOf(current);
  InUse used = UsedLocked(uid);
  AllocateLocked(&spec, uid, &used);
}

FieldErrors ServiceAllocationStrategy::Check(const Json& obj) const {
  FieldErrors errors;
  const Json& spec = Member(obj, "spec");
  if (!spec.is_object()) return errors;
  const std::string uid = UidOf(obj);
  std::lock_guard lock(mu_);
  std::optional<InUse> used;
  auto in_use = [&]() -> const InUse& {
    if (!used) used = UsedLocked(uid);
    return *used;
  };
  if (NeedsClusterIp(spec) && !ranges_.empty() && !Headless(spec)) {
    if (Str(spec, "ipFamilyPolicy") == "RequireDualStack" && ranges_.size() < 2) {
      errors.push_back({FieldError::Type::kInvalid, "spec.ipFamilyPolicy", registry::GoQuote("RequireDualStack"),
                        "this cluster is not configured for dual-stack services"});
    }
    const std::vector<std::string> families = Strings(Member(spec, "ipFamilies"));
    for (size_t i = 0; i < families.size(); ++i) {
      if (RangeFor(families[i]) == nullptr) {
        errors.push_back({FieldError::Type::kInvalid, "spec.ipFamilies[" + std::to_string(i) + "]",
                          registry::GoQuote(families[i]), "not configured on this cluster"});
      }
    }
    const std::vector<std::string> ips = Strings(Member(spec, "clusterIPs"));
    if (ips.size() < families.size() && errors.empty()) {
      errors.push_back({FieldError::Type::kInternal, "spec.clusterIPs", "", "failed to allocate a serviceIP: range is full"});
    }
    for (size_t i = 0; i < ips.size(); ++i) {
      const std::string ip = CanonicalIp(ips[i]);
      if (ip.empty()) continue;  // not an address: kube's Service validation says so
      const IpRange* range = RangeFor(IpFamilyOf(ip));
      const std::string field = "spec.clusterIPs[" + std::to_string(i) + "]";
      const std::string prefix = "failed to allocate IP " + ips[i] + ": ";
      if (range == nullptr) {
        errors.push_back({FieldError::Type::kInvalid, field, JsonStrings(ips), IpFamilyOf(ip) + " is not configured on this cluster"});
        continue;
      }
      if (!range->Contains(ip)) {
        errors.push_back({FieldError::Type::kInvalid, "spec.clusterIPs", JsonStrings(ips),
                          prefix + "the provided IP (" + ips[i] + ") is not in the valid range. The range of valid IPs is " +
                              range->cidr()});
      } else if (in_use().ips.count(ip)) {
        errors.push_back({FieldError::Type::kInvalid, "spec.clusterIPs", JsonStrings(ips), prefix + "provided IP is already allocated"});
      }
    }
  }
  auto check_port = [&](int port, const std::string& field) {
    if (port == 0) {
      errors.push_back({FieldError::Type::kInternal, field, "", "failed to allocate a nodePort: range is full"});
    } else if (port < port_min_ || port > port_max_) {
      errors.push_back({FieldError::Type::kInvalid, field, std::to_string(port),
                        "provided port is not in the valid range. The range of valid ports is " +
                            std::to_string(port_min_) + "-" + std::to_string(port_max_)});
    } else if (in_use().ports.count(port)) {
      errors.push_back({FieldError::Type::kInvalid, field, std::to_string(port), "provided port is already allocated"});
    }
  };
  if (NeedsNodePorts(spec) || TypeOf(spec) == "LoadBalancer") {
    const Json& ports = Member(spec, "ports");
    std::set<int> seen;
    for (size_t i = 0; ports.is_array() && i < ports.size(); ++i) {
      const Json& p = ports[i];
      if (!p.is_object() || (!NeedsNodePorts(spec) && NodePortOf(p) == 0)) continue;
      if (!p.contains("nodePort") || !p["nodePort"].is_number_integer()) continue;
      // One Service may use a port twice (TCP and UDP of the same number).
      if (!seen.insert(NodePortOf(p)).second) continue;
      check_port(NodePortOf(p), "spec.ports[" + std::to_string(i) + "].nodePort");
    }
  }
  if (NeedsHealthCheckPort(spec) && Member(spec, "healthCheckNodePort").is_number_integer()) {
    check_port(spec["healthCheckNodePort"].get<int>(), "spec.healthCheckNodePort");
  }
  return errors;
}

std::vector<std::string> ServiceAllocationStrategy::FinalizersOnDelete(const Json& obj) const {
  // What the Service was handed out goes back with it, even if no create since has seen it stored.
  const std::string uid = UidOf(obj);
  std::lock_guard lock(mu_);
  std::erase_if(recent_ips_, [&](const auto& e) { return e.second.uid == uid; });
  std::erase_if(recent_ports_, [&](const auto& e) { return e.second.uid == uid; });
  return {};
}

FieldErrors ServiceAllocationStrategy::Validate(const Json& obj) const { return Check(obj); }

FieldErrors ServiceAllocationStrategy::ValidateUpdate(std::string_view subresource, const Json& obj,
                                                      const Json& old, std::vector<std::string>*) const {
  if (!subresource.empty()) return {};
  FieldErrors errors;
  const Json& spec = Member(obj, "spec");
  const Json& old_spec = Member(old, "spec");
  if (NeedsClusterIp(spec) && NeedsClusterIp(old_spec)) {
    const std::vector<std::string> ips = Strings(Member(spec, "clusterIPs"));
    const std::vector<std::string> old_ips = Strings(Member(old_spec, "clusterIPs"));
    if (!ips.empty() && !old_ips.empty() && ips[0] != old_ips[0]) {
      errors.push_back({FieldError::Type::kInvalid, "spec.clusterIPs[0]", JsonStrings(ips), "may not change once set"});
      return errors;
    }
  }
  return Check(obj);
}

}  // namespace kube::server
