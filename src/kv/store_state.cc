// Saving and restoring the whole live state of kv::Store (state_snapshot.h).
#include <rocksdb/db.h>

#include <atomic>

#include "kv/encoding.h"
#include "kv/store.h"
#include "kv/store_impl.h"

namespace kube::kv {

namespace {
std::atomic<uint64_t> next_store_id{1};
}  // namespace

uint64_t NewStoreId() { return next_store_id.fetch_add(1); }

Result<StateSnapshotPtr> Store::SaveState() const {
  auto snapshot = std::make_shared<StateSnapshot>();
  std::vector<int64_t> read_revisions;  // each entry's live revision
  const rocksdb::Snapshot* db_snapshot = nullptr;
  {
    std::shared_lock lock(impl_->index_mu);
    snapshot->revision = impl_->current.load();
    snapshot->origin = impl_->id;
    impl_->index.ForEachLatestLive([&](std::string_view key, const IndexedRevision& r) {
      // A version a restore wrote is named by the version it restored, so that snapshots taken
      // before and after that restore agree on it.
      int64_t canonical = r.revision;
      auto earlier = impl_->restored_from.find(key);
      if (earlier != impl_->restored_from.end() && earlier->second.first == r.revision) {
        canonical = earlier->second.second;
      }
      snapshot->entries.push_back(StateSnapshot::Entry{std::string(key), {}, canonical, r.lease});
      read_revisions.push_back(r.revision);
    });
    // Taken under the index lock so a compaction cannot delete a version before it is read.
    db_snapshot = impl_->db->GetSnapshot();
  }
  rocksdb::ReadOptions ro;
  ro.snapshot = db_snapshot;
  std::vector<std::string> keys;
  keys.reserve(snapshot->entries.size());
  for (size_t i = 0; i < snapshot->entries.size(); ++i) {
    keys.push_back(encoding::VersionKey(snapshot->entries[i].key, read_revisions[i]));
  }
  std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
  std::vector<std::string> records;
  std::vector<rocksdb::Status> statuses = impl_->db->MultiGet(ro, slices, &records);
  impl_->db->ReleaseSnapshot(db_snapshot);
  for (size_t i = 0; i < statuses.size(); ++i) {
    if (!statuses[i].ok() || !encoding::DecodeRecordMeta(records[i])) {
      return Status::Internal("kv store: missing value for indexed version");
    }
    auto& entry = snapshot->entries[i];
    entry.value = std::string(encoding::RecordValue(records[i]));
    snapshot->value_bytes += entry.value.size();
  }
  return StateSnapshotPtr(std::move(snapshot));
}

Result<int64_t> Store::RestoreState(const StateSnapshot& snapshot) {
  std::lock_guard lock(impl_->write_mu);
  // Revisions only identify versions within the store that took the snapshot.
  const bool own = snapshot.origin == impl_->id;
  const int64_t rev = impl_->current.load() + 1;
  std::map<std::string, std::pair<int64_t, int64_t>, std::less<>> restored_from;
  std::vector<Mutation> mutations;
  auto wanted = snapshot.entries.begin();
  const auto wanted_end = snapshot.entries.end();
  auto put = [&](const StateSnapshot::Entry& e) {
    const int64_t lease = e.lease != 0 && impl_->leases.contains(e.lease) ? e.lease : 0;
    mutations.push_back(Mutation{e.key, false, e.value, lease});
    if (own) restored_from.emplace(e.key, std::make_pair(rev, e.mod_revision));
  };
  // Only writers change the index, and they all hold write_mu: it can be read without index_mu.
  // One merge of two key-ordered sequences; equal mod revisions are the same version, and so is
  // a version an earlier restore wrote from the same snapshot version.
  impl_->index.ForEachLatestLive([&](std::string_view key, const IndexedRevision& live) {
    while (wanted != wanted_end && wanted->key.compare(key) < 0) put(*wanted++);
    if (wanted != wanted_end && wanted->key.compare(key) == 0) {
      int64_t original = live.revision;
      auto earlier = impl_->restored_from.find(key);
      if (earlier != impl_->restored_from.end() && earlier->second.first == live.revision) {
        original = earlier->second.second;
      }
      if (!own || (wanted->mod_revision != live.revision && wanted->mod_revision != original)) {
        put(*wanted);
      } else if (original != live.revision) {
        restored_from.emplace(std::string(key), earlier->second);
      }
      ++wanted;
    } else {
      mutations.push_back(Mutation{std::string(key), true, {}, 0});
    }
  });
  while (wanted != wanted_end) put(*wanted++);
  auto applied = impl_->ApplyLocked(mutations, /*restore=*/true);
  if (applied.ok()) {
    std::unique_lock index_lock(impl_->index_mu);
    impl_->restored_from = std::move(restored_from);
  }
  return applied;
}

int64_t Store::RestoreRevision() const { return impl_->restored.load(); }

}  // namespace kube::kv
