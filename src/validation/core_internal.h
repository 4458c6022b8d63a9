// Pieces of the core group's validation shared by its files (containers, volumes, pods,
// services, storage, the small kinds). Not for other groups: they use pod_spec.h and
// primitives.h.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "util/field_error.h"
#include "validation/kind_table.h"

namespace kube::validation::core {

using Json = nlohmann::json;

// ---- names (kube's ValidateNameFunc for most kinds: a DNS subdomain) ----

// NameIsDNSSubdomain(name, prefix): problems in kube's words, a trailing '-' allowed when `prefix`.
std::vector<std::string> NameIsDnsSubdomain(std::string_view name, bool prefix);
// ValidateNamespaceName / NameIsDNSLabel.
std::vector<std::string> NameIsDnsLabel(std::string_view name, bool prefix);
// ValidateServiceAccountName: a DNS subdomain.
inline std::vector<std::string> ServiceAccountNameProblems(std::string_view name) { return NameIsDnsSubdomain(name, false); }

// ---- reads ----

std::string Str(const Json& obj, const char* key);
bool Has(const Json& obj, const char* key);
bool BoolField(const Json& obj, const char* key);

// ---- resources ----

// ValidateResourceQuantityValue: not negative; an integer for integer resources.
FieldErrors ValidateResourceQuantityValue(std::string_view resource, const Json& value, const std::string& field);
// ValidatePositiveQuantityValue: "must be greater than zero".
FieldErrors ValidatePositiveQuantityValue(const Json& value, const std::string& field);
// ValidateContainerResourceRequirements (limits, requests <= limits, names, claims) at `path`.
FieldErrors ValidateContainerResources(const Json& resources, const std::set<std::string>& pod_claims,
                                       const std::string& path);
// validateResourceName / ValidateResourceQuotaResourceName / the LimitRange name check.
FieldErrors ValidateResourceName(std::string_view name, const std::string& field);
FieldErrors ValidateQuotaResourceName(std::string_view name, const std::string& field);
FieldErrors ValidateContainerResourceName(std::string_view name, const std::string& field);

// ---- scheduling ----

FieldErrors ValidateTolerations(const Json& tolerations, const std::string& path);
FieldErrors ValidateTaints(const Json& taints, const std::string& path);
// ValidateNodeSelector (required node affinity, PV node affinity).
FieldErrors ValidateNodeSelector(const Json& selector, const std::string& path);
FieldErrors ValidateAffinity(const Json& affinity, const std::string& path);

// ---- volumes ----

// ValidateVolumes: errors, and the valid volumes by name (their JSON).
FieldErrors ValidateVolumes(const Json& volumes, const Json* pod_meta, const std::string& path,
                            bool resource_is_pod, std::map<std::string, const Json*>* valid);
FieldErrors ValidatePersistentVolumeClaimSpec(const Json& spec, const std::string& path);
FieldErrors ValidatePersistentVolumeSpec(const Json& spec, std::string_view pv_name, const std::string& path);
// validateLocalDescendingPath / ValidateLocalNonReservedPath.
FieldErrors ValidateLocalDescendingPath(std::string_view target, const std::string& field);
FieldErrors ValidateLocalNonReservedPath(std::string_view target, const std::string& field);
FieldErrors ValidatePathNoBacksteps(std::string_view target, const std::string& field);

// ---- containers ----

// validateContainers / validateInitContainers / validateEphemeralContainers.
FieldErrors ValidateContainers(const Json& spec, const std::map<std::string, const Json*>& volumes,
                               const std::set<std::string>& pod_claims, const std::string& path);
// validateObjectFieldSelector / validateContainerResourceFieldSelector (downward API).
FieldErrors ValidateObjectFieldSelector(const Json& fs, const std::vector<std::string>& expressions, const std::string& path);
FieldErrors ValidateResourceFieldSelector(const Json& fs, const std::string& path, bool volume);
// ValidatePortNumOrName (an int or a IANA_SVC_NAME string).
FieldErrors ValidatePortNumOrName(const Json& port, const std::string& field);
// ValidateSecurityContext of a container.
FieldErrors ValidateSecurityContext(const Json& sc, const std::string& path, bool host_users);
FieldErrors ValidateSeccompProfileField(const Json& sp, const std::string& path);
FieldErrors ValidateAppArmorProfileField(const Json& profile, const std::string& path);

// ---- networking ----

// ValidateNonSpecialIP: not unspecified, loopback, link-local or link-local multicast.
FieldErrors ValidateNonSpecialIP(std::string_view ip, const std::string& field);
extern const std::vector<std::string> kPortProtocols;  // SCTP, TCP, UDP

// ---- finalizers ----

// validateFinalizerName for namespace spec.finalizers (qualified name; standard or qualified).
FieldErrors ValidateFinalizerName(std::string_view name, const std::string& field);

// ---- registration, one function per file ----

void AddPodKinds(KindTable* table);        // pods, podtemplates, replicationcontrollers
void AddServiceKinds(KindTable* table);    // services, endpoints
void AddConfigKinds(KindTable* table);     // configmaps, secrets, serviceaccounts, namespaces
void AddStorageKinds(KindTable* table);    // persistentvolumes, persistentvolumeclaims
void AddClusterKinds(KindTable* table);    // nodes, limitranges, resourcequotas, events

}  // namespace kube::validation::core
