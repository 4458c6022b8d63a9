#include "endpoints/pod_subresources.h"

#include <nlohmann/json.hpp>

#include <thread>

#include "auth/clusterrole_aggregation.h"
#include "endpoints/request_body.h"
#include "endpoints/request_options.h"
#include "endpoints/responses.h"
#include "registry/errors.h"
#include "storage/object_codec.h"

namespace kube::endpoints {

using nlohmann::json;
using storage::Object;

namespace {

// kube's eviction REST retries conflicting budget updates this often (EvictionsRetry).
constexpr int kConflictRetries = 20;
// The size of status.disruptedPods past which evictions are refused (MaxDisruptedPodSize).
constexpr size_t kMaxDisruptedPods = 2000;

const json& Member(const json& obj, const char* key) {
  static const json kNull;
  if (!obj.is_object()) return kNull;
  auto it = obj.find(key);
  return it == obj.end() ? kNull : *it;
}

std::string MetaString(const json& obj, const char* key) {
  const json& v = Member(Member(obj, "metadata"), key);
  return v.is_string() ? v.get<std::string>() : "";
}

int64_t IntAt(const json& obj, const char* a, const char* b) {
  const json& v = Member(Member(obj, a), b);
  return v.is_number_integer() ? v.get<int64_t>() : 0;
}

HttpResponse SuccessCreated() {
  return JsonResponse(201, json{{"kind", "Status"},
                                {"apiVersion", "v1"},
                                {"metadata", json::object()},
                                {"status", "Success"},
                                {"code", 201}});
}

// ValidatePodBinding's problems, as the aggregate kube returns (a 500 without a reason).
std::string BindingProblems(const json& binding) {
  std::vector<std::string> problems;
  const json& target = Member(binding, "target");
  const std::string kind = Member(target, "kind").is_string() ? target["kind"].get<std::string>() : "";
  if (!kind.empty() && kind != "Node") {
    problems.push_back("target.kind: Unsupported value: " + registry::GoQuote(kind) +
                       ": supported values: \"Node\", \"<empty>\"");
  }
  if (!Member(target, "name").is_string() || target["name"].get<std::string>().empty()) {
    problems.push_back("target.name: Required value");
  }
  if (problems.size() == 1) return problems[0];
  std::string joined;
  for (const auto& p : problems) joined += (joined.empty() ? "" : ", ") + p;
  return problems.empty() ? "" : "[" + joined + "]";
}

// podutil.UpdatePodCondition for PodScheduled=True: the transition time moves only when the
// status changes.
void MarkScheduled(Object* pod) {
  Object& status = (*pod)["status"];
  if (!status.is_object()) status = Object::object();
  Object& conditions = status["conditions"];
  if (!conditions.is_array()) conditions = Object::array();
  const std::string now = registry::NowRfc3339();
  for (auto& c : conditions) {
    if (!c.is_object() || c.value("type", "") != "PodScheduled") continue;
    if (c.value("status", "") != "True") c["lastTransitionTime"] = now;
    c["status"] = "True";
    c.erase("reason");
    c.erase("message");
    return;
  }
  conditions.push_back(Object{{"type", "PodScheduled"}, {"status", "True"}, {"lastProbeTime", nullptr},
                              {"lastTransitionTime", now}});
}

bool PodReady(const json& pod) {
  const json& conditions = Member(Member(pod, "status"), "conditions");
  if (!conditions.is_array()) return false;
  for (const auto& c : conditions) {
    if (c.is_object() && c.value("type", "") == "Ready") return c.value("status", "") == "True";
  }
  return false;
}

Status TooManyRequests(const std::string& cause, int retry_after) {
  Status s = Status::TooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", retry_after);
  s.mutable_details().causes.push_back(StatusCause{"DisruptionBudget", cause, ""});
  return s;
}

// pdbhelper.UpdateDisruptionAllowedCondition.
void SetDisruptionAllowedCondition(json* pdb) {
  json& status = (*pdb)["status"];
  const bool allowed = status.value("disruptionsAllowed", int64_t{0}) > 0;
  json& conditions = status["conditions"];
  if (!conditions.is_array()) conditions = json::array();
  json next = {{"type", "DisruptionAllowed"},
               {"status", allowed ? "True" : "False"},
               {"reason", allowed ? "SufficientPods" : "InsufficientPods"},
               {"message", ""},
               {"observedGeneration", status.value("observedGeneration", int64_t{0})},
               {"lastTransitionTime", registry::NowRfc3339()}};
  for (auto& c : conditions) {
    if (!c.is_object() || c.value("type", "") != "DisruptionAllowed") continue;
    if (c.value("status", "") == next["status"]) next["lastTransitionTime"] = c.value("lastTransitionTime", "");
    c = std::move(next);
    return;
  }
  conditions.push_back(std::move(next));
}

// checkAndDecrement: one attempt against the budget as read; Conflict means read it again.
Status CheckAndDecrement(registry::Store& pdbs, const std::string& ns, const std::string& pod_name, json pdb,
                         bool dry_run) {
  const std::string name = MetaString(pdb, "name");
  const json& status = Member(pdb, "status");
  if (IntAt(pdb, "status", "observedGeneration") < IntAt(pdb, "metadata", "generation")) {
    return TooManyRequests("The disruption budget " + name + " is still being processed by the server.", 10);
  }
  const int64_t allowed = IntAt(pdb, "status", "disruptionsAllowed");
  if (allowed < 0) {
    return registry::ForbiddenError("policy", "poddisruptionbudget", name, "pdb disruptions allowed is negative");
  }
  const json& disrupted = Member(status, "disruptedPods");
  if (disrupted.is_object() && disrupted.size() > kMaxDisruptedPods) {
    return registry::ForbiddenError("policy", "poddisruptionbudget", name,
                                    "DisruptedPods map too big - too many evictions not confirmed by PDB controller");
  }
  if (allowed == 0) {
    return TooManyRequests("The disruption budget " + name + " needs " +
                               std::to_string(IntAt(pdb, "status", "desiredHealthy")) + " healthy pods and has " +
                               std::to_string(IntAt(pdb, "status", "currentHealthy")) + " currently",
                           0);
  }
  pdb["status"]["disruptionsAllowed"] = allowed - 1;
  if (allowed - 1 == 0) SetDisruptionAllowedCondition(&pdb);
  if (dry_run) return Status::OK();
  json& pods = pdb["status"]["disruptedPods"];
  if (!pods.is_object()) pods = json::object();
  pods[pod_name] = registry::NowRfc3339();
  // The budget as read is the precondition: its resourceVersion stays in the body.
  auto updated = pdbs.Update(ns, name, "status", [&](const Object&) -> Result<Object> { return pdb; }, {});
  return updated.ok() ? Status::OK() : updated.status();
}

}  // namespace

bool IsBindingsResource(std::string_view group, std::string_view resource) {
  return group.empty() && resource == "bindings";
}

HttpResponse BindPod(registry::ApiRegistry* registry, const HttpRequest& request, const Query& query,
                     std::string_view ns, std::string_view url_name) {
  auto params = ParseWriteParams(query, "CreateOptions");
  if (!params.ok()) return ErrorResponse(params.status());
  std::vector<std::string> duplicates;
  auto body = DecodeObjectBody(request, {.api_version = "v1", .kind = "Binding"}, &duplicates);
  if (!body.ok()) return ErrorResponse(body.status());
  const std::string name = MetaString(*body, "name");
  if (!url_name.empty() && name != url_name) {
    return ErrorResponse(Status::BadRequest("name in URL does not match name in Binding object"));
  }
  if (std::string problems = BindingProblems(*body); !problems.empty()) {
    return ErrorResponse(Status::Unknown(problems));
  }
  registry::StorePtr pods = registry->Find("", "v1", "pods");
  auto key = pods->ObjectKey(ns, name);
  if (!key.ok()) return ErrorResponse(key.status());
  storage::Preconditions preconditions;
  if (std::string uid = MetaString(*body, "uid"); !uid.empty()) preconditions.uid = uid;
  if (std::string rv = MetaString(*body, "resourceVersion"); !rv.empty()) preconditions.resource_version = rv;
  const std::string node = (*body)["target"]["name"];
  const json annotations = Member(Member(*body, "metadata"), "annotations");
  Status refused;  // kube's plain errors from the update function, answered as 409 pods/binding
  auto bind = [&](const Object& current) -> Result<Object> {
    refused = Status::OK();  // called again when the first read was stale
    auto why = [&](const std::string& reason) {
      refused = registry::ConflictError("", "pods/binding", name, reason);
      return refused;
    };
    if (!Member(Member(current, "metadata"), "deletionTimestamp").is_null()) {
      return why("pod " + name + " is being deleted, cannot be assigned to a host");
    }
    const json& assigned = Member(Member(current, "spec"), "nodeName");
    if (assigned.is_string() && !assigned.get<std::string>().empty()) {
      return why("pod " + name + " is already assigned to node \"" + assigned.get<std::string>() + "\"");
    }
    const json& gates = Member(Member(current, "spec"), "schedulingGates");
    if (gates.is_array() && !gates.empty()) return why("pod " + name + " has non-empty .spec.schedulingGates");
    Object next = current;
    next["spec"]["nodeName"] = node;
    if (annotations.is_object()) {
      Object& into = next["metadata"]["annotations"];
      if (!into.is_object()) into = Object::object();
      for (const auto& [k, v] : annotations.items()) into[k] = v;
    }
    MarkScheduled(&next);
    return next;
  };
  if (params->dry_run) {
    auto current = pods->storage()->Get(*key, {});
    if (!current.ok()) return ErrorResponse(registry::FromStorage(current.status(), "", "pods", name));
    if (auto s = storage::CheckPreconditions(&preconditions, **current); !s.ok()) {
      return ErrorResponse(registry::FromStorage(s, "", "pods", name));
    }
    auto next = bind(**current);
    if (!next.ok()) return ErrorResponse(next.status());
    return SuccessCreated();
  }
  auto updated = pods->storage()->GuaranteedUpdate(
      *key, false, &preconditions,
      [&](const Object& current, const storage::ResponseMeta&, std::optional<uint64_t>*) { return bind(current); },
      nullptr);
  if (!refused.ok()) return ErrorResponse(refused);
  if (!updated.ok()) return ErrorResponse(registry::FromStorage(updated.status(), "", "pods", name));
  return SuccessCreated();
}

HttpResponse EvictPod(registry::ApiRegistry* registry, const HttpRequest& request, const Query& query,
                      std::string_view ns, std::string_view url_name) {
  auto params = ParseWriteParams(query, "CreateOptions");
  if (!params.ok()) return ErrorResponse(params.status());
  std::vector<std::string> duplicates;
  auto body = DecodeObjectBody(request, {.api_version = "policy/v1", .kind = "Eviction"}, &duplicates);
  if (!body.ok()) return ErrorResponse(body.status());
  const std::string name = MetaString(*body, "name");
  if (name != url_name) return ErrorResponse(Status::BadRequest("name in URL does not match name in Eviction object"));
  const json* delete_body = Member(*body, "deleteOptions").is_object() ? &(*body)["deleteOptions"] : nullptr;
  json empty_options = json::object();
  auto options = ParseDeleteOptions(query, delete_body ? delete_body : &empty_options);
  if (!options.ok()) return ErrorResponse(options.status());
  options->dry_run = options->dry_run || params->dry_run;
  const bool rv_unset = !options->preconditions.resource_version.has_value();

  registry::StorePtr pods = registry->Find("", "v1", "pods");
  registry::StorePtr pdbs = registry->Find("policy", "v1", "poddisruptionbudgets");
  auto pod = pods->Get(ns, name, {});
  if (!pod.ok()) return ErrorResponse(pod.status());
  const std::string phase = Member(Member(**pod, "status"), "phase").is_string() ? (**pod)["status"]["phase"] : "";
  const bool terminating = !Member(Member(**pod, "metadata"), "deletionTimestamp").is_null();
  auto remove = [&](bool pin_version) -> HttpResponse {
    registry::DeleteOptions o = *options;
    if (pin_version && rv_unset) o.preconditions.resource_version = MetaString(**pod, "resourceVersion");
    auto deleted = pods->Delete(ns, name, o);
    if (!deleted.ok()) return ErrorResponse(deleted.status());
    return SuccessCreated();
  };
  // A terminal, pending or terminating pod disrupts nothing more: no budget applies.
  if (phase == "Succeeded" || phase == "Failed" || phase == "Pending" || terminating) {
    return remove(/*pin_version=*/phase == "Pending" && !terminating);
  }
  std::vector<json> matching;
  if (pdbs != nullptr) {
    auto list = pdbs->List(ns, storage::ListOptions{});
    if (!list.ok()) return ErrorResponse(list.status());
    for (const auto& item : list->items) {
      const json& selector = Member(Member(*item, "spec"), "selector");
      // A nil or empty selector matches nothing here, unlike everywhere else.
      const bool empty = !selector.is_object() ||
                         ((!Member(selector, "matchLabels").is_object() || selector["matchLabels"].empty()) &&
                          (!Member(selector, "matchExpressions").is_array() || selector["matchExpressions"].empty()));
      if (!empty && auth::LabelSelectorMatches(selector, **pod)) matching.push_back(*item);
    }
  }
  if (matching.size() > 1) {
    return JsonResponse(500, json{{"kind", "Status"},
                                  {"apiVersion", "v1"},
                                  {"metadata", json::object()},
                                  {"status", "Failure"},
                                  {"message", "This pod has more than one PodDisruptionBudget, which the eviction "
                                              "subresource does not support."},
                                  {"code", 500}});
  }
  if (matching.empty()) return remove(false);
  json pdb = matching[0];
  const std::string pdb_name = MetaString(pdb, "name");
  // An unready pod does not count as healthy: evicting it takes nothing from the budget while
  // enough others are healthy (or the budget says unhealthy pods may always go).
  if (!PodReady(**pod)) {
    const bool always = Member(Member(pdb, "spec"), "unhealthyPodEvictionPolicy") == "AlwaysAllow";
    const int64_t desired = IntAt(pdb, "status", "desiredHealthy");
    if (always || (IntAt(pdb, "status", "currentHealthy") >= desired && desired > 0)) {
      HttpResponse r = remove(true);
      if (r.status == 409 && rv_unset) {
        return ErrorResponse(TooManyRequests("The disruption budget " + pdb_name + " is still being processed by the server.", 10));
      }
      return r;
    }
  }
  Status decremented;
  for (int attempt = 0; attempt < kConflictRetries; ++attempt) {
    if (attempt > 0) {
      auto fresh = pdbs->Get(ns, pdb_name, {});
      if (!fresh.ok()) return ErrorResponse(fresh.status());
      pdb = **fresh;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    decremented = CheckAndDecrement(*pdbs, std::string(ns), name, pdb, options->dry_run);
    if (!decremented.IsConflict()) break;
  }
  if (decremented.IsConflict()) {
    return ErrorResponse(Status(StatusCode::kTimeout, "couldn't update PodDisruptionBudget \"" + pdb_name +
                                                          "\" due to conflicts").set_retry_after_seconds(10));
  }
  if (!decremented.ok()) return ErrorResponse(decremented);
  return remove(false);
}

}  // namespace kube::endpoints
