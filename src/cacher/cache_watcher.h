// CacheWatcher: one client watch served by the cacher (kube's cacheWatcher, storage.md §3.5–3.7).
//
// It first replays its interval (the initial state and/or buffered events chosen at
// registration, then the initial-events-end bookmark), then live events the dispatcher queued.
// The live queue is bounded: the dispatcher never waits for a full queue longer than its shared
// time budget, after which it terminates the watcher (the stream closes without an ERROR, as
// kube does; clients re-watch from their last resourceVersion).
//
// Thread-safety: NextEvent() from the consumer thread; TryAdd/AddBlocking/Terminate from the
// dispatcher; MaybeBookmark from the bookmark ticker; Stop() from anywhere.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cacher/watch_cache.h"
#include "storage/interface.h"

namespace kube::cacher {

// Which events a watcher wants: a key (prefix when recursive, segment-respecting) and a predicate.
struct WatchFilter {
  std::string key;  // recursive keys end in '/'
  bool recursive = true;
  storage::SelectionPredicate predicate;

  bool KeyMatches(std::string_view k) const {
    return recursive ? k.starts_with(key) : k == key;
  }
  // The event this watcher sees for `e`, if any: ADDED / MODIFIED / DELETED by whether the new
  // and previous states pass the filter.
  std::optional<storage::WatchEvent> Convert(const CacheEvent& e) const;
};

class CacheWatcher {
 public:
  struct Settings {
    WatchFilter filter;
    size_t queue_capacity = 10;
    bool allow_bookmarks = false;
    // Bookmarks below this resourceVersion are not sent.
    uint64_t bookmark_floor = 0;
    std::optional<Clock::time_point> deadline;
    std::chrono::milliseconds bookmark_frequency = std::chrono::minutes(1);
    storage::ObjectPtr empty_object;
  };
  struct Interval {
    std::vector<CachedObject> initial;         // sent as ADDED (sorted by key)
    std::vector<CacheEventPtr> events;         // buffered history to replay
    std::optional<storage::WatchEvent> end_bookmark;
    uint64_t start_after = 0;                  // live events at or below this are skipped
  };

  CacheWatcher(Settings settings, Interval interval);

  enum class Add { kQueued, kSkipped, kFull, kClosed };
  // Queues the event if there is room, and wakes the consumer.
  Add TryAdd(const CacheEvent& e);
  // Waits for room until `until`; false if there was none (or the watcher closed).
  bool AddBlocking(const CacheEvent& e, Clock::time_point until);
  // Closes the stream without an ERROR (slow watcher, re-initialisation, shutdown).
  void Terminate();
  // Ends the stream as a compaction ends kube's watches, after a state restore at `revision`:
  // what is still queued is dropped and one ERROR 410 Expired ("too old resource version")
  // follows.
  void TerminateExpired(uint64_t revision);
  // Queues a BOOKMARK at `rv` if one is due and there is room (never blocks).
  void MaybeBookmark(Clock::time_point now, uint64_t rv);
  bool closed() const;

  storage::WatchStream::Next NextEvent(storage::WatchEvent* event, Clock::time_point deadline);
  void Stop() { Terminate(); }

 private:
  void ScheduleNextBookmarkLocked(Clock::time_point now);
  // On a closed watcher: the final ERROR if one is due (kEvent), else kClosed.
  storage::WatchStream::Next FinishLocked(storage::WatchEvent* event);

  const Settings settings_;
  Interval interval_;       // consumer only
  size_t initial_pos_ = 0;  // consumer only
  size_t events_pos_ = 0;   // consumer only

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<storage::WatchEvent> queue_;  // guarded by mu_
  uint64_t last_queued_rv_ = 0;            // guarded by mu_
  bool closed_ = false;                    // guarded by mu_
  // Delivered once after closing (TerminateExpired). Guarded by mu_.
  std::optional<storage::WatchEvent> final_error_;
  std::optional<Clock::time_point> next_bookmark_;  // guarded by mu_
};

// The WatchStream handed to clients; stopping it (or destroying it) closes the watcher.
class CacheWatchStream final : public storage::WatchStream {
 public:
  explicit CacheWatchStream(std::shared_ptr<CacheWatcher> watcher) : watcher_(std::move(watcher)) {}
  ~CacheWatchStream() override { watcher_->Stop(); }
  Next NextEvent(storage::WatchEvent* event, Clock::time_point deadline) override {
    return watcher_->NextEvent(event, deadline);
  }
  void Stop() override { watcher_->Stop(); }

 private:
  std::shared_ptr<CacheWatcher> watcher_;
};

// A stream that delivers one ERROR event and closes (errors found after a watch was accepted).
class ErrorWatchStream final : public storage::WatchStream {
 public:
  explicit ErrorWatchStream(Status error) : error_(std::move(error)) {}
  Next NextEvent(storage::WatchEvent* event, Clock::time_point) override {
    if (delivered_.exchange(true)) return Next::kClosed;
    *event = storage::WatchEvent{storage::WatchEventType::kError, nullptr, error_};
    return Next::kEvent;
  }
  void Stop() override { delivered_ = true; }

 private:
  Status error_;
  std::atomic<bool> delivered_{false};
};

}  // namespace kube::cacher
