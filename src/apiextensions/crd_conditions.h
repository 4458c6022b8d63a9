// status.conditions of a CustomResourceDefinition: kube's apihelpers (find, set with
// lastTransitionTime kept while the status does not change, remove) and the conditions its
// controllers write that are not about names: Terminating (the cleanup finalizer) and
// KubernetesAPIApprovalPolicyConformant (CRDs in *.k8s.io / *.kubernetes.io groups).
// NamesAccepted and Established are in crd_names.h.
//
// Thread-safety: pure functions; mutators change only the object passed in.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace kube::apiextensions {

inline constexpr std::string_view kCleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io";
inline constexpr std::string_view kApiApprovedAnnotation = "api-approved.kubernetes.io";

// One CustomResourceDefinitionCondition without its time.
struct CrdCondition {
  std::string type, status, reason, message;
};

// "2006-01-02T15:04:05Z" (metav1.Time's wire form, second precision, UTC).
std::string FormatConditionTime(std::chrono::system_clock::time_point t);

// The condition of that type in status.conditions, or nullptr.
const nlohmann::json* FindCondition(const nlohmann::json& crd, std::string_view type);
// Present and status "True" / "False".
bool IsConditionTrue(const nlohmann::json& crd, std::string_view type);
bool IsConditionFalse(const nlohmann::json& crd, std::string_view type);
// Same type, status, reason and message (times ignored); both absent counts as equivalent.
bool IsConditionEquivalent(const CrdCondition* a, const nlohmann::json* b);

// SetCRDCondition: appends the condition with lastTransitionTime = now, or overwrites the
// existing one's status, reason and message, moving its lastTransitionTime to now only when the
// status changes (or it had none).
void SetCondition(nlohmann::json* crd, const CrdCondition& condition,
                  std::chrono::system_clock::time_point now);
void RemoveCondition(nlohmann::json* crd, std::string_view type);

// The Terminating conditions the cleanup finalizer writes, in the order it writes them.
CrdCondition TerminatingInProgress();           // True InstanceDeletionInProgress
CrdCondition TerminatingCompleted();            // False InstanceDeletionCompleted "removed all instances"
CrdCondition TerminatingNeverEstablished();     // False NeverEstablished
CrdCondition TerminatingOverlappingBuiltIn();   // False OverlappingBuiltInResource
// True InstanceDeletionFailed "could not list instances: <err>" / "could not issue all deletes: <err>".
CrdCondition TerminatingListFailed(std::string_view error);
CrdCondition TerminatingDeleteFailed(std::string_view error);
// True InstanceDeletionCheck "could not confirm zero CustomResources remaining: <err>".
CrdCondition TerminatingCheckFailed(std::string_view error);

// True when metadata.deletionTimestamp is set and the cleanup finalizer is still listed, i.e.
// when the finalizer controller has work to do.
bool NeedsCleanup(const nlohmann::json& crd);
void RemoveCleanupFinalizer(nlohmann::json* crd);

// Groups whose CRDs need the api-approved.kubernetes.io annotation (k8s.io, kubernetes.io and
// their subdomains).
bool IsProtectedCommunityGroup(std::string_view group);

enum class ApiApprovalState { kInvalid, kApproved, kBypassed, kMissing };
// The annotation's state and kube's explanation of it.
ApiApprovalState GetApiApprovalState(const nlohmann::json& crd, std::string* reason);
// The KubernetesAPIApprovalPolicyConformant condition for a protected group, nullopt otherwise.
std::optional<CrdCondition> ApiApprovalCondition(const nlohmann::json& crd);

// net/url.ParseRequestURI's verdict that `s` is an absolute URL with a scheme and a host.
bool IsAbsoluteUrlWithHost(std::string_view s);

}  // namespace kube::apiextensions
