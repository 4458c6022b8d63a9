// Services and Endpoints: kube's ValidateService / ValidateServiceUpdate /
// ValidateServiceStatusUpdate and ValidateEndpoints.
#include <algorithm>

#include "validation/core_internal.h"
#include "validation/primitives.h"

namespace kube::validation::core {

namespace {

bool IsHeadless(const Json& spec) {
  const Json& ips = ArrayField(spec, "clusterIPs");
  return ips.size() == 1 && ips[0] == "None";
}

std::vector<std::string> Strings(const Json& arr) {
  std::vector<std::string> out;
  for (const Json& v : arr) out.push_back(v.is_string() ? v.get<std::string>() : "");
  return out;
}

void ValidateServicePort(const Json& sp, bool require_name, std::set<std::string>* names, const std::string& path,
                         FieldErrors* errors) {
  const std::string name = Str(sp, "name");
  if (require_name && name.empty()) {
    errors->push_back(Required(Child(path, "name")));
  } else if (!name.empty()) {
    Append(errors, ValidateDns1123Label(name, Child(path, "name")));
    if (!names->insert(name).second) errors->push_back(Duplicate(Child(path, "name"), name));
  }
  const int64_t port = IntField(sp, "port").value_or(0);
  AppendProblems(errors, Child(path, "port"), port, IsValidPortNum(port));
  const std::string protocol = Str(sp, "protocol");
  if (protocol.empty()) {
    errors->push_back(Required(Child(path, "protocol")));
  } else if (std::find(kPortProtocols.begin(), kPortProtocols.end(), protocol) == kPortProtocols.end()) {
    errors->push_back(NotSupported(Child(path, "protocol"), protocol, kPortProtocols));
  }
  Append(errors, ValidatePortNumOrName(sp.value("targetPort", Json(0)), Child(path, "targetPort")));
  if (const Json* app = Field(sp, "appProtocol")) {
    Append(errors, ValidateQualifiedName(app->is_string() ? app->get<std::string>() : "", Child(path, "appProtocol")));
  }
}

// ValidateServiceClusterIPsRelatedFields.
void ValidateClusterIPs(const Json& spec, const std::string& type, FieldErrors* errors) {
  if (type == "ExternalName") return;
  const std::string cluster_ip = Str(spec, "clusterIP");
  const Json& ips = ArrayField(spec, "clusterIPs");
  if (!cluster_ip.empty()) {
    if (ips.empty()) {
      errors->push_back(Required("spec.clusterIPs"));
    } else if (ips[0] != cluster_ip) {
      errors->push_back(Invalid("spec.clusterIPs", ips, "first value must match `clusterIP`"));
    }
  } else if (!ips.empty()) {
    errors->push_back(Invalid("spec.clusterIPs", ips, "must be empty when `clusterIP` is not specified"));
  }
  const Json& families = ArrayField(spec, "ipFamilies");
  std::set<std::string> seen;
  for (size_t i = 0; i < families.size(); ++i) {
    const std::string f = families[i].is_string() ? families[i].get<std::string>() : "";
    if (f != "IPv4" && f != "IPv6") errors->push_back(NotSupported("spec.ipFamilies[" + std::to_string(i) + "]", f, {"IPv4", "IPv6"}));
    if (!seen.insert(f).second) errors->push_back(Duplicate("spec.ipFamilies[" + std::to_string(i) + "]", f));
  }
  if (const Json* policy = Field(spec, "ipFamilyPolicy")) {
    const std::string p = policy->is_string() ? policy->get<std::string>() : "";
    if (p != "SingleStack" && p != "PreferDualStack" && p != "RequireDualStack") {
      errors->push_back(NotSupported("spec.ipFamilyPolicy", p, {"PreferDualStack", "RequireDualStack", "SingleStack"}));
    }
  }
  bool invalid = false;
  for (size_t i = 0; i < ips.size(); ++i) {
    const std::string ip = ips[i].is_string() ? ips[i].get<std::string>() : "";
    if (i == 0 && ip == "None") {
      if (ips.size() > 1) {
        invalid = true;
        errors->push_back(Invalid("spec.clusterIPs", ips, "'None' must be the first and only value"));
      }
      continue;
    }
    FieldErrors e = IsValidIPForLegacyField("spec.clusterIPs[" + std::to_string(i) + "]", ip);
    invalid = invalid || !e.empty();
    Append(errors, std::move(e));
  }
  if (ips.size() > 2) errors->push_back(Invalid("spec.clusterIPs", ips, "may only hold up to 2 values"));
  if (invalid) return;
  if (ips.size() > 1) {
    const bool dual = ips.size() == 2 && ParseIPSloppy(ips[0].get<std::string>())->is4 != ParseIPSloppy(ips[1].get<std::string>())->is4;
    if (!dual) errors->push_back(Invalid("spec.clusterIPs", ips, "may specify no more than one IP for each IP family"));
  }
  if (!IsHeadless(spec)) {
    for (size_t i = 0; i < ips.size() && i < families.size(); ++i) {
      const std::string ip = ips[i].get<std::string>();
      const bool v6 = !ParseIPSloppy(ip)->is4;
      const std::string field = "spec.clusterIPs[" + std::to_string(i) + "]";
      if (families[i] == "IPv4" && v6) {
        errors->push_back(Invalid(field, ip, "expected an IPv4 value as indicated by `ipFamilies[" + std::to_string(i) + "]`"));
      }
      if (families[i] == "IPv6" && !v6) {
        errors->push_back(Invalid(field, ip, "expected an IPv6 value as indicated by `ipFamilies[" + std::to_string(i) + "]`"));
      }
    }
  }
}

FieldErrors ValidateService(const Json& svc) {
  FieldErrors errors;
  const Json* spec_ptr = Field(svc, "spec");
  const Json spec = spec_ptr ? *spec_ptr : Json::object();
  const std::string type = Str(spec, "type");
  const Json& ports = ArrayField(spec, "ports");
  const bool headless = IsHeadless(spec);
  if (ports.empty() && !headless && type != "ExternalName") errors.push_back(Required("spec.ports"));
  if (type == "LoadBalancer" && headless) {
    errors.push_back(Invalid("spec.clusterIPs[0]", "None", "may not be set to 'None' for LoadBalancer services"));
  } else if (type == "NodePort" && headless) {
    errors.push_back(Invalid("spec.clusterIPs[0]", "None", "may not be set to 'None' for NodePort services"));
  } else if (type == "ExternalName") {
    if (!ArrayField(spec, "clusterIPs").empty()) errors.push_back(Forbidden("spec.clusterIPs", "may not be set for ExternalName services"));
    if (!ArrayField(spec, "ipFamilies").empty()) errors.push_back(Forbidden("spec.ipFamilies", "may not be set for ExternalName services"));
    if (Has(spec, "ipFamilyPolicy")) errors.push_back(Forbidden("spec.ipFamilyPolicy", "may not be set for ExternalName services"));
    std::string cname = Str(spec, "externalName");
    if (cname.ends_with(".")) cname.pop_back();
    if (cname.empty()) {
      errors.push_back(Required("spec.externalName"));
    } else {
      Append(&errors, ValidateDns1123Subdomain(cname, "spec.externalName"));
    }
  }
  std::set<std::string> names;
  for (size_t i = 0; i < ports.size(); ++i) {
    ValidateServicePort(ports[i], ports.size() > 1, &names, "spec.ports[" + std::to_string(i) + "]", &errors);
  }
  if (const Json* selector = Field(spec, "selector")) Append(&errors, ValidateLabels(*selector, "spec.selector"));
  const std::string affinity = Str(spec, "sessionAffinity");
  if (affinity.empty()) {
    errors.push_back(Required("spec.sessionAffinity"));
  } else if (affinity != "ClientIP" && affinity != "None") {
    errors.push_back(NotSupported("spec.sessionAffinity", affinity, {"ClientIP", "None"}));
  }
  const Json* affinity_config = Field(spec, "sessionAffinityConfig");
  if (affinity == "ClientIP") {
    const Json* client = affinity_config ? Field(*affinity_config, "clientIP") : nullptr;
    const Json* timeout = client ? Field(*client, "timeoutSeconds") : nullptr;
    if (affinity_config == nullptr) {
      errors.push_back(Required("spec.sessionAffinityConfig", "when session affinity type is ClientIP"));
    } else if (client == nullptr) {
      errors.push_back(Required("spec.sessionAffinityConfig.clientIP", "when session affinity type is ClientIP"));
    } else if (timeout == nullptr) {
      errors.push_back(Required("spec.sessionAffinityConfig.clientIP.timeoutSeconds", "when session affinity type is ClientIP"));
    } else if (const int64_t t = IntField(*client, "timeoutSeconds").value_or(0); t <= 0 || t > 86400) {
      errors.push_back(Invalid("spec.sessionAffinityConfig.clientIP.timeoutSeconds", t, "must be greater than 0 and less than 86400"));
    }
  } else if (affinity == "None" && affinity_config != nullptr) {
    errors.push_back(Forbidden("spec.sessionAffinityConfig", "must not be set when session affinity is None"));
  }
  ValidateClusterIPs(spec, type, &errors);
  const Json& external = ArrayField(spec, "externalIPs");
  for (size_t i = 0; i < external.size(); ++i) {
    const std::string field = "spec.externalIPs[" + std::to_string(i) + "]";
    const std::string ip = external[i].is_string() ? external[i].get<std::string>() : "";
    FieldErrors e = IsValidIPForLegacyField(field, ip);
    if (!e.empty()) {
      Append(&errors, std::move(e));
    } else {
      Append(&errors, ValidateNonSpecialIP(ip, field));
    }
  }
  if (type.empty()) {
    errors.push_back(Required("spec.type"));
  } else if (type != "ClusterIP" && type != "NodePort" && type != "LoadBalancer" && type != "ExternalName") {
    errors.push_back(NotSupported("spec.type", type, {"ClusterIP", "ExternalName", "LoadBalancer", "NodePort"}));
  }
  std::set<std::string> node_ports, port_keys;
  for (size_t i = 0; i < ports.size(); ++i) {
    const std::string p = "spec.ports[" + std::to_string(i) + "]";
    const int64_t node_port = IntField(ports[i], "nodePort").value_or(0);
    if (type == "ClusterIP" && node_port != 0) errors.push_back(Forbidden(p + ".nodePort", "may not be used when `type` is 'ClusterIP'"));
    if (node_port != 0 && !node_ports.insert(Str(ports[i], "protocol") + "/" + std::to_string(node_port)).second) {
      errors.push_back(Duplicate(p + ".nodePort", node_port));
    }
  }
  for (size_t i = 0; i < ports.size(); ++i) {
    const std::string protocol = Str(ports[i], "protocol");
    const int64_t port = IntField(ports[i], "port").value_or(0);
    if (!port_keys.insert(protocol + "/" + std::to_string(port)).second) {
      // kube quotes the internal ServicePort it keyed on: no JSON tags, fields in struct order.
      FieldError e = Duplicate("spec.ports[" + std::to_string(i) + "]", "");
      e.value = "{\"Name\":\"\",\"Protocol\":" + GoQuote(protocol) + ",\"AppProtocol\":null,\"Port\":" +
                std::to_string(port) + ",\"TargetPort\":0,\"NodePort\":0}";
      errors.push_back(std::move(e));
    }
  }
  const Json& ranges = ArrayField(spec, "loadBalancerSourceRanges");
  if (!ranges.empty()) {
    if (type != "LoadBalancer") errors.push_back(Forbidden("spec.LoadBalancerSourceRanges", "may only be used when `type` is 'LoadBalancer'"));
    for (size_t i = 0; i < ranges.size(); ++i) {
      std::string v = ranges[i].is_string() ? ranges[i].get<std::string>() : "";
      v.erase(0, v.find_first_not_of(" \t\n\r"));
      v.erase(v.find_last_not_of(" \t\n\r") + 1);
      Append(&errors, IsValidCIDRForLegacyField("spec.LoadBalancerSourceRanges[" + std::to_string(i) + "]", v));
    }
  }
  if (Has(spec, "allocateLoadBalancerNodePorts") && type != "LoadBalancer") {
    errors.push_back(Forbidden("spec.allocateLoadBalancerNodePorts", "may only be used when `type` is 'LoadBalancer'"));
  }
  if (type == "LoadBalancer" && !Has(spec, "allocateLoadBalancerNodePorts")) errors.push_back(Required("allocateLoadBalancerNodePorts"));
  if (const Json* lbc = Field(spec, "loadBalancerClass")) {
    if (type == "LoadBalancer") {
      Append(&errors, ValidateQualifiedName(lbc->is_string() ? lbc->get<std::string>() : "", "spec.loadBalancerClass"));
    } else {
      errors.push_back(Forbidden("spec.loadBalancerClass", "may only be used when `type` is 'LoadBalancer'"));
    }
  }
  const bool externally_accessible = type == "LoadBalancer" || type == "NodePort" || (type == "ClusterIP" && !external.empty());
  const std::string etp = Str(spec, "externalTrafficPolicy");
  if (!externally_accessible) {
    if (!etp.empty()) errors.push_back(Invalid("spec.externalTrafficPolicy", etp, "may only be set for externally-accessible services"));
  } else if (etp.empty()) {
    errors.push_back(Required("spec.externalTrafficPolicy"));
  } else if (etp != "Cluster" && etp != "Local") {
    errors.push_back(NotSupported("spec.externalTrafficPolicy", etp, {"Cluster", "Local"}));
  }
  const int64_t health = IntField(spec, "healthCheckNodePort").value_or(0);
  const bool needs_health = type == "LoadBalancer" && etp == "Local";
  if (!needs_health && health != 0) {
    errors.push_back(Invalid("spec.healthCheckNodePort", health, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  }
  if (needs_health && health != 0) AppendProblems(&errors, "spec.healthCheckNodePort", health, IsValidPortNum(health));
  const Json* itp = Field(spec, "internalTrafficPolicy");
  if (itp == nullptr && (type == "NodePort" || type == "LoadBalancer" || type == "ClusterIP")) {
    errors.push_back(Required("spec.internalTrafficPolicy"));
  }
  if (itp != nullptr && *itp != "Cluster" && *itp != "Local") {
    errors.push_back(NotSupported("spec.internalTrafficPolicy", *itp, {"Cluster", "Local"}));
  }
  if (const Json* td = Field(spec, "trafficDistribution")) {
    static const std::vector<std::string> kDistributions = {"PreferClose", "PreferSameZone", "PreferSameNode"};
    const std::string v = td->is_string() ? td->get<std::string>() : "";
    if (std::find(kDistributions.begin(), kDistributions.end(), v) == kDistributions.end()) {
      errors.push_back(NotSupported("spec.trafficDistribution", v, kDistributions));
    }
  }
  return errors;
}

FieldErrors ValidateServiceUpdate(const Json& svc, const Json& old) {
  FieldErrors errors;
  const Json* spec_ptr = Field(svc, "spec");
  const Json* old_ptr = Field(old, "spec");
  const Json spec = spec_ptr ? *spec_ptr : Json::object();
  const Json old_spec = old_ptr ? *old_ptr : Json::object();
  const bool external_name = Str(spec, "type") == "ExternalName" || Str(old_spec, "type") == "ExternalName";
  if (!external_name && !(IsHeadless(spec) && IsHeadless(old_spec))) {
    const Json& now = ArrayField(spec, "clusterIPs");
    const Json& before = ArrayField(old_spec, "clusterIPs");
    if (now.size() == before.size()) {
      for (size_t i = 0; i < before.size(); ++i) {
        if (before[i] != now[i]) errors.push_back(Invalid("spec.clusterIPs[" + std::to_string(i) + "]", now, "may not change once set"));
      }
    } else if (before.size() > now.size()) {
      if (now.empty()) errors.push_back(Invalid("spec.clusterIPs[0]", now, "primary clusterIP can not be unset"));
      if (!now.empty() && now[0] != before[0]) errors.push_back(Invalid("spec.clusterIPs[0]", now, "may not change once set"));
      if (now.size() == 1 && Str(spec, "ipFamilyPolicy") != "SingleStack") {
        errors.push_back(Invalid("spec.ipFamilyPolicy", spec.value("ipFamilyPolicy", Json()),
                                 "must be set to 'SingleStack' when releasing the secondary clusterIP"));
      }
    } else if (!before.empty() && now[0] != before[0]) {
      errors.push_back(Invalid("spec.clusterIPs[0]", now, "may not change once set"));
    }
  }
  if (!external_name && IsHeadless(spec) == IsHeadless(old_spec) && !IsHeadless(spec)) {
    const Json& now = ArrayField(spec, "ipFamilies");
    const Json& before = ArrayField(old_spec, "ipFamilies");
    if (now.size() == before.size()) {
      for (size_t i = 0; i < before.size(); ++i) {
        if (before[i] != now[i]) errors.push_back(Invalid("spec.ipFamilies[0]", now, "may not change once set"));
      }
    } else if (before.size() > now.size() && !now.empty() && now[0] != before[0]) {
      errors.push_back(Invalid("spec.ipFamilies[0]", ArrayField(spec, "clusterIPs"), "may not change once set"));
    } else if (before.size() < now.size() && !before.empty() && now[0] != before[0]) {
      errors.push_back(Invalid("spec.ipFamilies[0]", ArrayField(spec, "clusterIPs"), "may not change once set"));
    }
  }
  if (Str(spec, "type") == "LoadBalancer" && Str(old_spec, "type") == "LoadBalancer" &&
      spec.value("loadBalancerClass", Json()) != old_spec.value("loadBalancerClass", Json())) {
    errors.push_back(Invalid("spec.loadBalancerClass", spec.value("loadBalancerClass", Json()), "may not change once set"));
  }
  const bool needs_health_now = Str(spec, "type") == "LoadBalancer" && Str(spec, "externalTrafficPolicy") == "Local";
  const bool needs_health_before = Str(old_spec, "type") == "LoadBalancer" && Str(old_spec, "externalTrafficPolicy") == "Local";
  if (needs_health_now && needs_health_before &&
      IntField(spec, "healthCheckNodePort") != IntField(old_spec, "healthCheckNodePort")) {
    errors.push_back(Forbidden("spec.healthCheckNodePort", "field is immutable"));
  }
  Append(&errors, ValidateService(svc));
  return errors;
}

FieldErrors ValidateServiceStatus(const Json& svc, const Json&) {
  FieldErrors errors;
  const Json* spec = Field(svc, "spec");
  const Json* status = Field(svc, "status");
  const Json* lb = status ? Field(*status, "loadBalancer") : nullptr;
  if (lb == nullptr) return errors;
  const Json& ingress = ArrayField(*lb, "ingress");
  for (size_t i = 0; i < ingress.size(); ++i) {
    const std::string p = "status.loadBalancer.ingress[" + std::to_string(i) + "]";
    const std::string ip = Str(ingress[i], "ip");
    if (!ip.empty()) Append(&errors, IsValidIPForLegacyField(p + ".ip", ip));
    const Json* mode = Field(ingress[i], "ipMode");
    if (mode == nullptr && !ip.empty()) {
      errors.push_back(Required(p + ".ipMode", "must be specified when `ip` is set"));
    } else if (mode != nullptr && ip.empty()) {
      errors.push_back(Forbidden(p + ".ipMode", "may not be specified when `ip` is not set"));
    } else if (mode != nullptr && *mode != "VIP" && *mode != "Proxy") {
      errors.push_back(NotSupported(p + ".ipMode", *mode, {"Proxy", "VIP"}));
    }
    if (const std::string host = Str(ingress[i], "hostname"); !host.empty()) {
      AppendProblems(&errors, p + ".hostname", host, IsDns1123Subdomain(host));
      if (ParseIPSloppy(host)) errors.push_back(Invalid(p + ".hostname", host, "must be a DNS name, not an IP address"));
    }
  }
  (void)spec;
  return errors;
}

// ---- endpoints ----

FieldErrors ValidateEndpoints(const Json& ep) {
  FieldErrors errors;
  const Json& subsets = ArrayField(ep, "subsets");
  for (size_t i = 0; i < subsets.size(); ++i) {
    const Json& ss = subsets[i];
    const std::string idx = "subsets[" + std::to_string(i) + "]";
    const Json& ready = ArrayField(ss, "addresses");
    const Json& not_ready = ArrayField(ss, "notReadyAddresses");
    if (ready.empty() && not_ready.empty()) errors.push_back(Required(idx, "must specify `addresses` or `notReadyAddresses`"));
    for (const char* list : {"addresses", "notReadyAddresses"}) {
      const Json& addresses = ArrayField(ss, list);
      for (size_t a = 0; a < addresses.size(); ++a) {
        const std::string p = idx + "." + list + "[" + std::to_string(a) + "]";
        const std::string ip = Str(addresses[a], "ip");
        Append(&errors, IsValidIPForLegacyField(p + ".ip", ip));
        if (const std::string host = Str(addresses[a], "hostname"); !host.empty()) {
          Append(&errors, ValidateDns1123Label(host, p + ".hostname"));
        }
        if (const Json* node = Field(addresses[a], "nodeName")) {
          const std::string n = node->is_string() ? node->get<std::string>() : "";
          AppendProblems(&errors, p + ".nodeName", n, NameIsDnsSubdomain(n, false));
        }
        Append(&errors, ValidateNonSpecialIP(ip, p + ".ip"));
      }
    }
    const Json& ports = ArrayField(ss, "ports");
    for (size_t j = 0; j < ports.size(); ++j) {
      const std::string p = idx + ".ports[" + std::to_string(j) + "]";
      const std::string name = Str(ports[j], "name");
      if (ports.size() > 1 && name.empty()) {
        errors.push_back(Required(p + ".name"));
      } else if (!name.empty()) {
        Append(&errors, ValidateDns1123Label(name, p + ".name"));
      }
      const int64_t port = IntField(ports[j], "port").value_or(0);
      AppendProblems(&errors, p + ".port", port, IsValidPortNum(port));
      const std::string protocol = Str(ports[j], "protocol");
      if (protocol.empty()) {
        errors.push_back(Required(p + ".protocol"));
      } else if (std::find(kPortProtocols.begin(), kPortProtocols.end(), protocol) == kPortProtocols.end()) {
        errors.push_back(NotSupported(p + ".protocol", protocol, kPortProtocols));
      }
      if (const Json* app = Field(ports[j], "appProtocol")) {
        Append(&errors, ValidateQualifiedName(app->is_string() ? app->get<std::string>() : "", p + ".appProtocol"));
      }
    }
  }
  return errors;
}

FieldErrors ValidateEndpointsUpdate(const Json& ep, const Json&) { return ValidateEndpoints(ep); }

}  // namespace

void AddServiceKinds(KindTable* table) {
  (*table)["/services"] = KindValidator{ValidateService, ValidateServiceUpdate, ValidateServiceStatus};
  (*table)["/endpoints"] = KindValidator{ValidateEndpoints, ValidateEndpointsUpdate, nullptr};
}

}  // namespace kube::validation::core
