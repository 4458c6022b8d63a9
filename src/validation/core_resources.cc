// Resource names and quantities, container resource requirements, security contexts,
// scheduling constraints (tolerations, taints, node selectors, affinity), special IPs and
// finalizer names: the helpers of kube's core validation that several kinds share.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "validation/core_internal.h"
#include "validation/object_meta.h"
#include "validation/primitives.h"

namespace kube::validation::core {

const std::vector<std::string> kPortProtocols = {"SCTP", "TCP", "UDP"};

// ---- names and reads ----

std::vector<std::string> NameIsDnsSubdomain(std::string_view name, bool prefix) {
  std::string masked(name);
  if (prefix && masked.size() > 1 && masked.back() == '-') masked = masked.substr(0, masked.size() - 2) + "a";
  return IsDns1123Subdomain(masked);
}

std::vector<std::string> NameIsDnsLabel(std::string_view name, bool prefix) {
  std::string masked(name);
  if (prefix && masked.size() > 1 && masked.back() == '-') masked = masked.substr(0, masked.size() - 2) + "a";
  return IsDns1123Label(masked);
}

std::string Str(const Json& obj, const char* key) {
  if (!obj.is_object()) return "";
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

bool Has(const Json& obj, const char* key) { return Field(obj, key) != nullptr; }

bool BoolField(const Json& obj, const char* key) {
  const Json* v = Field(obj, key);
  return v != nullptr && v->is_boolean() && v->get<bool>();
}

// ---- resource names (pkg/apis/core/helper) ----

namespace {

const std::set<std::string> kStandardResources = {
    "cpu",      "memory",   "ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage",
    "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "services", "replicationcontrollers",
    "resourcequotas", "secrets", "persistentvolumeclaims", "configmaps", "storage", "requests.storage",
    "services.nodeports", "services.loadbalancers"};
const std::set<std::string> kStandardQuotaResources = {
    "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory", "requests.storage",
    "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "services",
    "replicationcontrollers", "resourcequotas", "secrets", "configmaps", "persistentvolumeclaims",
    "services.nodeports", "services.loadbalancers"};
const std::set<std::string> kIntegerResources = {
    "pods", "services", "replicationcontrollers", "resourcequotas", "secrets", "configmaps",
    "persistentvolumeclaims", "services.nodeports", "services.loadbalancers"};

bool IsNativeResource(std::string_view name) {
  return name.find('/') == std::string_view::npos || name.find("kubernetes.io/") != std::string_view::npos;
}
bool IsHugePage(std::string_view name) { return name.starts_with("hugepages-"); }
bool IsQuotaHugePage(std::string_view name) { return IsHugePage(name) || name.starts_with("requests.hugepages-"); }
bool IsExtendedResource(std::string_view name) {
  if (IsNativeResource(name) || name.starts_with("requests.")) return false;
  return IsQualifiedName("requests." + std::string(name)).empty();
}
bool IsOvercommitAllowed(std::string_view name) { return IsNativeResource(name) && !IsHugePage(name); }
bool IsIntegerResource(std::string_view name) {
  return kIntegerResources.contains(std::string(name)) || IsExtendedResource(name);
}

}  // namespace

FieldErrors ValidateResourceName(std::string_view name, const std::string& field) {
  FieldErrors errors;
  AppendProblems(&errors, field, name, IsQualifiedName(name));
  if (!errors.empty()) return errors;
  if (name.find('/') == std::string_view::npos && !kStandardResources.contains(std::string(name)) && !IsQuotaHugePage(name)) {
    errors.push_back(Invalid(field, name, "must be a standard resource type or fully qualified"));
  }
  return errors;
}

FieldErrors ValidateContainerResourceName(std::string_view name, const std::string& field) {
  FieldErrors errors = ValidateResourceName(name, field);
  if (name.find('/') == std::string_view::npos) {
    if (name != "cpu" && name != "memory" && name != "ephemeral-storage" && !IsHugePage(name)) {
      errors.push_back(Invalid(field, name, "must be a standard resource for containers"));
    }
  } else if (!IsNativeResource(name) && !IsExtendedResource(name)) {
    errors.push_back(Invalid(field, name, "doesn't follow extended resource name standard"));
  }
  return errors;
}

FieldErrors ValidateQuotaResourceName(std::string_view name, const std::string& field) {
  FieldErrors errors = ValidateResourceName(name, field);
  if (name.find('/') == std::string_view::npos && !kStandardQuotaResources.contains(std::string(name)) &&
      !IsQuotaHugePage(name)) {
    errors.push_back(Invalid(field, name, "must be a standard resource for quota"));
  }
  return errors;
}

// ---- quantities ----

FieldErrors ValidateResourceQuantityValue(std::string_view resource, const Json& value, const std::string& field) {
  FieldErrors errors;
  auto q = ParseQuantity(value);
  if (!q) return errors;  // the decoder refuses unparsable quantities before validation
  if (q->Sign() < 0) errors.push_back(Invalid(field, QuantityText(value), std::string(kIsNegative)));
  if (IsIntegerResource(resource)) {
    const double milli = std::ceil(q->AsApproximateFloat64() * 1000);
    if (std::fmod(milli, 1000) != 0) errors.push_back(Invalid(field, QuantityText(value), "must be an integer"));
  }
  return errors;
}

FieldErrors ValidatePositiveQuantityValue(const Json& value, const std::string& field) {
  auto q = ParseQuantity(value);
  if (q && q->Sign() <= 0) return {Invalid(field, QuantityText(value), std::string(kIsNotPositive))};
  return {};
}

FieldErrors ValidateContainerResources(const Json& resources, const std::set<std::string>& pod_claims,
                                       const std::string& path) {
  FieldErrors errors;
  const std::string lim_path = Child(path, "limits");
  const std::string req_path = Child(path, "requests");
  bool lim_cpu_mem = false, req_cpu_mem = false, lim_huge = false, req_huge = false;
  const Json* limits = Field(resources, "limits");
  if (limits != nullptr && limits->is_object()) {
    for (const auto& [name, q] : limits->items()) {
      const std::string f = Key(lim_path, name);
      Append(&errors, ValidateContainerResourceName(name, f));
      Append(&errors, ValidateResourceQuantityValue(name, q, f));
      lim_huge = lim_huge || IsHugePage(name);
      lim_cpu_mem = lim_cpu_mem || name == "cpu" || name == "memory";
    }
  }
  if (const Json* requests = Field(resources, "requests"); requests != nullptr && requests->is_object()) {
    for (const auto& [name, q] : requests->items()) {
      const std::string f = Key(req_path, name);
      Append(&errors, ValidateContainerResourceName(name, f));
      Append(&errors, ValidateResourceQuantityValue(name, q, f));
      const Json* limit = limits != nullptr && limits->is_object() && limits->contains(name) ? &(*limits)[name] : nullptr;
      if (limit != nullptr) {
        auto rq = ParseQuantity(q);
        auto lq = ParseQuantity(*limit);
        if (rq && lq) {
          const int cmp = rq->Compare(*lq);
          if (cmp != 0 && !IsOvercommitAllowed(name)) {
            errors.push_back(Invalid(req_path, QuantityText(q), "must be equal to " + name + " limit of " + QuantityText(*limit)));
          } else if (cmp > 0) {
            errors.push_back(Invalid(req_path, QuantityText(q),
                                     "must be less than or equal to " + name + " limit of " + QuantityText(*limit)));
          }
        }
      } else if (!IsOvercommitAllowed(name)) {
        errors.push_back(Required(lim_path, "Limit must be set for non overcommitable resources"));
      }
      req_huge = req_huge || IsHugePage(name);
      req_cpu_mem = req_cpu_mem || name == "cpu" || name == "memory";
    }
  }
  if (!lim_cpu_mem && !req_cpu_mem && (req_huge || lim_huge)) errors.push_back(Forbidden(path, "HugePages require cpu or memory"));
  const Json& claims = ArrayField(resources, "claims");
  std::set<std::string> names;
  for (size_t i = 0; i < claims.size(); ++i) {
    const std::string name = Str(claims[i], "name");
    const std::string idx = Index(Child(path, "claims"), i);
    if (name.empty()) {
      errors.push_back(Required(idx));
      continue;
    }
    std::string key = name;
    if (const std::string request = Str(claims[i], "request"); !request.empty()) {
      Append(&errors, ValidateDns1123Label(request, Child(idx, "request")));
      key += "/" + request;
    }
    if (names.contains(name) || !names.insert(key).second) errors.push_back(Duplicate(idx, key));
    if (!pod_claims.contains(name)) {
      FieldError e = NotFound(idx, name);
      e.detail = "must be one of the names in pod.spec.resourceClaims";
      if (pod_claims.empty()) {
        e.detail += " which is empty";
      } else {
        e.detail += ": " + std::accumulate(std::next(pod_claims.begin()), pod_claims.end(), *pod_claims.begin(),
                                           [](std::string a, const std::string& b) { return a + ", " + b; });
      }
      errors.push_back(std::move(e));
    }
  }
  return errors;
}

// ---- security contexts ----

FieldErrors ValidateSeccompProfileField(const Json& sp, const std::string& path) {
  FieldErrors errors;
  const std::string type = Str(sp, "type");
  if (type.empty()) {
    errors.push_back(Required(Child(path, "type"), "type is required when seccompProfile is set"));
  } else if (type != "Localhost" && type != "RuntimeDefault" && type != "Unconfined") {
    errors.push_back(NotSupported(Child(path, "type"), type, {"Localhost", "RuntimeDefault", "Unconfined"}));
  }
  const Json* profile = Field(sp, "localhostProfile");
  if (type == "Localhost") {
    if (profile == nullptr) {
      errors.push_back(Required(Child(path, "localhostProfile"), "must be set when seccomp type is Localhost"));
    } else {
      Append(&errors, ValidateLocalDescendingPath(Str(sp, "localhostProfile"), Child(path, "localhostProfile")));
    }
  } else if (profile != nullptr) {
    errors.push_back(Invalid(Child(path, "localhostProfile"), sp, "can only be set when seccomp type is Localhost"));
  }
  return errors;
}

FieldErrors ValidateAppArmorProfileField(const Json& profile, const std::string& path) {
  FieldErrors errors;
  const std::string type = Str(profile, "type");
  const Json* local = Field(profile, "localhostProfile");
  if (type == "Localhost") {
    const std::string value = Str(profile, "localhostProfile");
    std::string trimmed = value;
    trimmed.erase(0, trimmed.find_first_not_of(" \t\n\r\f\v"));
    trimmed.erase(trimmed.find_last_not_of(" \t\n\r\f\v") + 1);
    if (local == nullptr) {
      errors.push_back(Required(Child(path, "localhostProfile"), "must be set when AppArmor type is Localhost"));
    } else if (trimmed != value) {
      errors.push_back(Invalid(Child(path, "localhostProfile"), value, "must not be padded with whitespace"));
    } else if (trimmed.empty()) {
      errors.push_back(Required(Child(path, "localhostProfile"), "must be set when AppArmor type is Localhost"));
    }
    if (value.size() > 4095) errors.push_back(TooLong(Child(path, "localhostProfile"), 4095));
  } else if (type == "RuntimeDefault" || type == "Unconfined") {
    if (local != nullptr) {
      errors.push_back(Invalid(Child(path, "localhostProfile"), *local, "can only be set when AppArmor type is Localhost"));
    }
  } else if (type.empty()) {
    errors.push_back(Required(Child(path, "type"), "type is required when appArmorProfile is set"));
  } else {
    errors.push_back(NotSupported(Child(path, "type"), type, {"Localhost", "RuntimeDefault", "Unconfined"}));
  }
  return errors;
}

FieldErrors ValidateSecurityContext(const Json& sc, const std::string& path, bool host_users) {
  FieldErrors errors;
  if (auto uid = IntField(sc, "runAsUser")) AppendProblems(&errors, Child(path, "runAsUser"), *uid, IsValidUserID(*uid));
  if (auto gid = IntField(sc, "runAsGroup")) AppendProblems(&errors, Child(path, "runAsGroup"), *gid, IsValidGroupID(*gid));
  if (const Json* pm = Field(sc, "procMount")) {
    const std::string mount = pm->is_string() ? pm->get<std::string>() : "";
    if (mount != "Default" && mount != "Unmasked") {
      errors.push_back(NotSupported(Child(path, "procMount"), mount, {"Default", "Unmasked"}));
    }
    if (host_users && mount == "Unmasked") {
      errors.push_back(Invalid(Child(path, "procMount"), mount, "`hostUsers` must be false to use `Unmasked`"));
    }
  }
  if (const Json* sp = Field(sc, "seccompProfile")) Append(&errors, ValidateSeccompProfileField(*sp, Child(path, "seccompProfile")));
  const Json* escalation = Field(sc, "allowPrivilegeEscalation");
  if (escalation != nullptr && escalation->is_boolean() && !escalation->get<bool>()) {
    if (BoolField(sc, "privileged")) {
      errors.push_back(Invalid(path, sc, "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"));
    }
    if (const Json* caps = Field(sc, "capabilities")) {
      for (const Json& cap : ArrayField(*caps, "add")) {
        if (cap == "CAP_SYS_ADMIN") {
          errors.push_back(Invalid(path, sc, "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"));
        }
      }
    }
  }
  if (const Json* aa = Field(sc, "appArmorProfile")) Append(&errors, ValidateAppArmorProfileField(*aa, Child(path, "appArmorProfile")));
  return errors;
}

// ---- scheduling ----

namespace {

void ValidateTaintEffect(const Json& t, bool allow_empty, const std::string& field, FieldErrors* errors) {
  const std::string effect = Str(t, "effect");
  if (!allow_empty && effect.empty()) {
    errors->push_back(Required(field));
    return;
  }
  if (effect != "NoSchedule" && effect != "PreferNoSchedule" && effect != "NoExecute") {
    errors->push_back(NotSupported(field, effect, {"NoSchedule", "PreferNoSchedule", "NoExecute"}));
  }
}

std::string JoinProblems(const std::vector<std::string>& problems) {
  std::string out;
  for (size_t i = 0; i < problems.size(); ++i) out += (i ? ";" : "") + problems[i];
  return out;
}

FieldErrors ValidateNodeSelectorRequirement(const Json& rq, bool allow_invalid_values, const std::string& path) {
  FieldErrors errors;
  const std::string op = Str(rq, "operator");
  const Json& values = ArrayField(rq, "values");
  if (op == "In" || op == "NotIn") {
    if (values.empty()) errors.push_back(Required(Child(path, "values"), "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (op == "Exists" || op == "DoesNotExist") {
    if (!values.empty()) {
      errors.push_back(Forbidden(Child(path, "values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    }
  } else if (op == "Gt" || op == "Lt") {
    if (values.size() != 1) {
      errors.push_back(Required(Child(path, "values"), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
    }
  } else {
    errors.push_back(Invalid(Child(path, "operator"), op, "not a valid selector operator"));
  }
  const std::string key = Str(rq, "key");
  AppendProblems(&errors, Child(path, "key"), key, IsQualifiedName(key));
  if (!allow_invalid_values) {
    for (size_t i = 0; i < values.size(); ++i) {
      const std::string v = values[i].is_string() ? values[i].get<std::string>() : "";
      AppendProblems(&errors, Index(Child(path, "values"), i), v, IsValidLabelValue(v));
    }
  }
  return errors;
}

FieldErrors ValidateNodeSelectorTerm(const Json& term, bool allow_invalid_values, const std::string& path) {
  FieldErrors errors;
  const Json& exprs = ArrayField(term, "matchExpressions");
  for (size_t j = 0; j < exprs.size(); ++j) {
    Append(&errors, ValidateNodeSelectorRequirement(exprs[j], allow_invalid_values, Index(Child(path, "matchExpressions"), j)));
  }
  const Json& fields = ArrayField(term, "matchFields");
  for (size_t j = 0; j < fields.size(); ++j) {
    const std::string p = Index(Child(path, "matchFields"), j);
    const std::string op = Str(fields[j], "operator");
    const Json& values = ArrayField(fields[j], "values");
    if (op == "In" || op == "NotIn") {
      if (values.size() != 1) {
        errors.push_back(Required(Child(p, "values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
      }
    } else {
      errors.push_back(Invalid(Child(p, "operator"), op, "not a valid selector operator"));
    }
    const std::string key = Str(fields[j], "key");
    if (key != "metadata.name") {
      errors.push_back(Invalid(Child(p, "key"), key, "not a valid field selector key"));
    } else {
      for (size_t i = 0; i < values.size(); ++i) {
        const std::string v = values[i].is_string() ? values[i].get<std::string>() : "";
        AppendProblems(&errors, Index(Child(p, "values"), i), v, NameIsDnsSubdomain(v, false));
      }
    }
  }
  return errors;
}

FieldErrors ValidatePodAffinityTerm(const Json& term, const std::string& path) {
  FieldErrors errors;
  if (const Json* s = Field(term, "labelSelector")) Append(&errors, ValidateLabelSelector(*s, Child(path, "labelSelector")));
  if (const Json* s = Field(term, "namespaceSelector")) Append(&errors, ValidateLabelSelector(*s, Child(path, "namespaceSelector")));
  for (const Json& ns : ArrayField(term, "namespaces")) {
    const std::string name = ns.is_string() ? ns.get<std::string>() : "";
    AppendProblems(&errors, Child(path, "namespace"), name, NameIsDnsLabel(name, false));
  }
  const std::string key = Str(term, "topologyKey");
  if (key.empty()) errors.push_back(Required(Child(path, "topologyKey"), "can not be empty"));
  AppendProblems(&errors, Child(path, "topologyKey"), key, IsQualifiedName(key));
  return errors;
}

FieldErrors ValidatePodAffinity(const Json& affinity, const std::string& path) {
  FieldErrors errors;
  const std::string required_path = Child(path, "requiredDuringSchedulingIgnoredDuringExecution");
  const Json& required = ArrayField(affinity, "requiredDuringSchedulingIgnoredDuringExecution");
  for (size_t i = 0; i < required.size(); ++i) Append(&errors, ValidatePodAffinityTerm(required[i], Index(required_path, i)));
  const std::string preferred_path = Child(path, "preferredDuringSchedulingIgnoredDuringExecution");
  const Json& preferred = ArrayField(affinity, "preferredDuringSchedulingIgnoredDuringExecution");
  for (size_t i = 0; i < preferred.size(); ++i) {
    const int64_t weight = IntField(preferred[i], "weight").value_or(0);
    if (weight <= 0 || weight > 100) errors.push_back(Invalid(Child(Index(preferred_path, i), "weight"), weight, "must be in the range 1-100"));
    const Json* term = Field(preferred[i], "podAffinityTerm");
    Append(&errors, ValidatePodAffinityTerm(term ? *term : Json::object(), Child(Index(preferred_path, i), "podAffinityTerm")));
  }
  return errors;
}

}  // namespace

FieldErrors ValidateNodeSelector(const Json& selector, const std::string& path) {
  const Json& terms = ArrayField(selector, "nodeSelectorTerms");
  const std::string terms_path = Child(path, "nodeSelectorTerms");
  if (terms.empty()) return {Required(terms_path, "must have at least one node selector term")};
  FieldErrors errors;
  for (size_t i = 0; i < terms.size(); ++i) Append(&errors, ValidateNodeSelectorTerm(terms[i], false, Index(terms_path, i)));
  return errors;
}

FieldErrors ValidateAffinity(const Json& affinity, const std::string& path) {
  FieldErrors errors;
  if (const Json* na = Field(affinity, "nodeAffinity")) {
    const std::string p = Child(path, "nodeAffinity");
    if (const Json* req = Field(*na, "requiredDuringSchedulingIgnoredDuringExecution")) {
      Append(&errors, ValidateNodeSelector(*req, Child(p, "requiredDuringSchedulingIgnoredDuringExecution")));
    }
    const Json& preferred = ArrayField(*na, "preferredDuringSchedulingIgnoredDuringExecution");
    const std::string pp = Child(p, "preferredDuringSchedulingIgnoredDuringExecution");
    for (size_t i = 0; i < preferred.size(); ++i) {
      const int64_t weight = IntField(preferred[i], "weight").value_or(0);
      if (weight <= 0 || weight > 100) errors.push_back(Invalid(Child(Index(pp, i), "weight"), weight, "must be in the range 1-100"));
      const Json* pref = Field(preferred[i], "preference");
      Append(&errors, ValidateNodeSelectorTerm(pref ? *pref : Json::object(), true, Child(Index(pp, i), "preference")));
    }
  }
  if (const Json* pa = Field(affinity, "podAffinity")) Append(&errors, ValidatePodAffinity(*pa, Child(path, "podAffinity")));
  if (const Json* pa = Field(affinity, "podAntiAffinity")) Append(&errors, ValidatePodAffinity(*pa, Child(path, "podAntiAffinity")));
  return errors;
}

FieldErrors ValidateTolerations(const Json& tolerations, const std::string& path) {
  FieldErrors errors;
  for (size_t i = 0; i < tolerations.size(); ++i) {
    const Json& t = tolerations[i];
    const std::string idx = Index(path, i);
    const std::string key = Str(t, "key");
    const std::string op = Str(t, "operator");
    const std::string value = Str(t, "value");
    if (!key.empty()) AppendProblems(&errors, Child(idx, "key"), key, IsQualifiedName(key));
    if (key.empty() && op != "Exists") {
      errors.push_back(Invalid(Child(idx, "operator"), op,
                               "operator must be Exists when `key` is empty, which means \"match all values and all keys\""));
    }
    if (Has(t, "tolerationSeconds") && Str(t, "effect") != "NoExecute") {
      errors.push_back(Invalid(Child(idx, "effect"), Str(t, "effect"), "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (op == "Equal" || op.empty()) {
      if (auto problems = IsValidLabelValue(value); !problems.empty()) {
        errors.push_back(Invalid(Child(idx, "operator"), value, JoinProblems(problems)));
      }
    } else if (op == "Exists") {
      if (!value.empty()) errors.push_back(Invalid(Child(idx, "operator"), value, "value must be empty when `operator` is 'Exists'"));
    } else {
      errors.push_back(NotSupported(Child(idx, "operator"), op, {"Equal", "Exists"}));
    }
    if (!Str(t, "effect").empty()) ValidateTaintEffect(t, true, Child(idx, "effect"), &errors);
  }
  return errors;
}

FieldErrors ValidateTaints(const Json& taints, const std::string& path) {
  FieldErrors errors;
  std::map<std::string, std::set<std::string>> unique;
  for (size_t i = 0; i < taints.size(); ++i) {
    const Json& t = taints[i];
    const std::string idx = Index(path, i);
    const std::string key = Str(t, "key");
    AppendProblems(&errors, Child(idx, "key"), key, IsQualifiedName(key));
    if (auto problems = IsValidLabelValue(Str(t, "value")); !problems.empty()) {
      errors.push_back(Invalid(Child(idx, "value"), Str(t, "value"), JoinProblems(problems)));
    }
    ValidateTaintEffect(t, false, Child(idx, "effect"), &errors);
    const std::string effect = Str(t, "effect");
    if (!unique[effect].insert(key).second) {
      // kube quotes the internal Taint struct: no JSON tags, fields in struct order.
      FieldError e = Duplicate(idx, "");
      e.value = "{\"Key\":" + GoQuote(key) + ",\"Value\":" + GoQuote(Str(t, "value")) + ",\"Effect\":" + GoQuote(effect) +
                ",\"TimeAdded\":null}";
      e.detail = "taints must be unique by key and effect pair";
      errors.push_back(std::move(e));
    }
  }
  return errors;
}

// ---- networking and finalizers ----

FieldErrors ValidateNonSpecialIP(std::string_view ip_text, const std::string& field) {
  auto ip = ParseIPSloppy(ip_text);
  if (!ip) return {Invalid(field, ip_text, "must be a valid IP address")};
  FieldErrors errors;
  if (ip->IsUnspecified()) errors.push_back(Invalid(field, ip_text, "may not be unspecified (" + std::string(ip_text) + ")"));
  if (ip->IsLoopback()) errors.push_back(Invalid(field, ip_text, "may not be in the loopback range (127.0.0.0/8, ::1/128)"));
  if (ip->IsLinkLocalUnicast()) errors.push_back(Invalid(field, ip_text, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"));
  if (ip->IsLinkLocalMulticast()) {
    errors.push_back(Invalid(field, ip_text, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"));
  }
  return errors;
}

FieldErrors ValidateFinalizerName(std::string_view name, const std::string& field) {
  FieldErrors errors;
  AppendProblems(&errors, field, name, IsQualifiedName(name));
  if (name.find('/') == std::string_view::npos && name != "kubernetes" && name != "orphan" && name != "foregroundDeletion") {
    errors.push_back(Invalid(field, name, "name is neither a standard finalizer name nor is it fully qualified"));
  }
  return errors;
}

}  // namespace kube::validation::core
