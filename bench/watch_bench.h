// Watch fan-out latency of storage_bench: N watchers on one prefix, W writes spaced apart, and
// for every delivered event the time from the start of its write to its delivery.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "cacher/cacher.h"
#include "kv/store.h"
#include "storage/interface.h"

namespace kube::bench {

struct WatchFanoutResult {
  std::vector<double> latencies_us;  // one per delivered event
  uint64_t delivered = 0;
  uint64_t expected = 0;             // watchers x writes
  bool ok = true;                    // every watcher got every event, in order, exactly once
};

struct WatchFanoutConfig {
  int watchers = 1000;
  int writes = 200;
  std::chrono::microseconds spacing{2000};
  // How long consumers keep waiting for missing events after the last write.
  std::chrono::seconds grace{10};
  // Namespace of the Pods the cacher run creates (one per run, so runs do not collide).
  const char* ns = "watch";
};

// kv::Watcher objects on the kv prefix "/bench/watch/", each consumed by its own thread; the
// writes are kv Puts of 600-byte values.
WatchFanoutResult KvWatchFanout(kv::Store* kv, const WatchFanoutConfig& config);

// Cacher watch streams on "/pods/" from the current resource version, each consumed by its own
// thread; the writes are Creates of Pods in namespace "watch" through `writer` (the storage the
// cacher decorates).
WatchFanoutResult CacherWatchFanout(kv::Store* kv, storage::Interface* writer,
                                    cacher::Cacher* cacher, const WatchFanoutConfig& config);

}  // namespace kube::bench
