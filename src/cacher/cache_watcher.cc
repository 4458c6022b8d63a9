#include "cacher/cache_watcher.h"

#include <nlohmann/json.hpp>

#include "storage/object_codec.h"

namespace kube::cacher {

using storage::WatchEvent;
using storage::WatchEventType;

std::optional<WatchEvent> WatchFilter::Convert(const CacheEvent& e) const {
  if (!KeyMatches(e.key)) return std::nullopt;
  const bool cur = e.type != WatchEventType::kDeleted && predicate.MatchesAttrs(e.attrs);
  const bool old = e.prev_object != nullptr && predicate.MatchesAttrs(e.prev_attrs);
  if (cur) return WatchEvent{old ? WatchEventType::kModified : WatchEventType::kAdded, e.object, {}};
  if (!old) return std::nullopt;
  // Leaving the selection (or a real delete): the previous state at this event's revision.
  storage::ObjectPtr gone = e.type == WatchEventType::kDeleted
                                ? e.object
                                : storage::StampResourceVersion(*e.prev_object,
                                                                static_cast<int64_t>(e.resource_version));
  return WatchEvent{WatchEventType::kDeleted, std::move(gone), {}};
}

CacheWatcher::CacheWatcher(Settings settings, Interval interval)
    : settings_(std::move(settings)), interval_(std::move(interval)) {
  last_queued_rv_ = interval_.start_after;
  if (settings_.allow_bookmarks) ScheduleNextBookmarkLocked(Clock::now());
}

void CacheWatcher::ScheduleNextBookmarkLocked(Clock::time_point now) {
  // One bookmark per bookmark_frequency, and a last one two seconds before the deadline.
  Clock::time_point next = now + settings_.bookmark_frequency;
  if (settings_.deadline) {
    const auto before_deadline = *settings_.deadline - std::chrono::seconds(2);
    if (before_deadline < now) {
      next_bookmark_.reset();
      return;
    }
    next = std::min(next, before_deadline);
  }
  next_bookmark_ = next;
}

CacheWatcher::Add CacheWatcher::TryAdd(const CacheEvent& e) {
  // Settings and the interval bound are immutable: convert before taking the lock.
  if (e.resource_version <= interval_.start_after) return Add::kSkipped;
  auto event = settings_.filter.Convert(e);
  {
    std::lock_guard lock(mu_);
    if (closed_) return Add::kClosed;
    if (!event) return Add::kSkipped;
    if (queue_.size() >= settings_.queue_capacity) return Add::kFull;
    queue_.push_back(std::move(*event));
    last_queued_rv_ = e.resource_version;
  }
  // Waking after unlocking spares the consumer an immediate second wait on the mutex.
  cv_.notify_all();
  return Add::kQueued;
}

bool CacheWatcher::AddBlocking(const CacheEvent& e, Clock::time_point until) {
  auto event = settings_.filter.Convert(e);
  {
    std::unique_lock lock(mu_);
    cv_.wait_until(lock, until, [&] { return closed_ || queue_.size() < settings_.queue_capacity; });
    if (closed_ || queue_.size() >= settings_.queue_capacity) return false;
    if (!event) return true;
    queue_.push_back(std::move(*event));
    last_queued_rv_ = e.resource_version;
  }
  cv_.notify_all();
  return true;
}

void CacheWatcher::Terminate() {
  std::lock_guard lock(mu_);
  closed_ = true;
  queue_.clear();
  cv_.notify_all();
}

void CacheWatcher::TerminateExpired(uint64_t revision) {
  std::lock_guard lock(mu_);
  if (closed_) return;
  closed_ = true;
  queue_.clear();
  final_error_ = WatchEvent{WatchEventType::kError, nullptr,
                            Status::Expired("too old resource version: " + std::to_string(last_queued_rv_) +
                                            " (" + std::to_string(revision) + ")")};
  cv_.notify_all();
}

storage::WatchStream::Next CacheWatcher::FinishLocked(WatchEvent* event) {
  if (!final_error_) return storage::WatchStream::Next::kClosed;
  *event = std::move(*final_error_);
  final_error_.reset();
  return storage::WatchStream::Next::kEvent;
}

bool CacheWatcher::closed() const {
  std::lock_guard lock(mu_);
  return closed_;
}

void CacheWatcher::MaybeBookmark(Clock::time_point now, uint64_t rv) {
  if (!settings_.allow_bookmarks) return;
  std::lock_guard lock(mu_);
  if (closed_ || !next_bookmark_ || now < *next_bookmark_) return;
  if (rv < settings_.bookmark_floor || rv < last_queued_rv_) return;
  // Bookmarks are never worth blocking for: with no room this one is simply skipped.
  if (queue_.size() >= settings_.queue_capacity) return;
  const storage::Object empty =
      settings_.empty_object ? *settings_.empty_object : storage::Object::object();
  queue_.push_back(WatchEvent{WatchEventType::kBookmark,
                              storage::MakeBookmark(empty, static_cast<int64_t>(rv), false), {}});
  last_queued_rv_ = rv;
  ScheduleNextBookmarkLocked(now);
  cv_.notify_all();
}

storage::WatchStream::Next CacheWatcher::NextEvent(WatchEvent* event, Clock::time_point deadline) {
  using Next = storage::WatchStream::Next;
  // The interval is the consumer's alone: replay it without holding the lock.
  auto finish = [this, event] {
    std::lock_guard lock(mu_);
    return FinishLocked(event);
  };
  while (initial_pos_ < interval_.initial.size()) {
    if (closed()) return finish();
    const CachedObject& obj = interval_.initial[initial_pos_++];
    if (settings_.filter.predicate.MatchesAttrs(obj.attrs)) {
      *event = WatchEvent{WatchEventType::kAdded, obj.object, {}};
      return Next::kEvent;
    }
  }
  while (events_pos_ < interval_.events.size()) {
    if (closed()) return finish();
    auto converted = settings_.filter.Convert(*interval_.events[events_pos_++]);
    if (converted) {
      *event = std::move(*converted);
      return Next::kEvent;
    }
  }
  if (closed()) return finish();
  if (interval_.end_bookmark) {
    *event = std::move(*interval_.end_bookmark);
    interval_.end_bookmark.reset();
    return Next::kEvent;
  }
  std::unique_lock lock(mu_);
  while (true) {
    if (!queue_.empty()) {
      *event = std::move(queue_.front());
      queue_.pop_front();
      cv_.notify_all();  // the dispatcher may be waiting for room
      return Next::kEvent;
    }
    if (closed_) return FinishLocked(event);
    if (cv_.wait_until(lock, deadline) == std::cv_status::timeout && queue_.empty() && !closed_) {
      return Next::kTimeout;
    }
  }
}

}  // namespace kube::cacher
