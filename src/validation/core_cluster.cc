// Nodes, LimitRanges, ResourceQuotas, core Events, PersistentVolumes and PersistentVolumeClaims:
// kube's ValidateNode(Update), ValidateLimitRange, ValidateResourceQuota(Update), the legacy
// (core v1) event validation, ValidatePersistentVolume(Update) and
// ValidatePersistentVolumeClaim(Update).
#include <algorithm>

#include "util/go_format.h"
#include "validation/core_internal.h"
#include "validation/primitives.h"

namespace kube::validation::core {

namespace {

// The object's spec, or an empty object (a reference either way, so it may be iterated).
const Json& Spec(const Json& obj) {
  static const Json kEmpty = Json::object();
  const Json* spec = Field(obj, "spec");
  return spec ? *spec : kEmpty;
}

// ---- nodes ----

FieldErrors ValidateNodeResources(const Json& node) {
  FieldErrors errors;
  const Json* status = Field(node, "status");
  if (status == nullptr) return errors;
  for (const char* list : {"capacity", "allocatable"}) {
    const Json* resources = Field(*status, list);
    if (resources == nullptr || !resources->is_object()) continue;
    for (const auto& [name, q] : resources->items()) {
      Append(&errors, ValidateResourceQuantityValue(name, q, "status." + std::string(list) + "." + name));
    }
  }
  return errors;
}

FieldErrors ValidateNode(const Json& node) {
  FieldErrors errors;
  const Json spec = Spec(node);
  // kube reports spec.taints under metadata (its path starts from the object's metadata).
  Append(&errors, ValidateTaints(ArrayField(spec, "taints"), "metadata.taints"));
  Append(&errors, ValidateNodeResources(node));
  const Json& cidrs = ArrayField(spec, "podCIDRs");
  for (size_t i = 0; i < cidrs.size(); ++i) {
    Append(&errors, IsValidCIDRForLegacyField("spec.podCIDRs[" + std::to_string(i) + "]", cidrs[i].is_string() ? cidrs[i].get<std::string>() : ""));
  }
  if (cidrs.size() > 1) {
    std::set<bool> families;
    for (const Json& c : cidrs) families.insert(c.is_string() && c.get_ref<const std::string&>().find(':') != std::string::npos);
    if (cidrs.size() > 2 || families.size() != 2) {
      errors.push_back(Invalid("spec.podCIDRs", cidrs, "may specify no more than one CIDR for each IP family"));
    }
    std::set<std::string> seen;
    for (size_t i = 0; i < cidrs.size(); ++i) {
      const std::string c = cidrs[i].is_string() ? cidrs[i].get<std::string>() : "";
      if (!seen.insert(c).second) errors.push_back(Duplicate("spec.podCIDRs[" + std::to_string(i) + "]", c));
    }
  }
  return errors;
}

FieldErrors ValidateNodeUpdate(const Json& node, const Json& old) {
  FieldErrors errors;
  const Json spec = Spec(node);
  const Json old_spec = Spec(old);
  Append(&errors, ValidateNodeResources(node));
  const Json* status = Field(node, "status");
  if (status != nullptr) {
    const Json& addresses = ArrayField(*status, "addresses");
    for (size_t i = 0; i < addresses.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (addresses[j] == addresses[i]) {
          FieldError e = Duplicate("status.addresses[" + std::to_string(i) + "]", "");
          e.value = "{\"Type\":" + GoQuote(Str(addresses[i], "type")) + ",\"Address\":" + GoQuote(Str(addresses[i], "address")) + "}";
          errors.push_back(std::move(e));
          break;
        }
      }
    }
  }
  const Json& old_cidrs = ArrayField(old_spec, "podCIDRs");
  if (!old_cidrs.empty() && old_cidrs != ArrayField(spec, "podCIDRs")) {
    errors.push_back(Forbidden("spec.podCIDRs", "node updates may not change podCIDR except from \"\" to valid"));
  }
  const std::string old_provider = Str(old_spec, "providerID");
  if (!old_provider.empty() && old_provider != Str(spec, "providerID")) {
    errors.push_back(Forbidden("spec.providerID", "node updates may not change providerID except from \"\" to valid"));
  }
  Append(&errors, ValidateTaints(ArrayField(spec, "taints"), "metadata.taints"));
  if (Str(spec, "externalID") != Str(old_spec, "externalID")) errors.push_back(Forbidden("spec.externalID", "may not be updated"));
  return errors;
}

// ---- limit ranges and quotas ----

FieldErrors ValidateLimitRangeResourceName(const std::string& type, const std::string& name, const std::string& field) {
  if (type == "Pod" || type == "Container") return ValidateContainerResourceName(name, field);
  return ValidateResourceName(name, field);
}

FieldErrors ValidateLimitRange(const Json& lr) {
  FieldErrors errors;
  const Json spec = Spec(lr);
  const Json& limits = ArrayField(spec, "limits");
  std::set<std::string> types;
  for (size_t i = 0; i < limits.size(); ++i) {
    const Json& limit = limits[i];
    const std::string idx = "spec.limits[" + std::to_string(i) + "]";
    const std::string type = Str(limit, "type");
    FieldErrors type_errors;
    AppendProblems(&type_errors, idx + ".type", type, IsQualifiedName(type));
    if (type_errors.empty() && type.find('/') == std::string::npos && type != "Pod" && type != "Container" &&
        type != "PersistentVolumeClaim") {
      type_errors.push_back(Invalid(idx + ".type", type, "must be a standard limit type or fully qualified"));
    }
    Append(&errors, std::move(type_errors));
    if (!types.insert(type).second) errors.push_back(Duplicate(idx + ".type", type));
    std::map<std::string, std::map<std::string, Json>> by_kind;  // kind -> resource -> quantity
    std::set<std::string> keys;
    auto collect = [&](const char* kind) {
      const Json* m = Field(limit, kind);
      if (m == nullptr || !m->is_object()) return;
      for (const auto& [name, q] : m->items()) {
        Append(&errors, ValidateLimitRangeResourceName(type, name, Key(idx + "." + kind, name)));
        keys.insert(name);
        by_kind[kind][name] = q;
      }
    };
    collect("max");
    collect("min");
    if (type == "Pod") {
      if (const Json* d = Field(limit, "default"); d && !d->empty()) errors.push_back(Forbidden(idx + ".default", "may not be specified when `type` is 'Pod'"));
      if (const Json* d = Field(limit, "defaultRequest"); d && !d->empty()) {
        errors.push_back(Forbidden(idx + ".defaultRequest", "may not be specified when `type` is 'Pod'"));
      }
    } else {
      collect("default");
      collect("defaultRequest");
    }
    if (type == "PersistentVolumeClaim" && !by_kind["min"].contains("storage") && !by_kind["max"].contains("storage")) {
      errors.push_back(Required(idx + ".limits", "either minimum or maximum storage value is required, but neither was provided"));
    }
    collect("maxLimitRequestRatio");
    for (const std::string& k : keys) {
      auto get = [&](const char* kind) -> std::optional<std::pair<cel::Quantity, std::string>> {
        auto it = by_kind[kind].find(k);
        if (it == by_kind[kind].end()) return std::nullopt;
        auto q = ParseQuantity(it->second);
        if (!q) return std::nullopt;
        return std::make_pair(*q, QuantityText(it->second));
      };
      auto mn = get("min"), mx = get("max"), def = get("default"), req = get("defaultRequest"), ratio = get("maxLimitRequestRatio");
      if (mn && mx && mn->first.Compare(mx->first) > 0) {
        errors.push_back(Invalid(Key(idx + ".min", k), mn->second, "min value " + mn->second + " is greater than max value " + mx->second));
      }
      if (req && mn && mn->first.Compare(req->first) > 0) {
        errors.push_back(Invalid(Key(idx + ".defaultRequest", k), req->second,
                                 "min value " + mn->second + " is greater than default request value " + req->second));
      }
      if (req && mx && req->first.Compare(mx->first) > 0) {
        errors.push_back(Invalid(Key(idx + ".defaultRequest", k), req->second,
                                 "default request value " + req->second + " is greater than max value " + mx->second));
      }
      if (req && def && req->first.Compare(def->first) > 0) {
        errors.push_back(Invalid(Key(idx + ".defaultRequest", k), req->second,
                                 "default request value " + req->second + " is greater than default limit value " + def->second));
      }
      if (def && mn && mn->first.Compare(def->first) > 0) {
        errors.push_back(Invalid(Key(idx + ".default", k), mn->second, "min value " + mn->second + " is greater than default value " + def->second));
      }
      if (def && mx && def->first.Compare(mx->first) > 0) {
        errors.push_back(Invalid(Key(idx + ".default", k), mx->second, "default value " + def->second + " is greater than max value " + mx->second));
      }
      if (ratio && ratio->first.Compare(cel::Quantity::FromInt(1)) < 0) {
        errors.push_back(Invalid(Key(idx + ".maxLimitRequestRatio", k), ratio->second, "ratio " + ratio->second + " is less than 1"));
      }
    }
  }
  return errors;
}

FieldErrors ValidateQuotaResources(const Json* resources, const std::string& path) {
  FieldErrors errors;
  if (resources == nullptr || !resources->is_object()) return errors;
  for (const auto& [name, q] : resources->items()) {
    Append(&errors, ValidateQuotaResourceName(name, Key(path, name)));
    Append(&errors, ValidateResourceQuantityValue(name, q, Key(path, name)));
  }
  return errors;
}

FieldErrors ValidateQuotaSpec(const Json& spec) {
  FieldErrors errors = ValidateQuotaResources(Field(spec, "hard"), "spec.hard");
  static const std::set<std::string> kScopes = {"Terminating", "NotTerminating", "BestEffort", "NotBestEffort",
                                                "PriorityClass", "CrossNamespacePodAffinity", "VolumeAttributesClass"};
  const Json& scopes = ArrayField(spec, "scopes");
  std::set<std::string> seen;
  for (const Json& s : scopes) {
    const std::string scope = s.is_string() ? s.get<std::string>() : "";
    if (!kScopes.contains(scope)) errors.push_back(Invalid("spec.scopes", scopes, "unsupported scope"));
    seen.insert(scope);
  }
  if ((seen.contains("BestEffort") && seen.contains("NotBestEffort")) || (seen.contains("Terminating") && seen.contains("NotTerminating"))) {
    errors.push_back(Invalid("spec.scopes", scopes, "conflicting scopes"));
  }
  if (const Json* selector = Field(spec, "scopeSelector")) {
    const Json& exprs = ArrayField(*selector, "matchExpressions");
    for (const Json& req : exprs) {
      const std::string p = "spec.scopeSelector.matchExpressions";
      const std::string scope = Str(req, "scopeName");
      const std::string op = Str(req, "operator");
      const Json& values = ArrayField(req, "values");
      if (!kScopes.contains(scope)) errors.push_back(Invalid(p + ".scopeName", scope, "unsupported scope"));
      if ((scope == "BestEffort" || scope == "NotBestEffort" || scope == "Terminating" || scope == "NotTerminating" ||
           scope == "CrossNamespacePodAffinity") && op != "Exists") {
        errors.push_back(Invalid(p + ".operator", op,
                                 "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, "
                                 "ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"));
      }
      if (op == "In" || op == "NotIn") {
        if (values.empty()) errors.push_back(Required(p + ".values", "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
      } else if (op == "Exists" || op == "DoesNotExist") {
        if (!values.empty()) {
          errors.push_back(Invalid(p + ".values", values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
        }
      } else {
        errors.push_back(Invalid(p + ".operator", op, "not a valid selector operator"));
      }
    }
  }
  return errors;
}

FieldErrors ValidateResourceQuota(const Json& rq) {
  FieldErrors errors = ValidateQuotaSpec(Spec(rq));
  if (const Json* status = Field(rq, "status")) {
    Append(&errors, ValidateQuotaResources(Field(*status, "hard"), "status.hard"));
    Append(&errors, ValidateQuotaResources(Field(*status, "used"), "status.used"));
  }
  return errors;
}

FieldErrors ValidateResourceQuotaUpdate(const Json& rq, const Json& old) {
  FieldErrors errors = ValidateQuotaSpec(Spec(rq));
  std::set<std::string> now, before;
  for (const Json& s : ArrayField(Spec(rq), "scopes")) now.insert(s.is_string() ? s.get<std::string>() : "");
  for (const Json& s : ArrayField(Spec(old), "scopes")) before.insert(s.is_string() ? s.get<std::string>() : "");
  if (now != before) errors.push_back(Invalid("spec.scopes", ArrayField(Spec(rq), "scopes"), std::string(kFieldImmutable)));
  return errors;
}

FieldErrors ValidateResourceQuotaStatus(const Json& rq, const Json&) {
  FieldErrors errors;
  if (const Json* status = Field(rq, "status")) {
    Append(&errors, ValidateQuotaResources(Field(*status, "hard"), "status.hard"));
    Append(&errors, ValidateQuotaResources(Field(*status, "used"), "status.used"));
  }
  return errors;
}

// ---- core v1 events (legacyValidateEvent: the only checks the core API runs) ----

FieldErrors ValidateEvent(const Json& event) {
  FieldErrors errors;
  const Json* meta = Field(event, "metadata");
  const std::string ns = meta ? Str(*meta, "namespace") : "";
  const Json* involved = Field(event, "involvedObject");
  const std::string involved_ns = involved ? Str(*involved, "namespace") : "";
  const Json* event_time = Field(event, "eventTime");
  const bool has_time = event_time != nullptr && !(event_time->is_string() && event_time->get_ref<const std::string&>().empty());
  if (!has_time) {
    if (involved_ns.empty() ? (!ns.empty() && ns != "default") : ns != involved_ns) {
      errors.push_back(Invalid("involvedObject.namespace", involved_ns, "does not match event.namespace"));
    }
  } else {
    if (involved_ns.empty() && ns != "default" && ns != "kube-system") {
      errors.push_back(Invalid("involvedObject.namespace", involved_ns, "does not match event.namespace"));
    }
    const std::string controller = Str(event, "reportingComponent");
    if (controller.empty()) errors.push_back(Required("reportingController"));
    AppendProblems(&errors, "reportingController", controller, IsQualifiedName(controller));
    const std::string instance = Str(event, "reportingInstance");
    if (instance.empty()) errors.push_back(Required("reportingInstance"));
    if (instance.size() > 128) errors.push_back(Invalid("reportingInstance", "", "can have at most 128 characters"));
    const std::string action = Str(event, "action");
    if (action.empty()) errors.push_back(Required("action"));
    if (action.size() > 128) errors.push_back(Invalid("action", "", "can have at most 128 characters"));
    const std::string reason = Str(event, "reason");
    if (reason.empty()) errors.push_back(Required("reason"));
    if (reason.size() > 128) errors.push_back(Invalid("reason", "", "can have at most 128 characters"));
    if (Str(event, "message").size() > 1024) errors.push_back(Invalid("message", "", "can have at most 1024 characters"));
  }
  AppendProblems(&errors, "namespace", ns, IsDns1123Subdomain(ns));
  return errors;
}

FieldErrors ValidateEventUpdate(const Json& event, const Json&) { return ValidateEvent(event); }

// ---- persistent volumes and claims ----

FieldErrors ValidatePersistentVolume(const Json& pv) {
  const Json* meta = Field(pv, "metadata");
  return ValidatePersistentVolumeSpec(Spec(pv), meta ? Str(*meta, "name") : "", "spec");
}

// The PersistentVolumeSource part of a PV spec: every field but the ones listed.
Json PvSource(const Json& spec) {
  Json source = spec;
  for (const char* f : {"capacity", "accessModes", "claimRef", "persistentVolumeReclaimPolicy", "storageClassName",
                        "mountOptions", "volumeMode", "nodeAffinity", "volumeAttributesClassName"}) {
    source.erase(f);
  }
  return source;
}

std::string Diff(const Json& before, const Json& after) {
  std::string out;
  std::set<std::string> keys;
  for (const auto& [k, _] : before.items()) keys.insert(k);
  for (const auto& [k, _] : after.items()) keys.insert(k);
  for (const auto& k : keys) {
    const Json a = before.contains(k) ? before[k] : Json();
    const Json b = after.contains(k) ? after[k] : Json();
    if (a != b) out += "  - " + k + ": " + GoJsonMarshal(a) + "\n  + " + k + ": " + GoJsonMarshal(b) + "\n";
  }
  return out;
}

FieldErrors ValidatePersistentVolumeUpdate(const Json& pv, const Json& old) {
  FieldErrors errors = ValidatePersistentVolume(pv);
  Json now = PvSource(Spec(pv));
  const Json before = PvSource(Spec(old));
  // A CSI volume may gain a controllerExpandSecretRef.
  if (before.contains("csi") && now.contains("csi") && !before["csi"].contains("controllerExpandSecretRef")) {
    now["csi"].erase("controllerExpandSecretRef");
  }
  if (now != before) {
    errors.push_back(Forbidden("spec.persistentvolumesource", "spec.persistentvolumesource is immutable after creation\n" + Diff(before, now)));
  }
  Append(&errors, ValidateImmutableField(Spec(pv).value("volumeMode", Json()), Spec(old).value("volumeMode", Json()), "volumeMode"));
  if (const Json* before_affinity = Field(Spec(old), "nodeAffinity")) {
    const Json now_affinity = Spec(pv).value("nodeAffinity", Json());
    if (now_affinity != *before_affinity) {
      errors.push_back(Invalid("nodeAffinity", now_affinity, std::string(kFieldImmutable) + ", except for updating from beta label to GA"));
    }
  }
  return errors;
}

FieldErrors ValidatePersistentVolumeClaim(const Json& pvc) { return ValidatePersistentVolumeClaimSpec(Spec(pvc), "spec"); }

FieldErrors ValidatePersistentVolumeClaimUpdate(const Json& pvc, const Json& old) {
  FieldErrors errors = ValidatePersistentVolumeClaim(pvc);
  Json now = Spec(pvc);
  Json before = Spec(old);
  if (Str(before, "volumeName").empty()) {
    if (now.contains("volumeName")) {
      before["volumeName"] = now["volumeName"];
    } else {
      before.erase("volumeName");
    }
  }
  // A claim without a class may gain one (the beta annotation's, when it has one).
  const std::string beta_key = "volume.beta.kubernetes.io/storage-class";
  const Json* old_meta = Field(old, "metadata");
  const Json* old_annotations = old_meta ? Field(*old_meta, "annotations") : nullptr;
  const Json* new_meta = Field(pvc, "metadata");
  const Json* new_annotations = new_meta ? Field(*new_meta, "annotations") : nullptr;
  const bool old_has_beta = old_annotations != nullptr && old_annotations->contains(beta_key);
  const std::string old_beta = old_has_beta ? Str(*old_annotations, beta_key.c_str()) : "";
  const std::string new_beta = new_annotations ? Str(*new_annotations, beta_key.c_str()) : "";
  if (!Has(before, "storageClassName") && Has(now, "storageClassName") &&
      (!old_has_beta || Str(now, "storageClassName") == old_beta)) {
    now.erase("storageClassName");
  } else if (old_beta != new_beta) {
    errors.push_back(Invalid("metadata.annotations." + beta_key, new_beta, std::string(kFieldImmutable)));
  }
  const Json* status = Field(pvc, "status");
  const bool bound = status != nullptr && Str(*status, "phase") == "Bound";
  if (bound) {
    const Json* before_resources = Field(before, "resources");
    const Json* before_requests = before_resources ? Field(*before_resources, "requests") : nullptr;
    if (now.contains("resources") && now["resources"].is_object() && now["resources"].contains("requests")) {
      if (before_requests != nullptr && before_requests->contains("storage")) {
        now["resources"]["requests"]["storage"] = (*before_requests)["storage"];
      } else {
        now["resources"]["requests"].erase("storage");
      }
    }
    if (now.contains("volumeAttributesClassName")) {
      if (before.contains("volumeAttributesClassName")) {
        now["volumeAttributesClassName"] = before["volumeAttributesClassName"];
      } else {
        now.erase("volumeAttributesClassName");
      }
    }
  }
  if (now != before) {
    errors.push_back(Forbidden("spec", "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n" +
                                           Diff(before, now)));
  }
  auto storage_of = [](const Json& obj, const char* a, const char* b) -> std::optional<cel::Quantity> {
    const Json* x = Field(obj, a);
    const Json* y = x ? Field(*x, b) : nullptr;
    const Json* s = y ? Field(*y, "storage") : nullptr;
    return s ? ParseQuantity(*s) : std::nullopt;
  };
  auto new_size = storage_of(Spec(pvc), "resources", "requests");
  auto old_size = storage_of(Spec(old), "resources", "requests");
  const Json* old_status = Field(old, "status");
  auto status_size = old_status ? storage_of(Json{{"s", *old_status}}, "s", "capacity") : std::nullopt;
  if (new_size && old_size && new_size->Compare(*old_size) < 0 &&
      status_size && new_size->Compare(*status_size) <= 0) {
    errors.push_back(Forbidden("spec.resources.requests.storage", "field can not be less than status.capacity"));
  }
  Append(&errors, ValidateImmutableField(Spec(pvc).value("volumeMode", Json()), Spec(old).value("volumeMode", Json()), "volumeMode"));
  return errors;
}

FieldErrors ValidatePersistentVolumeClaimStatus(const Json& pvc, const Json&) {
  FieldErrors errors;
  if (ArrayField(Spec(pvc), "accessModes").empty()) errors.push_back(Required("Spec.accessModes"));
  const Json* status = Field(pvc, "status");
  const Json* capacity = status ? Field(*status, "capacity") : nullptr;
  if (capacity != nullptr && capacity->is_object()) {
    for (const auto& [name, q] : capacity->items()) {
      auto parsed = ParseQuantity(q);
      if (parsed && parsed->Sign() < 0) errors.push_back(Invalid(Key("status.capacity", name), QuantityText(q), "must be a valid resource quantity"));
    }
  }
  return errors;
}

}  // namespace

void AddClusterKinds(KindTable* table) {
  (*table)["/nodes"] = KindValidator{ValidateNode, ValidateNodeUpdate, ValidateNodeUpdate};
  (*table)["/limitranges"] = KindValidator{ValidateLimitRange, [](const Json& o, const Json&) { return ValidateLimitRange(o); }, nullptr};
  (*table)["/resourcequotas"] = KindValidator{ValidateResourceQuota, ValidateResourceQuotaUpdate, ValidateResourceQuotaStatus};
  (*table)["/events"] = KindValidator{ValidateEvent, ValidateEventUpdate, nullptr};
}

void AddStorageKinds(KindTable* table) {
  (*table)["/persistentvolumes"] = KindValidator{ValidatePersistentVolume, ValidatePersistentVolumeUpdate, nullptr};
  (*table)["/persistentvolumeclaims"] =
      KindValidator{ValidatePersistentVolumeClaim, ValidatePersistentVolumeClaimUpdate, ValidatePersistentVolumeClaimStatus};
}

}  // namespace kube::validation::core
