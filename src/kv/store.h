// kv::Store: a multi-version key-value store over RocksDB with etcd3 semantics, the stand-in for
// etcd under the Kubernetes storage layer.
//
// Semantics (etcd's mvcc, see storage.md §6):
//   * One global revision. A fresh store is at revision 1; every write transaction that changes
//     something advances it by exactly one. Failed compares and reads never advance it.
//   * Every key keeps create_revision, mod_revision and version; a delete leaves a tombstone in
//     history, and a later put starts a new incarnation (create_revision == mod_revision).
//   * Reads at the latest or at any revision >= CompactRevision(); every read reports the current
//     revision. A revision above the current one fails with kTimeout/ResourceVersionTooLarge
//     ("mvcc: required revision is a future revision"); one below the compaction point fails with
//     kExpired ("mvcc: required revision has been compacted").
//   * Writes are linearizable: one sequencer allocates the revision, commits the RocksDB
//     WriteBatch, publishes the revision to readers and then hands the events to watchers, in that
//     order, so nothing becomes visible at revision r after anything at a revision > r.
//
// Thread-safety: every method is safe to call concurrently. Watchers are independent objects
// (see watcher.h) and may be used from any thread; they must be destroyed before the Store.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "kv/options.h"
#include "kv/state_snapshot.h"
#include "kv/types.h"
#include "util/status.h"

namespace kube::kv {

class Watcher;
using WatcherPtr = std::unique_ptr<Watcher>;

struct WatchOptions {
  // The watched key, or the start of the watched range.
  std::string key;
  // Exclusive end of the watched range; empty watches `key` alone. For a prefix use
  // PrefixEnd(prefix).
  std::string range_end;
  // First revision to deliver. 0 means "from now" (the current revision + 1). A revision below the
  // compaction point yields one kCompacted response.
  int64_t start_revision = 0;
  // Send a kProgress response after Options::progress_notify_interval without events.
  bool progress_notify = false;
};

class Store {
 public:
  // Opens (or creates) the store. With options.data_dir set, the history, revision and leases
  // of an earlier run are read back.
  static Result<std::unique_ptr<Store>> Open(const Options& options);

  // Cancels all watchers (they answer kCanceled) and closes the database.
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  int64_t CurrentRevision() const;
  // The revision of the last compaction, 0 when the store was never compacted.
  int64_t CompactRevision() const;

  // The key's version visible at `revision` (0 = latest).
  Result<GetResult> Get(std::string_view key, int64_t revision = 0) const;
  // Live keys in [start, end) at `revision` (0 = latest), sorted by key, at most `limit` of them
  // (0 = no limit).
  Result<RangeResult> Range(std::string_view start, std::string_view end, int64_t revision = 0,
                            int64_t limit = 0) const;
  // As Range, returning only count and revision.
  Result<RangeResult> Count(std::string_view start, std::string_view end) const;

  // Puts `value` if the key's mod revision equals `expected_mod_revision` (0: the key must not
  // exist, i.e. create-if-absent). Otherwise nothing is written and the result carries the
  // current version.
  Result<TxnResult> OptimisticPut(std::string_view key, std::string_view value,
                                  int64_t expected_mod_revision, int64_t lease = 0);
  // Deletes the key if its mod revision equals `expected_mod_revision`; otherwise returns the
  // current version (nothing when the key does not exist).
  Result<TxnResult> OptimisticDelete(std::string_view key, int64_t expected_mod_revision);
  // Unconditional put; returns the revision of the write.
  Result<int64_t> Put(std::string_view key, std::string_view value, int64_t lease = 0);
  // Unconditional delete; succeeded is false (and nothing is written) when the key is absent.
  Result<TxnResult> Delete(std::string_view key);

  // Forgets history at or below `revision` except each key's newest version there. Fails with
  // kExpired when revision <= CompactRevision() and kTimeout/ResourceVersionTooLarge when it is
  // above the current revision.
  Status Compact(int64_t revision);

  // Copies the live state at the current revision: every live key's value, mod revision and
  // lease (see state_snapshot.h). Reads every value once; writers are not blocked meanwhile.
  Result<StateSnapshotPtr> SaveState() const;

  // Makes the live state equal to `snapshot`'s in one new revision R, which is always taken,
  // even when nothing differs (so a restore is observable and its revision unique):
  //   * a key whose live mod revision differs from the snapshot's is put with the snapshot's
  //     value (a new version at R: restored values never reuse an old revision), with the
  //     snapshot's lease if it still exists;
  //   * a live key the snapshot lacks is deleted at R;
  //   * a key whose mod revision equals the snapshot's is untouched and keeps its revision.
  // Then history is compacted at R (reads and watches from before R fail with kExpired /
  // kCompacted, as after Compact), and every watcher reaching R receives one kRestored response
  // with its range's changes — also when none of them matches it. Returns R.
  Result<int64_t> RestoreState(const StateSnapshot& snapshot);
  // The revision of the latest RestoreState since the store was opened, 0 if none.
  int64_t RestoreRevision() const;

  // Grants a lease of `ttl_seconds`; keys put with it are deleted together, at one revision,
  // when it expires.
  Result<int64_t> GrantLease(int64_t ttl_seconds);
  // Deletes every key attached to the lease (one revision) and forgets the lease.
  Status RevokeLease(int64_t lease_id);

  // Starts a watch. Events of revisions in [start, now] are replayed from history, then live
  // events follow without gap or duplicate.
  Result<WatcherPtr> Watch(const WatchOptions& options);

  struct Impl;

 private:
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The smallest key greater than every key starting with `prefix`.
std::string PrefixEnd(std::string_view prefix);

}  // namespace kube::kv
