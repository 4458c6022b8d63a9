// crd_bench: CustomResourceDefinition figures of kube-apiserver-lite, measured against the real
// server binary started as a child process (plain HTTP on loopback, cpp-httplib keep-alive clients):
//   1. CRD create -> served: POST one CRD, then poll (every 0.2 ms) until GET /apis/<group>/v1
//      answers 200 listing its resource, and until its Established condition is True; median and
//      max over 20 CRDs, each in a group of its own (a fresh group-version every time);
//   2. 50 CRDs POSTed back to back from one client (an `kubectl apply -f crds/` or envtest
//      install), then the CRD list polled until all 50 are Established, then every group-version
//      polled until served in discovery: time of the POSTs, to all Established, to all served;
//   3. custom resources beside ConfigMaps in the same run and the same way (16 keep-alive clients,
//      bodies of the same size, in the "default" namespace): create, get and list rates and
//      latencies, and the ratio CR rate / ConfigMap rate of each (the issue's target: a CR within
//      1.5x of the built-in, i.e. a ratio of at least 0.67).
//
// Every step checks its results (status codes, names, counts, conditions, discovery documents); a
// failed check prints "CHECK FAILED", marks its row FAIL and makes the exit status 1.
//
// Usage: crd_bench [path/to/kube-apiserver-lite]
//   default: ../kube-apiserver-lite next to this binary's directory, else build/kube-apiserver-lite
#include <httplib.h>

#include <cctype>
#include <chrono>
#include <cstdio>
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

// --- sizes (the whole run stays under a minute on a 2-core machine)
constexpr int kLatencyCrds = 20;
constexpr int kBatchCrds = 50;
constexpr int kThreads = 16;        // load threads, each with its own keep-alive client
constexpr size_t kCreates = 4'000;  // per kind
constexpr size_t kGets = 20'000;    // per kind
constexpr size_t kLists = 96;       // per kind, each of the whole collection (kCreates objects)
constexpr auto kPollEvery = 200us;
constexpr auto kServedTimeout = 10s;  // per CRD in step 1
constexpr auto kBatchTimeout = 30s;   // for all of step 2
constexpr auto kStopTimeout = 20s;

const std::string kCrds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const std::string kConfigMaps = "/api/v1/namespaces/default/configmaps";
const std::string kLoadGroup = "load.bench.example.com";
const std::string kWidgets = "/apis/" + kLoadGroup + "/v1/namespaces/default/widgets";

double MillisSince(Clock::time_point start) { return MicrosBetween(start, Clock::now()) / 1e3; }

// A namespaced CRD of an ordinary operator's shape: a spec with required, enum, defaulted,
// bounded and preserved fields, a status subresource and a printer column; labelled `bench=label`.
std::string CrdJson(const std::string& group, const std::string& plural, const std::string& kind,
                    const std::string& label) {
  const json schema = {
      {"type", "object"},
      {"properties",
       {{"spec",
         {{"type", "object"},
          {"required", {"index"}},
          {"properties",
           {{"index", {{"type", "integer"}, {"minimum", 0}}},
            {"config", {{"type", "string"}, {"maxLength", 256}}},
            {"mode", {{"type", "string"}, {"enum", {"Fast", "Safe"}}, {"default", "Safe"}}},
            {"replicas", {{"type", "integer"}, {"minimum", 0}, {"default", 1}}},
            {"template", {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}}}}}},
        {"status",
         {{"type", "object"},
          {"properties", {{"phase", {{"type", "string"}}}, {"observedGeneration", {{"type", "integer"}}}}}}}}}};
  std::string singular = kind;
  for (char& ch : singular) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const json version = {
      {"name", "v1"},
      {"served", true},
      {"storage", true},
      {"subresources", {{"status", json::object()}}},
      {"additionalPrinterColumns", json::array({{{"name", "Index"}, {"type", "integer"}, {"jsonPath", ".spec.index"}}})},
      {"schema", {{"openAPIV3Schema", schema}}}};
  const json names = {{"plural", plural}, {"singular", singular}, {"kind", kind}, {"listKind", kind + "List"}};
  return json{{"apiVersion", "apiextensions.k8s.io/v1"},
              {"kind", "CustomResourceDefinition"},
              {"metadata", {{"name", plural + "." + group}, {"labels", {{"bench", label}}}}},
              {"spec", {{"group", group}, {"scope", "Namespaced"}, {"names", names}, {"versions", json::array({version})}}}}
      .dump();
}

// True when the CRD object `crd` has the condition Established=True.
bool Established(const json& crd) {
  const auto status = crd.find("status");
  if (status == crd.end() || !status->is_object()) return false;
  const auto conditions = status->find("conditions");
  if (conditions == status->end() || !conditions->is_array()) return false;
  for (const json& c : *conditions) {
    if (c.is_object() && c.value("type", "") == "Established") return c.value("status", "") == "True";
  }
  return false;
}

// True when `r` is a 200 APIResourceList of a group-version that lists `plural`.
bool ServesResource(const httplib::Result& r, const std::string& plural) {
  const json doc = ParseBody(r, 200);
  if (doc.is_discarded() || !doc.contains("resources") || !doc["resources"].is_array()) return false;
  for (const json& res : doc["resources"]) {
    if (res.is_object() && res.value("name", "") == plural) return true;
  }
  return false;
}

// --- 1. CRD create -> served

void CreateToServed(Table* table, const Endpoint& ep) {
  auto client = MakeClient(ep);
  std::vector<double> discovery_ms, established_ms;
  bool ok = true;
  for (int i = 0; i < kLatencyCrds && ok; ++i) {
    char group[64];
    std::snprintf(group, sizeof group, "g%02d.latency.bench.example.com", i);
    const std::string gv = std::string("/apis/") + group + "/v1";
    const std::string name = std::string("widgets.") + group;
    const std::string body = CrdJson(group, "widgets", "Widget", "latency");
    const auto start = Clock::now();
    httplib::Result created = client->Post(kCrds, body, "application/json");
    if (!(ok = Expect(CheckObject(created, 201, name).empty(), "create CRD " + name + ": " + Describe(created)))) break;
    double discovery = -1, established = -1;
    while ((discovery < 0 || established < 0) && Clock::now() - start < kServedTimeout) {
      if (discovery < 0 && ServesResource(client->Get(gv), "widgets")) discovery = MillisSince(start);
      if (established < 0 && Established(ParseBody(client->Get(kCrds + "/" + name), 200))) {
        established = MillisSince(start);
      }
      std::this_thread::sleep_for(kPollEvery);
    }
    ok = Expect(discovery >= 0, name + ": GET " + gv + " did not list widgets within 10 s") &&
         Expect(established >= 0, name + ": not Established within 10 s");
    discovery_ms.push_back(discovery);
    established_ms.push_back(established);
  }
  const std::string of = "over " + std::to_string(discovery_ms.size()) + " CRDs";
  table->Info("create -> GET /apis/<g>/v1 200 median", Median(discovery_ms), "ms", of, ok);
  table->Info("create -> GET /apis/<g>/v1 200 max", Percentile(discovery_ms, 1.0), "ms", "target <= 10 ms", ok);
  table->Info("create -> Established median", Median(established_ms), "ms", of, ok);
  table->Info("create -> Established max", Percentile(established_ms, 1.0), "ms", of, ok);
}

// --- 2. a batch of CRDs

void BatchInstall(Table* table, const Endpoint& ep) {
  auto client = MakeClient(ep);
  std::vector<std::string> groups, bodies;
  for (int i = 0; i < kBatchCrds; ++i) {
    char group[64];
    std::snprintf(group, sizeof group, "b%02d.batch.bench.example.com", i);
    groups.emplace_back(group);
    bodies.push_back(CrdJson(group, "gadgets", "Gadget", "batch"));
  }
  const auto start = Clock::now();
  bool ok = true;
  for (int i = 0; i < kBatchCrds && ok; ++i) {
    httplib::Result r = client->Post(kCrds, bodies[static_cast<size_t>(i)], "application/json");
    ok = Expect(CheckObject(r, 201, "gadgets." + groups[static_cast<size_t>(i)]).empty(),
                "create CRD #" + std::to_string(i) + ": " + Describe(r));
  }
  const double posts_ms = MillisSince(start);

  size_t established = 0;
  while (ok && established < kBatchCrds && Clock::now() - start < kBatchTimeout) {
    const json list = ParseBody(client->Get(kCrds + "?labelSelector=bench%3Dbatch"), 200);
    established = 0;
    if (!list.is_discarded() && list.contains("items") && list["items"].is_array()) {
      for (const json& crd : list["items"]) established += Established(crd) ? 1 : 0;
    }
    if (established < kBatchCrds) std::this_thread::sleep_for(1ms);
  }
  const double established_ms = MillisSince(start);
  ok = Expect(established == kBatchCrds, std::to_string(established) + " of " +
                                             std::to_string(kBatchCrds) + " CRDs Established") && ok;

  size_t served = 0;  // the groups are served in order: poll each until it is, then the next
  while (ok && served < kBatchCrds && Clock::now() - start < kBatchTimeout) {
    if (ServesResource(client->Get("/apis/" + groups[served] + "/v1"), "gadgets")) {
      ++served;
    } else {
      std::this_thread::sleep_for(kPollEvery);
    }
  }
  const double served_ms = MillisSince(start);
  ok = Expect(served == kBatchCrds, std::to_string(served) + " of " + std::to_string(kBatchCrds) +
                                        " group-versions served in discovery") && ok;
  const std::string n = std::to_string(kBatchCrds) + " CRDs";
  table->Info("POSTs, back to back", posts_ms, "ms", n + ", one client", ok);
  table->Info("first POST -> all Established", established_ms, "ms", n + ", CRD list polled", ok);
  table->Info("first POST -> all served in discovery", served_ms, "ms", n, ok);
}

// --- 3. custom resources beside ConfigMaps

// One kind's collection and bodies, so that both kinds go through identical loads.
struct Kind {
  std::string collection;  // the namespaced collection path
  std::string prefix;      // of the object names
  std::string (*body)(const std::string& name, size_t i);

  std::string Name(size_t i) const {
    char name[32];
    std::snprintf(name, sizeof name, "%s%05zu", prefix.c_str(), i);
    return name;
  }
};

std::string WidgetJson(const std::string& name, size_t i) {
  return json{{"apiVersion", kLoadGroup + "/v1"}, {"kind", "Widget"},
              {"metadata", {{"name", name}, {"labels", {{"app", "crd-bench"}}}}},
              {"spec", {{"index", i}, {"config", std::string(64, 'x')}}}}.dump();
}
std::string ConfigMapJson(const std::string& name, size_t i) {
  return json{{"apiVersion", "v1"}, {"kind", "ConfigMap"},
              {"metadata", {{"name", name}, {"labels", {{"app", "crd-bench"}}}}},
              {"data", {{"index", std::to_string(i)}, {"config", std::string(64, 'x')}}}}.dump();
}

LoadResult Creates(const Endpoint& ep, const Kind& kind) {
  std::vector<std::string> bodies(kCreates);  // built before the clock starts
  for (size_t i = 0; i < kCreates; ++i) bodies[i] = kind.body(kind.Name(i), i);
  return ParallelLoad(
      ep, kThreads, 0, kCreates,
      [&](httplib::Client& c, size_t i) { return c.Post(kind.collection, bodies[i], "application/json"); },
      [&](size_t i, const httplib::Result& r) { return CheckObject(r, 201, kind.Name(i)); });
}

LoadResult Gets(const Endpoint& ep, const Kind& kind, const std::vector<size_t>& pick) {
  return ParallelLoad(
      ep, kThreads, 0, pick.size(),
      [&](httplib::Client& c, size_t i) { return c.Get(kind.collection + "/" + kind.Name(pick[i])); },
      [&](size_t i, const httplib::Result& r) { return CheckObject(r, 200, kind.Name(pick[i])); });
}

LoadResult Lists(const Endpoint& ep, const Kind& kind) {
  return ParallelLoad(
      ep, kThreads, 0, kLists,
      [&](httplib::Client& c, size_t) { return c.Get(kind.collection); },
      [&](size_t, const httplib::Result& r) -> std::string {
        const json list = ParseBody(r, 200);
        if (list.is_discarded() || !list.contains("items") || !list["items"].is_array()) {
          return "not a JSON list: " + Describe(r);
        }
        size_t ours = 0;
        for (const json& item : list["items"]) ours += ObjectName(item).starts_with(kind.prefix) ? 1 : 0;
        if (ours != kCreates || list["items"].size() != kCreates) {
          return std::to_string(list["items"].size()) + " items (" + std::to_string(ours) +
                 " ours), want " + std::to_string(kCreates);
        }
        return ResourceVersion(list).empty() ? "list without a resourceVersion" : "";
      });
}

// The rows of one operation for both kinds, and the CR/ConfigMap rate ratio.
void CompareRows(Table* table, const std::string& op, const LoadResult& cm, const LoadResult& cr,
                 size_t expected, const std::string& latency_unit) {
  LoadRows(table, "ConfigMap " + op, cm, expected, latency_unit);
  LoadRows(table, "CR " + op, cr, expected, latency_unit);
  const double cm_rate = static_cast<double>(cm.latencies_us.size()) / cm.seconds;
  const double cr_rate = static_cast<double>(cr.latencies_us.size()) / cr.seconds;
  table->Info("CR/ConfigMap " + op + " rate", cr_rate / cm_rate, "x", "target >= 0.67 (1.5x)",
              cm.ok && cr.ok);
}

void CustomResourcesBesideConfigMaps(Table* table, const Endpoint& ep) {
  auto client = MakeClient(ep);
  const std::string name = "widgets." + kLoadGroup;
  httplib::Result created = client->Post(kCrds, CrdJson(kLoadGroup, "widgets", "Widget", "load"), "application/json");
  bool ok = Expect(CheckObject(created, 201, name).empty(), "create CRD " + name + ": " + Describe(created));
  const auto start = Clock::now();
  while (ok && !ServesResource(client->Get("/apis/" + kLoadGroup + "/v1"), "widgets")) {
    if (!(ok = Expect(Clock::now() - start < kServedTimeout, name + " not served within 10 s"))) break;
    std::this_thread::sleep_for(1ms);
  }
  if (!ok) {
    table->Info("CR load", 0, "req/s", "skipped: the CRD was not served", false);
    return;
  }
  const Kind cm{kConfigMaps, "cm-", &ConfigMapJson};
  const Kind cr{kWidgets, "cr-", &WidgetJson};

  table->Section("3a. create (" + std::to_string(kCreates) + " each, unique names)");
  const LoadResult cm_create = Creates(ep, cm);
  const LoadResult cr_create = Creates(ep, cr);
  CompareRows(table, "create", cm_create, cr_create, kCreates, "us");

  table->Section("3b. get (" + std::to_string(kGets) + " each, random names)");
  std::vector<size_t> pick(kGets);
  std::mt19937_64 rng(8);
  for (size_t& p : pick) p = std::uniform_int_distribution<size_t>(0, kCreates - 1)(rng);
  const LoadResult cm_get = Gets(ep, cm, pick);
  const LoadResult cr_get = Gets(ep, cr, pick);
  CompareRows(table, "get", cm_get, cr_get, kGets, "us");

  table->Section("3c. list (" + std::to_string(kLists) + " each, the whole collection of " +
                 std::to_string(kCreates) + ")");
  const LoadResult cm_list = Lists(ep, cm);
  const LoadResult cr_list = Lists(ep, cr);
  CompareRows(table, "list", cm_list, cr_list, kLists, "ms");
}

}  // namespace

int main(int argc, char** argv) {
  const auto run_start = Clock::now();
  BenchSetup setup;
  if (!SetUpBench(argc, argv, "crd_bench", &setup)) return 1;
  std::printf("crd_bench: server %s (a child process, plain HTTP on loopback); %u hardware threads\n\n",
              setup.binary.c_str(), std::thread::hardware_concurrency());
  std::fflush(stdout);
  Table table;
  ServerProcess server;
  if (StartServer(&server, setup.binary, setup.kubeconfig) < 0) return table.Print(), 1;
  const Endpoint ep{server.host(), server.port()};
  const long rss_idle = server.RssKiB();

  table.Section("1. CRD create -> served (" + std::to_string(kLatencyCrds) + " CRDs, one at a time)");
  CreateToServed(&table, ep);
  table.Section("2. " + std::to_string(kBatchCrds) + " CRDs POSTed back to back");
  BatchInstall(&table, ep);
  const long rss_crds = server.RssKiB();
  table.Info("server VmRSS idle, then with " + std::to_string(kLatencyCrds + kBatchCrds) + " CRDs",
             static_cast<double>(rss_crds), "KiB", "idle: " + std::to_string(rss_idle) + " KiB",
             Expect(rss_idle > 0 && rss_crds > 0, "VmRSS unreadable"));
  CustomResourcesBesideConfigMaps(&table, ep);

  const std::string stopped = server.Stop(kStopTimeout);
  Expect(stopped.empty(), "stop the server: " + stopped);
  table.Print();
  std::printf("\ntotal run time %.1f s; %d failed check(s)\n", SecondsSince(run_start), FailureCount());
  return FailureCount() == 0 ? 0 : 1;
}
