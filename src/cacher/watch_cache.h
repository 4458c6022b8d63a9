// WatchCache: the cacher's in-memory state — every current object of the resource (sorted by key)
// plus a ring buffer of recent events whose capacity adapts between the configured bounds
// (storage.md §3.4), and the cache's resourceVersion.
//
// Thread-safety: none; the Cacher guards it with its mutex.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cacher/options.h"
#include "storage/interface.h"

namespace kube::cacher {

using Clock = std::chrono::steady_clock;

struct CachedObject {
  storage::ObjectPtr object;
  storage::Attrs attrs;
};

// One applied change, shared by every watcher it is dispatched to.
struct CacheEvent {
  storage::WatchEventType type = storage::WatchEventType::kAdded;  // ADDED, MODIFIED or DELETED
  std::string key;
  // The new state; for DELETED the last state stamped with the deletion revision.
  storage::ObjectPtr object;
  storage::Attrs attrs;
  // The state before (with its own resourceVersion), null when the key was new.
  storage::ObjectPtr prev_object;
  storage::Attrs prev_attrs;
  uint64_t resource_version = 0;
  Clock::time_point record_time;
};
using CacheEventPtr = std::shared_ptr<const CacheEvent>;

class WatchCache {
 public:
  explicit WatchCache(const Options& options);

  // Replaces the whole state after a (re-)list at `resource_version`; clears the event buffer.
  void Replace(std::map<std::string, CachedObject> objects, uint64_t resource_version);

  // Applies the changes of a state restore at `resource_version` (a null object deletes its
  // key) without buffering events, and forgets the buffered ones: the restore compacted history,
  // so watches from before it are too old.
  void Restore(std::vector<std::pair<std::string, CachedObject>> changes, uint64_t resource_version);

  // Applies one storage event and buffers it. `object` is what storage delivered (for DELETED:
  // the last state at the deletion revision).
  CacheEventPtr Apply(storage::WatchEventType type, std::string key, storage::ObjectPtr object,
                      storage::Attrs attrs, uint64_t resource_version, Clock::time_point now);

  // Raises the resourceVersion without an event (a storage progress notification).
  void UpdateResourceVersion(uint64_t resource_version);

  uint64_t resource_version() const { return resource_version_; }
  const std::map<std::string, CachedObject, std::less<>>& objects() const { return objects_; }
  size_t capacity() const { return capacity_; }

  // Buffered events with resourceVersion > `rv`; kExpired "too old resource version: rv (oldest)"
  // when events after `rv` were already evicted.
  Result<std::vector<CacheEventPtr>> EventsSince(uint64_t rv) const;

 private:
  void MakeRoomLocked(Clock::time_point now);

  Options options_;
  std::map<std::string, CachedObject, std::less<>> objects_;
  std::deque<CacheEventPtr> events_;
  size_t capacity_;
  uint64_t resource_version_ = 0;
  uint64_t list_resource_version_ = 0;
  bool removed_since_relist_ = false;
};

}  // namespace kube::cacher
