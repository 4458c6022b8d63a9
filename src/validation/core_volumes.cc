// Volumes of a pod spec (exactly one source each; the common sources checked in depth), the
// PersistentVolumeClaim spec they and PVCs share, the PersistentVolume spec, and kube's local
// path rules.
#include <algorithm>

#include "validation/core_internal.h"
#include "validation/primitives.h"

namespace kube::validation::core {

namespace {

constexpr std::string_view kFileModeError = "must be a number between 0 and 0777 (octal), both inclusive";
const std::vector<std::string> kAccessModes = {"ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"};
const std::vector<std::string> kVolumeFieldPaths = {"metadata.annotations", "metadata.labels", "metadata.name",
                                                    "metadata.namespace", "metadata.uid"};

// The pod volume sources in kube's order; the path kube names in its "more than 1" errors.
const std::vector<std::string> kPodSources = {
    "emptyDir", "hostPath", "gitRepo", "gcePersistentDisk", "awsElasticBlockStore", "secret", "nfs", "iscsi",
    "glusterfs", "flocker", "persistentVolumeClaim", "rbd", "cinder", "cephfs", "quobyte", "downwardAPI", "fc",
    "flexVolume", "configMap", "azureFile", "vsphereVolume", "photonPersistentDisk", "portworxVolume", "azureDisk",
    "storageos", "projected", "scaleIO", "csi", "ephemeral", "image"};
const std::vector<std::string> kPvSources = {
    "hostPath", "gcePersistentDisk", "awsElasticBlockStore", "glusterfs", "flocker", "nfs", "rbd", "quobyte",
    "cephfs", "iscsi", "cinder", "fc", "flexVolume", "azureFile", "vsphereVolume", "photonPersistentDisk",
    "portworxVolume", "azureDisk", "scaleIO", "local", "storageos", "csi"};

// kube's field names differ from the JSON ones for a few sources in its "more than 1" errors.
std::string ForbiddenSourceName(const std::string& source) {
  if (source == "cephfs") return "cephFS";
  if (source == "downwardAPI") return "downwarAPI";  // sic: kube's spelling
  return source;
}

void ValidateMode(const Json& obj, const char* key, const std::string& path, FieldErrors* errors) {
  if (auto mode = IntField(obj, key); mode && (*mode > 0777 || *mode < 0)) {
    errors->push_back(Invalid(Child(path, key), *mode, std::string(kFileModeError)));
  }
}

void ValidateKeyToPath(const Json& kp, const std::string& path, FieldErrors* errors) {
  if (Str(kp, "key").empty()) errors->push_back(Required(Child(path, "key")));
  if (Str(kp, "path").empty()) errors->push_back(Required(Child(path, "path")));
  Append(errors, ValidateLocalNonReservedPath(Str(kp, "path"), Child(path, "path")));
  ValidateMode(kp, "mode", path, errors);
}

void ValidateDownwardAPIFile(const Json& file, const std::string& path, FieldErrors* errors) {
  if (Str(file, "path").empty()) errors->push_back(Required(Child(path, "path")));
  Append(errors, ValidateLocalNonReservedPath(Str(file, "path"), Child(path, "path")));
  const Json* field_ref = Field(file, "fieldRef");
  const Json* resource_ref = Field(file, "resourceFieldRef");
  if (field_ref != nullptr) {
    Append(errors, ValidateObjectFieldSelector(*field_ref, kVolumeFieldPaths, Child(path, "fieldRef")));
    if (resource_ref != nullptr) {
      errors->push_back(Invalid(path, "resource", "fieldRef and resourceFieldRef can not be specified simultaneously"));
    }
  } else if (resource_ref != nullptr) {
    Append(errors, ValidateResourceFieldSelector(*resource_ref, Child(path, "resourceFieldRef"), true));
  } else {
    errors->push_back(Required(path, "one of fieldRef and resourceFieldRef is required"));
  }
  ValidateMode(file, "mode", path, errors);
}

void ValidateProjected(const Json& projected, const std::string& path, bool resource_is_pod, FieldErrors* errors) {
  ValidateMode(projected, "defaultMode", path, errors);
  std::set<std::string> all_paths;
  const Json& sources = ArrayField(projected, "sources");
  for (size_t i = 0; i < sources.size(); ++i) {
    const Json& source = sources[i];
    const std::string src = Index(Child(path, "sources"), i);
    int count = 0;
    for (const char* kind : {"secret", "configMap"}) {
      const Json* s = Field(source, kind);
      if (s == nullptr) continue;
      ++count;
      const std::string p = Child(src, kind);
      if (Str(*s, "name").empty()) errors->push_back(Required(Child(p, "name")));
      const Json& items = ArrayField(*s, "items");
      for (size_t j = 0; j < items.size(); ++j) {
        ValidateKeyToPath(items[j], Index(Child(p, "items"), j), errors);
        const std::string item_path = Str(items[j], "path");
        if (!item_path.empty() && !all_paths.insert(item_path).second) {
          errors->push_back(Invalid(path, Str(*s, "name"), "conflicting duplicate paths"));
        }
      }
    }
    if (const Json* d = Field(source, "downwardAPI")) {
      ++count;
      for (const Json& file : ArrayField(*d, "items")) {
        ValidateDownwardAPIFile(file, Child(src, "downwardAPI"), errors);
        const std::string file_path = Str(file, "path");
        if (!file_path.empty() && !all_paths.insert(file_path).second) {
          errors->push_back(Invalid(path, file_path, "conflicting duplicate paths"));
        }
      }
    }
    if (const Json* token = Field(source, "serviceAccountToken")) {
      ++count;
      const std::string p = Child(src, "serviceAccountToken");
      const int64_t expiration = IntField(*token, "expirationSeconds").value_or(0);
      if (expiration < 600) {
        errors->push_back(Invalid(Child(p, "expirationSeconds"), expiration, "may not specify a duration less than 10 minutes"));
      }
      if (expiration > (int64_t{1} << 32)) {
        errors->push_back(Invalid(Child(p, "expirationSeconds"), expiration, "may not specify a duration larger than 2^32 seconds"));
      }
      const std::string token_path = Str(*token, "path");
      if (token_path.empty()) {
        errors->push_back(Required(Child(path, "path")));
      } else {
        Append(errors, ValidateLocalNonReservedPath(token_path, Child(path, "path")));
      }
    }
    if (Field(source, "clusterTrustBundle") != nullptr) ++count;
    if (count > 1) errors->push_back(Forbidden(src, "may not specify more than 1 volume type per source"));
  }
  (void)resource_is_pod;
}

// The checks of one source, for the sources test users write; the rest count as a source only.
void ValidateSource(const std::string& kind, const Json& s, const std::string& path, bool resource_is_pod,
                    FieldErrors* errors) {
  if (kind == "emptyDir") {
    if (const Json* limit = Field(s, "sizeLimit")) {
      auto q = ParseQuantity(*limit);
      if (q && q->Sign() < 0) errors->push_back(Forbidden(Child(path, "sizeLimit"), "SizeLimit field must be a valid resource quantity"));
    }
  } else if (kind == "hostPath") {
    const std::string host_path = Str(s, "path");
    if (host_path.empty()) {
      errors->push_back(Required(Child(path, "path")));
      return;
    }
    Append(errors, ValidatePathNoBacksteps(host_path, Child(path, "path")));
    if (const Json* type = Field(s, "type")) {
      static const std::vector<std::string> kTypes = {"", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate",
                                                      "File", "FileOrCreate", "Socket"};
      const std::string t = type->is_string() ? type->get<std::string>() : "";
      if (std::find(kTypes.begin(), kTypes.end(), t) == kTypes.end()) errors->push_back(NotSupported(Child(path, "type"), t, kTypes));
    }
  } else if (kind == "secret" || kind == "configMap") {
    const char* name_key = kind == "secret" ? "secretName" : "name";
    if (Str(s, name_key).empty()) errors->push_back(Required(Child(path, name_key)));
    ValidateMode(s, "defaultMode", path, errors);
    const Json& items = ArrayField(s, "items");
    for (size_t i = 0; i < items.size(); ++i) ValidateKeyToPath(items[i], Index(Child(path, "items"), i), errors);
  } else if (kind == "persistentVolumeClaim") {
    if (Str(s, "claimName").empty()) errors->push_back(Required(Child(path, "claimName")));
  } else if (kind == "nfs") {
    if (Str(s, "server").empty()) errors->push_back(Required(Child(path, "server")));
    if (Str(s, "path").empty()) errors->push_back(Required(Child(path, "path")));
    if (!Str(s, "path").starts_with("/")) errors->push_back(Invalid(Child(path, "path"), Str(s, "path"), "must be an absolute path"));
  } else if (kind == "downwardAPI") {
    ValidateMode(s, "defaultMode", path, errors);
    for (const Json& file : ArrayField(s, "items")) ValidateDownwardAPIFile(file, path, errors);
  } else if (kind == "projected") {
    ValidateProjected(s, path, resource_is_pod, errors);
  } else if (kind == "gitRepo") {
    if (Str(s, "repository").empty()) errors->push_back(Required(Child(path, "repository")));
    Append(errors, ValidateLocalDescendingPath(Str(s, "directory"), Child(path, "directory")));
  } else if (kind == "csi") {
    const std::string driver = Str(s, "driver");
    const std::string dp = Child(path, "driver");
    if (driver.empty()) errors->push_back(Required(dp));
    if (driver.size() > 63) errors->push_back(TooLong(dp, 63));
    std::string lower = driver;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    AppendProblems(errors, dp, driver, IsDns1123Subdomain(lower));
  } else if (kind == "ephemeral") {
    const Json* tmpl = Field(s, "volumeClaimTemplate");
    if (tmpl == nullptr) {
      errors->push_back(Required(Child(path, "volumeClaimTemplate")));
    } else {
      const std::string tp = Child(path, "volumeClaimTemplate");
      if (const Json* meta = Field(*tmpl, "metadata")) {
        if (const Json* labels = Field(*meta, "labels")) Append(errors, ValidateLabels(*labels, Child(Child(tp, "metadata"), "labels")));
      }
      const Json* spec = Field(*tmpl, "spec");
      Append(errors, ValidatePersistentVolumeClaimSpec(spec ? *spec : Json::object(), Child(tp, "spec")));
    }
  } else if (kind == "image") {
    if (resource_is_pod && Str(s, "reference").empty()) errors->push_back(Required(Child(path, "reference")));
    const std::string pull = Str(s, "pullPolicy");
    if (pull.empty()) {
      errors->push_back(Required(Child(path, "pullPolicy")));
    } else if (pull != "Always" && pull != "IfNotPresent" && pull != "Never") {
      errors->push_back(NotSupported(Child(path, "pullPolicy"), pull, {"Always", "IfNotPresent", "Never"}));
    }
  }
}

// validateVolumeSource: exactly one source, each validated.
FieldErrors ValidateVolumeSource(const Json& v, const std::string& path, bool resource_is_pod) {
  FieldErrors errors;
  int count = 0;
  for (const std::string& kind : kPodSources) {
    const Json* s = Field(v, kind.c_str());
    if (s == nullptr) continue;
    if (count++ > 0) {
      errors.push_back(Forbidden(Child(path, ForbiddenSourceName(kind)), "may not specify more than 1 volume type"));
      continue;
    }
    ValidateSource(kind, *s, Child(path, kind), resource_is_pod, &errors);
  }
  if (count == 0) errors.push_back(Required(path, "must specify a volume type"));
  return errors;
}

// The access modes of a claim or a volume: each known, and ReadWriteOncePod alone.
void ValidateAccessModes(const Json& modes, const std::string& path, FieldErrors* errors) {
  bool rwop = false, other = false;
  for (const Json& m : modes) {
    const std::string mode = m.is_string() ? m.get<std::string>() : "";
    const bool known = std::find(kAccessModes.begin(), kAccessModes.end(), mode) != kAccessModes.end();
    if (!known) errors->push_back(NotSupported(path, mode, kAccessModes));
    if (mode == "ReadWriteOncePod") {
      rwop = true;
    } else if (known) {
      other = true;
    }
  }
  if (rwop && other) errors->push_back(Forbidden(path, "may not use ReadWriteOncePod with other access modes"));
}

}  // namespace

FieldErrors ValidatePathNoBacksteps(std::string_view target, const std::string& field) {
  size_t start = 0;
  while (start <= target.size()) {
    size_t end = target.find_first_of("/\\", start);
    if (end == std::string_view::npos) end = target.size();
    if (target.substr(start, end - start) == "..") return {Invalid(field, target, "must not contain '..'")};
    start = end + 1;
  }
  return {};
}

FieldErrors ValidateLocalDescendingPath(std::string_view target, const std::string& field) {
  FieldErrors errors;
  if (target.starts_with("/")) errors.push_back(Invalid(field, target, "must be a relative path"));
  Append(&errors, ValidatePathNoBacksteps(target, field));
  return errors;
}

FieldErrors ValidateLocalNonReservedPath(std::string_view target, const std::string& field) {
  FieldErrors errors = ValidateLocalDescendingPath(target, field);
  if (target.starts_with("..") && !target.starts_with("../")) errors.push_back(Invalid(field, target, "must not start with '..'"));
  return errors;
}

FieldErrors ValidateVolumes(const Json& volumes, const Json* pod_meta, const std::string& path, bool resource_is_pod,
                            std::map<std::string, const Json*>* valid) {
  FieldErrors errors;
  std::set<std::string> names;
  const std::string pod_name = pod_meta ? Str(*pod_meta, "name") : "";
  std::set<std::string> created_pvcs;
  if (!pod_name.empty()) {
    for (const Json& v : volumes) {
      if (Has(v, "ephemeral")) created_pvcs.insert(pod_name + "-" + Str(v, "name"));
    }
  }
  for (size_t i = 0; i < volumes.size(); ++i) {
    const Json& v = volumes[i];
    const std::string idx = Index(path, i);
    const std::string name = Str(v, "name");
    FieldErrors el = ValidateVolumeSource(v, idx, resource_is_pod);
    if (Has(v, "ephemeral") && !pod_name.empty() && !name.empty()) {
      const std::string pvc = pod_name + "-" + name;
      for (const auto& msg : NameIsDnsSubdomain(pvc, false)) {
        el.push_back(Invalid(Child(idx, "name"), name, "PVC name " + GoQuote(pvc) + ": " + msg));
      }
    }
    if (name.empty()) {
      el.push_back(Required(Child(idx, "name")));
    } else {
      Append(&el, ValidateDns1123Label(name, Child(idx, "name")));
    }
    if (names.contains(name)) el.push_back(Duplicate(Child(idx, "name"), name));
    if (el.empty()) {
      names.insert(name);
      (*valid)[name] = &v;
    } else {
      Append(&errors, std::move(el));
    }
    if (const Json* pvc = Field(v, "persistentVolumeClaim"); pvc && created_pvcs.contains(Str(*pvc, "claimName"))) {
      errors.push_back(Invalid(Child(Child(idx, "persistentVolumeClaim"), "claimName"), Str(*pvc, "claimName"),
                               "must not reference a PVC that gets created for an ephemeral volume"));
    }
  }
  return errors;
}

FieldErrors ValidatePersistentVolumeClaimSpec(const Json& spec, const std::string& path) {
  FieldErrors errors;
  const Json& modes = ArrayField(spec, "accessModes");
  if (modes.empty()) errors.push_back(Required(Child(path, "accessModes"), "at least 1 access mode is required"));
  if (const Json* selector = Field(spec, "selector")) Append(&errors, ValidateLabelSelector(*selector, Child(path, "selector")));
  ValidateAccessModes(modes, Child(path, "accessModes"), &errors);
  const Json* resources = Field(spec, "resources");
  const Json* requests = resources ? Field(*resources, "requests") : nullptr;
  const Json* storage = requests ? Field(*requests, "storage") : nullptr;
  const std::string storage_path = Key(Child(path, "resources"), "storage");
  if (storage == nullptr) {
    errors.push_back(Required(storage_path));
  } else if (auto e = ValidatePositiveQuantityValue(*storage, storage_path); !e.empty()) {
    Append(&errors, std::move(e));
  } else {
    Append(&errors, ValidateResourceQuantityValue("storage", *storage, storage_path));
  }
  if (const std::string sc = Str(spec, "storageClassName"); !sc.empty()) {
    AppendProblems(&errors, Child(path, "storageClassName"), sc, NameIsDnsSubdomain(sc, false));
  }
  if (const Json* mode = Field(spec, "volumeMode")) {
    const std::string m = mode->is_string() ? mode->get<std::string>() : "";
    if (m != "Block" && m != "Filesystem") errors.push_back(NotSupported(Child(path, "volumeMode"), m, {"Block", "Filesystem"}));
  }
  for (const char* ref : {"dataSource", "dataSourceRef"}) {
    const Json* ds = Field(spec, ref);
    if (ds == nullptr) continue;
    const std::string p = Child(path, ref);
    if (Str(*ds, "name").empty()) errors.push_back(Required(Child(p, "name")));
    if (Str(*ds, "kind").empty()) errors.push_back(Required(Child(p, "kind")));
    const std::string group = Str(*ds, "apiGroup");
    if (group.empty() && Str(*ds, "kind") != "PersistentVolumeClaim") {
      errors.push_back(Invalid(p, Str(*ds, "kind"), "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
    }
    if (!group.empty()) AppendProblems(&errors, Child(p, "apiGroup"), group, IsDns1123Subdomain(group));
  }
  return errors;
}

FieldErrors ValidatePersistentVolumeSpec(const Json& spec, std::string_view pv_name, const std::string& path) {
  FieldErrors errors;
  const Json& modes = ArrayField(spec, "accessModes");
  if (modes.empty()) errors.push_back(Required(Child(path, "accessModes")));
  ValidateAccessModes(modes, Child(path, "accessModes"), &errors);
  const Json* capacity = Field(spec, "capacity");
  const bool has_capacity = capacity != nullptr && capacity->is_object() && !capacity->empty();
  const std::string cap_path = Child(path, "capacity");
  if (!has_capacity) errors.push_back(Required(cap_path));
  if (!has_capacity || !capacity->contains("storage") || capacity->size() > 1) {
    errors.push_back(NotSupported(cap_path, has_capacity ? *capacity : Json::object(), {"storage"}));
  }
  if (has_capacity) {
    for (const auto& [name, q] : capacity->items()) {
      auto parsed = ParseQuantity(q);
      if (parsed && parsed->Sign() < 0) errors.push_back(Invalid(Key(cap_path, name), QuantityText(q), "must be a valid resource quantity"));
      Append(&errors, ValidatePositiveQuantityValue(q, Key(cap_path, name)));
    }
  }
  if (const std::string policy = Str(spec, "persistentVolumeReclaimPolicy"); !policy.empty()) {
    if (policy != "Delete" && policy != "Recycle" && policy != "Retain") {
      errors.push_back(NotSupported(Child(path, "persistentVolumeReclaimPolicy"), policy, {"Delete", "Recycle", "Retain"}));
    }
  }
  bool node_affinity = false;
  if (const Json* na = Field(spec, "nodeAffinity")) {
    node_affinity = true;
    if (const Json* required = Field(*na, "required")) {
      Append(&errors, ValidateNodeSelector(*required, Child(Child(path, "nodeAffinity"), "required")));
    } else {
      errors.push_back(Required(Child(Child(path, "nodeAffinity"), "required"), "must specify required node constraints"));
    }
  }
  int count = 0;
  for (const std::string& kind : kPvSources) {
    const Json* s = Field(spec, kind.c_str());
    if (s == nullptr) continue;
    if (count++ > 0 && kind != "flexVolume") {
      errors.push_back(Forbidden(Child(path, ForbiddenSourceName(kind)), "may not specify more than 1 volume type"));
      continue;
    }
    const std::string sp = Child(path, kind);
    if (kind == "hostPath" || kind == "nfs" || kind == "csi") {
      ValidateSource(kind, *s, sp, false, &errors);
      if (kind == "csi" && Str(*s, "volumeHandle").empty()) errors.push_back(Required(Child(sp, "volumeHandle")));
    } else if (kind == "local") {
      if (Str(*s, "path").empty()) {
        errors.push_back(Required(Child(sp, "path")));
      } else {
        Append(&errors, ValidatePathNoBacksteps(Str(*s, "path"), Child(sp, "path")));
      }
      if (!node_affinity) errors.push_back(Required(Child(path, "nodeAffinity"), "Local volume requires node affinity"));
    }
  }
  if (count == 0) errors.push_back(Required(path, "must specify a volume type"));
  if (const Json* hp = Field(spec, "hostPath")) {
    std::string p = Str(*hp, "path");
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    if (p == "/" && Str(spec, "persistentVolumeReclaimPolicy") == "Recycle") {
      errors.push_back(Forbidden(Child(path, "persistentVolumeReclaimPolicy"), "may not be 'recycle' for a hostPath mount of '/'"));
    }
  }
  if (const std::string sc = Str(spec, "storageClassName"); !sc.empty()) {
    AppendProblems(&errors, Child(path, "storageClassName"), sc, NameIsDnsSubdomain(sc, false));
  }
  if (const Json* mode = Field(spec, "volumeMode")) {
    const std::string m = mode->is_string() ? mode->get<std::string>() : "";
    if (m != "Block" && m != "Filesystem") errors.push_back(NotSupported(Child(path, "volumeMode"), m, {"Block", "Filesystem"}));
  }
  (void)pv_name;
  return errors;
}

}  // namespace kube::validation::core
