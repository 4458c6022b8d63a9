#include "apiextensions/crd_controller.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "apiextensions/crd_conditions.h"
#include "apiextensions/crd_names.h"
#include "apiextensions/crd_serving.h"

namespace kube::apiextensions {

using nlohmann::json;
using storage::Object;

namespace {

// How soon a CRD whose custom resources are still being deleted (finalizers) is looked at again.
constexpr auto kRetryInterval = std::chrono::milliseconds(100);

const json& Member(const json& obj, const char* key) {
  static const json kNull;
  if (!obj.is_object()) return kNull;
  auto it = obj.find(key);
  return it == obj.end() ? kNull : *it;
}

std::string NameOf(const Object& obj) {
  const json& name = Member(Member(obj, "metadata"), "name");
  return name.is_string() ? name.get<std::string>() : "";
}

std::string GroupOf(const Object& obj) {
  const json& group = Member(Member(obj, "spec"), "group");
  return group.is_string() ? group.get<std::string>() : "";
}

}  // namespace

CrdController::CrdController(registry::ApiRegistry* registry)
    : registry_(registry), crds_(registry->Find("apiextensions.k8s.io", "v1", "customresourcedefinitions")) {}

CrdController::~CrdController() { Stop(); }

Status CrdController::Start() {
  if (!crds_) return Status::Internal("customresourcedefinitions are not served");
  auto list = crds_->List("", storage::ListOptions{});
  if (!list.ok()) return list.status();
  std::vector<std::string> retry;
  for (const auto& crd : list->items) {
    if (!Sync(NameOf(*crd))) retry.push_back(NameOf(*crd));
  }
  // A first pass can leave a CRD unaccepted only because a sibling was synced after it.
  for (const auto& crd : list->items) Sync(NameOf(*crd));
  {
    std::lock_guard lock(mu_);
    dirty_.insert(retry.begin(), retry.end());
  }
  const uint64_t from = std::stoull(list->resource_version.empty() ? "0" : list->resource_version);
  restore_listener_ = registry_->AddRestoreListener(registry::RestoreListener{
      .before = [this] { PauseForRestore(); }, .after = [this](int64_t) { ResyncAfterRestore(); }});
  thread_ = std::thread([this, from] { Run(from); });
  return Status::OK();
}

void CrdController::Stop() {
  if (restore_listener_ != 0) {
    registry_->RemoveRestoreListener(restore_listener_);
    restore_listener_ = 0;
  }
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void CrdController::MarkGroup(const std::string& group) {
  auto list = crds_->List("", storage::ListOptions{.resource_version = "0"});
  if (!list.ok()) return;
  std::lock_guard lock(mu_);
  for (const auto& crd : list->items) {
    if (GroupOf(*crd) == group) dirty_.insert(NameOf(*crd));
  }
}

void CrdController::Run(uint64_t from_revision) {
  std::string from = std::to_string(from_revision);
  while (true) {
    {
      std::lock_guard lock(mu_);
      if (stopping_) return;
    }
    auto stream = crds_->Watch("", storage::ListOptions{.resource_version = from});
    if (!stream.ok()) {
      // The cache is re-initialising: look at everything again once it answers.
      std::unique_lock lock(mu_);
      if (cv_.wait_for(lock, kRetryInterval, [&] { return stopping_; })) return;
      from = std::to_string(0);
      continue;
    }
    while (true) {
      storage::WatchEvent event;
      bool pending;
      {
        std::lock_guard lock(mu_);
        if (stopping_) return;
        pending = !dirty_.empty();
      }
      const auto wait = pending ? std::chrono::milliseconds(0) : kRetryInterval;
      const auto next = (*stream)->NextEvent(&event, storage::Clock::now() + wait);
      if (next == storage::WatchStream::Next::kClosed) break;
      if (next == storage::WatchStream::Next::kEvent && event.type == storage::WatchEventType::kError) {
        // 410 (a restore, or history gone): watching again from "0" replays every stored CRD as
        // ADDED; the served ones that are no longer stored are looked at too.
        from = std::to_string(0);
        MarkServed();
        break;
      }
      if (next == storage::WatchStream::Next::kEvent && event.object &&
          event.type != storage::WatchEventType::kBookmark) {
        const std::string name = NameOf(*event.object);
        from = (*event.object)["metadata"].value("resourceVersion", from);
        {
          std::lock_guard lock(mu_);
          // A relist replays every CRD; one synced at this very version needs nothing.
          auto synced = synced_rv_.find(name);
          const bool current = event.type != storage::WatchEventType::kDeleted && synced != synced_rv_.end() &&
                               synced->second == from;
          if (!current) dirty_.insert(name);
        }
        // Names another CRD of the group was waiting for may have been freed.
        if (event.type == storage::WatchEventType::kDeleted) MarkGroup(GroupOf(*event.object));
        continue;  // drain what is queued before syncing
      }
      std::set<std::string> work;
      {
        std::unique_lock lock(mu_);
        // A restore in progress: its own resync covers what is dirty now.
        cv_.wait(lock, [&] { return stopping_ || !paused_; });
        if (stopping_) return;
        work.swap(dirty_);
        in_sync_ = true;
      }
      std::set<std::string> again;
      for (const auto& name : work) {
        if (!Sync(name)) again.insert(name);
      }
      std::unique_lock lock(mu_);
      in_sync_ = false;
      cv_.notify_all();
      if (!again.empty()) {
        dirty_.insert(again.begin(), again.end());
        if (cv_.wait_for(lock, kRetryInterval, [&] { return stopping_; })) return;
      }
    }
  }
}

void CrdController::MarkServed() {
  // The stored ones come back through the replay from "0"; those no longer stored do not.
  auto served = registry_->CustomResources();
  auto list = crds_->List("", storage::ListOptions{.resource_version = "0"});
  std::set<std::string> stored;
  if (list.ok()) {
    for (const auto& crd : list->items) stored.insert(NameOf(*crd));
  }
  std::lock_guard lock(mu_);
  for (const auto& [name, set] : served->sets) {
    if (!list.ok() || !stored.contains(name)) dirty_.insert(name);
  }
}

void CrdController::PauseForRestore() {
  std::unique_lock lock(mu_);
  paused_ = true;
  cv_.wait(lock, [&] { return !in_sync_; });
}

void CrdController::ResyncAfterRestore() {
  // Every stored CRD whose object changed since it was last synced, and every served CRD that
  // is no longer stored; an unchanged CRD keeps its serving as is.
  std::set<std::string> names;
  auto list = crds_->List("", storage::ListOptions{});
  if (list.ok()) {
    std::lock_guard lock(mu_);
    for (const auto& crd : list->items) {
      const std::string name = NameOf(*crd);
      const std::string rv = (*crd)["metadata"].value("resourceVersion", "");
      auto it = synced_rv_.find(name);
      if (it == synced_rv_.end() || it->second != rv) names.insert(name);
    }
  }
  std::set<std::string> stored;
  if (list.ok()) {
    for (const auto& crd : list->items) stored.insert(NameOf(*crd));
  }
  const auto served = registry_->CustomResources();
  for (const auto& [name, set] : served->sets) {
    if (!list.ok() || !stored.contains(name)) names.insert(name);
  }
  std::set<std::string> again;
  for (const auto& name : names) {
    if (!Sync(name)) again.insert(name);
  }
  // Siblings may have freed or taken names from each other: one more pass as at start.
  if (names.size() > 1) {
    for (const auto& name : names) Sync(name);
  }
  {
    std::lock_guard lock(mu_);
    dirty_.insert(again.begin(), again.end());
    paused_ = false;
  }
  cv_.notify_all();
}

Status CrdController::UpdateStatus(const std::string& name, const json& status) {
  auto updated = crds_->Update(
      "", name, "status",
      [&](const Object& current) -> Result<Object> {
        Object next = current;
        next["status"] = status;
        return next;
      },
      registry::WriteOptions{});
  return updated.status();
}

bool CrdController::Sync(const std::string& name) {
  auto got = crds_->Get("", name, storage::GetOptions{});
  if (!got.ok()) {
    if (got.status().IsNotFound()) {
      registry_->StopServingCustomResources(name);
      std::lock_guard lock(mu_);
      synced_rv_.erase(name);
    }
    return got.status().IsNotFound();
  }
  if (Member((**got), "metadata").contains("deletionTimestamp")) return SyncTerminating(**got);

  auto list = crds_->List("", storage::ListOptions{});
  if (!list.ok()) return false;
  std::vector<const json*> crds;
  for (const auto& other : list->items) crds.push_back(other.get());
  Object crd = **got;
  const auto now = std::chrono::system_clock::now();
  // The naming controller, then the establishing one, as kube runs them.
  bool changed = SyncNames(&crd, crds, now);
  changed = SyncEstablished(&crd, now) || changed;
  // Served before the status says Established: clients create custom resources as soon as they
  // read it (kube's handler serves from NamesAccepted on, which is written first).
  if (!IsConditionTrue(crd, "Established")) {
    registry_->StopServingCustomResources(name);
  } else if (auto serving = ServingFor(crd, /*terminating=*/false); !serving.ok()) {
    registry_->StopServingCustomResources(name);
  } else if (!registry_->ServeCustomResources(std::move(*serving)).ok()) {
    return false;
  }
  if (changed) {
    Status s = UpdateStatus(name, crd["status"]);
    if (!s.ok()) return s.IsNotFound();
    // Our own status write comes back through the watch and is synced then.
    return true;
  }
  std::lock_guard lock(mu_);
  synced_rv_[name] = crd["metadata"].value("resourceVersion", "");
  return true;
}

bool CrdController::SyncTerminating(const Object& stored) {
  const std::string name = NameOf(stored);
  if (!NeedsCleanup(stored)) {
    // Held only by someone else's finalizer: nothing of ours left to do, nothing served.
    registry_->StopServingCustomResources(name);
    return true;
  }
  Object crd = stored;
  const auto now = std::chrono::system_clock::now();
  SetCondition(&crd, TerminatingInProgress(), now);
  if (crd["status"] != stored["status"] && !UpdateStatus(name, crd["status"]).ok()) return false;
  if (IsConditionTrue(crd, "Established")) {
    auto serving = ServingFor(crd, /*terminating=*/true);
    if (serving.ok() && !serving->versions.empty()) {
      const auto info = serving->versions.front().info;
      if (!registry_->ServeCustomResources(std::move(*serving)).ok()) return false;
      // Every custom resource goes, as an ordinary delete: finalizers make it wait.
      if (auto store = registry_->Find(info.group, info.version, info.resource)) {
        auto deleted = store->DeleteCollection("", storage::ListOptions{}, registry::DeleteOptions{});
        if (!deleted.ok()) {
          SetCondition(&crd, TerminatingDeleteFailed(deleted.status().message()), now);
          (void)UpdateStatus(name, crd["status"]);
          return false;
        }
        auto left = store->List("", storage::ListOptions{});
        if (!left.ok() || !left->items.empty()) return false;
      }
    }
    SetCondition(&crd, TerminatingCompleted(), now);
  } else {
    SetCondition(&crd, TerminatingNeverEstablished(), now);
  }
  if (!UpdateStatus(name, crd["status"]).ok()) return false;
  auto finalized = crds_->Update(
      "", name, "",
      [](const Object& cur) -> Result<Object> {
        Object next = cur;
        RemoveCleanupFinalizer(&next);
        return next;
      },
      registry::WriteOptions{});
  if (!finalized.ok() && !finalized.status().IsNotFound()) return false;
  registry_->StopServingCustomResources(name);
  return true;
}

}  // namespace kube::apiextensions
