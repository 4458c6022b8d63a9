#include "printers/printers.h"

#include "printers/internal.h"

namespace kube::printers {

namespace {

using internal::Json;

struct Entry {
  std::string_view group;
  std::string_view resource;
  internal::ColumnsFn columns;
  internal::CellsFn cells;
};

#define KUBE_ENTRY(group, resource, name)                             \
  Entry {                                                             \
    group, resource, &internal::name##Columns, &internal::name##Cells \
  }

constexpr Entry kEntries[] = {
    KUBE_ENTRY("", "pods", Pod),
    KUBE_ENTRY("apps", "deployments", Deployment),
    KUBE_ENTRY("apps", "replicasets", ReplicaSet),
    KUBE_ENTRY("apps", "statefulsets", StatefulSet),
    KUBE_ENTRY("apps", "daemonsets", DaemonSet),
    KUBE_ENTRY("batch", "jobs", Job),
    KUBE_ENTRY("batch", "cronjobs", CronJob),
    KUBE_ENTRY("", "services", Service),
    KUBE_ENTRY("", "endpoints", Endpoints),
    KUBE_ENTRY("", "nodes", Node),
    KUBE_ENTRY("", "namespaces", Namespace),
    KUBE_ENTRY("", "configmaps", ConfigMap),
    KUBE_ENTRY("", "secrets", Secret),
    KUBE_ENTRY("", "events", Event),
    KUBE_ENTRY("events.k8s.io", "events", EventsV1Event),
    KUBE_ENTRY("", "serviceaccounts", ServiceAccount),
    KUBE_ENTRY("networking.k8s.io", "ingresses", Ingress),
    KUBE_ENTRY("", "persistentvolumes", PersistentVolume),
    KUBE_ENTRY("", "persistentvolumeclaims", PersistentVolumeClaim),
    KUBE_ENTRY("coordination.k8s.io", "leases", Lease),
    KUBE_ENTRY("apiextensions.k8s.io", "customresourcedefinitions", CustomResourceDefinition),
    KUBE_ENTRY("apiregistration.k8s.io", "apiservices", APIService),
    KUBE_ENTRY("autoscaling", "horizontalpodautoscalers", HorizontalPodAutoscaler),
    KUBE_ENTRY("", "podtemplates", PodTemplate),
    KUBE_ENTRY("", "replicationcontrollers", ReplicationController),
    KUBE_ENTRY("", "componentstatuses", ComponentStatus),
    KUBE_ENTRY("", "resourcequotas", ResourceQuota),
    KUBE_ENTRY("policy", "poddisruptionbudgets", PodDisruptionBudget),
    KUBE_ENTRY("apps", "controllerrevisions", ControllerRevision),
    KUBE_ENTRY("networking.k8s.io", "ingressclasses", IngressClass),
    KUBE_ENTRY("networking.k8s.io", "networkpolicies", NetworkPolicy),
    KUBE_ENTRY("networking.k8s.io", "servicecidrs", ServiceCIDR),
    KUBE_ENTRY("networking.k8s.io", "ipaddresses", IPAddress),
    KUBE_ENTRY("discovery.k8s.io", "endpointslices", EndpointSlice),
    KUBE_ENTRY("admissionregistration.k8s.io", "mutatingwebhookconfigurations", WebhookConfiguration),
    KUBE_ENTRY("admissionregistration.k8s.io", "validatingwebhookconfigurations", WebhookConfiguration),
    KUBE_ENTRY("admissionregistration.k8s.io", "validatingadmissionpolicies", ValidatingAdmissionPolicy),
    KUBE_ENTRY("admissionregistration.k8s.io", "validatingadmissionpolicybindings", AdmissionPolicyBinding),
    KUBE_ENTRY("admissionregistration.k8s.io", "mutatingadmissionpolicies", MutatingAdmissionPolicy),
    KUBE_ENTRY("admissionregistration.k8s.io", "mutatingadmissionpolicybindings", AdmissionPolicyBinding),
    KUBE_ENTRY("rbac.authorization.k8s.io", "rolebindings", RoleBinding),
    KUBE_ENTRY("rbac.authorization.k8s.io", "clusterrolebindings", ClusterRoleBinding),
    // Roles and limit ranges use kube's default table convertor (Name, Created At), as CRDs do.
    KUBE_ENTRY("rbac.authorization.k8s.io", "roles", CustomResourceDefinition),
    KUBE_ENTRY("rbac.authorization.k8s.io", "clusterroles", CustomResourceDefinition),
    KUBE_ENTRY("", "limitranges", CustomResourceDefinition),
    KUBE_ENTRY("certificates.k8s.io", "certificatesigningrequests", CertificateSigningRequest),
    KUBE_ENTRY("certificates.k8s.io", "clustertrustbundles", ClusterTrustBundle),
    KUBE_ENTRY("coordination.k8s.io", "leasecandidates", LeaseCandidate),
    KUBE_ENTRY("scheduling.k8s.io", "priorityclasses", PriorityClass),
    KUBE_ENTRY("node.k8s.io", "runtimeclasses", RuntimeClass),
    KUBE_ENTRY("flowcontrol.apiserver.k8s.io", "flowschemas", FlowSchema),
    KUBE_ENTRY("flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations", PriorityLevelConfiguration),
    KUBE_ENTRY("internal.apiserver.k8s.io", "storageversions", StorageVersion),
    KUBE_ENTRY("storagemigration.k8s.io", "storageversionmigrations", StorageVersionMigration),
    KUBE_ENTRY("storage.k8s.io", "storageclasses", StorageClass),
    KUBE_ENTRY("storage.k8s.io", "volumeattributesclasses", VolumeAttributesClass),
    KUBE_ENTRY("storage.k8s.io", "volumeattachments", VolumeAttachment),
    KUBE_ENTRY("storage.k8s.io", "csinodes", CSINode),
    KUBE_ENTRY("storage.k8s.io", "csidrivers", CSIDriver),
    KUBE_ENTRY("storage.k8s.io", "csistoragecapacities", CSIStorageCapacity),
    KUBE_ENTRY("resource.k8s.io", "deviceclasses", NameAge),
    KUBE_ENTRY("resource.k8s.io", "resourceclaims", ResourceClaim),
    KUBE_ENTRY("resource.k8s.io", "resourceclaimtemplates", NameAge),
    KUBE_ENTRY("resource.k8s.io", "resourceslices", ResourceSlice),
};

#undef KUBE_ENTRY

const Entry& Lookup(std::string_view group, std::string_view resource) {
  static constexpr Entry kDefault{"", "", &internal::DefaultColumns, &internal::DefaultCells};
  for (const Entry& e : kEntries) {
    if (e.group == group && e.resource == resource) return e;
  }
  return kDefault;
}

Json ColumnJson(const Column& c) {
  return Json{{"name", c.name},
              {"type", c.type},
              {"format", c.format},
              {"description", c.description},
              {"priority", c.priority}};
}

// meta.AsPartialObjectMetadata: the object's whole metadata under meta.k8s.io/v1. Go encodes a
// zero ObjectMeta creationTimestamp as null, so an absent one shows up as null too.
Json PartialObjectMetadata(const Json& object) {
  const Json* md = internal::Field(&object, "metadata");
  Json metadata = internal::IsObject(md) ? *md : Json::object();
  if (!metadata.contains("creationTimestamp")) metadata["creationTimestamp"] = nullptr;
  return Json{{"kind", "PartialObjectMetadata"},
              {"apiVersion", "meta.k8s.io/v1"},
              {"metadata", std::move(metadata)}};
}

}  // namespace

const std::vector<Column>& ColumnsFor(std::string_view group, std::string_view resource) {
  return Lookup(group, resource).columns();
}

std::vector<nlohmann::json> CellsFor(std::string_view group, std::string_view resource,
                                     const nlohmann::json& object,
                                     std::chrono::system_clock::time_point now) {
  return Lookup(group, resource).cells(object, now);
}

bool IsValidIncludeObject(std::string_view include_object) {
  return include_object.empty() || include_object == "None" || include_object == "Metadata" ||
         include_object == "Object";
}

nlohmann::json BuildTable(std::string_view group, std::string_view resource,
                          const std::vector<const nlohmann::json*>& objects,
                          const std::string& list_resource_version, std::string_view include_object,
                          std::chrono::system_clock::time_point now) {
  const Entry& entry = Lookup(group, resource);
  return internal::TableJson(
      entry.columns(), [&](const Json& obj) { return entry.cells(obj, now); }, objects,
      list_resource_version, include_object, group.empty() && resource == "pods");
}

nlohmann::json BuildTable(const TablePrinter& printer, const std::vector<const nlohmann::json*>& objects,
                          const std::string& list_resource_version, std::string_view include_object,
                          std::chrono::system_clock::time_point now) {
  return internal::TableJson(
      printer.Columns(), [&](const Json& obj) { return printer.Cells(obj, now); }, objects,
      list_resource_version, include_object, /*pod_conditions=*/false);
}

namespace internal {

Json TableJson(const std::vector<Column>& column_defs, const std::function<Cells(const Json&)>& cells,
               const std::vector<const Json*>& objects, const std::string& list_resource_version,
               std::string_view include_object, bool pod_conditions) {
  Json columns = Json::array();
  for (const Column& c : column_defs) columns.push_back(ColumnJson(c));

  Json rows = Json::array();
  for (const Json* obj : objects) {
    if (obj == nullptr) continue;
    Json row = Json::object();
    row["cells"] = cells(*obj);
    std::string completed_reason;
    if (pod_conditions && PodCompleted(*obj, &completed_reason)) {
      row["conditions"] = Json::array(
          {Json{{"type", "Completed"},
                {"status", "True"},
                {"reason", completed_reason},
                {"message", completed_reason == "Succeeded" ? "The pod has completed successfully."
                                                            : "The pod failed."}}});
    }
    if (include_object == "Object") {
      row["object"] = *obj;
    } else if (include_object == "None") {
      row["object"] = nullptr;
    } else {
      row["object"] = PartialObjectMetadata(*obj);
    }
    rows.push_back(std::move(row));
  }

  Json metadata = Json::object();
  if (!list_resource_version.empty()) metadata["resourceVersion"] = list_resource_version;
  return Json{{"kind", "Table"},
              {"apiVersion", "meta.k8s.io/v1"},
              {"metadata", std::move(metadata)},
              {"columnDefinitions", std::move(columns)},
              {"rows", std::move(rows)}};
}

}  // namespace internal

}  // namespace kube::printers
