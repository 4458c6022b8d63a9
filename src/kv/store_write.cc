// The write sequencer, compaction and leases of kv::Store.
#include <rocksdb/write_batch.h>

#include <chrono>

#include "kv/encoding.h"
#include "kv/store.h"
#include "kv/store_impl.h"

namespace kube::kv {

namespace {

std::string EncodeBE64(int64_t v) {
  std::string s;
  encoding::AppendBE64(&s, static_cast<uint64_t>(v));
  return s;
}

int64_t UnixMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Result<int64_t> Store::Impl::ApplyLocked(const std::vector<Mutation>& mutations, bool restore) {
  const int64_t rev = current.load() + 1;
  rocksdb::WriteBatch batch;
  std::vector<std::pair<std::string, IndexedRevision>> applied;
  std::vector<EventPtr> events;
  const bool want_events = !synced.empty();
  // The previous versions are read before the write; nothing else writes while write_mu is held.
  const rocksdb::Snapshot* snapshot = want_events ? db->GetSnapshot() : nullptr;

  for (uint32_t sub = 0; sub < mutations.size(); ++sub) {
    const Mutation& m = mutations[sub];
    const IndexedRevision* prev = index.Latest(m.key);
    const bool prev_live = prev != nullptr && !prev->tombstone;
    IndexedRevision next;
    next.revision = rev;
    if (m.is_delete) {
      next.tombstone = true;
    } else {
      next.create_revision = prev_live ? prev->create_revision : rev;
      next.version = prev_live ? prev->version + 1 : 1;
      next.lease = m.lease;
    }
    batch.Put(encoding::VersionKey(m.key, rev), encoding::EncodeRecord(next, m.value));
    std::string log_value = EncodeBE64(prev_live ? prev->revision : 0);
    log_value.append(m.key);
    batch.Put(encoding::LogKey(rev, sub), log_value);

    if (want_events) {
      auto ev = std::make_shared<Event>();
      ev->type = m.is_delete ? EventType::kDelete : EventType::kPut;
      ev->kv.key = m.key;
      ev->kv.mod_revision = rev;
      if (!m.is_delete) {
        ev->kv.value = m.value;
        ev->kv.create_revision = next.create_revision;
        ev->kv.version = next.version;
        ev->kv.lease = next.lease;
      }
      if (prev_live) ev->prev_kv = ReadVersion(snapshot, m.key, prev->revision);
      events.push_back(std::move(ev));
    }
    // Lease bookkeeping: a put without the old lease detaches the key from it (etcd semantics).
    if (prev_live && prev->lease != 0 && prev->lease != next.lease) {
      auto it = leases.find(prev->lease);
      if (it != leases.end()) it->second.keys.erase(m.key);
    }
    if (next.lease != 0) leases[next.lease].keys.insert(m.key);
    applied.emplace_back(m.key, next);
  }
  if (snapshot != nullptr) db->ReleaseSnapshot(snapshot);
  batch.Put(encoding::kMetaCurrentRevision, EncodeBE64(rev));

  rocksdb::Status s = db->Write(write_options, &batch);
  if (!s.ok()) return Status::Internal("kv store write failed: " + s.ToString());
  {
    std::unique_lock lock(index_mu);
    for (const auto& [key, r] : applied) index.Append(key, r);
    current.store(rev);
  }
  if (restore) {
    // Before any watcher hears of the revision: whoever reads history from before it from now on
    // is told it is compacted rather than handed part of the replaced state.
    Status compacted = CompactLocked(rev, /*restore=*/true);
    if (!compacted.ok()) return compacted;
  }
  FanOutLocked(rev, events, restore);
  return rev;
}

Result<TxnResult> Store::Impl::CompareAndApplyLocked(Mutation m,
                                                     std::optional<int64_t> expected_mod_revision) {
  if (!encoding::ValidUserKey(m.key)) return Status::BadRequest("invalid key");
  if (m.lease != 0 && leases.count(m.lease) == 0) {
    return Status::NotFound("etcdserver: requested lease not found");
  }
  const IndexedRevision* latest = index.Latest(m.key);
  const int64_t mod = (latest != nullptr && !latest->tombstone) ? latest->revision : 0;
  TxnResult result;
  const bool compare_fails = expected_mod_revision.has_value() && mod != *expected_mod_revision;
  // Deleting an absent key changes nothing, so it must not consume a revision either.
  if (compare_fails || (m.is_delete && mod == 0)) {
    result.revision = current.load();
    if (mod != 0) result.current = ReadVersion(nullptr, m.key, mod);
    return result;
  }
  auto rev = ApplyLocked({std::move(m)});
  if (!rev.ok()) return rev.status();
  result.succeeded = true;
  result.revision = *rev;
  return result;
}

Result<TxnResult> Store::OptimisticPut(std::string_view key, std::string_view value,
                                       int64_t expected_mod_revision, int64_t lease) {
  std::lock_guard lock(impl_->write_mu);
  return impl_->CompareAndApplyLocked(
      Mutation{std::string(key), false, std::string(value), lease}, expected_mod_revision);
}

Result<TxnResult> Store::OptimisticDelete(std::string_view key, int64_t expected_mod_revision) {
  std::lock_guard lock(impl_->write_mu);
  return impl_->CompareAndApplyLocked(Mutation{std::string(key), true, {}, 0}, expected_mod_revision);
}

Result<int64_t> Store::Put(std::string_view key, std::string_view value, int64_t lease) {
  std::lock_guard lock(impl_->write_mu);
  auto txn = impl_->CompareAndApplyLocked(Mutation{std::string(key), false, std::string(value), lease},
                                          std::nullopt);
  if (!txn.ok()) return txn.status();
  return txn->revision;
}

Result<TxnResult> Store::Delete(std::string_view key) {
  std::lock_guard lock(impl_->write_mu);
  return impl_->CompareAndApplyLocked(Mutation{std::string(key), true, {}, 0}, std::nullopt);
}

Status Store::Compact(int64_t revision) {
  std::lock_guard lock(impl_->write_mu);
  return impl_->CompactLocked(revision);
}

Status Store::Impl::CompactLocked(int64_t revision, bool restore) {
  std::vector<std::pair<std::string, int64_t>> removed;
  {
    std::unique_lock lock(index_mu);
    if (revision <= compact.load()) {
      return Status::Expired("mvcc: required revision has been compacted");
    }
    if (revision > current.load()) {
      return Status::TooLargeResourceVersion("mvcc: required revision is a future revision", 0);
    }
    // The logical boundary moves first: from here on no reader resolves a version that the
    // deletes below remove, and readers that already did hold a RocksDB snapshot.
    compact.store(revision);
    if (restore) restored.store(revision);
    index.Compact(revision, &removed);
  }
  rocksdb::WriteBatch batch;
  for (const auto& [key, rev] : removed) batch.Delete(encoding::VersionKey(key, rev));
  // Events at the compaction revision itself stay replayable (a watch may start there).
  rocksdb::Status s = batch.DeleteRange(encoding::LogKey(0, 0), encoding::LogKey(revision, 0));
  if (s.ok()) {
    batch.Put(encoding::kMetaCompactRevision, EncodeBE64(revision));
    s = db->Write(write_options, &batch);
  }
  if (!s.ok()) return Status::Internal("kv store compaction failed: " + s.ToString());
  return Status::OK();
}

Result<int64_t> Store::GrantLease(int64_t ttl_seconds) {
  if (ttl_seconds <= 0) return Status::BadRequest("lease TTL must be positive");
  std::lock_guard lock(impl_->write_mu);
  int64_t id = impl_->next_lease_id++;
  int64_t expiry = UnixMillis() + ttl_seconds * 1000;
  rocksdb::WriteBatch batch;
  batch.Put(encoding::LeaseKey(id), EncodeBE64(expiry));
  batch.Put(encoding::kMetaNextLease, EncodeBE64(impl_->next_lease_id));
  rocksdb::Status s = impl_->db->Write(impl_->write_options, &batch);
  if (!s.ok()) return Status::Internal("kv store lease grant failed: " + s.ToString());
  impl_->leases[id].expiry_unix_ms = expiry;
  return id;
}

Status Store::RevokeLease(int64_t lease_id) {
  std::lock_guard lock(impl_->write_mu);
  return impl_->RevokeLeaseLocked(lease_id);
}

Status Store::Impl::RevokeLeaseLocked(int64_t lease_id) {
  auto it = leases.find(lease_id);
  if (it == leases.end()) return Status::NotFound("etcdserver: requested lease not found");
  std::vector<Mutation> deletes;
  for (const auto& key : it->second.keys) deletes.push_back(Mutation{key, true, {}, 0});
  // All keys of a lease go at one revision, as etcd's lease revoke and expiry.
  if (!deletes.empty()) {
    auto rev = ApplyLocked(deletes);
    if (!rev.ok()) return rev.status();
  }
  leases.erase(it);
  rocksdb::Status s = db->Delete(write_options, encoding::LeaseKey(lease_id));
  if (!s.ok()) return Status::Internal("kv store lease revoke failed: " + s.ToString());
  return Status::OK();
}

void Store::Impl::ExpireLeases() {
  std::lock_guard lock(write_mu);
  const int64_t now = UnixMillis();
  std::vector<int64_t> expired;
  for (const auto& [id, lease] : leases) {
    if (lease.expiry_unix_ms <= now) expired.push_back(id);
  }
  for (int64_t id : expired) {
    Status s = RevokeLeaseLocked(id);
    (void)s;  // a failed revoke leaves the lease in place; the next tick retries it
  }
}

}  // namespace kube::kv
