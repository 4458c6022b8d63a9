// Helpers shared by the per-resource printers. Not part of the library's public API.
//
// Every accessor is total: a missing key, a null, or a value of the wrong type reads as absent
// (nullptr / "" / 0 / false), so printers never throw on malformed objects.
//
// Thread-safety: all functions are pure and may be called concurrently.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/strings.h"
#include "printers/printers.h"

namespace kube::printers::internal {

using Json = nlohmann::json;
using Cells = std::vector<Json>;
using TimePoint = std::chrono::system_clock::time_point;

// ---- JSON access -------------------------------------------------------------------------

// The member `key` of `obj`, or nullptr when `obj` is null/not an object or has no such key.
const Json* Field(const Json* obj, std::string_view key);
// Field() along a path of keys.
const Json* Path(const Json* obj, std::initializer_list<std::string_view> keys);
// Present and not JSON null (Go's "pointer field is non-nil").
bool IsSet(const Json* v);
bool IsObject(const Json* v);
// The string value, or "" for anything that is not a string.
std::string Str(const Json* v);
// The integer value (floats truncated), clamped to int32, or 0.
int64_t Int32(const Json* v);
bool Bool(const Json* v);
// The array, or an empty array for anything else.
const Json& Array(const Json* v);
// Number of members of an object, or 0.
size_t ObjectSize(const Json* v);

// metadata.name.
std::string Name(const Json& object);

// ---- time ---------------------------------------------------------------------------------

// A parsed RFC 3339 timestamp (metav1.Time / metav1.MicroTime), as seconds + nanoseconds since
// the Unix epoch.
struct Time {
  int64_t sec = 0;
  int32_t nsec = 0;
  bool operator<(const Time& o) const { return sec < o.sec || (sec == o.sec && nsec < o.nsec); }
};
// Parses "YYYY-MM-DDTHH:MM:SS[.fraction](Z|+hh:mm|-hh:mm)". nullopt for anything else, and for
// Go's zero time (0001-01-01T00:00:00Z), which kube treats as unset.
std::optional<Time> ParseTime(const Json* v);
// t2 - t1 in nanoseconds, saturating like Go's time.Time.Sub.
std::chrono::nanoseconds Sub(const Time& t2, const Time& t1);
Time FromTimePoint(TimePoint tp);
// kube's translateTimestampSince: HumanDuration(now - ts), "<unknown>" when unset/invalid.
std::string Since(const Json* ts, TimePoint now);
// "2006-01-02T15:04:05Z" (Go's time.RFC3339 of the UTC time).
std::string FormatRFC3339(const Time& t);

// ---- kube formatting helpers ----------------------------------------------------------------

// labels.FormatLabels: "k1=v1,k2=v2" sorted by key, "<none>" when empty.
std::string FormatLabels(const Json* labels);
// metav1.LabelSelectorAsSelector(sel).String(): "" for a nil or empty selector; nullopt when
// the selector is invalid (bad operator, key or value).
std::optional<std::string> SelectorString(const Json* selector);
// metav1.FormatLabelSelector: "<none>" for an empty result, "<error>" for an invalid selector.
std::string FormatLabelSelector(const Json* selector);
// layoutContainerCells: comma-joined container names and images.
std::pair<std::string, std::string> ContainerCells(const Json* containers);
// net.JoinHostPort.
std::string JoinHostPort(const std::string& host, int64_t port);
using ::kube::Join;  // util/strings.h
std::vector<std::string> Split(const std::string& s, char sep);
// The strings of a JSON array (non-strings read as "").
std::vector<std::string> Strings(const Json* arr);
// Sorted, de-duplicated status.loadBalancer.ingress IPs (or hostnames where there is no IP),
// comma-joined: kube's loadBalancerStatusStringer in wide mode (no truncation).
std::string LoadBalancerIngress(const Json* status);
// "<none>" when s is empty.
std::string OrNone(std::string s);
// A resource.Quantity as printed (Quantity.String()): what is stored, "0" when absent.
std::string Quantity(const Json* q);
// intstr.IntOrString.String(): the integer in decimal or the string.
std::string IntOrString(const Json* v);
// metav1.LabelSelector's generated String() ("&LabelSelector{MatchLabels:map[string]string{...},...}").
std::string LabelSelectorGoString(const Json* selector);
// A "<unset>"/"<none>" stand-in when `v` is not a string.
std::string StrOr(const Json* v, std::string_view fallback);

// The Age cell: Since(metadata.creationTimestamp).
std::string Age(const Json& object, TimePoint now);

// The Name (format "name") and Age columns most resources share.
Column NameColumn();
Column AgeColumn();

// ---- per-resource printers --------------------------------------------------------------------

using ColumnsFn = const std::vector<Column>& (*)();
using CellsFn = Cells (*)(const Json& object, TimePoint now);

#define KUBE_PRINTER(name)                    \
  const std::vector<Column>& name##Columns(); \
  Cells name##Cells(const Json& object, TimePoint now)

// pod.cc
KUBE_PRINTER(Pod);
// workloads.cc
KUBE_PRINTER(Deployment);
KUBE_PRINTER(ReplicaSet);
KUBE_PRINTER(StatefulSet);
KUBE_PRINTER(DaemonSet);
KUBE_PRINTER(Job);
KUBE_PRINTER(CronJob);
// core.cc
KUBE_PRINTER(Service);
KUBE_PRINTER(Endpoints);
KUBE_PRINTER(Node);
KUBE_PRINTER(Namespace);
KUBE_PRINTER(ConfigMap);
KUBE_PRINTER(Secret);
KUBE_PRINTER(ServiceAccount);
// events.cc
KUBE_PRINTER(Event);
KUBE_PRINTER(EventsV1Event);
// storage.cc
KUBE_PRINTER(PersistentVolume);
KUBE_PRINTER(PersistentVolumeClaim);
// misc.cc
KUBE_PRINTER(Ingress);
KUBE_PRINTER(Lease);
KUBE_PRINTER(CustomResourceDefinition);
// misc.cc: custom resources without printer columns (Name, Age).
KUBE_PRINTER(Default);
// misc.cc: apiregistration.k8s.io apiservices (kube-aggregator's table).
KUBE_PRINTER(APIService);
// autoscaling.cc
KUBE_PRINTER(HorizontalPodAutoscaler);
// workloads_more.cc
KUBE_PRINTER(PodTemplate);
KUBE_PRINTER(ReplicationController);
KUBE_PRINTER(PodDisruptionBudget);
KUBE_PRINTER(ControllerRevision);
KUBE_PRINTER(ComponentStatus);
KUBE_PRINTER(ResourceQuota);
// networking.cc
KUBE_PRINTER(IngressClass);
KUBE_PRINTER(NetworkPolicy);
KUBE_PRINTER(EndpointSlice);
KUBE_PRINTER(ServiceCIDR);
KUBE_PRINTER(IPAddress);
// admission.cc
KUBE_PRINTER(WebhookConfiguration);
KUBE_PRINTER(ValidatingAdmissionPolicy);
KUBE_PRINTER(MutatingAdmissionPolicy);
KUBE_PRINTER(AdmissionPolicyBinding);
// cluster.cc
KUBE_PRINTER(RoleBinding);
KUBE_PRINTER(ClusterRoleBinding);
KUBE_PRINTER(CertificateSigningRequest);
KUBE_PRINTER(ClusterTrustBundle);
KUBE_PRINTER(LeaseCandidate);
KUBE_PRINTER(PriorityClass);
KUBE_PRINTER(RuntimeClass);
KUBE_PRINTER(FlowSchema);
KUBE_PRINTER(PriorityLevelConfiguration);
KUBE_PRINTER(StorageVersion);
KUBE_PRINTER(StorageVersionMigration);
// storage_classes.cc
KUBE_PRINTER(StorageClass);
KUBE_PRINTER(VolumeAttributesClass);
KUBE_PRINTER(VolumeAttachment);
KUBE_PRINTER(CSINode);
KUBE_PRINTER(CSIDriver);
KUBE_PRINTER(CSIStorageCapacity);
KUBE_PRINTER(NameAge);  // kinds kube prints with Name and Age only (device classes, claim templates)
KUBE_PRINTER(ResourceClaim);
KUBE_PRINTER(ResourceSlice);

#undef KUBE_PRINTER

// The metav1.Table envelope shared by every printer: column definitions, one row per non-null
// object with its cells and the row object as `include_object` asks (see BuildTable);
// `pod_conditions` adds the Completed condition to rows of finished pods.
Json TableJson(const std::vector<Column>& columns, const std::function<Cells(const Json&)>& cells,
               const std::vector<const Json*>& objects, const std::string& list_resource_version,
               std::string_view include_object, bool pod_conditions);

// True when the pod's row carries the Completed condition (phase Succeeded or Failed); `reason`
// gets "Succeeded"/"Failed".
bool PodCompleted(const Json& pod, std::string* reason);

}  // namespace kube::printers::internal
