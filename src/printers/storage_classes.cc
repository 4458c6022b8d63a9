// Printers for storage.k8s.io: storage and volume attributes classes, volume attachments, CSI
// nodes, drivers and storage capacities; and resource.k8s.io (dynamic resource allocation):
// device classes, resource claims and their templates, resource slices.

#include "printers/internal.h"

namespace kube::printers::internal {

namespace {

bool AnnotationTrue(const Json& obj, std::string_view key) {
  return Str(Field(Path(&obj, {"metadata", "annotations"}), key)) == "true";
}

}  // namespace

const std::vector<Column>& StorageClassColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Provisioner", "string", "", "The volume plugin that provisions volumes of this class.", 0},
      {"ReclaimPolicy", "string", "", "The reclaim policy of provisioned volumes.", 0},
      {"VolumeBindingMode", "string", "", "When volumes are bound and provisioned.", 0},
      {"AllowVolumeExpansion", "string", "", "Whether volumes of this class may grow.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells StorageClassCells(const Json& obj, TimePoint now) {
  std::string name = Name(obj);
  if (AnnotationTrue(obj, "storageclass.kubernetes.io/is-default-class") ||
      AnnotationTrue(obj, "storageclass.beta.kubernetes.io/is-default-class")) {
    name += " (default)";
  }
  return {name, Str(Field(&obj, "provisioner")), StrOr(Field(&obj, "reclaimPolicy"), "Delete"),
          StrOr(Field(&obj, "volumeBindingMode"), "Immediate"), Bool(Field(&obj, "allowVolumeExpansion")),
          Age(obj, now)};
}

const std::vector<Column>& VolumeAttributesClassColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"DriverName", "string", "", "The CSI driver the class is for.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells VolumeAttributesClassCells(const Json& obj, TimePoint now) {
  std::string name = Name(obj);
  if (AnnotationTrue(obj, "volumeattributesclass.alpha.kubernetes.io/is-default-class")) name += " (default)";
  return {name, Str(Field(&obj, "driverName")), Age(obj, now)};
}

const std::vector<Column>& VolumeAttachmentColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Attacher", "string", "name", "The volume driver that attaches the volume.", 0},
      {"PV", "string", "", "The persistent volume attached.", 0},
      {"Node", "string", "", "The node the volume is attached to.", 0},
      {"Attached", "boolean", "", "Whether the volume is attached.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells VolumeAttachmentCells(const Json& obj, TimePoint now) {
  return {Name(obj),
          Str(Path(&obj, {"spec", "attacher"})),
          Str(Path(&obj, {"spec", "source", "persistentVolumeName"})),
          Str(Path(&obj, {"spec", "nodeName"})),
          Bool(Path(&obj, {"status", "attached"})),
          Age(obj, now)};
}

const std::vector<Column>& CSINodeColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Drivers", "integer", "", "The number of CSI drivers registered on the node.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells CSINodeCells(const Json& obj, TimePoint now) {
  return {Name(obj), static_cast<int64_t>(Array(Path(&obj, {"spec", "drivers"})).size()), Age(obj, now)};
}

const std::vector<Column>& CSIDriverColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"AttachRequired", "boolean", "", "Whether volumes need an attach operation.", 0},
      {"PodInfoOnMount", "boolean", "", "Whether mounts receive pod information.", 0},
      {"StorageCapacity", "boolean", "", "Whether the scheduler considers storage capacity.", 0},
      {"TokenRequests", "string", "", "Audiences of the service account tokens the driver receives.", 0},
      {"RequiresRepublish", "boolean", "", "Whether volumes are periodically re-published.", 0},
      {"Modes", "string", "", "The volume lifecycle modes the driver supports.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells CSIDriverCells(const Json& obj, TimePoint now) {
  const Json* spec = Field(&obj, "spec");
  const Json* attach = Field(spec, "attachRequired");
  std::string tokens = "<unset>";
  if (const Json* t = Field(spec, "tokenRequests"); t != nullptr && t->is_array()) {
    std::vector<std::string> audiences;
    for (const Json& r : *t) audiences.push_back(Str(Field(&r, "audience")));
    tokens = Join(audiences, ",");
  }
  // v1 default: Persistent when no mode is listed.
  std::string modes = Join(Strings(Field(spec, "volumeLifecycleModes")), ",");
  if (modes.empty()) modes = "Persistent";
  return {Name(obj),
          IsSet(attach) ? Bool(attach) : true,
          Bool(Field(spec, "podInfoOnMount")),
          Bool(Field(spec, "storageCapacity")),
          tokens,
          Bool(Field(spec, "requiresRepublish")),
          modes,
          Age(obj, now)};
}

const std::vector<Column>& CSIStorageCapacityColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"StorageClassName", "string", "", "The storage class the capacity is for.", 0},
      {"Capacity", "string", "", "The capacity available.", 0},
  };
  return kColumns;
}

Cells CSIStorageCapacityCells(const Json& obj, TimePoint /*now*/) {
  const Json* capacity = Field(&obj, "capacity");
  return {Name(obj), Str(Field(&obj, "storageClassName")), IsSet(capacity) ? Quantity(capacity) : "<unset>"};
}

const std::vector<Column>& NameAgeColumns() {
  static const std::vector<Column> kColumns = {NameColumn(), AgeColumn()};
  return kColumns;
}

Cells NameAgeCells(const Json& obj, TimePoint now) { return {Name(obj), Age(obj, now)}; }

const std::vector<Column>& ResourceClaimColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"State", "string", "", "Pending, allocated, reserved, deleted.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells ResourceClaimCells(const Json& obj, TimePoint now) {
  std::vector<std::string> states;
  const bool deleted = IsSet(Path(&obj, {"metadata", "deletionTimestamp"}));
  if (deleted) states.push_back("deleted");
  if (!IsSet(Path(&obj, {"status", "allocation"}))) {
    if (!deleted) states.push_back("pending");
  } else {
    states.push_back("allocated");
    if (!Array(Path(&obj, {"status", "reservedFor"})).empty()) states.push_back("reserved");
  }
  return {Name(obj), Join(states, ","), Age(obj, now)};
}

const std::vector<Column>& ResourceSliceColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Node", "string", "", "The node the slice's devices are on.", 0},
      {"Driver", "string", "", "The driver publishing the slice.", 0},
      {"Pool", "string", "", "The pool the slice belongs to.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells ResourceSliceCells(const Json& obj, TimePoint now) {
  return {Name(obj), Str(Path(&obj, {"spec", "nodeName"})), Str(Path(&obj, {"spec", "driver"})),
          Str(Path(&obj, {"spec", "pool", "name"})), Age(obj, now)};
}

}  // namespace kube::printers::internal
