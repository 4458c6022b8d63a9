// http_bench: end-to-end HTTP figures of kube-apiserver-lite, measured against the real server
// binary started as a child process (plain HTTP on 127.0.0.1, cpp-httplib keep-alive clients):
//   1. cold start: spawn -> GET /readyz answers 200 (median of 5 starts), and the server's VmRSS
//      idle right after ready and after the create load of step 2;
//   2. POST ConfigMap from 16 threads: req/s, p50/p99 latency;
//   3. GET ConfigMap from 16 threads: req/s, p50/p99 latency;
//   4. LIST of 10,000 ConfigMaps, consistent (rv "") and from the watch cache (rv=0): p50/p99;
//   5. LIST of 10 Secrets right after a ConfigMap write, consistent (rv "") and rv=0: p50/p99 —
//      the consistent read must learn that the Secret cache is current without waiting;
//   6. watch fan-out: 1000 HTTP watches, 100 creates 10 ms apart, delivery latency p50/p99 from
//      the start of each create to its arrival at each watcher, and deliveries vs expected.
//
// Every measurement checks its results (status codes, names, item counts, every watcher receiving
// every event in order); a failed check prints "CHECK FAILED", marks its row FAIL and makes the
// exit status 1.
//
// Usage: http_bench [path/to/kube-apiserver-lite]
//   default: ../kube-apiserver-lite next to this binary's directory, else build/kube-apiserver-lite
#include <httplib.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <latch>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench_util.h"
#include "http_load.h"
#include "http_server_process.h"

namespace {

using namespace kube::bench;
using namespace std::chrono_literals;
using nlohmann::json;

// --- sizes (the whole run stays well under 90 s on a 2-core machine)
constexpr int kColdStarts = 5;
constexpr int kThreads = 16;           // load threads, each with its own keep-alive client
constexpr size_t kCreates = 8'000;
constexpr size_t kGets = 20'000;
constexpr size_t kListObjects = 10'000;
constexpr int kListRuns = 10;          // per LIST variant
constexpr int kFreshSecrets = 10;
constexpr int kFreshRuns = 100;        // write-then-LIST samples per variant
constexpr int kWatchers = 1'000;
constexpr int kWatchWrites = 100;
constexpr auto kWatchSpacing = 10ms;
constexpr auto kWatchGrace = 15s;      // how long to wait for missing events after the last write
// Watches being opened at once. The server listens with cpp-httplib's backlog of 5: a larger burst
// of connects overflows its accept queue and waits out 1 s SYN retransmits (64 at once: ~8 s for
// 1000 watches; 4 at once: ~0.2 s).
constexpr int kConnectWindow = 4;
constexpr auto kStopTimeout = 20s;

const std::string kConfigMaps = "/api/v1/namespaces/default/configmaps";
const std::string kFreshNs = "bench-fresh";
const std::string kWatchNs = "bench-watch";
const std::string kWatchConfigMaps = "/api/v1/namespaces/" + kWatchNs + "/configmaps";

std::string ConfigMapName(size_t i) {
  char name[32];
  std::snprintf(name, sizeof name, "cm-%05zu", i);
  return name;
}
std::string ConfigMapJson(const std::string& name, size_t i) {
  return json{{"apiVersion", "v1"}, {"kind", "ConfigMap"},
              {"metadata", {{"name", name}, {"labels", {{"app", "http-bench"}}}}},
              {"data", {{"index", std::to_string(i)}, {"config", std::string(64, 'x')}}}}.dump();
}

LoadResult CreateConfigMaps(const Endpoint& ep, size_t begin, size_t end) {
  std::vector<std::string> bodies(end);  // built before the clock starts
  for (size_t i = begin; i < end; ++i) bodies[i] = ConfigMapJson(ConfigMapName(i), i);
  return ParallelLoad(
      ep, kThreads, begin, end,
      [&](httplib::Client& c, size_t i) { return c.Post(kConfigMaps, bodies[i], "application/json"); },
      [](size_t i, const httplib::Result& r) { return CheckObject(r, 201, ConfigMapName(i)); });
}

// --- 1. cold start

void RssRow(Table* table, const std::string& label, const ServerProcess& server) {
  const long kib = server.RssKiB();
  const bool ok = Expect(kib > 0 && kib < 8L << 20, label + ": implausible VmRSS " + std::to_string(kib));
  table->Info(label, static_cast<double>(kib), "KiB", "VmRSS of the server", ok);
}

// --- 4. LIST

// One LIST: GET `path`, timed into *us. The body when it is a 200 JSON list with an items array,
// else a discarded value with *failure saying what came instead.
json TimedList(httplib::Client* client, const std::string& path, std::vector<double>* us,
               std::string* failure) {
  const auto start = Clock::now();
  httplib::Result r = client->Get(path);
  us->push_back(MicrosBetween(start, Clock::now()));
  const json list = ParseBody(r, 200);
  if (!list.is_discarded() && list.contains("items") && list["items"].is_array()) return list;
  *failure = "no JSON list: " + Describe(r) + "; ";
  return json(json::value_t::discarded);
}

void ListRows(Table* table, httplib::Client* client, const std::string& label,
              const std::string& query) {
  std::vector<double> us;
  bool ok = true;
  for (int run = 0; run < kListRuns && ok; ++run) {
    std::string failure;
    const json list = TimedList(client, kConfigMaps + query, &us, &failure);
    const size_t items = list.is_discarded() ? 0 : list["items"].size();
    size_t ours = 0;
    for (size_t k = 0; k < items; ++k) ours += ObjectName(list["items"][k]).starts_with("cm-") ? 1 : 0;
    ok = Expect(failure.empty() && items == kListObjects && ours == kListObjects &&
                    !ResourceVersion(list).empty(),
                label + ": " + failure + std::to_string(items) + " items (" + std::to_string(ours) +
                    " ours), want " + std::to_string(kListObjects));
  }
  table->Info(label + " p50", Percentile(us, 0.5) / 1e3, "ms", "", ok);
  table->Info(label + " p99", Percentile(us, 0.99) / 1e3, "ms", "", ok);
}

// --- 5. LIST right after a write to another resource

// Creates namespace `ns`; false after a failed check.
bool CreateNamespace(httplib::Client* client, const std::string& ns) {
  httplib::Result r = client->Post(
      "/api/v1/namespaces",
      json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}}.dump(),
      "application/json");
  return Expect(CheckObject(r, 201, ns).empty(), "create namespace " + ns + ": " + Describe(r));
}

// kFreshSecrets Secrets in kFreshNs, then kFreshRuns times: POST a ConfigMap there (untimed) and
// time one LIST of the Secrets with `query`; a consistent LIST must be at least at the
// ConfigMap's resourceVersion.
void FreshListRows(Table* table, httplib::Client* client, const std::string& label,
                   const std::string& query, bool consistent) {
  const std::string secrets = "/api/v1/namespaces/" + kFreshNs + "/secrets";
  const std::string configmaps = "/api/v1/namespaces/" + kFreshNs + "/configmaps";
  std::vector<double> us;
  bool ok = true;
  for (int run = 0; run < kFreshRuns && ok; ++run) {
    const std::string name = (consistent ? "fresh-c-" : "fresh-0-") + std::to_string(run);
    const json cm = ParseBody(client->Post(configmaps, ConfigMapJson(name, 0), "application/json"), 201);
    const std::string written_rv = ResourceVersion(cm);
    ok = Expect(ObjectName(cm) == name && !written_rv.empty(), label + ": POST ConfigMap failed");
    if (!ok) break;
    std::string failure;
    const json list = TimedList(client, secrets + query, &us, &failure);
    const size_t items = list.is_discarded() ? 0 : list["items"].size();
    const std::string rv = list.is_discarded() ? "" : ResourceVersion(list);
    const bool fresh = !consistent || (!rv.empty() && std::stoull(rv) >= std::stoull(written_rv));
    ok = Expect(failure.empty() && items == kFreshSecrets && fresh,
                label + ": " + failure + std::to_string(items) + " items at rv " + rv + ", want " +
                    std::to_string(kFreshSecrets) + (consistent ? " at rv >= " + written_rv : ""));
  }
  table->Info(label + " p50", Percentile(us, 0.5), "us", "", ok);
  table->Info(label + " p99", Percentile(us, 0.99), "us", "", ok);
}

// --- 6. watch fan-out

int64_t Nanos(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

// One watch's consumer: parses its newline-delimited events and records their latencies.
// Touched by its own thread only until that thread is joined.
struct Watcher {
  std::string buffer;  // an incomplete last line
  std::vector<double> latencies_us;
  int next = 0;        // index of the next expected create
  std::string error;

  // Takes the bytes of one chunk received at `now`; false on a wrong event.
  bool Receive(const char* data, size_t n, Clock::time_point now,
               const std::vector<std::atomic<int64_t>>& starts) {
    buffer.append(data, n);
    size_t begin = 0;
    for (size_t eol; (eol = buffer.find('\n', begin)) != std::string::npos; begin = eol + 1) {
      if (!Event(std::string_view(buffer).substr(begin, eol - begin), now, starts)) return false;
    }
    buffer.erase(0, begin);
    return true;
  }

  bool Event(std::string_view line, Clock::time_point now,
             const std::vector<std::atomic<int64_t>>& starts) {
    const json event = json::parse(line, nullptr, false);
    if (event.is_discarded() || !event.is_object()) return SetError("event is not JSON");
    const std::string type = event.value("type", "");
    if (type == "BOOKMARK") return true;
    const std::string name = event.contains("object") ? ObjectName(event["object"]) : "";
    int index = -1;
    if (name.size() > 2) std::from_chars(name.data() + 2, name.data() + name.size(), index);
    if (type != "ADDED" || index != next) {
      return SetError("got " + type + " " + name + ", want ADDED of create #" + std::to_string(next));
    }
    const int64_t start = starts[static_cast<size_t>(index)].load(std::memory_order_acquire);
    if (start == 0) return SetError("event #" + std::to_string(index) + " before its create");
    latencies_us.push_back(static_cast<double>(Nanos(now) - start) / 1e3);
    ++next;
    return true;
  }
  bool SetError(std::string e) { return error = std::move(e), false; }
};

// Runs the watch fan-out against `server` and stops it (SIGTERM) at the end.
void WatchFanout(Table* table, ServerProcess* server) {
  const Endpoint ep{server->host(), server->port()};
  auto client = MakeClient(ep);
  bool ok = CreateNamespace(client.get(), kWatchNs);
  httplib::Result list = client->Get(kWatchConfigMaps);
  const std::string rv = ResourceVersion(ParseBody(list, 200));
  ok = Expect(!rv.empty(), "list " + kWatchConfigMaps + " for its resourceVersion: " + Describe(list)) && ok;
  const std::string path = kWatchConfigMaps + "?watch=1&resourceVersion=" + rv + "&timeoutSeconds=120";

  std::vector<std::atomic<int64_t>> starts(kWatchWrites);  // create start times, 0 = not yet
  std::vector<Watcher> watchers(kWatchers);
  std::atomic<int> established{0}, ended{0};  // ended: threads whose watch is over
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  const auto open_start = Clock::now();
  for (int w = 0; w < kWatchers && ok; ++w) {
    // Keep at most kConnectWindow watches connecting at once.
    while (w - established.load() - ended.load() >= kConnectWindow && SecondsSince(open_start) < 60) {
      std::this_thread::sleep_for(100us);
    }
    threads.emplace_back([&, w] {
      Watcher& me = watchers[static_cast<size_t>(w)];
      auto c = MakeClient(ep, 150);
      bool counted = false;
      httplib::Result r = c->Get(
          path,
          [&](const httplib::Response& res) {
            if (res.status != 200) return me.SetError("watch answered HTTP " + std::to_string(res.status));
            counted = true;
            established.fetch_add(1);
            return true;
          },
          [&](const char* data, size_t n) {
            const auto now = Clock::now();
            if (stop.load() || !me.Receive(data, n, now, starts)) return false;
            return me.next < kWatchWrites;  // every event is in: close this watch
          });
      if (me.next < kWatchWrites && me.error.empty() && !stop.load()) {
        me.error = "watch ended early after " + std::to_string(me.next) + " events: " +
                   (r ? "HTTP " + std::to_string(r->status) : httplib::to_string(r.error()));
      }
      if (counted) established.fetch_sub(1);
      ended.fetch_add(1);
    });
  }
  while (ok && established.load() + ended.load() < kWatchers && SecondsSince(open_start) < 60) {
    std::this_thread::sleep_for(1ms);  // every watch answered 200 or ended
  }
  const double open_s = SecondsSince(open_start);
  ok = Expect(established.load() == kWatchers, std::to_string(established.load()) + " of " +
              std::to_string(kWatchers) + " watches established after " + std::to_string(open_s) + " s") && ok;

  // The creates: one keep-alive client, kWatchSpacing apart, each named by its index.
  const long server_cpu0 = ProcessCpuMs(server->pid()), bench_cpu0 = ProcessCpuMs(::getpid());
  const auto first = Clock::now();
  for (int i = 0; i < kWatchWrites && ok; ++i) {
    std::this_thread::sleep_until(first + i * kWatchSpacing);
    char name[16];
    std::snprintf(name, sizeof name, "w-%03d", i);
    const std::string body = json{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}}},
                                   {"data", {{"i", std::to_string(i)}}}}.dump();
    starts[static_cast<size_t>(i)].store(Nanos(Clock::now()), std::memory_order_release);
    httplib::Result r = client->Post(kWatchConfigMaps, body, "application/json");
    ok = Expect(CheckObject(r, 201, name).empty(), std::string("create ") + name + ": " + Describe(r));
  }
  const auto grace_end = Clock::now() + kWatchGrace;
  while (ended.load() < kWatchers && Clock::now() < grace_end) std::this_thread::sleep_for(1ms);
  const double fanout_ms = SecondsSince(first) * 1e3;
  const long server_cpu = ProcessCpuMs(server->pid()) - server_cpu0;
  const long bench_cpu = ProcessCpuMs(::getpid()) - bench_cpu0;
  stop.store(true);  // watches still open end at their next chunk or when the server stops
  // The server's SIGTERM ends every watch still open (its streams return at least every 0.5 s).
  // Our idle keep-alive connection goes first: the server's shutdown waits for idle keep-alive
  // connections until their 120 s keep-alive timeout (cpp-httplib 0.11), which is not measured here.
  client.reset();
  const std::string stopped = server->Stop(kStopTimeout);
  ok = Expect(stopped.empty(), "stop the server: " + stopped) && ok;
  for (auto& t : threads) t.join();

  std::vector<double> latencies_us;
  uint64_t delivered = 0;
  int failed = 0;
  for (const Watcher& w : watchers) {
    latencies_us.insert(latencies_us.end(), w.latencies_us.begin(), w.latencies_us.end());
    delivered += static_cast<uint64_t>(w.next);
    if (!w.error.empty() && failed++ == 0) Fail("watcher: " + w.error);
  }
  const uint64_t expected = static_cast<uint64_t>(kWatchers) * kWatchWrites;
  ok = Expect(failed == 0, std::to_string(failed) + " watchers failed") && ok;
  ok = Expect(delivered == expected, "delivered " + std::to_string(delivered) + " of " +
                                         std::to_string(expected) + " events") && ok;
  const std::string from = "create start -> watcher";
  table->Info("watches established in", open_s * 1e3, "ms", std::to_string(kWatchers) + " watches", ok);
  table->Info("delivery latency p50", Percentile(latencies_us, 0.5) / 1e3, "ms", from, ok);
  table->Info("delivery latency p99", Percentile(latencies_us, 0.99) / 1e3, "ms", from, ok);
  table->Info("deliveries", static_cast<double>(delivered), "events",
              "of " + std::to_string(expected) + " expected", ok);
  // Both processes share the machine's cores: how much of them each one used meanwhile.
  char window[64];
  std::snprintf(window, sizeof window, "in %.0f ms of fan-out", fanout_ms);
  table->Info("server CPU time, creates + deliveries", static_cast<double>(server_cpu), "ms",
              window, Expect(server_cpu >= 0, "server CPU time unreadable"));
  table->Info("http_bench CPU time (watch clients)", static_cast<double>(bench_cpu), "ms", window,
              Expect(bench_cpu >= 0, "own CPU time unreadable"));
}

}  // namespace

int main(int argc, char** argv) {
  const auto run_start = Clock::now();
  std::printf("http_bench: %u hardware threads (std::thread::hardware_concurrency)\n",
              std::thread::hardware_concurrency());
  BenchSetup setup;
  if (!SetUpBench(argc, argv, "http_bench", &setup)) return 1;
  const std::string& binary = setup.binary;
  const std::string& kubeconfig = setup.kubeconfig;
  std::printf("Server: %s (a child process, plain HTTP on loopback). Load: %d threads, each with its "
              "own keep-alive httplib client;\nlatencies are percentiles over all requests, req/s = "
              "requests / wall time of the whole load.\n\n", binary.c_str(), kThreads);
  std::fflush(stdout);
  Table table;

  // 1. Cold start.
  table.Section("1. cold start: spawn -> GET /readyz 200 (polled every 1 ms)");
  {
    std::vector<double> ms;
    bool ok = true;
    for (int i = 0; i < kColdStarts && ok; ++i) {
      ServerProcess server;
      const double t = StartServer(&server, binary, kubeconfig);
      ok = t >= 0;
      if (ok) ms.push_back(t);
      const std::string stopped = server.Stop(kStopTimeout);
      ok = Expect(stopped.empty(), "stop the server: " + stopped) && ok;
    }
    const std::string of = "of " + std::to_string(kColdStarts) + " starts";
    table.Info("cold start median", Median(ms), "ms", of, ok);
    table.Info("cold start slowest", Percentile(ms, 1.0), "ms", of, ok);
  }
  ServerProcess server;
  if (StartServer(&server, binary, kubeconfig) < 0) return table.Print(), 1;
  const Endpoint ep{server.host(), server.port()};
  RssRow(&table, "idle RSS right after ready", server);

  // 2. Create.
  table.Section("2. POST ConfigMap (" + std::to_string(kCreates) + " creates, unique names)");
  LoadRows(&table, "create", CreateConfigMaps(ep, 0, kCreates), kCreates);
  RssRow(&table, "RSS after the create load", server);

  // 3. Get.
  table.Section("3. GET ConfigMap (" + std::to_string(kGets) + " gets, random names)");
  {
    std::vector<size_t> pick(kGets);
    std::mt19937_64 rng(3);
    for (size_t& p : pick) p = std::uniform_int_distribution<size_t>(0, kCreates - 1)(rng);
    LoadResult r = ParallelLoad(
        ep, kThreads, 0, kGets,
        [&](httplib::Client& c, size_t i) { return c.Get(kConfigMaps + "/" + ConfigMapName(pick[i])); },
        [&](size_t i, const httplib::Result& r) { return CheckObject(r, 200, ConfigMapName(pick[i])); });
    LoadRows(&table, "get", r, kGets);
  }

  // 4. List: top the namespace up to kListObjects ConfigMaps, then time the LISTs.
  table.Section("4. LIST " + std::to_string(kListObjects) + " ConfigMaps (" +
                std::to_string(kListRuns) + " runs each)");
  {
    auto client = MakeClient(ep, 60);
    const json list = ParseBody(client->Get(kConfigMaps), 200);
    const size_t have = list.contains("items") && list["items"].is_array() ? list["items"].size() : 0;
    bool ok = Expect(have == kCreates, "before the top-up: " + std::to_string(have) +
                                           " ConfigMaps, want " + std::to_string(kCreates));
    if (have < kListObjects) {
      const LoadResult top = CreateConfigMaps(ep, have, kListObjects);
      ok = Expect(top.ok && top.latencies_us.size() == kListObjects - have, "top-up creates") && ok;
    }
    if (!ok) table.Info("LIST", 0, "ms", "skipped: setup failed", false);
    if (ok) ListRows(&table, client.get(), "LIST rv \"\" (consistent)", "");
    if (ok) ListRows(&table, client.get(), "LIST rv=0 (watch cache)", "?resourceVersion=0");
  }

  // 5. LIST of one resource right after a write to another.
  table.Section("5. LIST " + std::to_string(kFreshSecrets) + " Secrets right after a ConfigMap POST (" +
                std::to_string(kFreshRuns) + " runs each, one client, idle server)");
  {
    auto client = MakeClient(ep);
    bool ok = CreateNamespace(client.get(), kFreshNs);
    for (int i = 0; i < kFreshSecrets && ok; ++i) {
      const std::string name = "s-" + std::to_string(i);
      httplib::Result r = client->Post(
          "/api/v1/namespaces/" + kFreshNs + "/secrets",
          json{{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", {{"name", name}}},
               {"stringData", {{"k", "v"}}}}.dump(),
          "application/json");
      ok = Expect(CheckObject(r, 201, name).empty(), "create Secret: " + Describe(r));
    }
    if (!ok) table.Info("LIST after a write", 0, "us", "skipped: setup failed", false);
    if (ok) FreshListRows(&table, client.get(), "LIST rv=0 after a write", "?resourceVersion=0", false);
    if (ok) FreshListRows(&table, client.get(), "LIST rv \"\" (consistent) after a write", "", true);
  }

  // 6. Watch fan-out; stops the server.
  table.Section("6. watch fan-out: " + std::to_string(kWatchers) + " HTTP watches, " +
                std::to_string(kWatchWrites) + " creates " +
                std::to_string(std::chrono::milliseconds(kWatchSpacing).count()) + " ms apart");
  WatchFanout(&table, &server);

  table.Print();
  std::printf("\ntotal run time %.1f s; %d failed check(s)\n", SecondsSince(run_start),
              FailureCount());
  return FailureCount() == 0 ? 0 : 1;
}
