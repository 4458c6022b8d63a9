// Printers for persistentvolumes and persistentvolumeclaims.

#include <algorithm>
#include <cstdio>

#include "printers/internal.h"

namespace kube::printers::internal {

namespace {

constexpr std::string_view kBetaStorageClassAnnotation = "volume.beta.kubernetes.io/storage-class";

// helper.GetAccessModesAsString: fixed order, duplicates dropped.
std::string AccessModes(const Json* modes) {
  const std::vector<std::string> have = Strings(modes);
  auto has = [&](std::string_view m) {
    return std::find(have.begin(), have.end(), m) != have.end();
  };
  std::vector<std::string> out;
  if (has("ReadWriteOnce")) out.push_back("RWO");
  if (has("ReadOnlyMany")) out.push_back("ROX");
  if (has("ReadWriteMany")) out.push_back("RWX");
  if (has("ReadWriteOncePod")) out.push_back("RWOP");
  return Join(out, ",");
}

std::string StorageClassFromAnnotation(const Json& obj, bool* found) {
  const Json* v = Field(Path(&obj, {"metadata", "annotations"}), kBetaStorageClassAnnotation);
  *found = v != nullptr;
  return Str(v);
}

std::string PhaseOrTerminating(const Json& obj) {
  if (IsSet(Path(&obj, {"metadata", "deletionTimestamp"}))) return "Terminating";
  std::string phase = Str(Path(&obj, {"status", "phase"}));
  return phase.empty() ? "Pending" : phase;  // v1 default
}

std::string VolumeMode(const Json& obj) {
  std::string mode = Str(Path(&obj, {"spec", "volumeMode"}));
  return mode.empty() ? "Filesystem" : mode;  // v1 default
}

std::string VolumeAttributesClass(const Json& obj) {
  const Json* v = Path(&obj, {"spec", "volumeAttributesClassName"});
  return v != nullptr && v->is_string() ? Str(v) : "<unset>";
}

}  // namespace

const std::vector<Column>& PersistentVolumeColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Capacity", "string", "", "Capacity of the volume.", 0},
      {"Access Modes", "string", "", "Ways the volume can be mounted.", 0},
      {"Reclaim Policy", "string", "", "What happens to the volume when released.", 0},
      {"Status", "string", "", "Phase of the volume.", 0},
      {"Claim", "string", "", "The claim bound to the volume.", 0},
      {"StorageClass", "string", "", "StorageClass of the pv", 0},
      {"VolumeAttributesClass", "string", "", "VolumeAttributesClass of the pv", 0},
      {"Reason", "string", "", "Reason the volume is in this phase.", 0},
      AgeColumn(),
      {"VolumeMode", "string", "", "Whether the volume is a filesystem or a raw block device.", 1},
  };
  return kColumns;
}

Cells PersistentVolumeCells(const Json& pv, TimePoint now) {
  const Json* claim_ref = Path(&pv, {"spec", "claimRef"});
  std::string claim;
  if (IsObject(claim_ref)) {
    claim = Str(Field(claim_ref, "namespace")) + "/" + Str(Field(claim_ref, "name"));
  }
  std::string reclaim = Str(Path(&pv, {"spec", "persistentVolumeReclaimPolicy"}));
  if (reclaim.empty()) reclaim = "Retain";  // v1 default
  bool annotated = false;
  std::string storage_class = StorageClassFromAnnotation(pv, &annotated);
  if (!annotated) storage_class = Str(Path(&pv, {"spec", "storageClassName"}));
  return {
      Name(pv),
      Quantity(Path(&pv, {"spec", "capacity", "storage"})),
      AccessModes(Path(&pv, {"spec", "accessModes"})),
      reclaim,
      PhaseOrTerminating(pv),
      claim,
      storage_class,
      VolumeAttributesClass(pv),
      Str(Path(&pv, {"status", "reason"})),
      Age(pv, now),
      VolumeMode(pv),
  };
}

const std::vector<Column>& PersistentVolumeClaimColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Status", "string", "", "Phase of the claim.", 0},
      {"Volume", "string", "", "The volume bound to the claim.", 0},
      {"Capacity", "string", "", "Actual capacity of the bound volume.", 0},
      {"Access Modes", "string", "", "Access modes of the bound volume.", 0},
      {"StorageClass", "string", "", "StorageClass of the pvc", 0},
      {"VolumeAttributesClass", "string", "", "VolumeAttributesClass of the pvc", 0},
      AgeColumn(),
      {"VolumeMode", "string", "", "Whether the volume is a filesystem or a raw block device.", 1},
  };
  return kColumns;
}

Cells PersistentVolumeClaimCells(const Json& pvc, TimePoint now) {
  const std::string volume = Str(Path(&pvc, {"spec", "volumeName"}));
  std::string capacity, access_modes;
  if (!volume.empty()) {
    access_modes = AccessModes(Path(&pvc, {"status", "accessModes"}));
    capacity = Quantity(Path(&pvc, {"status", "capacity", "storage"}));
  }
  bool annotated = false;
  std::string storage_class = StorageClassFromAnnotation(pvc, &annotated);
  if (!annotated) storage_class = Str(Path(&pvc, {"spec", "storageClassName"}));
  return {
      Name(pvc),     PhaseOrTerminating(pvc),    volume,        capacity,        access_modes,
      storage_class, VolumeAttributesClass(pvc), Age(pvc, now), VolumeMode(pvc),
  };
}

}  // namespace kube::printers::internal
