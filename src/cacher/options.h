// Options of the watch cache. A plain aggregate; every default is kube-apiserver 1.36's.
#pragma once

#include <chrono>
#include <cstddef>

namespace kube::cacher {

struct Options {
  // Event ring buffer bounds. The buffer starts at the lower bound, doubles while its oldest
  // event is younger than events_history_window, and halves when a quarter of it is older.
  // Default: 100 and 102,400.
  size_t min_event_capacity = 100;
  size_t max_event_capacity = 100 * 1024;
  // How long buffered events are meant to stay watchable. Default: 75 s.
  std::chrono::milliseconds events_history_window = std::chrono::seconds(75);

  // How long a read that needs a fresher cache waits before 504 Timeout. Default: 3 s.
  std::chrono::milliseconds block_timeout = std::chrono::seconds(3);
  // A read that must wait for freshness asks storage for progress at once; while reads keep
  // waiting, the request is repeated this often. Default: 100 ms.
  std::chrono::milliseconds progress_request_period = std::chrono::milliseconds(100);

  // Bookmark dispatch tick (jittered by up to 25%) and per-watcher bookmark interval.
  // Default: 1 s and 1 min.
  std::chrono::milliseconds bookmark_tick = std::chrono::seconds(1);
  std::chrono::milliseconds bookmark_frequency = std::chrono::minutes(1);

  // Events buffered per watcher. 0 derives it as kube does: ceil(capacity / window seconds)
  // clamped to [10, 100]. Default: 0.
  size_t watcher_queue_capacity = 0;
  // Shared time a dispatch may block on full watchers before closing them: refills 50 ms per
  // second up to this much. Default: 100 ms.
  std::chrono::milliseconds dispatch_budget = std::chrono::milliseconds(100);

  // Delay before re-initialising after the storage watch failed. Default: 1 s.
  std::chrono::milliseconds reinit_delay = std::chrono::seconds(1);
};

}  // namespace kube::cacher
