// Pods, PodTemplates and ReplicationControllers: kube's ValidatePodSpec and
// ValidatePodTemplateSpec (pod_spec.h), ValidatePodCreate / ValidatePodUpdate /
// ValidatePodStatusUpdate, ValidatePodTemplate and ValidateReplicationController.
#include <algorithm>
#include <limits>

#include "validation/core_internal.h"
#include "validation/pod_spec.h"
#include "validation/primitives.h"

namespace kube::validation {

namespace core {
namespace {

constexpr int64_t kMaxInt32 = std::numeric_limits<int32_t>::max();

// apimachinery ValidateAnnotations: keys are qualified names (lower-cased), 256 KiB in all.
FieldErrors ValidateAnnotations(const Json& annotations, const std::string& path) {
  FieldErrors errors;
  if (!annotations.is_object()) return errors;
  size_t total = 0;
  for (const auto& [key, value] : annotations.items()) {
    std::string lower = key;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    AppendProblems(&errors, path, key, IsQualifiedName(lower));
    total += key.size() + (value.is_string() ? value.get_ref<const std::string&>().size() : 0);
  }
  if (total > 256 * 1024) errors.push_back(TooLong(path, 256 * 1024));
  return errors;
}

// ValidatePodSpecificAnnotations: the deletion cost must be an int32.
FieldErrors ValidatePodAnnotations(const Json& annotations, const std::string& path) {
  const std::string cost_key = "controller.kubernetes.io/pod-deletion-cost";
  const Json* cost = Field(annotations, cost_key.c_str());
  if (cost == nullptr) return {};
  const std::string text = cost->is_string() ? cost->get<std::string>() : "";
  bool ok = !text.empty();
  int64_t value = 0;
  for (size_t i = 0; ok && i < text.size(); ++i) {
    if (i == 0 && (text[0] == '-' || text[0] == '+') && text.size() > 1) continue;
    if (!std::isdigit(static_cast<unsigned char>(text[i])) || value > (int64_t{1} << 40)) ok = false;
    else value = value * 10 + (text[i] - '0');
  }
  if (ok && text[0] == '-') value = -value;
  if (!ok || value > kMaxInt32 || value < -kMaxInt32 - 1) return {Invalid(Key(path, cost_key), text, "must be a 32bit integer")};
  return {};
}

FieldErrors ValidatePodSecurityContext(const Json& spec, const std::string& path) {
  FieldErrors errors;
  const Json* sc = Field(spec, "securityContext");
  if (sc == nullptr) return errors;
  const std::string p = Child(path, "securityContext");
  if (auto v = IntField(*sc, "fsGroup")) AppendProblems(&errors, Child(p, "fsGroup"), *v, IsValidGroupID(*v));
  if (auto v = IntField(*sc, "runAsUser")) AppendProblems(&errors, Child(p, "runAsUser"), *v, IsValidUserID(*v));
  if (auto v = IntField(*sc, "runAsGroup")) AppendProblems(&errors, Child(p, "runAsGroup"), *v, IsValidGroupID(*v));
  const Json& groups = ArrayField(*sc, "supplementalGroups");
  for (size_t g = 0; g < groups.size(); ++g) {
    const int64_t gid = groups[g].is_number_integer() ? groups[g].get<int64_t>() : 0;
    AppendProblems(&errors, Index(Child(p, "supplementalGroups"), g), gid, IsValidGroupID(gid));
  }
  if (BoolField(spec, "shareProcessNamespace") && BoolField(spec, "hostPID")) {
    errors.push_back(Invalid(Child(p, "shareProcessNamespace"), true, "ShareProcessNamespace and HostPID cannot both be enabled"));
  }
  const Json& sysctls = ArrayField(*sc, "sysctls");
  std::set<std::string> names;
  for (size_t i = 0; i < sysctls.size(); ++i) {
    const std::string name = Str(sysctls[i], "name");
    const std::string np = Child(Index(Child(p, "sysctls"), i), "name");
    if (name.empty()) {
      errors.push_back(Required(np));
    } else if (!names.insert(name).second) {
      errors.push_back(Duplicate(np, name));
    }
  }
  if (const Json* policy = Field(*sc, "fsGroupChangePolicy")) {
    const std::string v = policy->is_string() ? policy->get<std::string>() : "";
    if (v != "OnRootMismatch" && v != "Always") {
      errors.push_back(NotSupported(Child(p, "fsGroupChangePolicy"), v, {"Always", "OnRootMismatch"}));
    }
  }
  if (const Json* sp = Field(*sc, "seccompProfile")) Append(&errors, ValidateSeccompProfileField(*sp, Child(p, "seccompProfile")));
  if (const Json* aa = Field(*sc, "appArmorProfile")) Append(&errors, ValidateAppArmorProfileField(*aa, Child(p, "appArmorProfile")));
  if (const Json* policy = Field(*sc, "supplementalGroupsPolicy")) {
    const std::string v = policy->is_string() ? policy->get<std::string>() : "";
    if (v != "Merge" && v != "Strict") errors.push_back(NotSupported(Child(p, "supplementalGroupsPolicy"), v, {"Merge", "Strict"}));
  }
  if (const Json* policy = Field(*sc, "seLinuxChangePolicy")) {
    const std::string v = policy->is_string() ? policy->get<std::string>() : "";
    if (v != "MountOption" && v != "Recursive") {
      errors.push_back(NotSupported(Child(p, "seLinuxChangePolicy"), v, {"MountOption", "Recursive"}));
    }
  }
  return errors;
}

FieldErrors ValidateDnsConfig(const Json& spec, const std::string& path) {
  FieldErrors errors;
  const Json* config = Field(spec, "dnsConfig");
  const std::string p = Child(path, "dnsConfig");
  if (Str(spec, "dnsPolicy") == "None") {
    if (config == nullptr) return {Required(p, "must provide `dnsConfig` when `dnsPolicy` is None")};
    if (ArrayField(*config, "nameservers").empty()) {
      return {Required(Child(p, "nameservers"), "must provide at least one DNS nameserver when `dnsPolicy` is None")};
    }
  }
  if (config == nullptr) return errors;
  const Json& servers = ArrayField(*config, "nameservers");
  if (servers.size() > 3) errors.push_back(Invalid(Child(p, "nameservers"), servers, "must not have more than 3 nameservers"));
  for (size_t i = 0; i < servers.size(); ++i) {
    Append(&errors, IsValidIP(Index(Child(p, "nameservers"), i), servers[i].is_string() ? servers[i].get<std::string>() : ""));
  }
  const Json& searches = ArrayField(*config, "searches");
  if (searches.size() > 32) errors.push_back(Invalid(Child(p, "searches"), searches, "must not have more than 32 search paths"));
  size_t chars = searches.empty() ? 0 : searches.size() - 1;
  for (const Json& s : searches) chars += s.is_string() ? s.get_ref<const std::string&>().size() : 0;
  if (chars > 2048) {
    errors.push_back(Invalid(Child(p, "searches"), searches, "must not have more than 2048 characters (including spaces) in the search list"));
  }
  for (size_t i = 0; i < searches.size(); ++i) {
    std::string search = searches[i].is_string() ? searches[i].get<std::string>() : "";
    if (search == ".") continue;
    if (search.ends_with(".")) search.pop_back();
    // RelaxedDNSSearchValidation (GA): underscores allowed.
    std::string probe = search;
    std::replace(probe.begin(), probe.end(), '_', 'a');
    if (!IsDns1123Subdomain(probe).empty()) {
      AppendProblems(&errors, Index(Child(p, "searches"), i), search,
                     {RegexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', "
                                 "'-' or '.', and must start and end with an alphanumeric character",
                                 "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*", {"example.com"})});
    }
  }
  const Json& options = ArrayField(*config, "options");
  for (size_t i = 0; i < options.size(); ++i) {
    if (Str(options[i], "name").empty()) errors.push_back(Required(Index(Child(p, "options"), i), "must not be empty"));
  }
  return errors;
}

FieldErrors ValidateTopologySpread(const Json& constraints, const std::string& path) {
  FieldErrors errors;
  for (size_t i = 0; i < constraints.size(); ++i) {
    const Json& c = constraints[i];
    const std::string idx = Index(path, i);
    const int64_t skew = IntField(c, "maxSkew").value_or(0);
    if (skew <= 0) errors.push_back(Invalid(Child(idx, "maxSkew"), skew, std::string(kIsNotPositive)));
    const std::string key = Str(c, "topologyKey");
    if (key.empty()) errors.push_back(Required(Child(idx, "topologyKey"), "can not be empty"));
    const std::string action = Str(c, "whenUnsatisfiable");
    if (action != "DoNotSchedule" && action != "ScheduleAnyway") {
      errors.push_back(NotSupported(Child(idx, "whenUnsatisfiable"), action, {"DoNotSchedule", "ScheduleAnyway"}));
    }
    for (size_t j = i + 1; j < constraints.size(); ++j) {
      if (Str(constraints[j], "topologyKey") == key && Str(constraints[j], "whenUnsatisfiable") == action) {
        errors.push_back(Duplicate(Child(idx, "{topologyKey, whenUnsatisfiable}"), "{" + key + ", " + action + "}"));
        break;
      }
    }
    if (auto min_domains = IntField(c, "minDomains")) {
      if (*min_domains <= 0) errors.push_back(Invalid(Child(idx, "minDomains"), *min_domains, std::string(kIsNotPositive)));
      if (action != "DoNotSchedule") {
        errors.push_back(Invalid(Child(idx, "minDomains"), *min_domains,
                                 "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not " + action));
      }
    }
    for (const char* policy : {"nodeAffinityPolicy", "nodeTaintsPolicy"}) {
      if (const Json* v = Field(c, policy)) {
        const std::string s = v->is_string() ? v->get<std::string>() : "";
        if (s != "Honor" && s != "Ignore") errors.push_back(NotSupported(Child(idx, policy), s, {"Honor", "Ignore"}));
      }
    }
    if (const Json* s = Field(c, "labelSelector")) Append(&errors, ValidateLabelSelector(*s, Child(idx, "labelSelector")));
  }
  return errors;
}

// The fields of a PodSpec checked one by one (ValidatePodSpec after the containers).
void ValidateSpecFields(const Json& spec, const std::string& path, bool resource_is_pod, FieldErrors* errors) {
  if (BoolField(spec, "hostNetwork")) {
    const Json& containers = ArrayField(spec, "containers");
    for (size_t i = 0; i < containers.size(); ++i) {
      const Json& ports = ArrayField(containers[i], "ports");
      for (size_t j = 0; j < ports.size(); ++j) {
        const int64_t hp = IntField(ports[j], "hostPort").value_or(0);
        const int64_t cp = IntField(ports[j], "containerPort").value_or(0);
        if ((resource_is_pod || hp != 0) && hp != cp) {
          errors->push_back(Invalid(Child(Index(Child(Index(Child(path, "containers"), i), "ports"), j), "hostPort"), hp,
                                    "must match `containerPort` when `hostNetwork` is true"));
        }
      }
    }
  }
  const std::string restart = Str(spec, "restartPolicy");
  if (restart.empty()) {
    errors->push_back(Required(Child(path, "restartPolicy")));
  } else if (restart != "Always" && restart != "OnFailure" && restart != "Never") {
    errors->push_back(NotSupported(Child(path, "restartPolicy"), restart, {"Always", "OnFailure", "Never"}));
  }
  const std::string dns = Str(spec, "dnsPolicy");
  if (dns.empty()) {
    errors->push_back(Required(Child(path, "dnsPolicy")));
  } else if (dns != "ClusterFirstWithHostNet" && dns != "ClusterFirst" && dns != "Default" && dns != "None") {
    errors->push_back(NotSupported(Child(path, "dnsPolicy"), dns, {"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"}));
  }
  if (const Json* ns = Field(spec, "nodeSelector")) Append(errors, ValidateLabels(*ns, Child(path, "nodeSelector")));
  Append(errors, ValidatePodSecurityContext(spec, path));
  if (const Json* affinity = Field(spec, "affinity")) Append(errors, ValidateAffinity(*affinity, Child(path, "affinity")));
  Append(errors, ValidateDnsConfig(spec, path));
  const Json& gates = ArrayField(spec, "readinessGates");
  for (size_t i = 0; i < gates.size(); ++i) {
    Append(errors, ValidateQualifiedName(Str(gates[i], "conditionType"), Child(Index(Child(path, "readinessGates"), i), "conditionType")));
  }
  const Json& scheduling = ArrayField(spec, "schedulingGates");
  std::set<std::string> seen_gates;
  for (size_t i = 0; i < scheduling.size(); ++i) {
    const std::string name = Str(scheduling[i], "name");
    Append(errors, ValidateQualifiedName(name, Index(Child(path, "schedulingGates"), i)));
    if (!seen_gates.insert(name).second) errors->push_back(Duplicate(Index(Child(path, "schedulingGates"), i), name));
  }
  Append(errors, ValidateTopologySpread(ArrayField(spec, "topologySpreadConstraints"), Child(path, "topologySpreadConstraints")));
  const Json* sc = Field(spec, "securityContext");
  const Json* host_users = sc ? Field(*sc, "hostUsers") : nullptr;
  if (host_users != nullptr && host_users->is_boolean() && !host_users->get<bool>()) {
    if (BoolField(spec, "hostNetwork")) errors->push_back(Forbidden(Child(path, "hostNetwork"), "when `pod.Spec.HostUsers` is false"));
    if (BoolField(spec, "hostPID")) errors->push_back(Forbidden(Child(path, "HostPID"), "when `pod.Spec.HostUsers` is false"));
    if (BoolField(spec, "hostIPC")) errors->push_back(Forbidden(Child(path, "HostIPC"), "when `pod.Spec.HostUsers` is false"));
  }
  if (const std::string sa = Str(spec, "serviceAccountName"); !sa.empty()) {
    AppendProblems(errors, Child(path, "serviceAccountName"), sa, ServiceAccountNameProblems(sa));
  }
  if (const std::string node = Str(spec, "nodeName"); !node.empty()) {
    AppendProblems(errors, Child(path, "nodeName"), node, NameIsDnsSubdomain(node, false));
  }
  if (auto deadline = IntField(spec, "activeDeadlineSeconds"); deadline && (*deadline < 1 || *deadline > kMaxInt32)) {
    errors->push_back(Invalid(Child(path, "activeDeadlineSeconds"), *deadline, InclusiveRangeError(1, kMaxInt32)));
  }
  for (const char* f : {"hostname", "subdomain"}) {
    if (const std::string v = Str(spec, f); !v.empty()) Append(errors, ValidateDns1123Label(v, Child(path, f)));
  }
  Append(errors, ValidateTolerations(ArrayField(spec, "tolerations"), Child(path, "tolerations")));
  const Json& aliases = ArrayField(spec, "hostAliases");
  for (size_t i = 0; i < aliases.size(); ++i) {
    const std::string idx = Index(Child(path, "hostAliases"), i);
    Append(errors, IsValidIP(Child(idx, "ip"), Str(aliases[i], "ip")));
    const Json& hostnames = ArrayField(aliases[i], "hostnames");
    for (size_t j = 0; j < hostnames.size(); ++j) {
      Append(errors, ValidateDns1123Subdomain(hostnames[j].is_string() ? hostnames[j].get<std::string>() : "",
                                              Index(Child(idx, "hostnames"), j)));
    }
  }
  if (const std::string pc = Str(spec, "priorityClassName"); !pc.empty()) {
    AppendProblems(errors, Child(path, "priorityClassName"), pc, NameIsDnsSubdomain(pc, false));
  }
  if (const Json* rc = Field(spec, "runtimeClassName")) {
    const std::string name = rc->is_string() ? rc->get<std::string>() : "";
    AppendProblems(errors, Child(path, "runtimeClassName"), name, NameIsDnsSubdomain(name, false));
  }
  if (const Json* pp = Field(spec, "preemptionPolicy")) {
    const std::string v = pp->is_string() ? pp->get<std::string>() : "";
    if (v.empty()) {
      errors->push_back(Required(Child(path, "preemptionPolicy")));
    } else if (v != "PreemptLowerPriority" && v != "Never") {
      errors->push_back(NotSupported(Child(path, "preemptionPolicy"), v, {"PreemptLowerPriority", "Never"}));
    }
  }
  if (const Json* overhead = Field(spec, "overhead")) {
    Append(errors, ValidateContainerResources(Json{{"limits", *overhead}}, {}, Child(path, "overhead")));
  }
  if (const Json* os = Field(spec, "os")) {
    const std::string name = Str(*os, "name");
    if (name.empty()) {
      errors->push_back(Required(Child(Child(path, "os"), "name"), "cannot be empty"));
    } else if (name != "linux" && name != "windows") {
      errors->push_back(NotSupported(Child(path, "os"), name, {"linux", "windows"}));
    }
  }
}

FieldErrors ValidatePodSpecWithMeta(const Json& spec, const Json* meta, const std::string& path, bool resource_is_pod) {
  FieldErrors errors;
  if (!Has(spec, "terminationGracePeriodSeconds")) errors.push_back(Required(Child(path, "terminationGracePeriodSeconds")));
  std::map<std::string, const Json*> volumes;
  Append(&errors, ValidateVolumes(ArrayField(spec, "volumes"), meta, Child(path, "volumes"), resource_is_pod, &volumes));
  std::set<std::string> claims;
  const Json& resource_claims = ArrayField(spec, "resourceClaims");
  for (size_t i = 0; i < resource_claims.size(); ++i) {
    const Json& claim = resource_claims[i];
    const std::string idx = Index(Child(path, "resourceClaims"), i);
    const std::string name = Str(claim, "name");
    if (name.empty()) {
      errors.push_back(Required(Child(idx, "name")));
    } else if (claims.contains(name)) {
      errors.push_back(Duplicate(Child(idx, "name"), name));
    } else {
      Append(&errors, ValidateDns1123Label(name, Child(idx, "name")));
      claims.insert(name);
    }
    const bool by_name = Has(claim, "resourceClaimName");
    const bool by_template = Has(claim, "resourceClaimTemplateName");
    if (by_name && by_template) {
      errors.push_back(Invalid(idx, claim, "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified"));
    }
    if (!by_name && !by_template) {
      errors.push_back(Invalid(idx, claim, "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"));
    }
  }
  Append(&errors, ValidateContainers(spec, volumes, claims, path));
  ValidateSpecFields(spec, path, resource_is_pod, &errors);
  return errors;
}

// validatePodMetadataAndSpec (the part beyond ObjectMeta).
FieldErrors ValidatePodMetadataAndSpec(const Json& pod) {
  FieldErrors errors;
  const Json* meta = Field(pod, "metadata");
  if (meta != nullptr) {
    if (const Json* annotations = Field(*meta, "annotations")) Append(&errors, ValidatePodAnnotations(*annotations, "metadata.annotations"));
  }
  const Json* spec_ptr = Field(pod, "spec");
  const Json spec = spec_ptr ? *spec_ptr : Json::object();
  Append(&errors, ValidatePodSpecWithMeta(spec, meta, "spec", true));
  if (Str(spec, "serviceAccountName").empty()) {
    const Json& volumes = ArrayField(spec, "volumes");
    for (size_t vi = 0; vi < volumes.size(); ++vi) {
      const Json* projected = Field(volumes[vi], "projected");
      if (projected == nullptr) continue;
      const Json& sources = ArrayField(*projected, "sources");
      for (size_t si = 0; si < sources.size(); ++si) {
        if (Has(sources[si], "serviceAccountToken")) {
          errors.push_back(Forbidden("spec.volumes[" + std::to_string(vi) + "].projected.sources[" + std::to_string(si) +
                                         "].serviceAccountToken",
                                     "must not be specified when serviceAccountName is not set"));
        }
      }
    }
  }
  for (const char* list : {"containers", "initContainers"}) {
    const Json& containers = ArrayField(spec, list);
    for (size_t i = 0; i < containers.size(); ++i) {
      const std::string image = Str(containers[i], "image");
      const size_t first = image.find_first_not_of(" \t\n\r\f\v");
      const size_t last = image.find_last_not_of(" \t\n\r\f\v");
      const bool padded = !image.empty() && (first != 0 || last != image.size() - 1);
      if (padded) errors.push_back(Invalid("spec." + std::string(list) + "[" + std::to_string(i) + "].image", image,
                                           "must not have leading or trailing whitespace"));
    }
  }
  return errors;
}

FieldErrors ValidatePodCreate(const Json& pod) {
  FieldErrors errors = ValidatePodMetadataAndSpec(pod);
  const Json* spec = Field(pod, "spec");
  if (spec != nullptr) {
    if (!ArrayField(*spec, "ephemeralContainers").empty()) errors.push_back(Forbidden("spec.ephemeralContainers", "cannot be set on create"));
    if (!Str(*spec, "nodeName").empty() && !ArrayField(*spec, "schedulingGates").empty()) {
      errors.push_back(Forbidden("spec.nodeName", "cannot be set until all schedulingGates have been cleared"));
    }
  }
  return errors;
}

// A short rendering of what differs between two specs, for the "may not change" message (kube
// prints a Go cmp.Diff of its internal structs there).
std::string SpecDiff(const Json& old_spec, const Json& new_spec) {
  std::string out;
  std::set<std::string> keys;
  for (const auto& [k, _] : old_spec.items()) keys.insert(k);
  for (const auto& [k, _] : new_spec.items()) keys.insert(k);
  for (const auto& k : keys) {
    const Json a = old_spec.contains(k) ? old_spec[k] : Json();
    const Json b = new_spec.contains(k) ? new_spec[k] : Json();
    if (a == b) continue;
    out += "  - " + k + ": " + GoJsonMarshal(a) + "\n  + " + k + ": " + GoJsonMarshal(b) + "\n";
  }
  return out;
}

FieldErrors ValidatePodUpdate(const Json& pod, const Json& old) {
  FieldErrors errors = ValidatePodMetadataAndSpec(pod);
  const Json* spec_ptr = Field(pod, "spec");
  const Json* old_ptr = Field(old, "spec");
  const Json spec = spec_ptr ? *spec_ptr : Json::object();
  const Json old_spec = old_ptr ? *old_ptr : Json::object();
  for (const char* list : {"containers", "initContainers"}) {
    const Json& now = ArrayField(spec, list);
    const Json& before = ArrayField(old_spec, list);
    if (now.size() != before.size()) {
      errors.push_back(Forbidden("spec." + std::string(list), "pod updates may not add or remove containers"));
      return errors;
    }
  }
  if (auto deadline = IntField(spec, "activeDeadlineSeconds")) {
    if (*deadline < 0 || *deadline > kMaxInt32) {
      errors.push_back(Invalid("spec.activeDeadlineSeconds", *deadline, InclusiveRangeError(0, kMaxInt32)));
      return errors;
    }
    if (auto before = IntField(old_spec, "activeDeadlineSeconds"); before && *before < *deadline) {
      errors.push_back(Invalid("spec.activeDeadlineSeconds", *deadline, "must be less than or equal to previous value"));
      return errors;
    }
  } else if (Has(old_spec, "activeDeadlineSeconds")) {
    errors.push_back(Invalid("spec.activeDeadlineSeconds", Json(), "must not update from a positive integer to nil value"));
  }
  // Tolerations: every old one must still be there (its tolerationSeconds may change).
  const Json& tolerations = ArrayField(spec, "tolerations");
  for (const Json& before : ArrayField(old_spec, "tolerations")) {
    Json a = before;
    a.erase("tolerationSeconds");
    const bool found = std::any_of(tolerations.begin(), tolerations.end(), [&](const Json& t) {
      Json b = t;
      b.erase("tolerationSeconds");
      return a == b;
    });
    if (!found) {
      errors.push_back(Forbidden("spec.tolerations", "existing toleration can not be modified except its tolerationSeconds"));
      break;
    }
  }
  // Scheduling gates: only deletions.
  std::set<std::string> old_gates;
  for (const Json& g : ArrayField(old_spec, "schedulingGates")) old_gates.insert(Str(g, "name"));
  const Json& gates = ArrayField(spec, "schedulingGates");
  for (size_t i = 0; i < gates.size(); ++i) {
    const std::string name = Str(gates[i], "name");
    if (!old_gates.contains(name)) {
      errors.push_back(Forbidden("spec.schedulingGates[" + std::to_string(i) + "].name",
                                 "only deletion is allowed, but found new scheduling gate '" + name + "'"));
    }
  }
  if (spec == old_spec) return errors;
  Json munged = spec;
  for (const char* list : {"containers", "initContainers"}) {
    Json* now = munged.contains(list) && munged[list].is_array() ? &munged[list] : nullptr;
    const Json& before = ArrayField(old_spec, list);
    for (size_t i = 0; now != nullptr && i < now->size() && i < before.size(); ++i) {
      if ((*now)[i].is_object()) {
        if (before[i].contains("image")) {
          (*now)[i]["image"] = before[i]["image"];
        } else {
          (*now)[i].erase("image");
        }
      }
    }
  }
  for (const char* f : {"activeDeadlineSeconds", "schedulingGates", "tolerations"}) {
    if (old_spec.contains(f)) {
      munged[f] = old_spec[f];
    } else {
      munged.erase(f);
    }
  }
  auto old_grace = IntField(old_spec, "terminationGracePeriodSeconds");
  if (old_grace && *old_grace < 0 && IntField(munged, "terminationGracePeriodSeconds") == 1) {
    munged["terminationGracePeriodSeconds"] = *old_grace;
  }
  // Gated pods may gain node selector entries.
  if (!ArrayField(old_spec, "schedulingGates").empty()) {
    const Json* now = Field(munged, "nodeSelector");
    const Json* before = Field(old_spec, "nodeSelector");
    if (before != nullptr && before->is_object()) {
      for (const auto& [k, v] : before->items()) {
        if (now == nullptr || !now->contains(k) || (*now)[k] != v) {
          errors.push_back(Invalid("spec.nodeSelector", now ? *now : Json(),
                                   "only additions to spec.nodeSelector are allowed (no mutations or deletions)"));
          break;
        }
      }
    }
    if (before) {
      munged["nodeSelector"] = *before;
    } else {
      munged.erase("nodeSelector");
    }
  }
  if (munged != old_spec) {
    errors.push_back(Forbidden(
        "spec",
        "pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,"
        "`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),"
        "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n" +
            SpecDiff(old_spec, munged)));
  }
  return errors;
}

FieldErrors ValidatePodStatusUpdate(const Json& pod, const Json& old) {
  FieldErrors errors;
  const Json* spec = Field(pod, "spec");
  const Json* old_spec = Field(old, "spec");
  if ((spec ? Str(*spec, "nodeName") : "") != (old_spec ? Str(*old_spec, "nodeName") : "")) {
    errors.push_back(Forbidden("status.nodeName", "may not be changed directly"));
  }
  const Json* status = Field(pod, "status");
  if (status == nullptr) return errors;
  const Json& conditions = ArrayField(*status, "conditions");
  for (size_t i = 0; i < conditions.size(); ++i) {
    const std::string type = Str(conditions[i], "type");
    if (type == "PodScheduled" || type == "Ready" || type == "Initialized") continue;
    Append(&errors, ValidateQualifiedName(type, "metadata.conditions[" + std::to_string(i) + "].Type"));
  }
  for (const char* list : {"podIPs", "hostIPs"}) {
    const Json& ips = ArrayField(*status, list);
    std::set<std::string> seen;
    for (size_t i = 0; i < ips.size(); ++i) {
      const std::string ip = Str(ips[i], "ip");
      Append(&errors, IsValidIPForLegacyField("status." + std::string(list) + "[" + std::to_string(i) + "]", ip));
      if (!seen.insert(ip).second) errors.push_back(Duplicate("status." + std::string(list) + "[" + std::to_string(i) + "]", ips[i]));
    }
  }
  return errors;
}

FieldErrors ValidatePodTemplateKind(const Json& obj) {
  const Json* tmpl = Field(obj, "template");
  return ValidatePodTemplateSpec(tmpl ? *tmpl : Json::object(), "template");
}

FieldErrors ValidatePodTemplateKindUpdate(const Json& obj, const Json&) { return ValidatePodTemplateKind(obj); }

FieldErrors ValidateReplicationController(const Json& rc) {
  FieldErrors errors;
  const Json* spec_ptr = Field(rc, "spec");
  const Json spec = spec_ptr ? *spec_ptr : Json::object();
  Append(&errors, ValidateNonnegativeField(IntField(spec, "minReadySeconds").value_or(0), "spec.minReadySeconds"));
  const Json* selector = Field(spec, "selector");
  const bool empty_selector = selector == nullptr || !selector->is_object() || selector->empty();
  if (empty_selector) errors.push_back(Required("spec.selector"));
  Append(&errors, ValidateNonnegativeField(IntField(spec, "replicas").value_or(0), "spec.replicas"));
  const Json* tmpl = Field(spec, "template");
  if (tmpl == nullptr) {
    errors.push_back(Required("spec.template"));
    return errors;
  }
  const Json* meta = Field(*tmpl, "metadata");
  const Json* labels = meta ? Field(*meta, "labels") : nullptr;
  if (!empty_selector) {
    bool matches = true;
    for (const auto& [k, v] : selector->items()) {
      if (labels == nullptr || !labels->is_object() || !labels->contains(k) || (*labels)[k] != v) matches = false;
    }
    if (!matches) {
      errors.push_back(Invalid("spec.template.metadata.labels", labels ? *labels : Json(), "`selector` does not match template `labels`"));
    }
  }
  Append(&errors, ValidatePodTemplateSpec(*tmpl, "spec.template"));
  const Json* tspec = Field(*tmpl, "spec");
  const std::string restart = tspec ? Str(*tspec, "restartPolicy") : "";
  if (restart != "Always") errors.push_back(NotSupported("spec.template.spec.restartPolicy", restart, {"Always"}));
  if (tspec && Has(*tspec, "activeDeadlineSeconds")) {
    errors.push_back(Forbidden("spec.template.spec.activeDeadlineSeconds", "activeDeadlineSeconds in ReplicationController is not Supported"));
  }
  return errors;
}

FieldErrors ValidateReplicationControllerUpdate(const Json& rc, const Json&) { return ValidateReplicationController(rc); }

FieldErrors ValidateReplicationControllerStatus(const Json& rc, const Json&) {
  FieldErrors errors;
  const Json* status = Field(rc, "status");
  if (status == nullptr) return errors;
  const int64_t replicas = IntField(*status, "replicas").value_or(0);
  for (const char* f : {"replicas", "fullyLabeledReplicas", "readyReplicas", "availableReplicas", "observedGeneration"}) {
    Append(&errors, ValidateNonnegativeField(IntField(*status, f).value_or(0), "status." + std::string(f)));
  }
  for (const char* f : {"fullyLabeledReplicas", "readyReplicas", "availableReplicas"}) {
    const int64_t v = IntField(*status, f).value_or(0);
    if (v > replicas) errors.push_back(Invalid("status." + std::string(f), v, "cannot be greater than status.replicas"));
  }
  const int64_t available = IntField(*status, "availableReplicas").value_or(0);
  if (available > IntField(*status, "readyReplicas").value_or(0)) {
    errors.push_back(Invalid("status.availableReplicas", available, "cannot be greater than readyReplicas"));
  }
  return errors;
}

}  // namespace

void AddPodKinds(KindTable* table) {
  (*table)["/pods"] = KindValidator{ValidatePodCreate, ValidatePodUpdate, ValidatePodStatusUpdate};
  (*table)["/podtemplates"] = KindValidator{ValidatePodTemplateKind, ValidatePodTemplateKindUpdate, nullptr};
  (*table)["/replicationcontrollers"] =
      KindValidator{ValidateReplicationController, ValidateReplicationControllerUpdate, ValidateReplicationControllerStatus};
}

}  // namespace core

FieldErrors ValidatePodSpec(const nlohmann::json& spec, const std::string& path, bool resource_is_pod) {
  return core::ValidatePodSpecWithMeta(spec, nullptr, path, resource_is_pod);
}

FieldErrors ValidatePodTemplateSpec(const nlohmann::json& tmpl, const std::string& path) {
  FieldErrors errors;
  const nlohmann::json* meta = Field(tmpl, "metadata");
  if (meta != nullptr) {
    if (const auto* labels = Field(*meta, "labels")) Append(&errors, ValidateLabels(*labels, Child(path, "labels")));
    if (const auto* annotations = Field(*meta, "annotations")) {
      Append(&errors, core::ValidateAnnotations(*annotations, Child(path, "annotations")));
      Append(&errors, core::ValidatePodAnnotations(*annotations, Child(path, "annotations")));
    }
  }
  const nlohmann::json* spec = Field(tmpl, "spec");
  const nlohmann::json empty = nlohmann::json::object();
  Append(&errors, ValidatePodSpec(spec ? *spec : empty, Child(path, "spec"), false));
  if (spec != nullptr && !ArrayField(*spec, "ephemeralContainers").empty()) {
    errors.push_back(Forbidden(Child(Child(path, "spec"), "ephemeralContainers"), "ephemeral containers not allowed in pod template"));
  }
  return errors;
}

}  // namespace kube::validation
