// The raw RocksDB baseline of storage_bench: the same database setup as kv::Store in memory
// (in-memory Env, no WAL) doing the minimum work of each kv operation, with no MVCC index,
// watchers or encoding around it.
#pragma once

#include <cstddef>
#include <string>

namespace kube::bench {

struct RawBaselineConfig {
  size_t writes = 0;        // timed writes (rate)
  size_t latency_writes = 0;  // individually timed writes (latency percentiles)
  size_t gets = 0;
  size_t scans_100 = 0;     // 100-key scans (rate)
  int scan_runs = 0;        // full scans of the list data set (latency percentiles)
  size_t list_items = 0;    // size of the list data set
  std::string list_value;   // value of each list item (a serialized Pod)
  int rounds = 5;
};

struct RawBaseline {
  double write_rate = 0;       // mutex + WriteBatch{version record, log entry, meta counter} + Write
  double write_p50_us = 0;
  double write_p99_us = 0;
  double get_rate = 0;         // point Get of a random existing version record
  double scan100_rate = 0;     // Seek + 100 x (Next, copy value)
  double scan_list_p50_ms = 0;  // Seek + list_items x (Next, copy value)
  double scan_list_p99_ms = 0;
  bool writes_ok = true, gets_ok = true, scans_ok = true;
};

RawBaseline MeasureRawBaseline(const RawBaselineConfig& config);

}  // namespace kube::bench
