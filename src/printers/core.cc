// Printers for core/v1 resources: services, endpoints, nodes, namespaces, configmaps, secrets
// and serviceaccounts.

#include <set>

#include "printers/internal.h"

namespace kube::printers::internal {

namespace {

std::string ServiceExternalIP(const Json& svc, const std::string& type) {
  const std::vector<std::string> external = Strings(Path(&svc, {"spec", "externalIPs"}));
  if (type == "ClusterIP" || type == "NodePort") {
    return external.empty() ? "<none>" : Join(external, ",");
  }
  if (type == "LoadBalancer") {
    const std::string lb = LoadBalancerIngress(Field(&svc, "status"));
    if (!external.empty()) {
      std::vector<std::string> all;
      if (!lb.empty()) all = Split(lb, ',');
      all.insert(all.end(), external.begin(), external.end());
      return Join(all, ",");
    }
    return lb.empty() ? "<pending>" : lb;
  }
  if (type == "ExternalName") return Str(Path(&svc, {"spec", "externalName"}));
  return "<unknown>";
}

std::string ServicePorts(const Json& svc) {
  std::vector<std::string> pieces;
  for (const Json& p : Array(Path(&svc, {"spec", "ports"}))) {
    std::string protocol = Str(Field(&p, "protocol"));
    if (protocol.empty()) protocol = "TCP";  // v1 default
    const int64_t port = Int32(Field(&p, "port"));
    const int64_t node_port = Int32(Field(&p, "nodePort"));
    if (node_port > 0) {
      pieces.push_back(std::to_string(port) + ":" + std::to_string(node_port) + "/" + protocol);
    } else {
      pieces.push_back(std::to_string(port) + "/" + protocol);
    }
  }
  return OrNone(Join(pieces, ","));
}

std::string FormatEndpoints(const Json& ep) {
  const Json& subsets = Array(Field(&ep, "subsets"));
  if (subsets.empty()) return "<none>";
  constexpr size_t kMax = 3;
  std::vector<std::string> list;
  bool more = false;
  size_t count = 0;
  for (const Json& ss : subsets) {
    const Json& addresses = Array(Field(&ss, "addresses"));
    const Json& ports = Array(Field(&ss, "ports"));
    if (ports.empty()) {
      // Headless services may have no ports.
      count += addresses.size();
      for (const Json& a : addresses) {
        if (list.size() == kMax) {
          more = true;
          break;
        }
        list.push_back(Str(Field(&a, "ip")));
      }
      continue;
    }
    for (const Json& port : ports) {
      count += addresses.size();
      for (const Json& a : addresses) {
        if (list.size() == kMax) {
          more = true;
          break;
        }
        list.push_back(JoinHostPort(Str(Field(&a, "ip")), Int32(Field(&port, "port"))));
      }
    }
  }
  std::string ret = Join(list, ",");
  if (more) return ret + " + " + std::to_string(count - kMax) + " more...";
  return ret;
}

std::string NodeAddress(const Json& node, std::string_view type) {
  for (const Json& a : Array(Path(&node, {"status", "addresses"}))) {
    if (Str(Field(&a, "type")) == type) return Str(Field(&a, "address"));
  }
  return "<none>";
}

std::string NodeRoles(const Json& node) {
  constexpr std::string_view kRolePrefix = "node-role.kubernetes.io/";
  std::set<std::string> roles;
  const Json* labels = Path(&node, {"metadata", "labels"});
  if (IsObject(labels)) {
    for (auto it = labels->begin(); it != labels->end(); ++it) {
      const std::string& k = it.key();
      if (k.rfind(kRolePrefix, 0) == 0) {
        if (k.size() > kRolePrefix.size()) roles.insert(k.substr(kRolePrefix.size()));
      } else if (k == "kubernetes.io/role") {
        const std::string v = Str(&it.value());
        if (!v.empty()) roles.insert(v);
      }
    }
  }
  return OrNone(Join({roles.begin(), roles.end()}, ","));
}

std::string OrUnknown(std::string s) {
  return s.empty() ? "<unknown>" : s;
}

}  // namespace

const std::vector<Column>& ServiceColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Type", "string", "", "How the service is exposed.", 0},
      {"Cluster-IP", "string", "", "The IP address of the service.", 0},
      {"External-IP", "string", "", "External IPs the service is reachable on.", 0},
      {"Port(s)", "string", "", "The ports the service exposes.", 0},
      AgeColumn(),
      {"Selector", "string", "", "Labels of the pods the service routes to.", 1},
  };
  return kColumns;
}

Cells ServiceCells(const Json& svc, TimePoint now) {
  std::string type = Str(Path(&svc, {"spec", "type"}));
  if (type.empty()) type = "ClusterIP";  // v1 default
  // v1 -> internal conversion makes spec.clusterIP authoritative over clusterIPs[0].
  std::string cluster_ip = Str(Path(&svc, {"spec", "clusterIP"}));
  if (cluster_ip.empty()) {
    const Json& ips = Array(Path(&svc, {"spec", "clusterIPs"}));
    if (!ips.empty()) cluster_ip = Str(&ips[0]);
  }
  return {
      Name(svc),
      type,
      OrNone(cluster_ip),
      ServiceExternalIP(svc, type),
      ServicePorts(svc),
      Age(svc, now),
      FormatLabels(Path(&svc, {"spec", "selector"})),
  };
}

const std::vector<Column>& EndpointsColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Endpoints", "string", "", "Addresses (and ports) of the endpoints.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells EndpointsCells(const Json& ep, TimePoint now) {
  return {Name(ep), FormatEndpoints(ep), Age(ep, now)};
}

const std::vector<Column>& NodeColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Status", "string", "", "The status of the node", 0},
      {"Roles", "string", "", "The roles of the node", 0},
      AgeColumn(),
      {"Version", "string", "", "Kubelet version reported by the node.", 0},
      {"Internal-IP", "string", "", "First internal IP address of the node.", 1},
      {"External-IP", "string", "", "First external IP address of the node.", 1},
      {"OS-Image", "string", "", "OS image reported by the node.", 1},
      {"Kernel-Version", "string", "", "Kernel version reported by the node.", 1},
      {"Container-Runtime", "string", "", "Container runtime version reported by the node.", 1},
  };
  return kColumns;
}

Cells NodeCells(const Json& node, TimePoint now) {
  // Only the Ready condition is shown; a later duplicate overrides an earlier one, as the map
  // kube builds does.
  const Json* ready = nullptr;
  for (const Json& c : Array(Path(&node, {"status", "conditions"}))) {
    if (Str(Field(&c, "type")) == "Ready") ready = &c;
  }
  std::string status = "Unknown";
  if (ready != nullptr) status = Str(Field(ready, "status")) == "True" ? "Ready" : "NotReady";
  if (Bool(Path(&node, {"spec", "unschedulable"}))) status += ",SchedulingDisabled";
  const Json* info = Path(&node, {"status", "nodeInfo"});
  return {
      Name(node),
      status,
      NodeRoles(node),
      Age(node, now),
      Str(Field(info, "kubeletVersion")),
      NodeAddress(node, "InternalIP"),
      NodeAddress(node, "ExternalIP"),
      OrUnknown(Str(Field(info, "osImage"))),
      OrUnknown(Str(Field(info, "kernelVersion"))),
      OrUnknown(Str(Field(info, "containerRuntimeVersion"))),
  };
}

const std::vector<Column>& NamespaceColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Status", "string", "", "The status of the namespace", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells NamespaceCells(const Json& ns, TimePoint now) {
  std::string phase = Str(Path(&ns, {"status", "phase"}));
  if (phase.empty()) phase = "Active";  // v1 default
  return {Name(ns), phase, Age(ns, now)};
}

const std::vector<Column>& ConfigMapColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Data", "string", "", "Number of keys in data and binaryData.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells ConfigMapCells(const Json& cm, TimePoint now) {
  const size_t n = ObjectSize(Field(&cm, "data")) + ObjectSize(Field(&cm, "binaryData"));
  return {Name(cm), static_cast<int64_t>(n), Age(cm, now)};
}

const std::vector<Column>& SecretColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Type", "string", "", "Used to facilitate programmatic handling of secret data.", 0},
      {"Data", "string", "", "Number of keys in data.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells SecretCells(const Json& secret, TimePoint now) {
  std::string type = Str(Field(&secret, "type"));
  if (type.empty()) type = "Opaque";  // v1 default
  // v1 -> internal conversion merges stringData into data.
  std::set<std::string> keys;
  for (const char* field : {"data", "stringData"}) {
    const Json* m = Field(&secret, field);
    if (!IsObject(m)) continue;
    for (auto it = m->begin(); it != m->end(); ++it) keys.insert(it.key());
  }
  return {Name(secret), type, static_cast<int64_t>(keys.size()), Age(secret, now)};
}

const std::vector<Column>& ServiceAccountColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Secrets", "string", "", "Number of secrets referenced by the service account.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells ServiceAccountCells(const Json& sa, TimePoint now) {
  return {Name(sa), static_cast<int64_t>(Array(Field(&sa, "secrets")).size()), Age(sa, now)};
}

}  // namespace kube::printers::internal
