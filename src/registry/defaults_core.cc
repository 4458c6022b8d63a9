// Defaults of the core group (v1): pods and pod specs (containers, probes, volumes), services,
// secrets, persistent volumes and claims, endpoints, replication controllers, pod templates,
// limit ranges, nodes. See defaults.h for the contract.
#include <nlohmann/json.hpp>

#include <array>
#include <cctype>

#include "registry/defaults.h"
#include "util/base64.h"

namespace kube::registry {
namespace {

// ---- image references (the docker reference grammar, as kube parses it for the pull policy) ----

bool IsLowerHex(std::string_view s) {
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}
bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool HasUpper(std::string_view s) {
  for (char c : s) {
    if (c >= 'A' && c <= 'Z') return true;
  }
  return false;
}

// algorithm ":" encoded, for the algorithms the reference library knows.
bool ValidDigest(std::string_view d) {
  const size_t colon = d.find(':');
  if (colon == std::string_view::npos) return false;
  const std::string_view alg = d.substr(0, colon), hex = d.substr(colon + 1);
  size_t want = 0;
  if (alg == "sha256") want = 64;
  if (alg == "sha384") want = 96;
  if (alg == "sha512") want = 128;
  return want != 0 && hex.size() == want && IsLowerHex(hex);
}

bool ValidTag(std::string_view t) {
  if (t.empty() || t.size() > 128) return false;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    const bool word = IsAlnum(c) || c == '_';
    if (!(word || (i > 0 && (c == '.' || c == '-')))) return false;
  }
  return true;
}

// One path component: runs of [a-z0-9] joined by ".", "_", "__" or one or more "-".
bool ValidPathComponent(std::string_view c) {
  size_t i = 0;
  while (true) {
    const size_t start = i;
    while (i < c.size() && IsLowerAlnum(c[i])) ++i;
    if (i == start) return false;
    if (i == c.size()) return true;
    if (c[i] == '.') {
      ++i;
    } else if (c[i] == '_') {
      ++i;
      if (i < c.size() && c[i] == '_') ++i;
    } else if (c[i] == '-') {
      while (i < c.size() && c[i] == '-') ++i;
    } else {
      return false;
    }
  }
}

// host[:port], host a dotted DNS name or a bracketed IPv6 address.
bool ValidDomain(std::string_view d) {
  std::string_view host = d;
  if (!d.empty() && d.front() == '[') {
    const size_t close = d.find(']');
    if (close == std::string_view::npos || close == 1) return false;
    for (char c : d.substr(1, close - 1)) {
      if (!(std::isxdigit(static_cast<unsigned char>(c)) || c == ':')) return false;
    }
    host = {};
    d = d.substr(close + 1);
  } else {
    const size_t colon = d.find(':');
    host = d.substr(0, colon);
    d = colon == std::string_view::npos ? std::string_view() : d.substr(colon);
    if (host.empty()) return false;
  }
  if (!d.empty()) {  // ":port"
    if (d.front() != ':' || d.size() < 2) return false;
    for (char c : d.substr(1)) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    }
  }
  while (!host.empty()) {
    const size_t dot = host.find('.');
    const std::string_view label = host.substr(0, dot);
    if (label.empty() || !IsAlnum(label.front()) || !IsAlnum(label.back())) return false;
    for (char c : label) {
      if (!(IsAlnum(c) || c == '-')) return false;
    }
    if (dot == std::string_view::npos) break;
    host = host.substr(dot + 1);
    if (host.empty()) return false;
  }
  return true;
}

// The tag kube sees in `image`: the explicit tag, "latest" when there is neither tag nor digest,
// "" when there is only a digest or the reference does not parse.
std::string ImageTag(std::string_view image) {
  if (image.empty() || image.size() > 1024) return "";
  if (image.size() == 64 && IsLowerHex(image)) return "";  // a bare image ID is not a reference
  std::string_view rest = image, tag;
  bool digest = false;
  if (const size_t at = rest.find('@'); at != std::string_view::npos) {
    if (!ValidDigest(rest.substr(at + 1))) return "";
    digest = true;
    rest = rest.substr(0, at);
  }
  const size_t colon = rest.rfind(':'), slash = rest.rfind('/');
  if (colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash)) {
    tag = rest.substr(colon + 1);
    rest = rest.substr(0, colon);
    if (!ValidTag(tag)) return "";
  }
  if (rest.empty() || rest.size() > 255) return "";
  // The first component is a registry when it looks like one; the repository path must be lower case.
  if (const size_t first = rest.find('/'); first != std::string_view::npos) {
    const std::string_view head = rest.substr(0, first);
    if (head.find_first_of(".:") != std::string_view::npos || head == "localhost" || HasUpper(head)) {
      if (!ValidDomain(head)) return "";
      rest = rest.substr(first + 1);
    }
  }
  while (true) {
    const size_t sep = rest.find('/');
    if (!ValidPathComponent(rest.substr(0, sep))) return "";
    if (sep == std::string_view::npos) break;
    rest = rest.substr(sep + 1);
  }
  if (!tag.empty()) return std::string(tag);
  return digest ? "" : "latest";
}

}  // namespace

std::string DefaultImagePullPolicy(std::string_view image) {
  return ImageTag(image) == "latest" ? "Always" : "IfNotPresent";
}

namespace defaults_internal {
namespace {

// ---- containers ----

void DefaultHTTPGet(Json* http) {
  DefaultString(http, "path", "/");
  DefaultString(http, "scheme", "HTTP");
}

void DefaultProbe(Json* probe) {
  if (probe == nullptr) return;
  DefaultInt(probe, "timeoutSeconds", 1);
  DefaultInt(probe, "periodSeconds", 10);
  DefaultInt(probe, "successThreshold", 1);
  DefaultInt(probe, "failureThreshold", 3);
  DefaultHTTPGet(GetObject(probe, "httpGet"));
  DefaultValue(GetObject(probe, "grpc"), "service", "");
}

void DefaultFieldRef(Json* field_ref) { DefaultString(field_ref, "apiVersion", "v1"); }

// Regular, init (sidecars included) and ephemeral containers alike.
void DefaultContainer(Json* c) {
  Json* policy = Get(c, "imagePullPolicy");
  if (policy == nullptr || (policy->is_string() && policy->get_ref<const std::string&>().empty())) {
    (*c)["imagePullPolicy"] = DefaultImagePullPolicy(GetString(c, "image"));
  }
  DefaultString(c, "terminationMessagePath", "/dev/termination-log");
  DefaultString(c, "terminationMessagePolicy", "File");
  for (Json* port : Objects(GetArray(c, "ports"))) DefaultString(port, "protocol", "TCP");
  for (Json* env : Objects(GetArray(c, "env"))) DefaultFieldRef(GetObject(GetObject(env, "valueFrom"), "fieldRef"));
  for (const char* probe : {"livenessProbe", "readinessProbe", "startupProbe"}) DefaultProbe(GetObject(c, probe));
  if (Json* lifecycle = GetObject(c, "lifecycle")) {
    for (const char* hook : {"postStart", "preStop"}) DefaultHTTPGet(GetObject(GetObject(lifecycle, hook), "httpGet"));
  }
}

// ---- volumes (pod volumes and persistent volume sources) ----

constexpr std::array kVolumeSources = {
    "hostPath",  "emptyDir", "gcePersistentDisk", "awsElasticBlockStore", "gitRepo", "secret",
    "nfs",       "iscsi",    "glusterfs",         "persistentVolumeClaim", "rbd",    "flexVolume",
    "cinder",    "cephfs",   "flocker",           "downwardAPI",           "fc",     "azureFile",
    "configMap", "vsphereVolume", "quobyte",      "azureDisk",             "photonPersistentDisk",
    "projected", "portworxVolume", "scaleIO",     "storageos",             "csi",    "ephemeral",
    "image"};

constexpr int kDefaultFileMode = 0644;  // 420: secret, configMap, downwardAPI and projected volumes

// The sources that exist both in pods and in persistent volumes.
void DefaultSharedVolumeSources(Json* source) {
  DefaultValue(GetObject(source, "hostPath"), "type", "");
  DefaultString(GetObject(source, "iscsi"), "iscsiInterface", "default");
  if (Json* rbd = GetObject(source, "rbd")) {
    DefaultString(rbd, "pool", "rbd");
    DefaultString(rbd, "user", "admin");
    DefaultString(rbd, "keyring", "/etc/ceph/keyring");
  }
  if (Json* disk = GetObject(source, "azureDisk")) {
    DefaultValue(disk, "cachingMode", "ReadWrite");
    DefaultValue(disk, "fsType", "ext4");
    DefaultValue(disk, "readOnly", false);
    DefaultValue(disk, "kind", "Shared");
  }
  if (Json* scaleio = GetObject(source, "scaleIO")) {
    DefaultString(scaleio, "storageMode", "ThinProvisioned");
    DefaultString(scaleio, "fsType", "xfs");
  }
}

void DefaultDownwardAPIItems(Json* items) {
  for (Json* item : Objects(items)) DefaultFieldRef(GetObject(item, "fieldRef"));
}

void DefaultPvcSpec(Json* spec) { DefaultValue(spec, "volumeMode", "Filesystem"); }

void DefaultVolume(Json* v) {
  bool has_source = false;
  for (const char* source : kVolumeSources) has_source = has_source || Get(v, source) != nullptr;
  if (!has_source) (*v)["emptyDir"] = Json::object();  // a volume naming no source is an emptyDir
  DefaultSharedVolumeSources(v);
  for (const char* source : {"secret", "configMap", "downwardAPI", "projected"}) {
    DefaultValue(GetObject(v, source), "defaultMode", kDefaultFileMode);
  }
  DefaultDownwardAPIItems(GetArray(GetObject(v, "downwardAPI"), "items"));
  for (Json* projection : Objects(GetArray(GetObject(v, "projected"), "sources"))) {
    DefaultDownwardAPIItems(GetArray(GetObject(projection, "downwardAPI"), "items"));
    DefaultValue(GetObject(projection, "serviceAccountToken"), "expirationSeconds", 3600);
  }
  if (Json* image = GetObject(v, "image")) {
    DefaultString(image, "pullPolicy", DefaultImagePullPolicy(GetString(image, "reference")));
  }
  DefaultPvcSpec(GetObject(GetObject(GetObject(v, "ephemeral"), "volumeClaimTemplate"), "spec"));
}

// ---- pods ----

// What kube defaults on Pods only, not on pod templates.
void DefaultPodOnly(Json* spec) {
  // Containers with limits but no request for a resource request their limit.
  for (const char* list : {"containers", "initContainers"}) {
    for (Json* c : Objects(GetArray(spec, list))) {
      Json* resources = GetObject(c, "resources");
      Json* limits = GetObject(resources, "limits");
      if (limits == nullptr || limits->empty()) continue;
      Json* requests = EnsureObject(resources, "requests");
      if (requests == nullptr) continue;
      for (const auto& [name, quantity] : limits->items()) {
        if (!requests->contains(name)) (*requests)[name] = quantity;
      }
    }
  }
  DefaultValue(spec, "enableServiceLinks", true);
  // With the host's network every container port is a host port.
  Json* host_network = Get(spec, "hostNetwork");
  if (host_network != nullptr && host_network->is_boolean() && host_network->get<bool>()) {
    for (const char* list : {"containers", "initContainers"}) {
      for (Json* c : Objects(GetArray(spec, list))) {
        for (Json* port : Objects(GetArray(c, "ports"))) {
          Json* container_port = Get(port, "containerPort");
          if (container_port == nullptr || !container_port->is_number()) continue;
          Json* host_port = Get(port, "hostPort");
          if (host_port == nullptr || (host_port->is_number() && host_port->get<double>() == 0)) {
            (*port)["hostPort"] = *container_port;
          }
        }
      }
    }
  }
}

// ---- services ----

bool IsIPv6(const std::string& ip) { return ip.find(':') != std::string::npos; }

// The IP-family fields kube's Service storage fills before allocating cluster IPs, for a
// single-stack IPv4 cluster. kube allocates spec.clusterIP/clusterIPs here too; this server has
// no allocator, so a Service keeps the cluster IP the client gave and has none otherwise.
void DefaultServiceIPFamilies(Json* spec) {
  const std::string cluster_ip = GetString(spec, "clusterIP");
  // The client's clusterIP becomes clusterIPs[0] when it gave only the singular field.
  Json* ips = Get(spec, "clusterIPs");
  if (!cluster_ip.empty() && (ips == nullptr || (ips->is_array() && ips->empty()))) {
    (*spec)["clusterIPs"] = Json::array({cluster_ip});
  }
  Json* selector = Get(spec, "selector");
  const bool headless_without_selector =
      cluster_ip == "None" && (selector == nullptr || (selector->is_object() && selector->empty()));
  DefaultValue(spec, "ipFamilyPolicy", headless_without_selector ? "RequireDualStack" : "SingleStack");
  Json* families = Get(spec, "ipFamilies");
  if (families == nullptr) families = &((*spec)["ipFamilies"] = Json::array());
  if (!families->is_array()) return;
  // Families follow the client's cluster IPs.
  if (Json* cluster_ips = GetArray(spec, "clusterIPs")) {
    for (size_t i = 0; i < cluster_ips->size(); ++i) {
      const Json& ip = (*cluster_ips)[i];
      if (!ip.is_string() || ip.get_ref<const std::string&>() == "None") break;
      if (i >= families->size()) families->push_back(IsIPv6(ip.get<std::string>()) ? "IPv6" : "IPv4");
    }
  }
  if (families->empty()) families->push_back("IPv4");
  // Headless services without a selector may be dual-stack even on a single-stack cluster.
  if (headless_without_selector && families->size() == 1 && GetString(spec, "ipFamilyPolicy") != "SingleStack") {
    families->push_back((*families)[0] == "IPv6" ? "IPv4" : "IPv6");
  }
}

// Note: spec.clusterIP is never allocated here (nor nodePorts): kube-apiserver allocates them in
// the Service REST storage from its service CIDR, as server/service_allocation.h does.
void DefaultService(Json* obj) {
  Json* spec = EnsureObject(obj, "spec");
  if (spec == nullptr) return;
  DefaultString(spec, "sessionAffinity", "None");
  const std::string affinity = GetString(spec, "sessionAffinity");
  if (affinity == "None") spec->erase("sessionAffinityConfig");
  if (affinity == "ClientIP") {
    // Without a timeout the whole config is replaced by the default one (3 hours).
    Json* config = Get(spec, "sessionAffinityConfig");
    Json* client = config != nullptr && config->is_object() ? Get(config, "clientIP") : nullptr;
    const bool misshapen = (config != nullptr && !config->is_object()) || (client != nullptr && !client->is_object());
    if (!misshapen && Get(client, "timeoutSeconds") == nullptr) {
      (*spec)["sessionAffinityConfig"] = {{"clientIP", {{"timeoutSeconds", 10800}}}};
    }
  }
  DefaultString(spec, "type", "ClusterIP");
  const std::string type = GetString(spec, "type");
  for (Json* port : Objects(GetArray(spec, "ports"))) {
    DefaultString(port, "protocol", "TCP");
    Json* target = Get(port, "targetPort");
    Json* number = Get(port, "port");
    const bool unset = target == nullptr || (target->is_number() && target->get<double>() == 0) ||
                       (target->is_string() && target->get_ref<const std::string&>().empty());
    if (unset && number != nullptr && number->is_number_integer()) (*port)["targetPort"] = *number;
  }
  const bool externally_accessible = type == "LoadBalancer" || type == "NodePort" ||
                                     (type == "ClusterIP" && IsNonEmptyArray(Get(spec, "externalIPs")));
  if (externally_accessible) DefaultString(spec, "externalTrafficPolicy", "Cluster");
  if (type == "ClusterIP" || type == "NodePort" || type == "LoadBalancer") {
    DefaultValue(spec, "internalTrafficPolicy", "Cluster");
  }
  if (type == "LoadBalancer") {
    DefaultValue(spec, "allocateLoadBalancerNodePorts", true);
    for (Json* ingress : Objects(GetArray(GetObject(GetObject(obj, "status"), "loadBalancer"), "ingress"))) {
      if (!GetString(ingress, "ip").empty()) DefaultValue(ingress, "ipMode", "VIP");
    }
  }
  if (type != "ExternalName") DefaultServiceIPFamilies(spec);
}

// ---- other core kinds ----

void DefaultPersistentVolume(Json* obj) {
  DefaultString(EnsureObject(obj, "status"), "phase", "Pending");
  Json* spec = EnsureObject(obj, "spec");
  DefaultString(spec, "persistentVolumeReclaimPolicy", "Retain");
  DefaultValue(spec, "volumeMode", "Filesystem");
  DefaultSharedVolumeSources(spec);
}

void DefaultReplicationController(Json* obj) {
  Json* spec = EnsureObject(obj, "spec");
  if (spec == nullptr) return;
  Json* tmpl = GetObject(spec, "template");
  Json* labels = GetObject(GetObject(tmpl, "metadata"), "labels");
  if (IsNonEmptyObject(labels)) {
    Json* selector = Get(spec, "selector");
    if (selector == nullptr || (selector->is_object() && selector->empty())) (*spec)["selector"] = *labels;
    Json* meta = EnsureObject(obj, "metadata");
    Json* own = Get(meta, "labels");
    if (meta != nullptr && (own == nullptr || (own->is_object() && own->empty()))) (*meta)["labels"] = *labels;
  }
  DefaultValue(spec, "replicas", 1);
  DefaultPodTemplateSpec(tmpl);  // a pointer in v1: only when given
}

void DefaultLimitRange(Json* obj) {
  for (Json* item : Objects(GetArray(GetObject(obj, "spec"), "limits"))) {
    if (GetString(item, "type") != "Container") continue;
    // default <- max; defaultRequest <- default, then min (each only for resources not yet named).
    auto fill = [&](const char* into, const char* from) {
      Json* source = GetObject(item, from);
      if (source == nullptr || source->empty()) return;
      Json* target = EnsureObject(item, into);
      if (target == nullptr) return;
      for (const auto& [name, quantity] : source->items()) {
        if (!target->contains(name)) (*target)[name] = quantity;
      }
    };
    fill("default", "max");
    fill("defaultRequest", "default");
    fill("defaultRequest", "min");
  }
}

}  // namespace

void DefaultPodSpec(Json* spec) {
  if (spec == nullptr || !spec->is_object()) return;
  DefaultString(spec, "dnsPolicy", "ClusterFirst");
  DefaultString(spec, "restartPolicy", "Always");
  DefaultValue(spec, "securityContext", Json::object());
  DefaultValue(spec, "terminationGracePeriodSeconds", 30);
  DefaultString(spec, "schedulerName", "default-scheduler");
  // v1 keeps the deprecated serviceAccount equal to serviceAccountName (either one given).
  if (GetString(spec, "serviceAccountName").empty()) {
    const std::string deprecated = GetString(spec, "serviceAccount");
    if (!deprecated.empty()) DefaultString(spec, "serviceAccountName", deprecated);
  }
  if (const std::string name = GetString(spec, "serviceAccountName"); !name.empty()) {
    Json* deprecated = Get(spec, "serviceAccount");
    if (deprecated == nullptr || deprecated->is_string()) (*spec)["serviceAccount"] = name;
  }
  for (Json* v : Objects(GetArray(spec, "volumes"))) DefaultVolume(v);
  for (const char* list : {"initContainers", "containers", "ephemeralContainers"}) {
    for (Json* c : Objects(GetArray(spec, list))) DefaultContainer(c);
  }
}

void DefaultPodTemplateSpec(Json* tmpl) {
  if (tmpl == nullptr || !tmpl->is_object()) return;
  DefaultPodSpec(EnsureObject(tmpl, "spec"));
}

void DefaultPersistentVolumeClaim(Json* pvc) {
  if (pvc == nullptr || !pvc->is_object()) return;
  DefaultString(EnsureObject(pvc, "status"), "phase", "Pending");
  DefaultPvcSpec(EnsureObject(pvc, "spec"));
}


// stringData is write-only: kube's v1 -> internal conversion writes each of its keys into data
// (base64 of the value, replacing a data key of the same name), and no Secret keeps stringData.
// Done with the defaults, before the field manager, so the writer owns data's keys as in kube.
void MergeSecretStringData(Json* secret) {
  auto it = secret->find("stringData");
  if (it == secret->end()) return;
  if (it->is_object() && !it->empty()) {
    Json& data = (*secret)["data"];
    if (!data.is_object()) data = Json::object();
    for (const auto& [key, value] : it->items()) {
      data[key] = Base64StdEncode(value.is_string() ? value.get<std::string>() : std::string());
    }
  }
  secret->erase(it);
}

void DefaultCoreV1(std::string_view kind, Json* obj) {
  if (kind == "Pod") {
    Json* spec = EnsureObject(obj, "spec");
    if (spec == nullptr) return;
    DefaultPodOnly(spec);
    DefaultPodSpec(spec);
  } else if (kind == "PodTemplate") {
    DefaultPodTemplateSpec(EnsureObject(obj, "template"));
  } else if (kind == "ReplicationController") {
    DefaultReplicationController(obj);
  } else if (kind == "Service") {
    DefaultService(obj);
  } else if (kind == "Secret") {
    DefaultString(obj, "type", "Opaque");
    MergeSecretStringData(obj);
  } else if (kind == "PersistentVolumeClaim") {
    DefaultPersistentVolumeClaim(obj);
  } else if (kind == "PersistentVolume") {
    DefaultPersistentVolume(obj);
  } else if (kind == "Endpoints") {
    for (Json* subset : Objects(GetArray(obj, "subsets"))) {
      for (Json* port : Objects(GetArray(subset, "ports"))) DefaultString(port, "protocol", "TCP");
    }
  } else if (kind == "LimitRange") {
    DefaultLimitRange(obj);
  } else if (kind == "Node") {
    Json* status = GetObject(obj, "status");
    Json* capacity = GetObject(status, "capacity");
    if (IsNonEmptyObject(capacity) && Get(status, "allocatable") == nullptr) (*status)["allocatable"] = *capacity;
  }
  // ConfigMap (data: {} is invisible once serialized), Namespace (label and phase: the namespace
  // lifecycle), ServiceAccount, Event, ResourceQuota: nothing.
}

}  // namespace defaults_internal
}  // namespace kube::registry
