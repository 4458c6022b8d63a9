#include "endpoints/connect_subresources.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cstring>
#include <nlohmann/json.hpp>

#include "endpoints/responses.h"
#include "registry/errors.h"

namespace kube::endpoints {

using nlohmann::json;

namespace {

constexpr int kDefaultKubeletPort = 10250;
constexpr int kDialTimeoutMs = 2000;

std::string JoinHostPort(const std::string& host, int port) {
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

const json& Member(const json& obj, const char* key) {
  static const json kNull;
  if (!obj.is_object()) return kNull;
  auto it = obj.find(key);
  return it == obj.end() ? kNull : *it;
}

std::string StringAt(const json& obj, const char* a, const char* b) {
  const json& v = Member(Member(obj, a), b);
  return v.is_string() ? v.get<std::string>() : "";
}

// Names of the containers kube lets a log/exec/attach request pick: init, regular and ephemeral.
std::vector<std::string> ContainerNames(const json& pod) {
  std::vector<std::string> names;
  for (const char* list : {"initContainers", "containers", "ephemeralContainers"}) {
    const json& cs = Member(Member(pod, "spec"), list);
    if (!cs.is_array()) continue;
    for (const auto& c : cs) {
      if (c.is_object() && c.contains("name") && c["name"].is_string()) names.push_back(c["name"]);
    }
  }
  return names;
}

// kube's validateContainer: the container a request names, or the pod's only one.
Result<std::string> PickContainer(const json& pod, const std::string& name, const std::string& requested) {
  if (!requested.empty()) {
    for (const auto& n : ContainerNames(pod)) {
      if (n == requested) return requested;
    }
    return Status::BadRequest("container " + requested + " is not valid for pod " + name);
  }
  const json& containers = Member(Member(pod, "spec"), "containers");
  const size_t count = containers.is_array() ? containers.size() : 0;
  if (count == 1 && containers[0].is_object()) return containers[0].value("name", "");
  if (count == 0) return Status::BadRequest("a container name must be specified for pod " + name);
  std::string list;
  for (const auto& n : ContainerNames(pod)) list += (list.empty() ? "" : " ") + n;
  return Status::BadRequest("a container name must be specified for pod " + name + ", choose one of: [" + list + "]");
}

struct Target {
  std::string host;
  int port = 0;
};

// kube's NodeConnectionInfoGetter: the node's preferred address (--kubelet-preferred-address-types
// default order) and its kubelet port.
Result<Target> KubeletOf(registry::ApiRegistry* registry, const std::string& node_name) {
  registry::StorePtr nodes = registry->Find("", "v1", "nodes");
  if (nodes == nullptr) return registry::NotFoundError("", "nodes", node_name);
  auto node = nodes->Get("", node_name, {});
  if (!node.ok()) return node.status();
  const json& addresses = Member(Member(**node, "status"), "addresses");
  Target t;
  for (const char* type : {"Hostname", "InternalDNS", "InternalIP", "ExternalDNS", "ExternalIP"}) {
    if (!addresses.is_array()) break;
    for (const auto& a : addresses) {
      if (a.is_object() && a.value("type", "") == type && !a.value("address", "").empty()) {
        t.host = a.value("address", "");
        break;
      }
    }
    if (!t.host.empty()) break;
  }
  if (t.host.empty()) {
    // Go's %v of []NodeAddress: [{Type address} ...].
    std::string known;
    if (addresses.is_array()) {
      for (const auto& a : addresses) {
        if (!a.is_object()) continue;
        known += (known.empty() ? "" : " ") + ("{" + a.value("type", "") + " " + a.value("address", "") + "}");
      }
    }
    return Status::Unknown("no preferred addresses found; known addresses: [" + known + "]");
  }
  const json& port = Member(Member(Member(Member(**node, "status"), "daemonEndpoints"), "kubeletEndpoint"), "Port");
  t.port = port.is_number_integer() && port.get<int>() > 0 ? port.get<int>() : kDefaultKubeletPort;
  return t;
}

// What a reachable target gets: this server has no proxy to offer.
Status NoProxy(const std::string& url) {
  return Status(StatusCode::kServiceUnavailable,
                "kube-apiserver-lite does not proxy to kubelets, pods or services: " + url);
}

HttpResponse EmptyLog() {
  HttpResponse r;
  r.status = 200;
  r.content_type = "text/plain";
  return r;
}

// The kubelet behind `pod` for log/exec/attach/portforward: a pod without a node stops here.
HttpResponse ToKubelet(registry::ApiRegistry* registry, std::string_view subresource, const json& pod,
                       const std::string& name, const Query& query) {
  const std::string ns = StringAt(pod, "metadata", "namespace");
  std::string container;
  if (subresource != "portforward") {
    auto picked = PickContainer(pod, name, query.Get("container"));
    if (!picked.ok()) return ErrorResponse(picked.status());
    container = *picked;
  }
  const std::string node = StringAt(pod, "spec", "nodeName");
  if (node.empty()) {
    // kube's log location is empty for an unscheduled pod: the log is empty, not an error.
    if (subresource == "log") return EmptyLog();
    return ErrorResponse(Status::BadRequest("pod " + name + " does not have a host assigned"));
  }
  auto kubelet = KubeletOf(registry, node);
  if (!kubelet.ok()) return ErrorResponse(kubelet.status());
  const std::string base = "https://" + JoinHostPort(kubelet->host, kubelet->port);
  std::string path;
  if (subresource == "log") {
    path = "/containerLogs/" + ns + "/" + name + "/" + container;
  } else if (subresource == "portforward") {
    path = "/portForward/" + ns + "/" + name;
  } else {
    path = "/" + std::string(subresource) + "/" + ns + "/" + name + "/" + container;
  }
  Status dial = Dial(kubelet->host, kubelet->port);
  if (dial.ok()) return ErrorResponse(NoProxy(base + path));
  // Logs go through an HTTP client (Go's "Get <url>: <error>"); the streaming ones through an
  // upgrading dialer.
  if (subresource == "log") return ErrorResponse(Status::Unknown("Get \"" + base + path + "\": " + dial.message()));
  return ErrorResponse(Status::Unknown("error dialing backend: " + dial.message()));
}

// "name", "name:port" or "scheme:name:port", as kube splits proxy ids.
struct ProxyId {
  std::string scheme, name, port;
};

std::optional<ProxyId> SplitProxyId(std::string_view id) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t colon = id.find(':', start);
    parts.emplace_back(id.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  if (parts.size() == 1) return ProxyId{"", parts[0], ""};
  if (parts.size() == 2) return ProxyId{"", parts[0], parts[1]};
  if (parts.size() == 3 && (parts[0].empty() || parts[0] == "http" || parts[0] == "https")) {
    return ProxyId{parts[0], parts[1], parts[2]};
  }
  return std::nullopt;
}

bool IsGlobalUnicast(const std::string& ip) {
  in_addr v4{};
  if (inet_pton(AF_INET, ip.c_str(), &v4) == 1) {
    const uint32_t a = ntohl(v4.s_addr);
    return a != 0 && a != 0xffffffff && (a >> 24) != 127 && (a >> 28) != 0xe && (a >> 16) != 0xa9fe;
  }
  in6_addr v6{};
  if (inet_pton(AF_INET6, ip.c_str(), &v6) == 1) {
    return !IN6_IS_ADDR_UNSPECIFIED(&v6) && !IN6_IS_ADDR_LOOPBACK(&v6) && !IN6_IS_ADDR_MULTICAST(&v6) &&
           !IN6_IS_ADDR_LINKLOCAL(&v6);
  }
  return false;
}

HttpResponse DialAndRefuse(const std::string& scheme, const std::string& host, int port) {
  Status dial = Dial(host, port);
  const std::string url = (scheme.empty() ? "http" : scheme) + "://" + JoinHostPort(host, port);
  if (dial.ok()) return ErrorResponse(NoProxy(url));
  return ErrorResponse(Status(StatusCode::kServiceUnavailable, "error trying to reach service: " + dial.message()));
}

int PortNumber(const std::string& s, int fallback) {
  if (s.empty() || s.size() > 5 || !std::all_of(s.begin(), s.end(), ::isdigit)) return fallback;
  return std::stoi(s);
}

HttpResponse PodProxy(const json& pod, const ProxyId& id) {
  std::string port = id.port;
  if (port.empty()) {
    const json& containers = Member(Member(pod, "spec"), "containers");
    for (const auto& c : containers.is_array() ? containers : json::array()) {
      const json& ports = Member(c, "ports");
      if (ports.is_array() && !ports.empty() && ports[0].is_object() && ports[0].contains("containerPort")) {
        port = ports[0]["containerPort"].dump();
        break;
      }
    }
  }
  std::string ip;
  const json& ips = Member(Member(pod, "status"), "podIPs");
  if (ips.is_array() && !ips.empty()) ip = Member(ips[0], "ip").is_string() ? ips[0]["ip"].get<std::string>() : "";
  if (!IsGlobalUnicast(ip)) return ErrorResponse(Status::BadRequest("address not allowed"));
  return DialAndRefuse(id.scheme, ip, PortNumber(port, 80));
}

// kube's service proxy picks a ready address of the Service's Endpoints for the port asked.
HttpResponse ServiceProxy(registry::ApiRegistry* registry, std::string_view ns, const ProxyId& id) {
  registry::StorePtr services = registry->Find("", "v1", "services");
  auto svc = services->Get(ns, id.name, {});
  if (!svc.ok()) return ErrorResponse(svc.status());
  registry::StorePtr endpoints = registry->Find("", "v1", "endpoints");
  auto eps = endpoints ? endpoints->Get(ns, id.name, {}) : Result<storage::ObjectPtr>(Status::NotFound(""));
  const json& subsets = eps.ok() ? Member(**eps, "subsets") : Member(json(), "x");
  for (const auto& subset : subsets.is_array() ? subsets : json::array()) {
    const json& addresses = Member(subset, "addresses");
    const json& ports = Member(subset, "ports");
    if (!addresses.is_array() || addresses.empty() || !ports.is_array()) continue;
    for (const auto& p : ports) {
      const std::string pname = p.is_object() ? p.value("name", "") : "";
      if (!id.port.empty() && pname != id.port && (!p.contains("port") || p["port"].dump() != id.port)) continue;
      const std::string ip = addresses[0].is_object() ? addresses[0].value("ip", "") : "";
      return DialAndRefuse(id.scheme, ip, p.is_object() ? p.value("port", 80) : 80);
    }
  }
  return ErrorResponse(Status(StatusCode::kServiceUnavailable,
                              "no endpoints available for service \"" + id.name + "\""));
}

}  // namespace

bool IsConnectSubresource(std::string_view group, std::string_view resource, std::string_view subresource) {
  if (!group.empty()) return false;
  if (resource == "pods") {
    return subresource == "log" || subresource == "exec" || subresource == "attach" ||
           subresource == "portforward" || subresource == "proxy";
  }
  return (resource == "services" || resource == "nodes") && subresource == "proxy";
}

Status Dial(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0 || found == nullptr) {
    return Status::Unknown("dial tcp: lookup " + host + ": no such host");
  }
  const std::string where = "dial tcp " + JoinHostPort(host, port) + ": ";
  int fd = socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    freeaddrinfo(found);
    return Status::Unknown(where + "socket: " + std::strerror(errno));
  }
  int rc = connect(fd, found->ai_addr, found->ai_addrlen);
  freeaddrinfo(found);
  int err = rc == 0 ? 0 : errno;
  if (err == EINPROGRESS) {
    pollfd p{fd, POLLOUT, 0};
    if (poll(&p, 1, kDialTimeoutMs) <= 0) {
      close(fd);
      return Status::Unknown(where + "i/o timeout");
    }
    socklen_t len = sizeof err;
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
  }
  close(fd);
  if (err == 0) return Status::OK();
  // Go spells errno texts in lower case ("connection refused").
  std::string text = std::strerror(err);
  if (!text.empty()) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return Status::Unknown(where + "connect: " + text);
}

HttpResponse ServeConnect(registry::ApiRegistry* registry, std::string_view method, std::string_view resource,
                          std::string_view subresource, std::string_view ns, std::string_view name,
                          const Query& query) {
  // Which methods each subresource takes, as kube routes them (log: GET only; exec, attach and
  // portforward: GET and POST; proxy: every method).
  const bool get_or_post = method == "GET" || method == "POST";
  if ((subresource == "log" && method != "GET") || (subresource != "proxy" && subresource != "log" && !get_or_post)) {
    return ErrorResponse(registry::MethodNotSupportedError("", std::string(resource) + "/" + std::string(subresource),
                                                           method == "POST" ? "create" : "update"));
  }
  if (resource == "pods" && subresource != "proxy") {
    auto pod = registry->Find("", "v1", "pods")->Get(ns, name, {});
    if (!pod.ok()) return ErrorResponse(pod.status());
    return ToKubelet(registry, subresource, **pod, std::string(name), query);
  }
  auto id = SplitProxyId(name);
  if (!id || id->name.empty()) {
    return ErrorResponse(Status::BadRequest("invalid " + std::string(resource == "pods" ? "pod" : resource == "nodes" ? "node" : "service") +
                                            " request \"" + std::string(name) + "\""));
  }
  if (resource == "pods") {
    auto pod = registry->Find("", "v1", "pods")->Get(ns, id->name, {});
    if (!pod.ok()) return ErrorResponse(pod.status());
    return PodProxy(**pod, *id);
  }
  if (resource == "services") return ServiceProxy(registry, ns, *id);
  auto kubelet = KubeletOf(registry, id->name);
  if (!kubelet.ok()) return ErrorResponse(kubelet.status());
  return DialAndRefuse(id->scheme.empty() ? "https" : id->scheme, kubelet->host, PortNumber(id->port, kubelet->port));
}

}  // namespace kube::endpoints
