// storage_bench: throughput and latency of the storage stack — kv::Store, storage::KvStore and
// the cacher::Cacher watch cache — each figure also given as a cost relative to raw RocksDB doing
// the minimum work of the same operation, measured in the same process run.
//
// Every measurement checks its results (counts, values, revisions, every watcher receiving every
// event); a failed check prints "CHECK FAILED", marks its row FAIL and makes the exit status 1.
//
// Usage: storage_bench   (no arguments; sizes are the constants below)
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench_util.h"
#include "cacher/cacher.h"
#include "kv/store.h"
#include "raw_baseline.h"
#include "storage/kv_store.h"
#include "watch_bench.h"

namespace {

using namespace kube;
using namespace kube::bench;
using namespace std::chrono_literals;

// --- sizes (keep the whole run under ~60 s on a 2-core machine)
constexpr int kRounds = 5;                 // each ops/s figure is the median of this many rounds
constexpr size_t kValueBytes = 600;        // kv value size
constexpr size_t kRawWrites = 50'000;
constexpr size_t kRawLatencyWrites = 2'000;
constexpr size_t kRawGets = 200'000;
constexpr size_t kKvPuts = 20'000;         // distinct keys
constexpr size_t kKvUpdates = 20'000;
constexpr size_t kKvGets = 100'000;
constexpr size_t kKvRanges = 5'000;        // each over a 100-key prefix
constexpr size_t kObjects = 10'000;        // Pods created (the GetList size)
constexpr size_t kStorageGets = 20'000;
constexpr int kListRuns = 20;              // GetList latency samples per variant
constexpr size_t kCacherGets = 100'000;
// Two write rates: 500/s overloads a single dispatcher waking 1000 OS threads on 2 cores (the kv
// layer turns that into writer back-pressure, the cacher into a backlog), 100/s does not.
constexpr WatchFanoutConfig kWatchFast{.watchers = 1000, .writes = 200, .spacing = 2000us, .ns = "watch-fast"};
constexpr WatchFanoutConfig kWatchSteady{.watchers = 1000, .writes = 100, .spacing = 10000us, .ns = "watch-steady"};
constexpr size_t kFreshObjects = 10;       // objects of the small resource read consistently
constexpr int kFreshRuns = 200;            // write-then-read samples per variant

std::string PodKey(size_t i) {
  char key[64];
  std::snprintf(key, sizeof key, "/pods/ns-%zu/pod-%05zu", i % 10, i);
  return key;
}
std::string PodName(size_t i) {
  char name[32];
  std::snprintf(name, sizeof name, "pod-%05zu", i);
  return name;
}
bool HasName(const storage::ObjectPtr& obj, const std::string& name) {
  return obj != nullptr && ObjectName(*obj) == name;
}

// GetList of every Pod under "/pods/" with `rv`, kListRuns times; p50/p99 in ms into the table.
void ListLatency(Table* table, storage::Interface* store, const std::string& label,
                 const std::string& rv, const RawBaseline& raw) {
  bool ok = true;
  const auto us = LatencySamples(kListRuns, &ok, [&] {
    auto list = store->GetList("/pods/", storage::ListOptions{.resource_version = rv,
                                                              .recursive = true});
    if (!list.ok()) return Fail(label + ": " + list.status().ToString());
    return Expect(list->items.size() == kObjects && !list->resource_version.empty() &&
                      list->continue_token.empty(),
                  label + " returned " + std::to_string(list->items.size()) + " items, want " +
                      std::to_string(kObjects));
  });
  table->Latency(label + " p50", Percentile(us, 0.5) / 1e3, "ms", raw.scan_list_p50_ms,
                 "raw scan p50", ok);
  table->Latency(label + " p99", Percentile(us, 0.99) / 1e3, "ms", raw.scan_list_p99_ms,
                 "raw scan p99", ok);
}

void WatchRows(Table* table, const std::string& label, const WatchFanoutResult& r,
               const RawBaseline& raw) {
  table->Latency(label + " p50", Percentile(r.latencies_us, 0.5), "us", raw.write_p50_us,
                 "raw write p50", r.ok);
  table->Latency(label + " p99", Percentile(r.latencies_us, 0.99), "us", raw.write_p99_us,
                 "raw write p99", r.ok);
  table->Info(label + " deliveries", static_cast<double>(r.delivered), "events",
              "of " + std::to_string(r.expected) + " expected", r.ok);
}

// Consistent reads of a small cached resource (A, "/leases") right after a write to another
// resource (B, "/configmaps") sharing the kv store: the cache of A has seen no event at the new
// revision and must learn from storage that it is current. Each sample times one read only; the
// write before it is untimed. Rows: the read with rv "0" (no freshness wait) as the baseline, then
// the consistent read (rv "") and a Get with rv = the write's revision (not older than).
void FreshReadAfterOtherWrite(Table* table, kv::Store* kv, const RawBaseline& raw) {
  storage::KvStore leases(kv, storage::StoreConfig{.resource_prefix = "/leases"});
  storage::KvStore configmaps(kv, storage::StoreConfig{.resource_prefix = "/configmaps"});
  bool ok = true;
  for (size_t i = 0; i < kFreshObjects && ok; ++i) {
    const storage::Object lease{{"apiVersion", "coordination.k8s.io/v1"}, {"kind", "Lease"},
                                {"metadata", {{"name", "l-" + std::to_string(i)}, {"namespace", "ns"}}}};
    auto created = leases.Create("/leases/ns/l-" + std::to_string(i), lease, 0);
    ok = created.ok() || Fail("create Lease: " + created.status().ToString());
  }
  cacher::Cacher cache(&leases, cacher::CacherConfig{.resource_prefix = "/leases"});
  ok = ok && Expect(cache.WaitUntilFresh(static_cast<uint64_t>(kv->CurrentRevision()), 10s),
                    "Lease cacher did not become fresh within 10 s");
  size_t writes = 0;
  // Writes one new ConfigMap; its revision into *rev.
  auto write_other = [&](int64_t* rev) {
    const std::string name = "fresh-" + std::to_string(writes++);
    const storage::Object cm{{"apiVersion", "v1"}, {"kind", "ConfigMap"},
                             {"metadata", {{"name", name}, {"namespace", "ns"}}}};
    auto created = configmaps.Create("/configmaps/ns/" + name, cm, 0);
    if (!created.ok()) return Fail("create ConfigMap: " + created.status().ToString());
    *rev = kv->CurrentRevision();
    return true;
  };
  // kFreshRuns samples of read(required revision), each after an untimed write; p50/p99 in us.
  auto measure = [&](auto read) {
    std::vector<double> us;
    bool run_ok = ok;
    for (int r = 0; r < kFreshRuns && run_ok; ++r) {
      int64_t rev = 0;
      if (!write_other(&rev)) {
        run_ok = false;
        break;
      }
      const auto start = Clock::now();
      run_ok = read(rev);
      us.push_back(MicrosBetween(start, Clock::now()));
    }
    return std::make_pair(us, run_ok);
  };
  auto list = [&](const std::string& label, const std::string& rv, int64_t required) {
    auto got = cache.GetList("/leases/", storage::ListOptions{.resource_version = rv, .recursive = true});
    if (!got.ok()) return Fail(label + ": " + got.status().ToString());
    return Expect(got->items.size() == kFreshObjects &&
                      std::stoll(got->resource_version) >= required,
                  label + " returned " + std::to_string(got->items.size()) + " items at rv " +
                      got->resource_version + ", want " + std::to_string(kFreshObjects) +
                      " at rv >= " + std::to_string(required));
  };
  const std::string base_label = "LIST " + std::to_string(kFreshObjects) + " rv=\"0\" after a write";
  auto [base, base_ok] = measure([&](int64_t) { return list(base_label, "0", 0); });
  const double base_p50 = Percentile(base, 0.5), base_p99 = Percentile(base, 0.99);
  table->Latency(base_label + " p50", base_p50, "us", raw.write_p50_us, "raw write p50", base_ok);
  table->Latency(base_label + " p99", base_p99, "us", raw.write_p99_us, "raw write p99", base_ok);

  const std::string list_label = "LIST " + std::to_string(kFreshObjects) + " rv=\"\" after a write";
  auto [lists, lists_ok] = measure([&](int64_t rev) { return list(list_label, "", rev); });
  table->Latency(list_label + " p50", Percentile(lists, 0.5), "us", base_p50, "rv=\"0\" p50", lists_ok);
  table->Latency(list_label + " p99", Percentile(lists, 0.99), "us", base_p99, "rv=\"0\" p99", lists_ok);

  const std::string get_label = "Get rv=<write's revision> after a write";
  auto [gets, gets_ok] = measure([&](int64_t rev) {
    auto got = cache.Get("/leases/ns/l-0", storage::GetOptions{.resource_version = std::to_string(rev)});
    if (!got.ok()) return Fail(get_label + ": " + got.status().ToString());
    return HasName(*got, "l-0") || Fail(get_label + " returned the wrong object");
  });
  table->Latency(get_label + " p50", Percentile(gets, 0.5), "us", base_p50, "rv=\"0\" p50", gets_ok);
  table->Latency(get_label + " p99", Percentile(gets, 0.99), "us", base_p99, "rv=\"0\" p99", gets_ok);
}

}  // namespace

int main() {
  const auto run_start = Clock::now();
  std::printf("storage_bench: %u hardware threads (std::thread::hardware_concurrency)\n",
              std::thread::hardware_concurrency());
  const std::string pod_json = MakePod("ns-0", PodName(0), 0).dump();
  std::printf("All figures come from this one process run: ops/s = median of %d equal rounds, "
              "latencies = percentiles over all samples.\n"
              "cost/raw = time per operation relative to raw RocksDB doing the same minimal work "
              "in this run (>1 is slower).\n"
              "Pod object: %zu bytes serialized; kv values: %zu bytes.\n\n",
              kRounds, pod_json.size(), kValueBytes);
  std::fflush(stdout);
  Table table;
  Expect(pod_json.size() > 900 && pod_json.size() < 1200, "Pod object is not ~1 KB");

  // 1. Raw RocksDB baseline.
  const RawBaseline raw = MeasureRawBaseline(RawBaselineConfig{
      .writes = kRawWrites, .latency_writes = kRawLatencyWrites, .gets = kRawGets,
      .scans_100 = kKvRanges, .scan_runs = kListRuns, .list_items = kObjects,
      .list_value = pod_json, .rounds = kRounds});
  table.Section("1. raw RocksDB (in-memory Env, no WAL)");
  table.Baseline("write: mutex + batch{version,log,meta} + Write", raw.write_rate, "ops/s",
                 raw.writes_ok);
  table.Baseline("write latency p50", raw.write_p50_us, "us", raw.writes_ok);
  table.Baseline("write latency p99", raw.write_p99_us, "us", raw.writes_ok);
  table.Baseline("point Get", raw.get_rate, "ops/s", raw.gets_ok);
  table.Baseline("scan 100 keys (copy values)", raw.scan100_rate, "ops/s", raw.scans_ok);
  table.Baseline("scan 10,000 Pods p50 (copy values)", raw.scan_list_p50_ms, "ms", raw.scans_ok);
  table.Baseline("scan 10,000 Pods p99 (copy values)", raw.scan_list_p99_ms, "ms", raw.scans_ok);

  // 2. kv::Store.
  auto opened = kv::Store::Open(kv::Options{.compaction_interval = 0ms});
  if (!opened.ok()) {
    Fail("kv::Store::Open: " + opened.status().ToString());
    return 1;
  }
  std::unique_ptr<kv::Store> kv = std::move(opened).value();
  table.Section("2. kv::Store (in memory)");
  {
    const std::string value(kValueBytes, 'k');
    std::vector<std::string> keys;
    for (size_t i = 0; i < kKvPuts; ++i) keys.push_back("/bench/kv/key-" + std::to_string(i));
    std::vector<int64_t> mod_rev(kKvPuts);
    bool ok = true;
    double rate = MedianRate(kKvPuts, kRounds, &ok, [&](size_t i) {
      const int64_t before = kv->CurrentRevision();
      auto rev = kv->Put(keys[i], value);
      if (!rev.ok()) return Fail("kv Put: " + rev.status().ToString());
      mod_rev[i] = *rev;
      return *rev == before + 1 || Fail("kv Put did not advance the revision by one");
    });
    table.Rate("Put (600 B, distinct keys)", rate, raw.write_rate, "raw write", ok);

    std::mt19937_64 rng(2);
    std::uniform_int_distribution<size_t> pick(0, kKvPuts - 1);
    rate = MedianRate(kKvUpdates, kRounds, &ok, [&](size_t) {
      const size_t k = pick(rng);
      auto txn = kv->OptimisticPut(keys[k], value, mod_rev[k]);
      if (!txn.ok()) return Fail("kv OptimisticPut: " + txn.status().ToString());
      if (!txn->succeeded) return Fail("kv OptimisticPut lost its compare");
      mod_rev[k] = txn->revision;
      return true;
    });
    table.Rate("OptimisticPut (update, expected mod rev)", rate, raw.write_rate, "raw write", ok);

    rate = MedianRate(kKvGets, kRounds, &ok, [&](size_t) {
      const size_t k = pick(rng);
      auto got = kv->Get(keys[k]);
      if (!got.ok()) return Fail("kv Get: " + got.status().ToString());
      return (got->kv && got->kv->mod_revision == mod_rev[k] && got->kv->value.size() == kValueBytes)
          || Fail("kv Get returned a wrong version of " + keys[k]);
    });
    table.Rate("Get (random existing key)", rate, raw.get_rate, "raw Get", ok);

    for (int i = 0; i < 100 && ok; ++i) {
      ok = kv->Put("/bench/range/k-" + std::to_string(i), value).ok() || Fail("kv Put range key");
    }
    const std::string end = kv::PrefixEnd("/bench/range/");
    rate = MedianRate(kKvRanges, kRounds, &ok, [&](size_t) {
      auto r = kv->Range("/bench/range/", end);
      if (!r.ok()) return Fail("kv Range: " + r.status().ToString());
      return (r->kvs.size() == 100 && r->count == 100 && !r->more) ||
             Fail("kv Range returned " + std::to_string(r->kvs.size()) + " keys, want 100");
    });
    table.Rate("Range over a 100-key prefix", rate, raw.scan100_rate, "raw scan 100", ok);
  }

  // 3. storage::KvStore over the kv store.
  storage::KvStore store(kv.get(), storage::StoreConfig{.path_prefix = "/registry",
                                                        .resource_prefix = "/pods"});
  table.Section("3. storage::KvStore (Pod objects, ~1 KB JSON)");
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<size_t> pick_pod(0, kObjects - 1);
  {
    std::vector<storage::Object> pods;
    for (size_t i = 0; i < kObjects; ++i) pods.push_back(MakePod("ns-" + std::to_string(i % 10),
                                                                 PodName(i), static_cast<int>(i)));
    bool ok = true;
    double rate = MedianRate(kObjects, kRounds, &ok, [&](size_t i) {
      auto created = store.Create(PodKey(i), pods[i], 0);
      if (!created.ok()) return Fail("Create: " + created.status().ToString());
      return HasName(*created, PodName(i)) || Fail("Create returned the wrong object");
    });
    table.Rate("Create", rate, raw.write_rate, "raw write", ok);

    rate = MedianRate(kStorageGets, kRounds, &ok, [&](size_t) {
      const size_t i = pick_pod(rng);
      auto got = store.Get(PodKey(i), storage::GetOptions{});
      if (!got.ok()) return Fail("Get: " + got.status().ToString());
      return HasName(*got, PodName(i)) || Fail("Get returned the wrong object");
    });
    table.Rate("Get", rate, raw.get_rate, "raw Get", ok);
    ListLatency(&table, &store, "GetList 10,000 (rv \"\")", "", raw);
  }

  // 4. cacher::Cacher over the KvStore.
  table.Section("4. cacher::Cacher over the KvStore");
  auto cacher = std::make_unique<cacher::Cacher>(&store, cacher::CacherConfig{.resource_prefix = "/pods"});
  const bool fresh = Expect(cacher->WaitUntilFresh(static_cast<uint64_t>(kv->CurrentRevision()), 10s),
                            "cacher did not become fresh within 10 s");
  {
    bool ok = fresh;
    double rate = ok ? MedianRate(kCacherGets, kRounds, &ok, [&](size_t) {
      const size_t i = pick_pod(rng);
      auto got = cacher->Get(PodKey(i), storage::GetOptions{.resource_version = "0"});
      if (!got.ok()) return Fail("cacher Get rv=0: " + got.status().ToString());
      return HasName(*got, PodName(i)) || Fail("cacher Get returned the wrong object");
    }) : 0;
    table.Rate("Get rv=\"0\"", rate, raw.get_rate, "raw Get", ok);
    ListLatency(&table, cacher.get(), "GetList 10,000 rv=\"0\"", "0", raw);
    ListLatency(&table, cacher.get(), "GetList 10,000 rv=\"\" (consistent)", "", raw);
  }

  // 5. Watch fan-out.
  for (const WatchFanoutConfig& config : {kWatchFast, kWatchSteady}) {
    char title[128];
    std::snprintf(title, sizeof title, "5. watch delivery, %d watchers, %d writes %lld us apart",
                  config.watchers, config.writes, static_cast<long long>(config.spacing.count()));
    table.Section(title);
    WatchRows(&table, "kv::Watcher latency", KvWatchFanout(kv.get(), config), raw);
    WatchRows(&table, "Cacher watch latency",
              CacherWatchFanout(kv.get(), &store, cacher.get(), config), raw);
  }

  // 6. Consistent reads right after a write to another resource.
  table.Section("6. cacher reads right after a write to another resource (idle store, " +
                std::to_string(kFreshRuns) + " samples each)");
  FreshReadAfterOtherWrite(&table, kv.get(), raw);

  cacher.reset();
  table.Print();
  std::printf("\ntotal run time %.1f s; %d failed check(s)\n", SecondsSince(run_start),
              FailureCount());
  return FailureCount() == 0 ? 0 : 1;
}
