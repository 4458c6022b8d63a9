#include "raw_baseline.h"

#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/options.h>
#include <rocksdb/write_batch.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <random>
#include <string_view>
#include <vector>

#include "bench_util.h"

namespace kube::bench {
namespace {

void AppendBE64(std::string* out, uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>(v >> shift));
}

// Mirrors the kv layout: 'v' <key> 0x00 <BE64 rev> -> 25-byte header + value.
std::string VersionKey(std::string_view key, int64_t rev) {
  std::string k = "v";
  k.append(key);
  k.push_back('\0');
  AppendBE64(&k, static_cast<uint64_t>(rev));
  return k;
}
std::string Record(int64_t rev, std::string_view value) {
  std::string r(1, '\0');
  AppendBE64(&r, static_cast<uint64_t>(rev));  // create revision
  AppendBE64(&r, 1);                           // version
  AppendBE64(&r, 0);                           // lease
  r.append(value);
  return r;
}

class RawDb {
 public:
  RawDb() : env_(rocksdb::NewMemEnv(rocksdb::Env::Default())) {
    rocksdb::Options options;  // as kv::Store::Open
    options.create_if_missing = true;
    options.stats_dump_period_sec = 0;
    options.write_buffer_size = 8 << 20;
    options.max_background_jobs = 2;
    options.env = env_.get();
    write_options_.disableWAL = true;
    rocksdb::DB* raw = nullptr;
    rocksdb::Status s = rocksdb::DB::Open(options, "/storage-bench-raw", &raw);
    if (!s.ok()) Fail("raw RocksDB open: " + s.ToString());
    db_.reset(raw);
  }
  ~RawDb() {
    if (db_) {
      rocksdb::Status s = db_->Close();
      (void)s;
    }
    db_.reset();
  }
  bool ok() const { return db_ != nullptr; }

  // One kv-style write: version record, log entry and meta counter in one batch, under a mutex.
  bool Write(std::string_view key, std::string_view value) {
    std::lock_guard lock(mu_);
    const int64_t rev = ++rev_;
    rocksdb::WriteBatch batch;
    batch.Put(VersionKey(key, rev), Record(rev, value));
    std::string log_key = "l";
    AppendBE64(&log_key, static_cast<uint64_t>(rev));
    log_key.append(4, '\0');
    std::string log_value;
    AppendBE64(&log_value, 0);
    log_value.append(key);
    batch.Put(log_key, log_value);
    std::string counter;
    AppendBE64(&counter, static_cast<uint64_t>(rev));
    batch.Put("mcurrent", counter);
    rocksdb::Status s = db_->Write(write_options_, &batch);
    return s.ok() || Fail("raw RocksDB Write: " + s.ToString());
  }
  int64_t revision() const { return rev_; }

  bool Get(const std::string& key, std::string* value) {
    rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), key, value);
    return s.ok() || Fail("raw RocksDB Get: " + s.ToString());
  }

  // Copies out every value under `prefix`; returns how many there were.
  size_t Scan(std::string_view prefix, std::vector<std::string>* values) {
    values->clear();
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
      values->emplace_back(it->value().data(), it->value().size());
    }
    return values->size();
  }

 private:
  std::unique_ptr<rocksdb::Env> env_;
  std::unique_ptr<rocksdb::DB> db_;
  rocksdb::WriteOptions write_options_;
  std::mutex mu_;
  int64_t rev_ = 1;
};

}  // namespace

RawBaseline MeasureRawBaseline(const RawBaselineConfig& config) {
  RawBaseline out;
  RawDb db;
  if (!db.ok()) {
    out.writes_ok = out.gets_ok = out.scans_ok = false;
    return out;
  }
  const std::string value(600, 'r');
  std::vector<std::string> keys;
  for (size_t i = 0; i < config.writes + config.latency_writes; ++i) {
    char key[64];
    std::snprintf(key, sizeof key, "/registry/bench/raw/key-%07zu", i);
    keys.emplace_back(key);
  }

  // Writes: rate over distinct keys, then individually timed writes for latency.
  const int64_t first_rev = db.revision() + 1;
  out.write_rate = MedianRate(config.writes, config.rounds, &out.writes_ok,
                              [&](size_t i) { return db.Write(keys[i], value); });
  std::vector<double> write_us;
  for (size_t i = config.writes; i < keys.size() && out.writes_ok; ++i) {
    const auto start = Clock::now();
    out.writes_ok = db.Write(keys[i], value);
    write_us.push_back(MicrosBetween(start, Clock::now()));
  }
  out.write_p50_us = Percentile(write_us, 0.5);
  out.write_p99_us = Percentile(write_us, 0.99);
  std::string got;
  out.writes_ok = out.writes_ok && db.Get("mcurrent", &got) &&
                  Expect(got.size() == 8 && static_cast<int64_t>(keys.size()) ==
                                                db.revision() - first_rev + 1,
                         "raw meta counter after all writes");

  // Point Gets of random written version records.
  std::mt19937_64 rng(1);
  std::uniform_int_distribution<size_t> pick(0, keys.size() - 1);
  std::vector<std::string> version_keys;
  for (size_t i = 0; i < keys.size(); ++i) {
    version_keys.push_back(VersionKey(keys[i], first_rev + static_cast<int64_t>(i)));
  }
  out.get_rate = MedianRate(config.gets, config.rounds, &out.gets_ok, [&](size_t) {
    return db.Get(version_keys[pick(rng)], &got) &&
           (got.size() == 25 + value.size() || Fail("raw Get returned a wrong value"));
  });

  // Scans: a 100-key prefix of 600-byte values and the list data set.
  for (int i = 0; i < 100; ++i) {
    char key[64];
    std::snprintf(key, sizeof key, "/registry/bench/range/k-%03d", i);
    out.scans_ok = out.scans_ok && db.Write(key, value);
  }
  for (size_t i = 0; i < config.list_items; ++i) {
    char key[64];
    std::snprintf(key, sizeof key, "/registry/pods/ns-%zu/pod-%05zu", i % 10, i);
    out.scans_ok = out.scans_ok && db.Write(key, config.list_value);
  }
  std::vector<std::string> values;
  values.reserve(config.list_items);
  bool ok = true;
  out.scan100_rate = MedianRate(config.scans_100, config.rounds, &ok, [&](size_t) {
    return db.Scan("v/registry/bench/range/", &values) == 100 || Fail("raw scan != 100 values");
  });
  out.scans_ok = out.scans_ok && ok;
  const auto list_us = LatencySamples(config.scan_runs, &ok, [&] {
    return db.Scan("v/registry/pods/", &values) == config.list_items ||
           Fail("raw list scan returned " + std::to_string(values.size()) + " values");
  });
  out.scans_ok = out.scans_ok && ok;
  out.scan_list_p50_ms = Percentile(list_us, 0.5) / 1e3;
  out.scan_list_p99_ms = Percentile(list_us, 0.99) / 1e3;
  return out;
}

}  // namespace kube::bench
