#include "registry/namespace_lifecycle.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "registry/errors.h"
#include "registry/store.h"
#include "storage/object_codec.h"

namespace kube::registry {

using storage::Object;

namespace {

constexpr std::string_view kNameLabel = "kubernetes.io/metadata.name";
const std::vector<std::string> kInitial = {"default", "kube-system", "kube-public", "kube-node-lease"};
const std::vector<std::string> kUndeletable = {"default", "kube-system", "kube-public"};

}  // namespace

NamespaceLifecycle::~NamespaceLifecycle() { Stop(); }

void NamespaceLifecycle::SetNamespaceStore(Store* namespaces) { namespaces_ = namespaces; }

void NamespaceLifecycle::AddNamespacedStore(Store* store) {
  // Several versions of one resource share storage: clean each storage prefix once.
  for (Store* s : namespaced_) {
    if (s->info().storage_prefix == store->info().storage_prefix) return;
  }
  namespaced_.push_back(store);
}

void NamespaceLifecycle::SetDynamicStores(std::function<std::vector<std::shared_ptr<Store>>()> stores) {
  dynamic_stores_ = std::move(stores);
}

Status NamespaceLifecycle::EnsureInitialNamespaces() {
  for (const auto& name : kInitial) {
    auto created = namespaces_->Create("", Object{{"metadata", {{"name", name}}}}, WriteOptions{});
    if (!created.ok() && !created.status().IsAlreadyExists()) return created.status();
  }
  return Status::OK();
}

void NamespaceLifecycle::Start() {
  controller_ = std::thread([this] { Run(); });
  // Namespaces that were terminating when a persisted server stopped resume where they were.
  LoadTerminating();
}

void NamespaceLifecycle::LoadTerminating() {
  auto list = namespaces_->List("", storage::ListOptions{});
  if (!list.ok()) return;
  for (const auto& ns : list->items) {
    if ((*ns)["metadata"].contains("deletionTimestamp")) StartTerminating((*ns)["metadata"].value("name", ""));
  }
}

void NamespaceLifecycle::Pause() {
  std::unique_lock lock(mu_);
  paused_ = true;
  cv_.wait(lock, [&] { return !in_pass_; });
}

void NamespaceLifecycle::Resume() {
  {
    std::lock_guard lock(mu_);
    // What was terminating belongs to the state that was replaced.
    terminating_.clear();
  }
  LoadTerminating();
  {
    std::lock_guard lock(mu_);
    paused_ = false;
  }
  cv_.notify_all();
}

void NamespaceLifecycle::Stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (controller_.joinable()) controller_.join();
}

Status NamespaceLifecycle::Admit(std::string_view ns, bool create, std::string_view group,
                                 std::string_view resource, std::string_view name) {
  bool terminating = false;
  {
    // A namespace marked for deletion a moment ago may still look Active in the cache.
    std::lock_guard lock(mu_);
    terminating = terminating_.count(std::string(ns)) > 0;
  }
  // The cache first; a namespace created a moment ago may only be in storage yet.
  auto got = namespaces_->Get("", ns, storage::GetOptions{.resource_version = "0"});
  if (!got.ok() && got.status().IsNotFound()) got = namespaces_->Get("", ns, storage::GetOptions{});
  if (!got.ok()) {
    if (got.status().IsNotFound()) return NotFoundError("", "namespaces", ns);
    return got.status();
  }
  const Object& status = (*got)->contains("status") ? (**got)["status"] : Object();
  if (create && (terminating || (status.is_object() && status.value("phase", "") == "Terminating"))) {
    Status s = ForbiddenError(group, resource, name,
                              "unable to create new content in namespace " + std::string(ns) +
                                  " because it is being terminated");
    s.mutable_details().causes.push_back(StatusCause{
        "NamespaceTerminating", "namespace " + std::string(ns) + " is being terminated", "metadata.namespace"});
    return s;
  }
  return Status::OK();
}

Status NamespaceLifecycle::CheckDeletable(std::string_view name) const {
  if (std::find(kUndeletable.begin(), kUndeletable.end(), name) != kUndeletable.end()) {
    return ForbiddenError("", "namespaces", name, "this namespace may not be deleted");
  }
  return Status::OK();
}

void NamespaceLifecycle::DefaultNamespaceObject(const catalogue::ResourceInfo& info, Object* obj) const {
  if (!info.group.empty() || info.resource != "namespaces") return;
  Object& meta = (*obj)["metadata"];
  const std::string name = meta.value("name", "");
  if (!name.empty()) meta["labels"][std::string(kNameLabel)] = name;
}

void NamespaceLifecycle::PrepareNamespaceObject(const catalogue::ResourceInfo& info, Object* obj,
                                                const Object* current) const {
  if (!info.group.empty() || info.resource != "namespaces") return;
  Object& meta = (*obj)["metadata"];
  meta["labels"][std::string(kNameLabel)] = meta.value("name", "");
  Object& spec = (*obj)["spec"];
  if (!spec.is_object()) spec = Object::object();
  if (current == nullptr) {
    Object& finalizers = spec["finalizers"];
    if (!finalizers.is_array()) finalizers = Object::array();
    if (std::find(finalizers.begin(), finalizers.end(), Object("kubernetes")) == finalizers.end()) {
      finalizers.push_back("kubernetes");
    }
    (*obj)["status"] = Object{{"phase", "Active"}};
    return;
  }
  const Object& cur_spec = current->contains("spec") ? (*current)["spec"] : Object();
  if (cur_spec.is_object() && cur_spec.contains("finalizers")) {
    spec["finalizers"] = cur_spec["finalizers"];
  } else {
    spec.erase("finalizers");
  }
}

void NamespaceLifecycle::StartTerminating(std::string_view name) {
  {
    std::lock_guard lock(mu_);
    terminating_.insert(std::string(name));
  }
  cv_.notify_all();
}

void NamespaceLifecycle::Run() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    cv_.wait_for(lock, std::chrono::milliseconds(200),
                 [&] { return stopping_ || (!paused_ && !terminating_.empty()); });
    if (stopping_) break;
    if (paused_ || terminating_.empty()) continue;
    std::vector<std::string> names(terminating_.begin(), terminating_.end());
    in_pass_ = true;
    lock.unlock();
    std::vector<std::string> done;
    for (const auto& name : names) {
      if (Finalize(name)) done.push_back(name);
    }
    lock.lock();
    in_pass_ = false;
    cv_.notify_all();  // a Pause() may wait for this pass
    // A restore in between replaced the set; this pass's results are about the old state.
    if (!paused_) {
      for (const auto& name : done) terminating_.erase(name);
    }
    // Content with finalizers may take a while: poll again shortly rather than spin.
    if (!terminating_.empty()) cv_.wait_for(lock, std::chrono::milliseconds(100), [&] { return stopping_; });
  }
}

bool NamespaceLifecycle::Finalize(const std::string& name) {
  bool remaining = false;
  std::vector<std::shared_ptr<Store>> dynamic;
  if (dynamic_stores_) dynamic = dynamic_stores_();
  std::vector<Store*> stores = namespaced_;
  for (const auto& s : dynamic) stores.push_back(s.get());
  for (Store* store : stores) {
    auto deleted = store->DeleteCollection(name, storage::ListOptions{}, DeleteOptions{});
    auto left = store->List(name, storage::ListOptions{});
    if (!deleted.ok() || !left.ok() || !left->items.empty()) remaining = true;
  }
  if (remaining) return false;
  const std::string key = namespaces_->Key("", name);
  auto updated = namespaces_->storage()->GuaranteedUpdate(
      key, false, nullptr,
      [](const Object& cur, const storage::ResponseMeta&, std::optional<uint64_t>*) -> Result<Object> {
        Object next = cur;
        auto& spec = next["spec"];
        if (spec.is_object() && spec.contains("finalizers") && spec["finalizers"].is_array()) {
          auto& f = spec["finalizers"];
          f.erase(std::remove(f.begin(), f.end(), Object("kubernetes")), f.end());
        }
        return next;
      },
      nullptr);
  if (!updated.ok()) return updated.status().IsNotFound();
  const Object& meta = (**updated)["metadata"];
  if (meta.contains("finalizers") && meta["finalizers"].is_array() && !meta["finalizers"].empty()) {
    return false;  // someone else's finalizer still holds it
  }
  const Object& spec = (**updated).contains("spec") ? (**updated)["spec"] : Object();
  if (spec.is_object() && spec.contains("finalizers") && spec["finalizers"].is_array() && !spec["finalizers"].empty()) {
    return false;
  }
  auto deleted = namespaces_->storage()->Delete(key, nullptr, nullptr, nullptr, {});
  return deleted.ok() || deleted.status().IsNotFound();
}

}  // namespace kube::registry
