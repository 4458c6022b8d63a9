// Conversion between the served versions of one built-in resource, as kube-apiserver's scheme
// converts them: each resource is stored at one version (StorageApiVersion) and every request at
// another version is converted on the way in (request version -> storage version) and on the way
// out (storage version -> request version): reads, lists, watch events, Tables, protobuf and the
// answers of writes.
//
// Pairs whose schemas differ get kube's field mappings:
//   autoscaling/v1 <-> autoscaling/v2 HorizontalPodAutoscaler (autoscaling.cc): the v1
//     targetCPUUtilizationPercentage is a v2 Resource cpu Utilization metric; what v1 cannot
//     hold travels in kube's round-trip annotations autoscaling.alpha.kubernetes.io/metrics,
//     current-metrics, conditions and behavior;
//   v1 <-> events.k8s.io/v1 Event (events.cc): involvedObject/regarding, message/note,
//     source/deprecatedSource, firstTimestamp, lastTimestamp, count and reportingComponent/
//     reportingController;
//   resource.k8s.io/v1beta1 <-> v1 (and v1beta2, which is field-identical to v1) ResourceClaim,
//     ResourceClaimTemplate and ResourceSlice (resource_dra.cc): the flat v1beta1 DeviceRequest
//     is v1's `exactly`, the v1beta1 `basic` device is v1's flat Device.
// Every other resource served at several versions has field-identical schemas in kube 1.36 (see
// conversion_test.cc, which checks this against the catalogue), and its conversion is the
// change of apiVersion.
//
// Thread-safety: free functions over values; safe for concurrent use.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "catalogue/catalogue.h"
#include "util/status.h"

namespace kube::conversion {

using Object = nlohmann::json;

// "v1" for the core group, "group/version" otherwise.
std::string ApiVersionOf(std::string_view group, std::string_view version);

// The apiVersion a built-in resource is stored at: the Events of both groups are one store of
// core v1 Events (kube serves both from /registry/events); otherwise the group's highest-priority
// version that has the resource (autoscaling/v2 for HorizontalPodAutoscalers).
std::string StorageApiVersion(const catalogue::Catalogue& catalogue, std::string_view group,
                              std::string_view resource);

// `in` (whose apiVersion says which version it is; none means `to_api_version` already) as
// `to_api_version`. The kind stays. Errors (400, kube's decoding errors) only for input kube cannot
// convert either: a round-trip annotation that is not the JSON kube writes there.
Result<Object> Convert(const Object& in, std::string_view to_api_version);

// True when converting this kind between these versions changes more than apiVersion.
bool NeedsFieldMapping(std::string_view kind, std::string_view from_api_version, std::string_view to_api_version);

}  // namespace kube::conversion
