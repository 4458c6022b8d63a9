#include "apiextensions/crd_conditions.h"

#include <ctime>

#include "apiextensions/crd_internal.h"
#include "apiextensions/go_url.h"

namespace kube::apiextensions {

using namespace json_access;

namespace {

nlohmann::json* MutableConditions(nlohmann::json* crd) {
  if (!crd->is_object()) *crd = nlohmann::json::object();
  nlohmann::json& status = (*crd)["status"];
  if (!status.is_object()) status = nlohmann::json::object();
  nlohmann::json& conditions = status["conditions"];
  if (!conditions.is_array()) conditions = nlohmann::json::array();
  return &conditions;
}

}  // namespace

std::string FormatConditionTime(std::chrono::system_clock::time_point t) {
  const std::time_t secs = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

const nlohmann::json* FindCondition(const nlohmann::json& crd, std::string_view type) {
  const nlohmann::json* conditions = Arr(Obj(&crd, "status"), "conditions");
  if (conditions == nullptr) return nullptr;
  for (const auto& c : *conditions) {
    if (Str(&c, "type") == type) return &c;
  }
  return nullptr;
}

bool IsConditionTrue(const nlohmann::json& crd, std::string_view type) {
  const nlohmann::json* c = FindCondition(crd, type);
  return c != nullptr && Str(c, "status") == "True";
}

bool IsConditionFalse(const nlohmann::json& crd, std::string_view type) {
  const nlohmann::json* c = FindCondition(crd, type);
  return c != nullptr && Str(c, "status") == "False";
}

bool IsConditionEquivalent(const CrdCondition* a, const nlohmann::json* b) {
  if (a == nullptr || b == nullptr) return a == nullptr && b == nullptr;
  return a->type == Str(b, "type") && a->status == Str(b, "status") && a->reason == Str(b, "reason") &&
         a->message == Str(b, "message");
}

void SetCondition(nlohmann::json* crd, const CrdCondition& condition, std::chrono::system_clock::time_point now) {
  nlohmann::json* conditions = MutableConditions(crd);
  const std::string time = FormatConditionTime(now);
  for (auto& existing : *conditions) {
    if (Str(&existing, "type") != condition.type) continue;
    if (Str(&existing, "status") != condition.status || Str(&existing, "lastTransitionTime").empty()) {
      existing["lastTransitionTime"] = time;
    }
    existing["status"] = condition.status;
    existing["reason"] = condition.reason;
    existing["message"] = condition.message;
    return;
  }
  conditions->push_back({{"type", condition.type},
                         {"status", condition.status},
                         {"lastTransitionTime", time},
                         {"reason", condition.reason},
                         {"message", condition.message}});
}

void RemoveCondition(nlohmann::json* crd, std::string_view type) {
  nlohmann::json* conditions = MutableConditions(crd);
  nlohmann::json kept = nlohmann::json::array();
  for (auto& c : *conditions) {
    if (Str(&c, "type") != type) kept.push_back(std::move(c));
  }
  *conditions = std::move(kept);
}

CrdCondition TerminatingInProgress() {
  return {"Terminating", "True", "InstanceDeletionInProgress", "CustomResource deletion is in progress"};
}
CrdCondition TerminatingCompleted() {
  return {"Terminating", "False", "InstanceDeletionCompleted", "removed all instances"};
}
CrdCondition TerminatingNeverEstablished() {
  return {"Terminating", "False", "NeverEstablished", "resource was never established"};
}
CrdCondition TerminatingOverlappingBuiltIn() {
  return {"Terminating", "False", "OverlappingBuiltInResource", "instances overlap with built-in resources in storage"};
}
CrdCondition TerminatingListFailed(std::string_view error) {
  return {"Terminating", "True", "InstanceDeletionFailed", "could not list instances: " + std::string(error)};
}
CrdCondition TerminatingDeleteFailed(std::string_view error) {
  return {"Terminating", "True", "InstanceDeletionFailed", "could not issue all deletes: " + std::string(error)};
}
CrdCondition TerminatingCheckFailed(std::string_view error) {
  return {"Terminating", "True", "InstanceDeletionCheck",
          "could not confirm zero CustomResources remaining: " + std::string(error)};
}

bool NeedsCleanup(const nlohmann::json& crd) {
  const nlohmann::json* meta = Obj(&crd, "metadata");
  if (Str(meta, "deletionTimestamp").empty()) return false;
  for (const std::string& f : Strings(meta, "finalizers")) {
    if (f == kCleanupFinalizer) return true;
  }
  return false;
}

void RemoveCleanupFinalizer(nlohmann::json* crd) {
  if (!crd->is_object()) return;
  auto meta = crd->find("metadata");
  if (meta == crd->end() || !meta->is_object()) return;
  auto finalizers = meta->find("finalizers");
  if (finalizers == meta->end() || !finalizers->is_array()) return;
  nlohmann::json kept = nlohmann::json::array();
  for (const auto& f : *finalizers) {
    if (!(f.is_string() && f.get<std::string>() == kCleanupFinalizer)) kept.push_back(f);
  }
  *finalizers = std::move(kept);
}

bool IsProtectedCommunityGroup(std::string_view group) {
  return group == "k8s.io" || group.ends_with(".k8s.io") || group == "kubernetes.io" || group.ends_with(".kubernetes.io");
}

bool IsAbsoluteUrlWithHost(std::string_view s) {
  const GoUrl u = ParseGoUrl(s, true);
  return u.error.empty() && !u.scheme.empty() && !u.host.empty();
}

ApiApprovalState GetApiApprovalState(const nlohmann::json& crd, std::string* reason) {
  const std::string annotation = Str(Obj(Obj(&crd, "metadata"), "annotations"), kApiApprovedAnnotation);
  const std::string quoted = "\"" + std::string(kApiApprovedAnnotation) + "\"";
  if (annotation.empty()) {
    *reason = "protected groups must have approval annotation " + quoted +
              ", see https://github.com/kubernetes/enhancements/pull/1111";
    return ApiApprovalState::kMissing;
  }
  if (annotation.starts_with("unapproved")) {
    *reason = "not approved: \"" + annotation + "\"";
    return ApiApprovalState::kBypassed;
  }
  if (IsAbsoluteUrlWithHost(annotation)) {
    *reason = "approved in " + annotation;
    return ApiApprovalState::kApproved;
  }
  *reason = "protected groups must have approval annotation " + quoted +
            " with either a URL or a reason starting with \"unapproved\", see "
            "https://github.com/kubernetes/enhancements/pull/1111";
  return ApiApprovalState::kInvalid;
}

std::optional<CrdCondition> ApiApprovalCondition(const nlohmann::json& crd) {
  if (!IsProtectedCommunityGroup(Str(Obj(&crd, "spec"), "group"))) return std::nullopt;
  std::string reason;
  constexpr const char* kType = "KubernetesAPIApprovalPolicyConformant";
  switch (GetApiApprovalState(crd, &reason)) {
    case ApiApprovalState::kInvalid: return CrdCondition{kType, "False", "InvalidAnnotation", reason};
    case ApiApprovalState::kMissing: return CrdCondition{kType, "False", "MissingAnnotation", reason};
    case ApiApprovalState::kApproved: return CrdCondition{kType, "True", "ApprovedAnnotation", reason};
    case ApiApprovalState::kBypassed: return CrdCondition{kType, "False", "UnapprovedAnnotation", reason};
  }
  return std::nullopt;
}

}  // namespace kube::apiextensions
