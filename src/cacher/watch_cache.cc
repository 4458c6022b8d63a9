#include "cacher/watch_cache.h"

#include <algorithm>

namespace kube::cacher {

WatchCache::WatchCache(const Options& options)
    : options_(options), capacity_(std::max<size_t>(1, options.min_event_capacity)) {}

void WatchCache::Replace(std::map<std::string, CachedObject> objects, uint64_t resource_version) {
  objects_.clear();
  for (auto& [key, obj] : objects) objects_.emplace(key, std::move(obj));
  events_.clear();
  capacity_ = std::max<size_t>(1, options_.min_event_capacity);
  resource_version_ = resource_version;
  list_resource_version_ = resource_version;
  removed_since_relist_ = false;
}

void WatchCache::Restore(std::vector<std::pair<std::string, CachedObject>> changes,
                         uint64_t resource_version) {
  for (auto& [key, obj] : changes) {
    if (obj.object) {
      objects_.insert_or_assign(std::move(key), std::move(obj));
    } else if (auto it = objects_.find(key); it != objects_.end()) {
      objects_.erase(it);
    }
  }
  events_.clear();
  capacity_ = std::max<size_t>(1, options_.min_event_capacity);
  resource_version_ = std::max(resource_version_, resource_version);
  list_resource_version_ = resource_version_;
  removed_since_relist_ = false;
}

void WatchCache::MakeRoomLocked(Clock::time_point now) {
  if (events_.size() < capacity_) return;
  const size_t upper = std::max(options_.max_event_capacity, options_.min_event_capacity);
  const size_t lower = std::max<size_t>(1, options_.min_event_capacity);
  // Grow while the whole buffer is younger than the history window; shrink when even the newest
  // quarter has aged out of it.
  if (now - events_.front()->record_time < options_.events_history_window && capacity_ < upper) {
    capacity_ = std::min(capacity_ * 2, upper);
  } else if (capacity_ > lower &&
             now - events_[events_.size() - std::max<size_t>(1, capacity_ / 4)]->record_time >
                 options_.events_history_window) {
    capacity_ = std::max(capacity_ / 2, lower);
  }
  while (events_.size() >= capacity_) {
    events_.pop_front();
    removed_since_relist_ = true;
  }
}

CacheEventPtr WatchCache::Apply(storage::WatchEventType type, std::string key,
                                storage::ObjectPtr object, storage::Attrs attrs,
                                uint64_t resource_version, Clock::time_point now) {
  auto event = std::make_shared<CacheEvent>();
  event->type = type;
  event->key = key;
  event->resource_version = resource_version;
  event->record_time = now;
  auto it = objects_.find(key);
  if (it != objects_.end()) {
    event->prev_object = it->second.object;
    event->prev_attrs = it->second.attrs;
  }
  if (type == storage::WatchEventType::kDeleted) {
    if (it != objects_.end()) objects_.erase(it);
  } else if (it != objects_.end()) {
    it->second = CachedObject{object, attrs};
  } else {
    objects_.emplace(key, CachedObject{object, attrs});
  }
  event->object = std::move(object);
  event->attrs = std::move(attrs);
  MakeRoomLocked(now);
  events_.push_back(event);
  resource_version_ = std::max(resource_version_, resource_version);
  return event;
}

void WatchCache::UpdateResourceVersion(uint64_t resource_version) {
  resource_version_ = std::max(resource_version_, resource_version);
}

Result<std::vector<CacheEventPtr>> WatchCache::EventsSince(uint64_t rv) const {
  const uint64_t oldest =
      removed_since_relist_ && !events_.empty() ? events_.front()->resource_version
                                                : list_resource_version_ + 1;
  if (rv + 1 < oldest) {
    return Status::Expired("too old resource version: " + std::to_string(rv) + " (" +
                           std::to_string(oldest - 1) + ")");
  }
  auto first = std::upper_bound(events_.begin(), events_.end(), rv,
                                [](uint64_t v, const CacheEventPtr& e) { return v < e->resource_version; });
  return std::vector<CacheEventPtr>(first, events_.end());
}

}  // namespace kube::cacher
