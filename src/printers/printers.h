// Server-side Table conversion: the metav1.Table kube-apiserver returns for
// `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`, which is what `kubectl get` prints.
//
// Column definitions and cell values follow kube-apiserver's built-in printers
// (k8s.io/kubernetes pkg/printers/internalversion) for every kind they cover: pods, podtemplates,
// replicationcontrollers, services, endpoints, nodes, namespaces, configmaps, secrets,
// serviceaccounts, events (core and events.k8s.io), persistentvolumes and claims,
// componentstatuses, resourcequotas; deployments, replicasets, statefulsets, daemonsets,
// controllerrevisions; jobs, cronjobs; horizontalpodautoscalers; poddisruptionbudgets;
// ingresses, ingressclasses, networkpolicies, servicecidrs, ipaddresses, endpointslices; webhook
// configurations, validating and mutating admission policies and bindings; role and cluster role
// bindings; certificatesigningrequests, clustertrustbundles; leases, leasecandidates;
// priorityclasses, runtimeclasses; flowschemas, prioritylevelconfigurations; storageversions,
// storageversionmigrations; storageclasses, volumeattributesclasses, volumeattachments, csinodes,
// csidrivers, csistoragecapacities; deviceclasses, resourceclaims, resourceclaimtemplates,
// resourceslices. apiservices print kube-aggregator's table; customresourcedefinitions, roles,
// clusterroles and limitranges kube's default table convertor (Name, Created At). Any other
// resource gets the columns of a custom resource without printer columns: Name and Age.
//
// The server always prints in "wide" mode, so cells cover every column, including those with
// priority 1 (kubectl hides those unless `-o wide`). Cell values have kube's JSON types: strings,
// or integers for integer-valued columns.
//
// kube prints the internal form of an object, i.e. after v1 defaulting and conversion. Objects
// stored by this server may not have been through that, so the printers apply the few v1
// defaults and conversions whose absence would change a cell: pod phase Pending, service type
// ClusterIP, service port protocol TCP, spec.clusterIP/status.podIP preferred over the plural
// lists, secret type Opaque (and stringData counted as data), namespace phase Active, cronjob
// suspend false, PV/PVC phase Pending, PV reclaim policy Retain, PV/PVC volumeMode Filesystem,
// and replicas 1 for deployments, replicasets and statefulsets.
//
// Objects are arbitrary JSON: missing fields, wrong types, nulls and non-object values never
// throw; a field of the wrong type reads as absent.
//
// Thread-safety: every function is pure (no mutable shared state; the column tables are
// immutable function-local statics) and may be called concurrently from any thread.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace kube::printers {

// metav1.TableColumnDefinition.
struct Column {
  std::string name, type, format, description;
  int priority = 0;
};

// Column definitions for a resource (group, resource plural); Name + Age for unknown resources.
// The reference stays valid for the life of the program.
const std::vector<Column>& ColumnsFor(std::string_view group, std::string_view resource);

// The cells of one row for `object` (a full JSON object), matching ColumnsFor; `now` for AGE.
std::vector<nlohmann::json> CellsFor(std::string_view group, std::string_view resource,
                                     const nlohmann::json& object,
                                     std::chrono::system_clock::time_point now);

// Full metav1.Table JSON for a list of objects:
// {"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":...},
//  "columnDefinitions":[...],"rows":[{"cells":[...],"object":<as requested>}]}.
// `include_object` is kube's includeObject parameter: "Object" (the object as stored),
// "Metadata" or "" (a meta.k8s.io/v1 PartialObjectMetadata) or "None" (`"object": null`); any
// other value is treated as "Metadata" (callers reject it first, see IsValidIncludeObject).
// `list_resource_version` goes to metadata.resourceVersion (omitted when empty); for a single
// object pass that object's resourceVersion. Null entries in `objects` are skipped. Rows of
// pods that have Succeeded or Failed carry kube's `Completed` row condition.
nlohmann::json BuildTable(std::string_view group, std::string_view resource,
                          const std::vector<const nlohmann::json*>& objects,
                          const std::string& list_resource_version, std::string_view include_object,
                          std::chrono::system_clock::time_point now);

// The columns and cells of a kind whose printer is not built in: custom resources print the
// additionalPrinterColumns of their CRD. Implementations must be immutable (shared by requests).
class TablePrinter {
 public:
  virtual ~TablePrinter() = default;
  virtual const std::vector<Column>& Columns() const = 0;
  // One row's cells, matching Columns().
  virtual std::vector<nlohmann::json> Cells(const nlohmann::json& object,
                                            std::chrono::system_clock::time_point now) const = 0;
};

// BuildTable with `printer`'s columns and cells.
nlohmann::json BuildTable(const TablePrinter& printer, const std::vector<const nlohmann::json*>& objects,
                          const std::string& list_resource_version, std::string_view include_object,
                          std::chrono::system_clock::time_point now);

// True for the includeObject values kube accepts ("", "None", "Metadata", "Object"); kube
// answers anything else with 400 `Unable to convert to Table as requested: includeObject: Invalid value: "<v>": ...`.
bool IsValidIncludeObject(std::string_view include_object);

// k8s.io/apimachinery duration.HumanDuration: "45s", "5m30s", "3h2m", "2d5h", "3y20d", ...;
// "0s" for durations in (-2s, 0), "<invalid>" for anything more negative.
std::string HumanDuration(std::chrono::nanoseconds d);

}  // namespace kube::printers
