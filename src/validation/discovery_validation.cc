// discovery.k8s.io/v1 EndpointSlice, as kube's pkg/apis/discovery/validation checks it.
#include <nlohmann/json.hpp>

#include <set>

#include "validation/core_internal.h"
#include "validation/group_primitives.h"
#include "validation/group_validators.h"
#include "validation/primitives.h"

namespace kube::validation {
namespace {

using nlohmann::json;

constexpr size_t kMaxTopologyLabels = 16;
constexpr size_t kMaxAddresses = 100;
constexpr size_t kMaxPorts = 20000;
constexpr size_t kMaxEndpoints = 1000;
constexpr size_t kMaxZoneHints = 8;
constexpr size_t kMaxNodeHints = 8;

std::string At(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

// IsFullyQualifiedDomainName: a subdomain of at least two labels, a trailing dot allowed.
void ValidateFqdn(std::string name, const std::string& path, FieldErrors* errors) {
  if (name.empty()) {
    errors->push_back(Required(path));
    return;
  }
  if (name.back() == '.') name.pop_back();
  auto join = [](const std::vector<std::string>& v) {
    std::string out;
    for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + v[i];
    return out;
  };
  if (auto errs = IsDns1123Subdomain(name); !errs.empty()) {
    errors->push_back(Invalid(path, name, join(errs)));
    return;
  }
  if (name.find('.') == std::string::npos) {
    errors->push_back(Invalid(path, name, "should be a domain with at least two segments separated by dots"));
    return;
  }
  size_t start = 0;
  while (true) {
    const size_t dot = name.find('.', start);
    const std::string label = name.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (auto errs = IsDns1123Label(label); !errs.empty()) {
      errors->push_back(Invalid(path, label, join(errs)));
      return;
    }
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
}

void ValidateAddress(const std::string& type, const std::string& address, const std::string& path, FieldErrors* errors) {
  if (type == "FQDN") {
    ValidateFqdn(address, path, errors);
    return;
  }
  if (type != "IPv4" && type != "IPv6") return;  // unknown types are refused above, addresses unchecked
  FieldErrors ip_errors = IsValidIPForLegacyField(path, address);
  if (ip_errors.empty()) {
    auto ip = ParseIPSloppy(address);
    if (ip && type == "IPv4" && !ip->is4) ip_errors.push_back(Invalid(path, address, "must be an IPv4 address"));
    if (ip && type == "IPv6" && ip->is4) ip_errors.push_back(Invalid(path, address, "must be an IPv6 address"));
  }
  Append(errors, std::move(ip_errors));
  Append(errors, core::ValidateNonSpecialIP(address, path));
}

void ValidateHints(const json& hints, const std::string& path, FieldErrors* errors) {
  for (const auto& [key, max] : {std::pair{"forZones", kMaxZoneHints}, std::pair{"forNodes", kMaxNodeHints}}) {
    const json& list = ArrayField(hints, key);
    const std::string list_path = path + "." + key;
    if (list.size() > max) {
      errors->push_back(TooMany(list_path, static_cast<int64_t>(list.size()), static_cast<int64_t>(max)));
      continue;
    }
    std::set<std::string> seen;
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string name = StringAt(list[i], "name");
      const std::string p = At(list_path, i) + ".name";
      if (!seen.insert(name).second) errors->push_back(Duplicate(p, name));
      const auto problems = std::string(key) == "forZones" ? IsValidLabelValue(name) : IsDns1123Subdomain(name);
      for (const auto& msg : problems) errors->push_back(Invalid(p, name, msg));
    }
  }
}

void ValidateEndpoints(const json& obj, const std::string& type, FieldErrors* errors) {
  const json& endpoints = ArrayField(obj, "endpoints");
  if (endpoints.size() > kMaxEndpoints) {
    errors->push_back(TooMany("endpoints", static_cast<int64_t>(endpoints.size()), kMaxEndpoints));
    return;
  }
  for (size_t i = 0; i < endpoints.size(); ++i) {
    const json& ep = endpoints[i];
    const std::string path = At("endpoints", i);
    const json& addresses = ArrayField(ep, "addresses");
    if (addresses.empty()) {
      errors->push_back(Required(path + ".addresses", "must contain at least 1 address"));
    } else if (addresses.size() > kMaxAddresses) {
      errors->push_back(TooMany(path + ".addresses", static_cast<int64_t>(addresses.size()), kMaxAddresses));
    }
    for (size_t a = 0; a < addresses.size(); ++a) {
      ValidateAddress(type, addresses[a].is_string() ? addresses[a].get<std::string>() : "", At(path + ".addresses", a),
                      errors);
    }
    if (Has(ep, "nodeName")) {
      const std::string node = StringAt(ep, "nodeName");
      for (const auto& msg : IsDns1123Subdomain(node)) errors->push_back(Invalid(path + ".nodeName", node, msg));
    }
    const json& topology = ObjectAt(ep, "deprecatedTopology");
    if (topology.size() > kMaxTopologyLabels) {
      errors->push_back(TooMany(path + ".deprecatedTopology", static_cast<int64_t>(topology.size()), kMaxTopologyLabels));
    }
    Append(errors, ValidateLabels(topology, path + ".deprecatedTopology"));
    if (Has(ep, "hostname")) Append(errors, ValidateDns1123Label(StringAt(ep, "hostname"), path + ".hostname"));
    if (Has(ep, "hints")) ValidateHints(ep["hints"], path + ".hints", errors);
  }
}

void ValidatePorts(const json& obj, FieldErrors* errors) {
  const json& ports = ArrayField(obj, "ports");
  if (ports.size() > kMaxPorts) {
    errors->push_back(TooMany("ports", static_cast<int64_t>(ports.size()), kMaxPorts));
    return;
  }
  std::set<std::string> names;
  for (size_t i = 0; i < ports.size(); ++i) {
    const std::string path = At("ports", i);
    const std::string name = StringAt(ports[i], "name");
    if (!name.empty()) Append(errors, ValidateDns1123Label(name, path + ".name"));
    if (!names.insert(name).second) errors->push_back(Duplicate(path + ".name", name));
    if (!Has(ports[i], "protocol")) {
      errors->push_back(Required(path + ".protocol"));
    } else {
      const std::string protocol = StringAt(ports[i], "protocol");
      if (protocol != "TCP" && protocol != "UDP" && protocol != "SCTP") {
        errors->push_back(NotSupported(path + ".protocol", protocol, {"SCTP", "TCP", "UDP"}));
      }
    }
    if (Has(ports[i], "appProtocol")) {
      Append(errors, ValidateQualifiedName(StringAt(ports[i], "appProtocol"), path + ".appProtocol"));
    }
  }
}

FieldErrors ValidateEndpointSlice(const json& obj) {
  FieldErrors errors;
  const std::string type = StringAt(obj, "addressType");
  if (type.empty()) {
    errors.push_back(Required("addressType"));
  } else if (type != "IPv4" && type != "IPv6" && type != "FQDN") {
    errors.push_back(NotSupported("addressType", type, {"FQDN", "IPv4", "IPv6"}));
  }
  ValidateEndpoints(obj, type, &errors);
  ValidatePorts(obj, &errors);
  return errors;
}

FieldErrors ValidateEndpointSliceUpdate(const json& obj, const json& old) {
  FieldErrors errors = ValidateEndpointSlice(obj);
  Append(&errors, ValidateImmutableField(ValueAt(obj, "addressType"), ValueAt(old, "addressType"), "addressType"));
  return errors;
}

}  // namespace

void AddDiscoveryKinds(KindTable* table) {
  (*table)["discovery.k8s.io/endpointslices"] = {ValidateEndpointSlice, ValidateEndpointSliceUpdate, nullptr};
}

}  // namespace kube::validation
