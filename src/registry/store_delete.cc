// registry::Store: delete (finalizers, graceful deletion, preconditions) and deletecollection.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>

#include "registry/errors.h"
#include "registry/namespace_lifecycle.h"
#include "registry/store.h"
#include "storage/object_codec.h"

namespace kube::registry {

using storage::Object;
using storage::ObjectPtr;

namespace {

constexpr int64_t kDefaultPodGraceSeconds = 30;

std::string Rfc3339After(int64_t seconds) {
  const std::time_t t =
      std::chrono::system_clock::to_time_t(std::chrono::system_clock::now()) + seconds;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

bool HasFinalizers(const Object& obj) {
  auto meta = obj.find("metadata");
  if (meta == obj.end()) return false;
  auto f = meta->find("finalizers");
  return f != meta->end() && f->is_array() && !f->empty();
}

// The grace period a pod deletion waits for; 0 deletes at once (unbound or finished pods).
int64_t PodGrace(const Object& pod, std::optional<int64_t> requested) {
  const Object& spec = pod.contains("spec") ? pod["spec"] : Object();
  const std::string node = spec.is_object() ? spec.value("nodeName", "") : "";
  const Object& status = pod.contains("status") ? pod["status"] : Object();
  const std::string phase = status.is_object() ? status.value("phase", "") : "";
  if (node.empty() || phase == "Succeeded" || phase == "Failed") return 0;
  int64_t grace = requested ? *requested
                            : (spec.is_object() ? spec.value("terminationGracePeriodSeconds", kDefaultPodGraceSeconds)
                                                : kDefaultPodGraceSeconds);
  return grace < 0 ? 1 : grace;
}

}  // namespace

Result<Store::DeleteResult> Store::Delete(std::string_view ns, std::string_view name,
                                          const DeleteOptions& options) {
  if (info_.resource == "namespaces" && info_.group.empty() && namespaces_ != nullptr) {
    KUBE_RETURN_IF_ERROR(namespaces_->CheckDeletable(name));
  }
  auto object_key = ObjectKey(ns, name);
  if (!object_key.ok()) return object_key.status();
  const std::string& key = *object_key;
  auto current = storage_->Get(key, storage::GetOptions{});
  if (!current.ok()) return FromStorage(current.status(), info_.group, info_.resource, name);
  const Object& cur = **current;
  // kube's rest.BeforeDelete words these itself, naming the Kind (not the resource).
  const Object& cur_meta = cur["metadata"];
  if (options.preconditions.uid && *options.preconditions.uid != cur_meta.value("uid", "")) {
    return ConflictError(info_.group, info_.kind, name,
                         "the UID in the precondition (" + *options.preconditions.uid +
                             ") does not match the UID in record (" + cur_meta.value("uid", "") +
                             "). The object might have been deleted and then recreated");
  }
  if (options.preconditions.resource_version &&
      *options.preconditions.resource_version != cur_meta.value("resourceVersion", "")) {
    return ConflictError(info_.group, info_.kind, name,
                         "the ResourceVersion in the precondition (" + *options.preconditions.resource_version +
                             ") does not match the ResourceVersion in record (" +
                             cur_meta.value("resourceVersion", "") + "). The object might have been modified");
  }
  const bool is_namespace = info_.resource == "namespaces" && info_.group.empty();
  const int64_t grace = rules_.graceful_delete ? PodGrace(cur, options.grace_period_seconds) : 0;
  const std::vector<std::string> added_finalizers =
      strategy_ && !cur_meta.contains("deletionTimestamp") ? strategy_->FinalizersOnDelete(cur)
                                                           : std::vector<std::string>{};
  const bool pending = HasFinalizers(cur) || grace > 0 || is_namespace || !added_finalizers.empty();

  if (pending) {
    // Mark for deletion; the object stays until its finalizers (or grace period) are done.
    if (cur["metadata"].contains("deletionTimestamp") && grace == 0) {
      if (is_namespace) {
        return ConflictError(info_.group, info_.resource, name,
                             "The system is ensuring all content is removed from this namespace.  Upon "
                             "completion, this namespace will automatically be purged by the system.");
      }
      return DeleteResult{AsServed(*current), false};
    }
    auto mark = [&](const Object& c) -> Result<Object> {
      Object next = c;
      Object& meta = next["metadata"];
      if (!meta.contains("deletionTimestamp") || grace < meta.value("deletionGracePeriodSeconds", int64_t{0})) {
        meta["deletionTimestamp"] = Rfc3339After(grace);
        // A namespace being deleted has no grace period, only a deletionTimestamp.
        if (!is_namespace) meta["deletionGracePeriodSeconds"] = grace;
        if (rules_.tracks_generation && meta.contains("generation")) {
          meta["generation"] = meta.value("generation", int64_t{0}) + 1;
        }
      }
      if (is_namespace) next["status"]["phase"] = "Terminating";
      for (const auto& f : added_finalizers) {
        Object& list = meta["finalizers"];
        if (!list.is_array()) list = Object::array();
        if (std::find(list.begin(), list.end(), Object(f)) == list.end()) list.push_back(f);
      }
      return next;
    };
    if (options.dry_run) {
      auto next = mark(cur);
      if (!next.ok()) return next.status();
      return DeleteResult{AsServed(std::make_shared<Object>(std::move(*next))), false};
    }
    auto marked = storage_->GuaranteedUpdate(
        key, false, &options.preconditions,
        [&](const Object& c, const storage::ResponseMeta&, std::optional<uint64_t>*) { return mark(c); },
        nullptr);
    if (!marked.ok()) return FromStorage(marked.status(), info_.group, info_.resource, name);
    if (is_namespace) namespaces_->StartTerminating(name);
    return DeleteResult{AsServed(*marked), false};
  }
  if (options.dry_run) return DeleteResult{AsServed(*current), true};
  auto deleted = storage_->Delete(key, &options.preconditions, nullptr, nullptr, {});
  if (!deleted.ok()) return FromStorage(deleted.status(), info_.group, info_.resource, name);
  return DeleteResult{AsServed(*deleted), true};
}

Result<std::vector<ObjectPtr>> Store::DeleteCollection(std::string_view ns, storage::ListOptions list_options,
                                                       const DeleteOptions& options) {
  auto list = List(ns, std::move(list_options));
  if (!list.ok()) return list.status();
  std::vector<ObjectPtr> out;
  for (const auto& item : list->items) {
    const Object& meta = (*item)["metadata"];
    auto r = Delete(meta.value("namespace", ""), meta.value("name", ""), options);
    // An item deleted by someone else meanwhile is simply gone.
    if (!r.ok() && !r.status().IsNotFound()) return r.status();
    if (r.ok()) out.push_back(item);
  }
  return out;
}

}  // namespace kube::registry
