// networking.k8s.io/v1: Ingress, IngressClass and NetworkPolicy, as kube's
// pkg/apis/networking/validation checks them.
#include <nlohmann/json.hpp>

#include "validation/group_primitives.h"
#include "validation/group_validators.h"
#include "validation/object_meta.h"
#include "validation/primitives.h"

namespace kube::validation {
namespace {

using nlohmann::json;

std::string At(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

void Problems(FieldErrors* errors, const std::string& field, const std::string& value,
              const std::vector<std::string>& problems) {
  for (const auto& p : problems) errors->push_back(Invalid(field, value, p));
}

// ---- NetworkPolicy ----

void ValidatePolicyPort(const json& port, const std::string& path, FieldErrors* errors) {
  if (Has(port, "protocol")) {
    const std::string protocol = StringAt(port, "protocol");
    if (protocol != "TCP" && protocol != "UDP" && protocol != "SCTP") {
      errors->push_back(NotSupported(path + ".protocol", protocol, {"TCP", "UDP", "SCTP"}));
    }
  }
  const json number = ValueAt(port, "port");
  const auto end = IntField(port, "endPort");
  if (number.is_number_integer()) {
    const int64_t n = number.get<int64_t>();
    for (const auto& msg : IsValidPortNum(n)) errors->push_back(Invalid(path + ".port", n, msg));
    if (end) {
      if (*end < n) errors->push_back(Invalid(path + ".endPort", n, "must be greater than or equal to `port`"));
      for (const auto& msg : IsValidPortNum(*end)) errors->push_back(Invalid(path + ".endPort", *end, msg));
    }
  } else if (number.is_string()) {
    if (end) errors->push_back(Invalid(path + ".endPort", *end, "may not be specified when `port` is non-numeric"));
    Problems(errors, path + ".port", number.get<std::string>(), IsValidPortName(number.get<std::string>()));
  } else if (end) {
    errors->push_back(Invalid(path + ".endPort", *end, "may not be specified when `port` is not specified"));
  }
}

void ValidateIPBlock(const json& block, const std::string& path, FieldErrors* errors) {
  const std::string cidr = StringAt(block, "cidr");
  if (cidr.empty()) {
    errors->push_back(Required(path + ".cidr"));
    return;
  }
  Append(errors, IsValidCIDRForLegacyField(path + ".cidr", cidr));
  auto outer = ParseCidrSloppy(cidr);
  if (!outer) return;
  const json& except = ArrayField(block, "except");
  for (size_t i = 0; i < except.size(); ++i) {
    const std::string except_path = At(path + ".except", i);
    const std::string text = except[i].is_string() ? except[i].get<std::string>() : "";
    Append(errors, IsValidCIDRForLegacyField(except_path, text));
    auto inner = ParseCidrSloppy(text);
    if (!inner) continue;
    if (!outer->Contains(inner->ip) || outer->bits >= inner->bits) {
      errors->push_back(Invalid(except_path, text, "must be a strict subset of `cidr`"));
    }
  }
}

void ValidatePeer(const json& peer, const std::string& path, FieldErrors* errors) {
  int peers = 0;
  for (const char* key : {"podSelector", "namespaceSelector"}) {
    if (!Has(peer, key)) continue;
    ++peers;
    Append(errors, ValidateLabelSelector(peer[key], path + "." + key));
  }
  const bool ip_block = Has(peer, "ipBlock");
  if (ip_block) {
    ++peers;
    ValidateIPBlock(peer["ipBlock"], path + ".ipBlock", errors);
  }
  if (peers == 0) {
    errors->push_back(Required(path, "must specify a peer"));
  } else if (peers > 1 && ip_block) {
    errors->push_back(Forbidden(path, "may not specify both ipBlock and another peer"));
  }
}

FieldErrors ValidateNetworkPolicy(const json& obj) {
  FieldErrors errors;
  const json& spec = ObjectAt(obj, "spec");
  Append(&errors, ValidateLabelSelector(ObjectAt(spec, "podSelector"), "spec.podSelector"));
  for (const auto& [direction, peers] : {std::pair{"ingress", "from"}, std::pair{"egress", "to"}}) {
    const json& rules = ArrayField(spec, direction);
    for (size_t i = 0; i < rules.size(); ++i) {
      const std::string rule_path = At(std::string("spec.") + direction, i);
      const json& ports = ArrayField(rules[i], "ports");
      for (size_t p = 0; p < ports.size(); ++p) ValidatePolicyPort(ports[p], At(rule_path + ".ports", p), &errors);
      const json& list = ArrayField(rules[i], peers);
      for (size_t p = 0; p < list.size(); ++p) ValidatePeer(list[p], At(rule_path + "." + peers, p), &errors);
    }
  }
  const json& types = ArrayField(spec, "policyTypes");
  if (types.size() > 2) {
    errors.push_back(Invalid("spec.policyTypes", types, "may not specify more than two policyTypes"));
    return errors;
  }
  for (size_t i = 0; i < types.size(); ++i) {
    const std::string t = types[i].is_string() ? types[i].get<std::string>() : "";
    if (t != "Ingress" && t != "Egress") errors.push_back(NotSupported(At("spec.policyTypes", i), t, {"Ingress", "Egress"}));
  }
  return errors;
}

FieldErrors ValidateNetworkPolicyUpdate(const json& obj, const json&) { return ValidateNetworkPolicy(obj); }

// ---- Ingress ----

// validateIngressTypedLocalObjectReference.
void ValidateTypedReference(const json& ref, const std::string& path, FieldErrors* errors) {
  if (Has(ref, "apiGroup")) {
    const std::string group = StringAt(ref, "apiGroup");
    Problems(errors, path + ".apiGroup", group, IsDns1123Subdomain(group));
  }
  for (const char* key : {"kind", "name"}) {
    const std::string v = StringAt(ref, key);
    if (v.empty()) {
      errors->push_back(Required(path + "." + key, std::string(key) + " is required"));
    } else {
      Problems(errors, path + "." + key, v, PathSegmentNameProblems(v));
    }
  }
}

void ValidateBackend(const json& backend, const std::string& path, FieldErrors* errors) {
  const bool resource = Has(backend, "resource");
  const bool service = Has(backend, "service");
  if (resource && service) {
    errors->push_back(Invalid(path, "", "cannot set both resource and service backends"));
  } else if (resource) {
    ValidateTypedReference(backend["resource"], path + ".resource", errors);
  } else if (service) {
    const json& svc = backend["service"];
    const std::string name = StringAt(svc, "name");
    if (name.empty()) {
      errors->push_back(Required(path + ".service.name"));
    } else {
      Problems(errors, path + ".service.name", name, IsDns1035Label(name));
    }
    const json& port = ObjectAt(svc, "port");
    const std::string port_name = StringAt(port, "name");
    const int64_t number = IntField(port, "number").value_or(0);
    if (!port_name.empty() && number != 0) {
      errors->push_back(Invalid(path, "", "cannot set both port name & port number"));
    } else if (!port_name.empty()) {
      Problems(errors, path + ".service.port.name", port_name, IsValidPortName(port_name));
    } else if (number != 0) {
      for (const auto& msg : IsValidPortNum(number)) errors->push_back(Invalid(path + ".service.port.number", number, msg));
    } else {
      errors->push_back(Required(path, "port name or number is required"));
    }
  } else {
    errors->push_back(Invalid(path, "", "resource or service backend is required"));
  }
}

void ValidateHttpPath(const json& http_path, const std::string& path, FieldErrors* errors) {
  if (!Has(http_path, "pathType")) {
    errors->push_back(Required(path + ".pathType", "pathType must be specified"));
    return;
  }
  const std::string type = StringAt(http_path, "pathType");
  const std::string p = StringAt(http_path, "path");
  if (type == "Exact" || type == "Prefix") {
    if (p.rfind('/', 0) != 0) errors->push_back(Invalid(path + ".path", p, "must be an absolute path"));
    if (!p.empty()) {
      for (const char* seq : {"//", "/./", "/../", "%2f", "%2F"}) {
        if (p.find(seq) != std::string::npos) {
          errors->push_back(Invalid(path + ".path", p, "must not contain '" + std::string(seq) + "'"));
        }
      }
      for (const std::string suffix : {"/..", "/."}) {
        if (p.size() >= suffix.size() && p.compare(p.size() - suffix.size(), suffix.size(), suffix) == 0) {
          errors->push_back(Invalid(path + ".path", p, "cannot end with '" + suffix + "'"));
        }
      }
    }
  } else if (type == "ImplementationSpecific") {
    if (!p.empty() && p[0] != '/') errors->push_back(Invalid(path + ".path", p, "must be an absolute path"));
  } else {
    errors->push_back(NotSupported(path + ".pathType", type, {"Exact", "ImplementationSpecific", "Prefix"}));
  }
  ValidateBackend(ObjectAt(http_path, "backend"), path + ".backend", errors);
}

// The rule values of a rule (its http paths).
void ValidateRuleValue(const json& rule, const std::string& path, FieldErrors* errors) {
  if (!Has(rule, "http")) return;
  const json& paths = ArrayField(rule["http"], "paths");
  if (paths.empty()) errors->push_back(Required(path + ".http.paths"));
  for (size_t i = 0; i < paths.size(); ++i) ValidateHttpPath(paths[i], At(path + ".http.paths", i), errors);
}

bool RuleValueInvalid(const json& rule) {
  FieldErrors errors;
  ValidateRuleValue(rule, "", &errors);
  return !errors.empty();
}

void ValidateHost(const std::string& host, const std::string& field, FieldErrors* errors) {
  if (host.find('*') != std::string::npos) {
    Problems(errors, field, host, IsWildcardDns1123Subdomain(host));
  } else {
    Problems(errors, field, host, IsDns1123Subdomain(host));
  }
}

FieldErrors ValidateIngressSpec(const json& obj, const json* old) {
  FieldErrors errors;
  const json& spec = ObjectAt(obj, "spec");
  const json& rules = ArrayField(spec, "rules");
  const bool default_backend = Has(spec, "defaultBackend");
  if (rules.empty() && !default_backend) {
    errors.push_back(Invalid("spec", ValueAt(spec, "rules"), "either `defaultBackend` or `rules` must be specified"));
  }
  if (default_backend) ValidateBackend(spec["defaultBackend"], "spec.defaultBackend", &errors);
  // Data stored before a rule became invalid stays updatable (kube's allowInvalid* options).
  bool allow_invalid_wildcard_rule = false;
  bool allow_invalid_secret = false;
  if (old != nullptr) {
    const json& old_spec = ObjectAt(*old, "spec");
    for (const json& rule : ArrayField(old_spec, "rules")) {
      if (StringAt(rule, "host").find('*') != std::string::npos && RuleValueInvalid(rule)) {
        allow_invalid_wildcard_rule = true;
      }
    }
    for (const json& tls : ArrayField(old_spec, "tls")) {
      const std::string secret = StringAt(tls, "secretName");
      if (!secret.empty() && !IsDns1123Subdomain(secret).empty()) allow_invalid_secret = true;
    }
  }
  for (size_t i = 0; i < rules.size(); ++i) {
    const std::string rule_path = At("spec.rules", i);
    const std::string host = StringAt(rules[i], "host");
    bool wildcard = false;
    if (!host.empty()) {
      if (ParseIPSloppy(host)) errors.push_back(Invalid(rule_path + ".host", host, "must be a DNS name, not an IP address"));
      wildcard = host.find('*') != std::string::npos;
      ValidateHost(host, rule_path + ".host", &errors);
    }
    if (!wildcard || !allow_invalid_wildcard_rule) ValidateRuleValue(rules[i], rule_path, &errors);
  }
  const json& tls = ArrayField(spec, "tls");
  for (size_t t = 0; t < tls.size(); ++t) {
    const json& hosts = ArrayField(tls[t], "hosts");
    for (size_t i = 0; i < hosts.size(); ++i) {
      ValidateHost(hosts[i].is_string() ? hosts[i].get<std::string>() : "", At(At("spec.tls", t) + ".hosts", i), &errors);
    }
    const std::string secret = StringAt(tls[t], "secretName");
    if (!allow_invalid_secret && !secret.empty()) {
      Problems(&errors, At("spec.tls", t) + ".secretName", secret, IsDns1123Subdomain(secret));
    }
  }
  if (Has(spec, "ingressClassName")) {
    const std::string cls = StringAt(spec, "ingressClassName");
    Problems(&errors, "spec.ingressClassName", cls, IsDns1123Subdomain(cls));
  }
  return errors;
}

FieldErrors ValidateIngress(const json& obj) {
  FieldErrors errors = ValidateIngressSpec(obj, nullptr);
  const json& annotations = ObjectAt(ObjectAt(obj, "metadata"), "annotations");
  const json& spec = ObjectAt(obj, "spec");
  if (Has(annotations, "kubernetes.io/ingress.class") && Has(spec, "ingressClassName")) {
    const std::string annotation = StringAt(annotations, "kubernetes.io/ingress.class");
    if (annotation != StringAt(spec, "ingressClassName")) {
      errors.push_back(Invalid("annotations.kubernetes.io/ingress.class", annotation,
                               "must match `ingressClassName` when both are specified"));
    }
  }
  return errors;
}

FieldErrors ValidateIngressUpdate(const json& obj, const json& old) { return ValidateIngressSpec(obj, &old); }

FieldErrors ValidateIngressStatusUpdate(const json& obj, const json&) {
  FieldErrors errors;
  const json& ingress = ArrayField(ObjectAt(ObjectAt(obj, "status"), "loadBalancer"), "ingress");
  for (size_t i = 0; i < ingress.size(); ++i) {
    const std::string path = At("status.loadBalancer.ingress", i);
    const std::string ip = StringAt(ingress[i], "ip");
    if (!ip.empty()) Append(&errors, IsValidIPForLegacyField(path + ".ip", ip));
    const std::string hostname = StringAt(ingress[i], "hostname");
    if (!hostname.empty()) {
      Problems(&errors, path + ".hostname", hostname, IsDns1123Subdomain(hostname));
      if (ParseIPSloppy(hostname)) {
        errors.push_back(Invalid(path + ".hostname", hostname, "must be a DNS name, not an IP address"));
      }
    }
  }
  return errors;
}

// ---- IngressClass ----

FieldErrors ValidateIngressClass(const json& obj) {
  FieldErrors errors;
  const json& spec = ObjectAt(obj, "spec");
  const std::string controller = StringAt(spec, "controller");
  if (controller.size() > 250) errors.push_back(TooLong("spec.controller", 250));
  Append(&errors, IsDomainPrefixedPath("spec.controller", controller));
  if (!Has(spec, "parameters")) return errors;
  const json& params = spec["parameters"];
  const std::string path = "spec.parameters";
  ValidateTypedReference(params, path, &errors);
  if (!Has(params, "scope")) {
    errors.push_back(Required(path + ".scope"));
    return errors;
  }
  const std::string scope = StringAt(params, "scope");
  if (scope != "Cluster" && scope != "Namespace") {
    errors.push_back(NotSupported(path + ".scope", scope, {"Cluster", "Namespace"}));
  } else if (scope == "Namespace") {
    if (!Has(params, "namespace")) {
      errors.push_back(Required(path + ".namespace", "`parameters.scope` is set to 'Namespace'"));
    } else {
      const std::string ns = StringAt(params, "namespace");
      Problems(&errors, path + ".namespace", ns, IsDns1123Label(ns));
    }
  } else if (Has(params, "namespace")) {
    errors.push_back(Forbidden(path + ".namespace", "`parameters.scope` is set to 'Cluster'"));
  }
  return errors;
}

FieldErrors ValidateIngressClassUpdate(const json& obj, const json& old) {
  FieldErrors errors = ValidateImmutableField(ValueAt(ObjectAt(obj, "spec"), "controller"),
                                              ValueAt(ObjectAt(old, "spec"), "controller"), "spec.controller");
  Append(&errors, ValidateIngressClass(obj));
  return errors;
}

}  // namespace

void AddNetworkingKinds(KindTable* table) {
  (*table)["networking.k8s.io/networkpolicies"] = {ValidateNetworkPolicy, ValidateNetworkPolicyUpdate, nullptr};
  (*table)["networking.k8s.io/ingresses"] = {ValidateIngress, ValidateIngressUpdate, ValidateIngressStatusUpdate};
  (*table)["networking.k8s.io/ingressclasses"] = {ValidateIngressClass, ValidateIngressClassUpdate, nullptr};
}

}  // namespace kube::validation
