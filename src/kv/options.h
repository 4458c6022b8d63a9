// Options of the kv store. A plain aggregate: fill it with designated initializers.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace kube::kv {

struct Options {
  // Directory holding the RocksDB files. Empty keeps everything in process memory (RocksDB's
  // in-memory Env, no write-ahead log): nothing touches the disk and nothing survives the process.
  // Default: "" (in memory).
  std::string data_dir;

  // With a data_dir: fsync the write-ahead log before acknowledging each write. Without it an
  // acknowledged write survives a process crash (it is in the OS page cache) but not a power loss.
  // Default: false.
  bool sync_writes = false;

  // How often the store compacts its history by itself, as kube-apiserver's
  // --etcd-compaction-interval: each round compacts to the revision observed by the previous round,
  // so between one and two intervals of history stay readable. Zero disables automatic compaction
  // (Compact() still works). Default: 5 minutes.
  std::chrono::milliseconds compaction_interval = std::chrono::minutes(5);

  // Responses a synced watcher may have queued before it falls behind and catches up from the
  // history instead (etcd's "victim" watchers). Nothing is dropped either way; the bound only
  // caps memory held for a slow consumer. Default: 1024.
  size_t watcher_queue_limit = 1024;

  // Interval of the periodic progress notification sent to watchers that asked for it and saw
  // no event for that long (etcd's --watch-progress-notify-interval). Default: 10 minutes.
  std::chrono::milliseconds progress_notify_interval = std::chrono::minutes(10);

  // RocksDB memtable size. Small keeps an idle server small. Default: 8 MiB.
  size_t write_buffer_size = 8 << 20;
};

}  // namespace kube::kv
