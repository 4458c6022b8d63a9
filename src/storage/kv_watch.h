// KvWatchStream: a storage watch served straight from the kv layer — the etcd3 store's watcher
// (storage.md §2.6): optional initial state, the initial-events-end bookmark, then kv events
// converted to ADDED / MODIFIED / DELETED through the selection predicate, progress notifications
// as BOOKMARKs, and errors as one ERROR event before the stream closes.
//
// Thread-safety: NextEvent() from one thread at a time; Stop() and RequestProgress() from any.
#pragma once

#include <atomic>
#include <deque>
#include <string>

#include "kv/store.h"
#include "kv/watcher.h"
#include "storage/interface.h"

namespace kube::storage {

class KvStore;

class KvWatchStream final : public WatchStream {
 public:
  // `key` is a prepared storage key (recursive keys end in '/').
  static Result<WatchStreamPtr> Start(KvStore* store, const std::string& key,
                                      const ListOptions& options);
  ~KvWatchStream() override;

  Next NextEvent(WatchEvent* event, Clock::time_point deadline) override;
  void Stop() override;
  // Forwards a progress request to the kv watcher (only streams opened with progress_notify).
  void RequestProgress();

 private:
  KvWatchStream(KvStore* store, const ListOptions& options);
  // Converts one kv event and queues the result (if the predicate keeps it).
  void QueueEvent(const kv::Event& e);
  void QueueError(Status error);
  // A state restore at `response.revision`: one BOOKMARK carrying the changes when the stream
  // reports restores, else ERROR 410 as for a compaction.
  void QueueRestore(const kv::WatchResponse& response);

  KvStore* store_;
  SelectionPredicate predicate_;
  bool progress_notify_ = false;
  bool report_restores_ = false;
  kv::WatcherPtr watcher_;
  std::deque<WatchEvent> pending_;
  bool closed_ = false;        // an ERROR was queued, or the kv watch ended
  std::atomic<bool> stopped_{false};
};

}  // namespace kube::storage
