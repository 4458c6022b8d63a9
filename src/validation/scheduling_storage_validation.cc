// scheduling.k8s.io/v1 PriorityClass and storage.k8s.io/v1 StorageClass and VolumeAttachment, as kube's pkg/apis/scheduling/validation and pkg/apis/storage/validation
// check them.
#include <nlohmann/json.hpp>

#include "validation/group_primitives.h"
#include "validation/group_validators.h"
#include "validation/object_meta.h"
#include "validation/primitives.h"

namespace kube::validation {
namespace {

using nlohmann::json;

// ---- PriorityClass ----

constexpr int64_t kHighestUserDefinablePriority = 1000000000;

struct SystemPriorityClass {
  const char* name;
  int64_t value;
};
constexpr SystemPriorityClass kSystemPriorityClasses[] = {{"system-node-critical", 2000001000},
                                                          {"system-cluster-critical", 2000000000}};

FieldErrors ValidatePriorityClass(const json& obj) {
  FieldErrors errors;
  const std::string name = StringAt(ObjectAt(obj, "metadata"), "name");
  const int64_t value = IntField(obj, "value").value_or(0);
  const bool global_default = BoolAt(obj, "globalDefault");
  if (name.rfind("system-", 0) == 0) {
    std::string problem = name + " is not a known system priority class";
    for (const auto& spc : kSystemPriorityClasses) {
      if (name != spc.name) continue;
      if (value != spc.value) {
        problem = "value of " + name + " PriorityClass must be " + std::to_string(spc.value);
      } else if (global_default) {
        problem = "globalDefault of " + name + " PriorityClass must be false";
      } else {
        problem.clear();
      }
    }
    if (!problem.empty()) {
      errors.push_back(Forbidden("metadata.name",
                                 "priority class names with 'system-' prefix are reserved for system use only. error: " +
                                     problem));
    }
  } else if (value > kHighestUserDefinablePriority) {
    errors.push_back(Forbidden("value", "maximum allowed value of a user defined priority is 1000000000"));
  }
  if (Has(obj, "preemptionPolicy")) {
    const std::string policy = StringAt(obj, "preemptionPolicy");
    if (policy.empty()) {
      errors.push_back(Required("preemptionPolicy"));
    } else if (policy != "PreemptLowerPriority" && policy != "Never") {
      errors.push_back(NotSupported("preemptionPolicy", policy, {"PreemptLowerPriority", "Never"}));
    }
  }
  return errors;
}

FieldErrors ValidatePriorityClassUpdate(const json& obj, const json& old) {
  FieldErrors errors;
  if (IntField(obj, "value").value_or(0) != IntField(old, "value").value_or(0)) {
    errors.push_back(Forbidden("value", "may not be changed in an update."));
  }
  Append(&errors, ValidateImmutableField(ValueAt(obj, "preemptionPolicy"), ValueAt(old, "preemptionPolicy"),
                                         "preemptionPolicy"));
  return errors;
}

// ---- StorageClass ----

constexpr size_t kMaxProvisionerParameters = 512;
constexpr int64_t kMaxProvisionerParameterSize = 256 * 1024;

void ValidateProvisioner(const std::string& provisioner, const std::string& path, FieldErrors* errors) {
  if (provisioner.empty()) {
    errors->push_back(Required(path));
    return;
  }
  std::string lower = provisioner;
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  Append(errors, ValidateQualifiedName(lower, path));
}

void ValidateParameters(const json& params, const std::string& path, FieldErrors* errors) {
  if (!params.is_object()) return;
  if (params.size() > kMaxProvisionerParameters) {
    errors->push_back(TooLong(path, kMaxProvisionerParameters));
    return;
  }
  int64_t total = 0;
  for (const auto& [k, v] : params.items()) {
    if (k.empty()) errors->push_back(Invalid(path, k, "field can not be empty."));
    total += static_cast<int64_t>(k.size() + (v.is_string() ? v.get_ref<const std::string&>().size() : 0));
  }
  if (total > kMaxProvisionerParameterSize) errors->push_back(TooLong(path, kMaxProvisionerParameterSize));
}

FieldErrors ValidateStorageClass(const json& obj) {
  FieldErrors errors;
  ValidateProvisioner(StringAt(obj, "provisioner"), "provisioner", &errors);
  ValidateParameters(ValueAt(obj, "parameters"), "parameters", &errors);
  const std::string reclaim = StringAt(obj, "reclaimPolicy");
  if (!reclaim.empty() && reclaim != "Delete" && reclaim != "Retain") {
    errors.push_back(NotSupported("reclaimPolicy", reclaim, {"Delete", "Retain"}));
  }
  if (!Has(obj, "volumeBindingMode")) {
    errors.push_back(Required("volumeBindingMode"));
  } else {
    const std::string mode = StringAt(obj, "volumeBindingMode");
    if (mode != "Immediate" && mode != "WaitForFirstConsumer") {
      errors.push_back(NotSupported("volumeBindingMode", mode, {"Immediate", "WaitForFirstConsumer"}));
    }
  }
  return errors;
}

FieldErrors ValidateStorageClassUpdate(const json& obj, const json& old) {
  FieldErrors errors;
  auto params = [](const json& o) {
    json p = ValueAt(o, "parameters");
    return p.is_object() && p.empty() ? json(nullptr) : p;
  };
  // kube 1.36 words a parameters change as an immutable field (recorded by the oracle); the
  // value shown is the new map.
  if (params(obj) != params(old)) {
    auto immutable = ValidateImmutableField(params(obj), params(old), "parameters");
    errors.insert(errors.end(), immutable.begin(), immutable.end());
  }
  if (StringAt(obj, "provisioner") != StringAt(old, "provisioner")) {
    errors.push_back(Forbidden("provisioner", "updates to provisioner are forbidden."));
  }
  if (StringAt(obj, "reclaimPolicy") != StringAt(old, "reclaimPolicy")) {
    errors.push_back(Forbidden("reclaimPolicy", "updates to reclaimPolicy are forbidden."));
  }
  Append(&errors, ValidateImmutableField(ValueAt(obj, "volumeBindingMode"), ValueAt(old, "volumeBindingMode"),
                                         "volumeBindingMode"));
  return errors;
}

// ---- VolumeAttachment ----

FieldErrors ValidateVolumeAttachment(const json& obj) {
  FieldErrors errors;
  const json& spec = ObjectAt(obj, "spec");
  if (StringAt(spec, "attacher").empty()) errors.push_back(Required("spec.attacher"));
  const json& source = ObjectAt(spec, "source");
  const bool pv = Has(source, "persistentVolumeName");
  const bool inline_spec = Has(source, "inlineVolumeSpec");
  constexpr const char* kExactlyOne = "must specify exactly one of inlineVolumeSpec and persistentVolumeName";
  if (!pv && !inline_spec) {
    errors.push_back(Required("spec.source", kExactlyOne));
  } else if (pv && inline_spec) {
    errors.push_back(Forbidden("spec.source", kExactlyOne));
  } else if (pv && StringAt(source, "persistentVolumeName").empty()) {
    errors.push_back(Required("spec.source.persistentVolumeName", "must specify non empty persistentVolumeName"));
  }
  const std::string node = StringAt(spec, "nodeName");
  for (const auto& msg : IsDns1123Subdomain(node)) errors.push_back(Invalid("spec.nodeName", node, msg));
  return errors;
}

FieldErrors ValidateVolumeAttachmentUpdate(const json& obj, const json& old) {
  FieldErrors errors = ValidateVolumeAttachment(obj);
  // The spec is immutable once created.
  if (ValueAt(obj, "spec") != ValueAt(old, "spec")) {
    errors.push_back(Invalid("spec", ValueAt(obj, "spec"), "field is immutable"));
  }
  return errors;
}

}  // namespace

void AddSchedulingKinds(KindTable* table) {
  (*table)["scheduling.k8s.io/priorityclasses"] = {ValidatePriorityClass, ValidatePriorityClassUpdate, nullptr};
}

void AddStorageKinds(KindTable* table) {
  (*table)["storage.k8s.io/storageclasses"] = {ValidateStorageClass, ValidateStorageClassUpdate, nullptr};
  (*table)["storage.k8s.io/volumeattachments"] = {ValidateVolumeAttachment, ValidateVolumeAttachmentUpdate, nullptr};
}

}  // namespace kube::validation
