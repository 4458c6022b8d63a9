// Internal state of kv::Store, shared by store.cc (open, reads, background work),
// store_write.cc (the write sequencer, compaction, leases) and watcher.cc (watch fan-out and
// history replay). Not part of the kv layer's public interface.
//
// Locking (always in this order; never the reverse):
//   write_mu  — the sequencer: one write, compaction or watcher (un)registration at a time.
//               Guards `synced`, `leases`, `next_lease_id`.
//   index_mu  — readers shared, writers exclusive for the short moment a committed write is
//               applied to `index` and `current` is raised. Guards `index`.
//   WatcherState::mu — one watcher's queue.
//   published_mu — a leaf: the writer notifies under it (holding write_mu); a progress requester
//               waits on it holding no other kv lock.
// `current`, `compact` and `published` are atomics so they can be read without locks; they are
// only written under write_mu (and index_mu for current/compact).
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/env.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include "kv/key_index.h"
#include "kv/options.h"
#include "kv/store.h"
#include "kv/types.h"

namespace kube::kv {

// A process-unique store id (store_state.cc).
uint64_t NewStoreId();

using Clock = std::chrono::steady_clock;

struct WatcherState {
  Store::Impl* store = nullptr;
  std::string key;
  std::string range_end;       // empty: `key` alone
  int64_t start_revision = 0;  // as requested (0 = from now)
  bool progress_notify = false;

  bool Matches(std::string_view k) const {
    return range_end.empty() ? k == key : (k >= key && k < range_end);
  }

  std::mutex mu;
  std::condition_variable cv;
  // Guarded by mu.
  std::deque<WatchResponse> queue;
  bool synced = false;       // in Store::Impl::synced; live events are pushed to `queue`
  int64_t next_revision = 0; // when !synced: the first revision not yet queued or delivered
  bool canceled = false;
  bool progress_requested = false;
  Clock::time_point last_delivery;
};

struct Lease {
  int64_t expiry_unix_ms = 0;
  std::set<std::string, std::less<>> keys;
};

// One change a write transaction makes.
struct Mutation {
  std::string key;
  bool is_delete = false;
  std::string value;
  int64_t lease = 0;
};

struct Store::Impl {
  Options options;
  std::unique_ptr<rocksdb::Env> mem_env;  // set when in memory; outlives db
  std::unique_ptr<rocksdb::DB> db;
  rocksdb::WriteOptions write_options;

  std::mutex write_mu;
  mutable std::shared_mutex index_mu;
  KeyIndex index;
  std::atomic<int64_t> current{1};
  std::atomic<int64_t> compact{0};
  // Revision of the latest RestoreState (0: none); written with `compact` under index_mu.
  std::atomic<int64_t> restored{0};
  // Highest revision whose events have been handed to every synced watcher.
  std::atomic<int64_t> published{1};
  // Progress requesters waiting for `published` to reach the revision they saw as current. The
  // writer notifies only while someone waits, so a write costs one atomic load here otherwise.
  std::mutex published_mu;
  std::condition_variable published_cv;
  std::atomic<int> published_waiters{0};

  std::vector<std::shared_ptr<WatcherState>> synced;  // guarded by write_mu
  // Identifies this store in the snapshots it takes (unique in the process).
  uint64_t id = 0;
  // Keys the latest restores wrote and left unchanged since: key -> {revision of that restore,
  // the mod revision of the snapshot version it wrote}. Written under write_mu and index_mu;
  // read under either.
  std::map<std::string, std::pair<int64_t, int64_t>, std::less<>> restored_from;
  std::map<int64_t, Lease> leases;                     // guarded by write_mu
  int64_t next_lease_id = 1;                           // guarded by write_mu

  // All live watchers, so the destructor can cancel them.
  std::mutex watchers_mu;
  std::set<std::shared_ptr<WatcherState>> watchers;

  // Background thread: automatic compaction and lease expiry.
  std::thread background;
  std::mutex background_mu;
  std::condition_variable background_cv;
  bool stopping = false;  // guarded by background_mu

  // --- store.cc
  Status Load();  // rebuilds index, revisions and leases from the database
  void BackgroundLoop();
  // Reads the record of (key, revision) with `snapshot`; nullopt if absent.
  std::optional<KeyValue> ReadVersion(const rocksdb::Snapshot* snapshot, std::string_view key,
                                      int64_t revision) const;
  // Checks a read revision against current/compact. REQUIRES: index_mu held.
  Status CheckReadRevisionLocked(int64_t revision) const;

  // --- store_write.cc
  // Commits `mutations` as one revision and returns it. With `restore`, the revision is a
  // RestoreState: history is compacted at it before watchers are told, and they get kRestored.
  // REQUIRES: write_mu held, and every delete names a live key.
  Result<int64_t> ApplyLocked(const std::vector<Mutation>& mutations, bool restore = false);
  // Applies `m` if the key's live mod revision equals `expected_mod_revision` (any, when unset);
  // a delete of an absent key never applies. REQUIRES: write_mu held.
  Result<TxnResult> CompareAndApplyLocked(Mutation m, std::optional<int64_t> expected_mod_revision);
  // With `restore`, also records `revision` as the latest RestoreState's.
  Status CompactLocked(int64_t revision, bool restore = false);
  Status RevokeLeaseLocked(int64_t lease_id);
  void ExpireLeases();

  // --- watcher.cc
  // Hands the events of one revision to the synced watchers (as kRestored to every one of them
  // when `restored`). REQUIRES: write_mu held.
  void FanOutLocked(int64_t revision, const std::vector<EventPtr>& events, bool restored = false);
  // Reads up to `max_revisions` revisions of history from `from` for `w`. Returns the responses
  // and sets *next to the first revision not read; kExpired when `from` is compacted.
  Status ReadHistory(const WatcherState& w, int64_t from, int64_t max_revisions,
                     std::vector<WatchResponse>* out, int64_t* next) const;
  // Blocks until `published` >= revision, i.e. until the writes that have raised `current` that
  // far have handed out their events. REQUIRES: write_mu not held.
  void AwaitPublished(int64_t revision);
  // Joins `w` to the synced set if it has read all history. REQUIRES: write_mu not held.
  bool TrySync(const std::shared_ptr<WatcherState>& w);
  void Unregister(const std::shared_ptr<WatcherState>& w);
};

}  // namespace kube::kv
