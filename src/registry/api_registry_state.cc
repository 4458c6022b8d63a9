// ApiRegistry's state between tests: the initial state, named snapshots and restores (see the
// contract in api_registry.h).
#include "registry/api_registry.h"

namespace kube::registry {

namespace {

constexpr std::string_view kInitialName = "initial";

Status CheckSnapshotName(std::string_view name) {
  const bool valid_chars = std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '-' || c == '_';
  });
  if (name.empty() || name.size() > 253 || !valid_chars) {
    return Status::BadRequest("invalid snapshot name \"" + std::string(name) +
                              "\": must be 1 to 253 characters of [A-Za-z0-9._-]");
  }
  return Status::OK();
}

Status SnapshotNotFound(std::string_view name) {
  return Status::NotFound("snapshot \"" + std::string(name) + "\" not found");
}

SnapshotInfo Describe(std::string_view name, const kv::StateSnapshot& s) {
  return SnapshotInfo{std::string(name), s.revision, s.entries.size(), s.value_bytes};
}

}  // namespace

Status ApiRegistry::MarkInitialState() {
  std::lock_guard lock(state_mu_);
  auto saved = kv_->SaveState();
  if (!saved.ok()) return saved.status();
  initial_state_ = std::move(*saved);
  return Status::OK();
}

Status ApiRegistry::Reset() {
  std::lock_guard lock(state_mu_);
  if (!initial_state_) {
    return Status(StatusCode::kServiceUnavailable, "the initial state has not been recorded yet");
  }
  return RestoreLocked(*initial_state_);
}

Status ApiRegistry::SaveSnapshot(std::string_view name) {
  KUBE_RETURN_IF_ERROR(CheckSnapshotName(name));
  std::lock_guard lock(state_mu_);
  auto saved = kv_->SaveState();
  if (!saved.ok()) return saved.status();
  snapshots_.insert_or_assign(std::string(name), std::move(*saved));
  return Status::OK();
}

Status ApiRegistry::RestoreSnapshot(std::string_view name) {
  std::lock_guard lock(state_mu_);
  auto it = snapshots_.find(name);
  if (it == snapshots_.end()) return SnapshotNotFound(name);
  // Kept alive by this reference even if the snapshot is replaced by a listener meanwhile.
  const kv::StateSnapshotPtr snapshot = it->second;
  return RestoreLocked(*snapshot);
}

Status ApiRegistry::DeleteSnapshot(std::string_view name) {
  std::lock_guard lock(state_mu_);
  auto it = snapshots_.find(name);
  if (it == snapshots_.end()) return SnapshotNotFound(name);
  snapshots_.erase(it);
  return Status::OK();
}

std::vector<SnapshotInfo> ApiRegistry::Snapshots() const {
  std::lock_guard lock(state_mu_);
  std::vector<SnapshotInfo> out;
  out.reserve(snapshots_.size());
  for (const auto& [name, s] : snapshots_) out.push_back(Describe(name, *s));
  return out;
}

std::optional<SnapshotInfo> ApiRegistry::InitialState() const {
  std::lock_guard lock(state_mu_);
  if (!initial_state_) return std::nullopt;
  return Describe(kInitialName, *initial_state_);
}

uint64_t ApiRegistry::AddRestoreListener(RestoreListener listener) {
  std::lock_guard lock(state_mu_);
  const uint64_t id = next_listener_id_++;
  restore_listeners_.emplace(id, std::move(listener));
  return id;
}

void ApiRegistry::RemoveRestoreListener(uint64_t id) {
  std::lock_guard lock(state_mu_);
  restore_listeners_.erase(id);
}

Status ApiRegistry::RestoreLocked(const kv::StateSnapshot& snapshot) {
  for (const auto& [id, l] : restore_listeners_) {
    if (l.before) l.before();
  }
  namespaces_.Pause();
  auto revision = kv_->RestoreState(snapshot);

  // Every cache (built-in and custom) must hold the restored state before anyone relists.
  Status status = revision.ok() ? AwaitCaches(static_cast<uint64_t>(*revision)) : revision.status();
  namespaces_.Resume();
  for (const auto& [id, l] : restore_listeners_) {
    if (l.after) l.after(revision.ok() ? *revision : 0);
  }
  return status;
}

}  // namespace kube::registry
