// state_bench: the cost of the state between tests (ApiRegistry::Reset, SaveSnapshot,
// RestoreSnapshot) with 100 and 10,000 Pods (~1 KB each) stored, in process and in memory, with
// what the server runs around a restore: the RBAC policy and index (a restore listener that
// relists), the namespace controller, and 10 open watches that the restore ends with ERROR 410.
// (The CRD controller, the other listener, lists the CRDs and re-syncs only changed ones; with
// none stored that is one cache list.)
// Measured per store size:
//   * reset after a typical test (one Pod created, one updated, one deleted) — the target is
//     <= 5 ms with 10,000 objects; reset with nothing changed;
//   * MarkInitialState and SaveSnapshot (copies every object);
//   * RestoreSnapshot after 10 changes, and after every object was changed (the worst case);
//   * reset after a test that created as many objects again (they all go).
// A failed check (objects not restored, a watch not ended) prints "CHECK FAILED" and makes the
// exit status 1.
//
// Usage: state_bench   (no arguments)
#include <cstdio>
#include <string>
#include <vector>

#include "auth/rbac.h"
#include "bench_util.h"
#include "registry/api_registry.h"

namespace {

using namespace kube;
using namespace kube::bench;
using nlohmann::json;

constexpr int kRuns = 20;
constexpr int kWatches = 10;

struct Server {
  std::unique_ptr<registry::ApiRegistry> registry;
  std::unique_ptr<auth::Rbac> rbac;
  registry::StorePtr pods;
  ~Server() {
    rbac.reset();
    pods.reset();
  }
};

std::unique_ptr<Server> Start() {
  auto s = std::make_unique<Server>();
  auto opened = registry::ApiRegistry::Open(registry::RegistryOptions{}, catalogue::Catalogue::BuiltIn());
  if (!opened.ok()) {
    Fail("open: " + opened.status().ToString());
    return nullptr;
  }
  s->registry = std::move(*opened);
  auto rbac = auth::Rbac::Start(s->registry.get());
  if (!rbac.ok()) {
    Fail("rbac: " + rbac.status().ToString());
    return nullptr;
  }
  s->rbac = std::move(*rbac);
  s->pods = s->registry->Find("", "v1", "pods");
  return s;
}

json Pod(const std::string& name, int n) {
  json pod = MakePod("default", name, n);
  pod.erase("status");
  pod["metadata"].erase("uid");
  pod["metadata"].erase("creationTimestamp");
  pod["metadata"].erase("ownerReferences");
  return pod;
}

bool Create(Server& s, const std::string& name, int n) {
  auto r = s.pods->Create("default", Pod(name, n), registry::WriteOptions{});
  return r.ok() || Fail("create " + name + ": " + r.status().ToString());
}

bool Touch(Server& s, const std::string& name, int n) {
  auto r = s.pods->Update("default", name, "",
                          [n](const json& cur) -> kube::Result<json> {
                            json next = cur;
                            next["metadata"]["labels"]["touched"] = std::to_string(n);
                            return next;
                          },
                          registry::WriteOptions{});
  return r.ok() || Fail("update " + name + ": " + r.status().ToString());
}

bool Remove(Server& s, const std::string& name) {
  auto r = s.pods->Delete("default", name, registry::DeleteOptions{});
  return r.ok() || Fail("delete " + name + ": " + r.status().ToString());
}

size_t PodCount(Server& s) {
  auto list = s.pods->List("default", storage::ListOptions{});
  return list.ok() ? list->items.size() : 0;
}

// Watches as informers open them: from the resourceVersion of a list, so they carry no initial
// state (a watch without a resourceVersion would queue every stored Pod as ADDED first).
std::vector<storage::WatchStreamPtr> OpenWatches(Server& s) {
  std::vector<storage::WatchStreamPtr> out;
  auto list = s.pods->List("default", storage::ListOptions{.predicate = {.limit = 1}});
  const std::string rv = list.ok() ? list->resource_version : "";
  for (int i = 0; i < kWatches; ++i) {
    auto w = s.pods->Watch("default", storage::ListOptions{.resource_version = rv});
    if (w.ok()) out.push_back(std::move(*w));
  }
  return out;
}

// Every watch ends with ERROR 410 (after whatever it had queued before the restore).
bool AllExpired(std::vector<storage::WatchStreamPtr>& watches) {
  for (auto& w : watches) {
    storage::WatchEvent e;
    bool expired = false;
    while (w->NextEvent(&e, Clock::now() + std::chrono::seconds(5)) == storage::WatchStream::Next::kEvent) {
      if (e.type == storage::WatchEventType::kError) expired = e.error.IsExpired();
    }
    if (!expired) return Fail("an open watch did not end with ERROR 410");
  }
  return true;
}

double Ms(const std::vector<double>& us, double p) { return Percentile(us, p) / 1000.0; }

void Measure(Table& table, int n) {
  const std::string size = n >= 1000 ? std::to_string(n / 1000) + "k" : std::to_string(n);
  table.Section(std::to_string(n) + " Pods stored");
  auto s = Start();
  if (!s) return;
  for (int i = 0; i < n; ++i) {
    if (!Create(*s, "pod-" + std::to_string(i), i)) return;
  }
  auto t0 = Clock::now();
  bool ok = s->registry->MarkInitialState().ok();
  table.Info("MarkInitialState, " + size + " Pods", MicrosBetween(t0, Clock::now()) / 1000.0, "ms", "copies every object", ok);

  // A typical test: one create, one update, one delete; 10 watches open. Only the reset is timed.
  std::vector<double> resets;
  bool watches_ok = true;
  for (int r = 0; r < kRuns && ok; ++r) {
    const int k = n + r;
    ok = Create(*s, "extra-" + std::to_string(k), k) && Touch(*s, "pod-1", k) && Remove(*s, "pod-2");
    auto watches = OpenWatches(*s);
    t0 = Clock::now();
    Status reset = s->registry->Reset();
    resets.push_back(MicrosBetween(t0, Clock::now()));
    ok = (reset.ok() || Fail("reset: " + reset.ToString())) && ok;
    watches_ok = AllExpired(watches) && watches_ok;
    ok = (PodCount(*s) == static_cast<size_t>(n) || Fail("reset did not restore " + std::to_string(n) + " pods")) && ok;
  }
  table.Info("reset after 1 create/1 update/1 delete, median", Ms(resets, 0.5), "ms", "target <= 5 ms",
             ok && watches_ok && Ms(resets, 0.5) <= 5.0);
  table.Info("reset after 1 create/1 update/1 delete, p90", Ms(resets, 0.9), "ms", "10 watches ended", ok && watches_ok);

  auto unchanged = LatencySamples(kRuns, &ok, [&] { return s->registry->Reset().ok() || Fail("reset"); });
  table.Info("reset with nothing changed, median", Ms(unchanged, 0.5), "ms", "", ok);

  auto saves = LatencySamples(5, &ok, [&] { return s->registry->SaveSnapshot("bench").ok() || Fail("save"); });
  table.Info("SaveSnapshot, " + size + " Pods, median", Ms(saves, 0.5), "ms", "copies every object", ok);

  std::vector<double> restores;
  for (int r = 0; r < kRuns && ok; ++r) {
    for (int i = 0; i < 10; ++i) ok = Touch(*s, "pod-" + std::to_string(10 + i), r) && ok;
    t0 = Clock::now();
    ok = (s->registry->RestoreSnapshot("bench").ok() || Fail("restore")) && ok;
    restores.push_back(MicrosBetween(t0, Clock::now()));
  }
  table.Info("RestoreSnapshot after 10 updates, median", Ms(restores, 0.5), "ms", "", ok);

  restores.clear();
  for (int r = 0; r < 2 && ok; ++r) {
    for (int i = 0; i < n; ++i) ok = Touch(*s, "pod-" + std::to_string(i), r) && ok;
    t0 = Clock::now();
    ok = (s->registry->RestoreSnapshot("bench").ok() || Fail("restore")) && ok;
    restores.push_back(MicrosBetween(t0, Clock::now()));
  }
  table.Info("RestoreSnapshot after all " + size + " updated, median", Ms(restores, 0.5), "ms", "worst case: all rewritten", ok);

  restores.clear();
  for (int r = 0; r < 2 && ok; ++r) {
    for (int i = 0; i < n; ++i) ok = Create(*s, "more-" + std::to_string(r) + "-" + std::to_string(i), i) && ok;
    t0 = Clock::now();
    ok = (s->registry->Reset().ok() || Fail("reset")) && ok;
    restores.push_back(MicrosBetween(t0, Clock::now()));
    ok = (PodCount(*s) == static_cast<size_t>(n) || Fail("reset left extra pods")) && ok;
  }
  table.Info("reset after " + size + " more Pods were created, median", Ms(restores, 0.5), "ms", "all deleted", ok);
}

}  // namespace

int main() {
  Table table;
  for (int n : {100, 10000}) Measure(table, n);
  table.Print();
  return FailureCount() == 0 ? 0 : 1;
}
