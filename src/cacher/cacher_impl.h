// Internal state of cacher::Cacher, shared by cacher.cc (initialisation, reads, delegation) and
// cacher_watch.cc (watch registration, dispatch, bookmarks, progress requests).
//
// Threads: the reflector (feeds the cache from one storage watch and dispatches to watchers) and
// the ticker (repeated progress requests while reads keep waiting for freshness; bookmarks).
// Request threads take mu_ briefly to read the cache or register watchers, and a read that must
// wait for freshness asks storage for progress itself, at once; dispatch happens outside mu_ so a
// slow watcher can never stall reads.
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "cacher/cache_watcher.h"
#include "cacher/cacher.h"
#include "cacher/watch_cache.h"

namespace kube::cacher {

// The dispatcher's allowance for blocking on full watchers: refills 50 ms per second of wall
// time up to a cap (kube's timeBudget). Used by the reflector thread only.
class TimeBudget {
 public:
  explicit TimeBudget(std::chrono::milliseconds cap) : cap_(cap), budget_(cap), last_(Clock::now()) {}
  Clock::duration Take();
  void Return(Clock::duration unused);

 private:
  Clock::duration cap_;
  Clock::duration budget_;
  Clock::time_point last_;
};

class Cacher::Impl {
 public:
  Impl(storage::Interface* storage, CacherConfig config, Options options);
  ~Impl();
  void Stop();

  // --- cacher.cc
  void ReflectorLoop();
  // One initialisation plus the event stream that follows it; returns when the stream ends.
  void RunReflectorOnce();
  void ProcessEvent(const storage::WatchEvent& event);
  // A state restore at `rv` (a BOOKMARK carrying WatchEvent::restored): every watcher ends with
  // ERROR 410 Expired, the changes are applied at once and the event buffer is forgotten.
  void ProcessRestore(const std::vector<storage::RestoredChange>& changes, uint64_t rv);
  std::vector<std::pair<std::string, CachedObject>> CachedChanges(
      const std::vector<storage::RestoredChange>& changes) const;
  std::string KeyOf(const storage::Object& obj) const;
  storage::Attrs AttrsOf(const storage::Object& obj) const;
  // 429 with kube's Retry-After growth for an initialising cache.
  Status NotReadyLocked() const;
  // Waits until the cache's RV reaches `rv` (asking storage for progress meanwhile).
  Status WaitUntilFreshLocked(std::unique_lock<std::mutex>& lock, uint64_t rv);
  // Counts a read waiting for freshness, and wakes the ticker to repeat progress requests.
  void AddFreshnessWaiterLocked();
  // Asks storage for a progress notification on the reflector's watch, releasing mu_ meanwhile.
  void RequestProgressLocked(std::unique_lock<std::mutex>& lock);
  storage::ObjectPtr CachedLocked(const std::string& key) const;
  Result<storage::ListResult> ListFromCacheLocked(const std::string& key, bool recursive,
                                                  const storage::SelectionPredicate& pred,
                                                  bool honour_limit) const;

  // --- cacher_watch.cc
  Result<storage::WatchStreamPtr> Watch(std::string_view key, const storage::ListOptions& options);
  void Dispatch(const CacheEventPtr& event);
  void TerminateAllWatchersLocked();
  // Ends every watcher with ERROR 410 Expired after a state restore at `rv`.
  void ExpireAllWatchersLocked(uint64_t rv);
  void TickerLoop();
  size_t WatcherQueueCapacityLocked() const;

  storage::Interface* const storage_;
  const CacherConfig config_;
  const Options options_;
  std::string prefix_;  // resource prefix with a trailing '/'
  storage::ObjectPtr empty_object_;

  mutable std::mutex mu_;
  std::condition_variable fresh_cv_;  // cache RV moved, readiness changed, or stopping
  WatchCache cache_;                  // guarded by mu_
  bool ready_ = false;                // guarded by mu_
  Clock::time_point not_ready_since_; // guarded by mu_
  // Copy-on-write, so the dispatcher takes a snapshot with one reference count instead of
  // copying a thousand pointers per event. Replaced (never mutated) under mu_.
  using WatcherList = std::vector<std::shared_ptr<CacheWatcher>>;
  std::shared_ptr<const WatcherList> watchers_ = std::make_shared<WatcherList>();  // guarded by mu_
  void AddWatcherLocked(std::shared_ptr<CacheWatcher> watcher);
  void RemoveClosedWatchersLocked();
  int freshness_waiters_ = 0;         // guarded by mu_
  bool stopping_ = false;             // guarded by mu_
  storage::WatchStream* reflector_stream_ = nullptr;  // guarded by mu_
  // Bumped whenever reflector_stream_ changes: a progress request sent to an older stream may
  // never be answered. Guarded by mu_.
  uint64_t reflector_generation_ = 0;
  // Storage's revision when the last progress request of this generation was sent (0: none).
  // Its answer brings the cache at least that far, so a read needing no more just waits for it
  // instead of asking again. Guarded by mu_.
  uint64_t progress_requested_rv_ = 0;
  Clock::time_point last_progress_request_;  // guarded by mu_
  std::condition_variable ticker_cv_;        // a first freshness waiter, or stopping

  TimeBudget budget_;  // reflector thread only
  std::thread reflector_;
  std::thread ticker_;
};

}  // namespace kube::cacher
