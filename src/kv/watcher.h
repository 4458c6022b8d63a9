// kv::Watcher: one watch on a key or key range of a kv::Store (etcd's watch stream).
//
// Guarantees (etcd's, storage.md §6.3): responses are in revision order, with no revision
// skipped or repeated; all events of one revision come in one response; every non-create event
// carries the previous version of its key (unless history below the compaction point was needed);
// a kProgress response at revision R is sent only after every matching event <= R was delivered.
//
// Delivery is pulled: Next() hands out what is queued, and a watcher that fell behind (it started
// in the past, or its queue reached Options::watcher_queue_limit) reads the missing revisions
// from the store's history in the calling thread. The writer never blocks on a watcher.
//
// Thread-safety: Next() must be called from one thread at a time; RequestProgress() and Cancel()
// may be called from any thread, concurrently with Next().
#pragma once

#include <chrono>
#include <memory>
#include <optional>

#include "kv/types.h"

namespace kube::kv {

struct WatcherState;

class Watcher {
 public:
  explicit Watcher(std::shared_ptr<WatcherState> state);
  ~Watcher();  // cancels
  Watcher(const Watcher&) = delete;
  Watcher& operator=(const Watcher&) = delete;

  // The next response, waiting until `deadline`; nullopt when the deadline passed first.
  // After a kCompacted or kCanceled response, every later call returns kCanceled at once.
  std::optional<WatchResponse> Next(std::chrono::steady_clock::time_point deadline);

  // Asks for one kProgress response, sent once this watcher has been handed every event up to
  // the current revision (etcd's RequestProgress). The response's revision is at least the
  // store's revision when this was called. Only this watcher is involved; the response comes as
  // soon as the watcher is synced and its queue is drained, not on any timer. May wait for a
  // write that is being committed concurrently to hand out its events (microseconds).
  void RequestProgress();

  // Stops the watch; a blocked or later Next() returns kCanceled.
  void Cancel();

 private:
  std::shared_ptr<WatcherState> state_;
};

}  // namespace kube::kv
