// Watches served by the cacher: registration with an interval, dispatch of live events with a
// blocking budget, periodic bookmarks, and progress requests for reads waiting on freshness.
#include <nlohmann/json.hpp>

#include <cmath>
#include <random>

#include "cacher/cacher_impl.h"
#include "storage/keys.h"
#include "storage/object_codec.h"
#include "storage/resource_version.h"

namespace kube::cacher {

using storage::WatchEventType;

size_t Cacher::Impl::WatcherQueueCapacityLocked() const {
  if (options_.watcher_queue_capacity > 0) return options_.watcher_queue_capacity;
  // kube sizes each watcher's channels from the event buffer and the history window, clamped to
  // [10, 100]; it has an input and a result channel of that size, so twice that is queued here.
  const double window_s =
      std::max(1.0, std::chrono::duration<double>(options_.events_history_window).count());
  const auto per_channel = static_cast<size_t>(std::ceil(static_cast<double>(cache_.capacity()) / window_s));
  return 2 * std::clamp<size_t>(per_channel, 10, 100);
}

Result<storage::WatchStreamPtr> Cacher::Impl::Watch(std::string_view key,
                                                    const storage::ListOptions& options) {
  auto prepared = storage::PrepareKey(prefix_, key, options.recursive);
  if (!prepared.ok()) return prepared.status();
  auto rv = storage::ParseResourceVersion(options.resource_version);
  if (!rv.ok()) return rv.status();
  {
    std::lock_guard lock(mu_);
    if (!ready_) return NotReadyLocked();
  }
  const std::optional<bool> send_initial = options.send_initial_events;
  uint64_t required = *rv;
  if (options.resource_version.empty() && send_initial.has_value()) {
    auto current = storage_->GetCurrentResourceVersion();
    if (!current.ok()) return current.status();
    required = *current;
  }

  std::unique_lock lock(mu_);
  if (!ready_ || stopping_) return NotReadyLocked();
  if (send_initial.value_or(false)) {
    Status fresh = WaitUntilFreshLocked(lock, required);
    if (!fresh.ok()) return storage::WatchStreamPtr(std::make_unique<ErrorWatchStream>(fresh));
  }

  CacheWatcher::Settings settings;
  settings.filter = WatchFilter{*prepared, options.recursive, options.predicate};
  settings.queue_capacity = WatcherQueueCapacityLocked();
  settings.allow_bookmarks = options.predicate.allow_watch_bookmarks;
  settings.bookmark_floor = required;
  settings.deadline = options.deadline;
  settings.bookmark_frequency = options_.bookmark_frequency;
  settings.empty_object = empty_object_;

  CacheWatcher::Interval interval;
  const uint64_t cache_rv = cache_.resource_version();
  const bool legacy_state = *rv == 0 && !send_initial.has_value();
  if (send_initial.value_or(false) || legacy_state) {
    // The current state, sorted by key, each object with its own resourceVersion.
    const auto& objects = cache_.objects();
    if (options.recursive) {
      for (auto it = objects.lower_bound(*prepared); it != objects.end() && it->first.starts_with(*prepared); ++it) {
        interval.initial.push_back(it->second);
      }
    } else if (auto it = objects.find(*prepared); it != objects.end()) {
      interval.initial.push_back(it->second);
    }
    interval.start_after = cache_rv;
    if (send_initial.value_or(false) && options.predicate.allow_watch_bookmarks) {
      interval.end_bookmark = storage::WatchEvent{
          WatchEventType::kBookmark,
          storage::MakeBookmark(*empty_object_, static_cast<int64_t>(cache_rv), true), {}};
    }
  } else if (*rv == 0) {
    // sendInitialEvents=false: from now on (the most recent state for RV "", any for "0").
    interval.start_after = std::max(cache_rv, required);
  } else {
    auto events = cache_.EventsSince(*rv);
    if (!events.ok()) {
      return storage::WatchStreamPtr(std::make_unique<ErrorWatchStream>(events.status()));
    }
    interval.events = std::move(*events);
    // A future RV: nothing at or below it is delivered.
    interval.start_after = std::max(cache_rv, *rv);
  }
  auto watcher = std::make_shared<CacheWatcher>(std::move(settings), std::move(interval));
  AddWatcherLocked(watcher);
  return storage::WatchStreamPtr(std::make_unique<CacheWatchStream>(std::move(watcher)));
}

void Cacher::Impl::Dispatch(const CacheEventPtr& event) {
  std::shared_ptr<const WatcherList> watchers;
  {
    std::lock_guard lock(mu_);
    watchers = watchers_;
  }
  std::vector<std::shared_ptr<CacheWatcher>> blocked;
  bool any_closed = false;
  for (const auto& w : *watchers) {
    switch (w->TryAdd(*event)) {
      case CacheWatcher::Add::kFull: blocked.push_back(w); break;
      case CacheWatcher::Add::kClosed: any_closed = true; break;
      case CacheWatcher::Add::kQueued:
      case CacheWatcher::Add::kSkipped: break;
    }
  }
  if (!blocked.empty()) {
    // Full watchers share a small time budget; whoever still has no room is closed, so the cache
    // (and every other watcher) never waits on one slow client.
    const auto until = Clock::now() + budget_.Take();
    for (const auto& w : blocked) {
      if (!w->AddBlocking(*event, until)) {
        w->Terminate();
        any_closed = true;
      }
    }
    budget_.Return(until - Clock::now());
  }
  if (any_closed) {
    std::lock_guard lock(mu_);
    RemoveClosedWatchersLocked();
  }
}

void Cacher::Impl::AddWatcherLocked(std::shared_ptr<CacheWatcher> watcher) {
  auto next = std::make_shared<WatcherList>(*watchers_);
  next->push_back(std::move(watcher));
  watchers_ = std::move(next);
}

void Cacher::Impl::RemoveClosedWatchersLocked() {
  auto next = std::make_shared<WatcherList>(*watchers_);
  std::erase_if(*next, [](const auto& w) { return w->closed(); });
  if (next->size() != watchers_->size()) watchers_ = std::move(next);
}

void Cacher::Impl::TerminateAllWatchersLocked() {
  for (const auto& w : *watchers_) w->Terminate();
  watchers_ = std::make_shared<WatcherList>();
}

void Cacher::Impl::ExpireAllWatchersLocked(uint64_t rv) {
  for (const auto& w : *watchers_) w->TerminateExpired(rv);
  watchers_ = std::make_shared<WatcherList>();
}

void Cacher::Impl::TickerLoop() {
  std::mt19937 rng{std::random_device{}()};
  std::uniform_real_distribution<double> jitter(0.0, 0.25);
  auto next_bookmarks = Clock::now() + options_.bookmark_tick;
  std::unique_lock lock(mu_);
  while (!stopping_) {
    auto wake = next_bookmarks;
    if (freshness_waiters_ > 0) {
      wake = std::min(wake, last_progress_request_ + options_.progress_request_period);
    }
    ticker_cv_.wait_until(lock, wake);
    if (stopping_) break;
    if (freshness_waiters_ > 0 &&
        Clock::now() >= last_progress_request_ + options_.progress_request_period) {
      // Reads still wait although storage was asked when they started (the answer did not
      // suffice, or went to a storage watch that has since been replaced): ask again, as kube's
      // progress requester does every 100 ms while anyone waits. Failures are not retried sooner;
      // the waiters time out on their own.
      RequestProgressLocked(lock);
    }
    const auto now = Clock::now();
    if (now < next_bookmarks) continue;
    next_bookmarks = now + std::chrono::duration_cast<Clock::duration>(options_.bookmark_tick * (1.0 + jitter(rng)));
    RemoveClosedWatchersLocked();
    const uint64_t rv = cache_.resource_version();
    auto watchers = watchers_;
    lock.unlock();
    for (const auto& w : *watchers) w->MaybeBookmark(now, rv);
    lock.lock();
  }
}

}  // namespace kube::cacher
