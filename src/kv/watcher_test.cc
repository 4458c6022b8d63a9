#include "kv/watcher.h"

#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "kv/store.h"

namespace kube::kv {

namespace {

using namespace std::chrono_literals;

std::unique_ptr<Store> OpenMem(Options options = {}) {
  auto store = Store::Open(options);
  REQUIRE(store.ok());
  return std::move(store).value();
}

WatcherPtr WatchPrefix(Store& store, const std::string& prefix, int64_t start = 0,
                       bool progress = false) {
  auto w = store.Watch(WatchOptions{prefix, PrefixEnd(prefix), start, progress});
  REQUIRE(w.ok());
  return std::move(w).value();
}

WatchResponse NextOrFail(Watcher& w) {
  auto r = w.Next(std::chrono::steady_clock::now() + 5s);
  REQUIRE(r.has_value());
  return *r;
}

// "PUT /a=1@2(prev -)" per event, for comparing whole responses as strings.
std::string Render(const WatchResponse& r) {
  std::string out;
  for (const auto& e : r.events) {
    out += e->type == EventType::kPut ? "PUT " : "DEL ";
    out += e->kv.key + "=" + e->kv.value + "@" + std::to_string(e->kv.mod_revision);
    out += e->prev_kv ? "(prev " + e->prev_kv->value + "@" + std::to_string(e->prev_kv->mod_revision) + ")"
                      : "(prev -)";
    out += e->IsCreate() ? " create; " : "; ";
  }
  return out;
}

}  // namespace

TEST_CASE("kv watch: live events carry previous values") {
  auto store = OpenMem();
  auto w = WatchPrefix(*store, "/p/");
  REQUIRE(store->Put("/p/a", "1").ok());
  REQUIRE(store->Put("/q/x", "ignored").ok());
  REQUIRE(store->Put("/p/a", "2").ok());
  REQUIRE(store->Delete("/p/a").ok());
  CHECK(Render(NextOrFail(*w)) == "PUT /p/a=1@2(prev -) create; ");
  CHECK(Render(NextOrFail(*w)) == "PUT /p/a=2@4(prev 1@2); ");
  auto del = NextOrFail(*w);
  CHECK(del.revision == 5);
  CHECK(Render(del) == "DEL /p/a=@5(prev 2@4); ");
  CHECK_FALSE(w->Next(std::chrono::steady_clock::now() + 20ms).has_value());
}

TEST_CASE("kv watch: from a past revision replays history then goes live without gaps") {
  auto store = OpenMem();
  for (int i = 0; i < 5; ++i) REQUIRE(store->Put("/p/k", std::to_string(i)).ok());  // 2..6
  auto w = WatchPrefix(*store, "/p/", 4);
  REQUIRE(store->Put("/p/k", "live").ok());  // 7
  std::vector<int64_t> revisions;
  for (int i = 0; i < 4; ++i) revisions.push_back(NextOrFail(*w).revision);
  CHECK(revisions == std::vector<int64_t>{4, 5, 6, 7});
}

TEST_CASE("kv watch: a single key, and a start revision in the future") {
  auto store = OpenMem();
  auto key_watch = store->Watch(WatchOptions{"/p/a", "", 0, false});
  REQUIRE(key_watch.ok());
  auto future = WatchPrefix(*store, "/p/", 4);
  REQUIRE(store->Put("/p/ab", "x").ok());  // 2
  REQUIRE(store->Put("/p/a", "y").ok());   // 3
  REQUIRE(store->Put("/p/a", "z").ok());   // 4
  CHECK(NextOrFail(**key_watch).revision == 3);
  CHECK(NextOrFail(**key_watch).revision == 4);
  CHECK(NextOrFail(*future).revision == 4);
}

TEST_CASE("kv watch: a compacted start revision is reported and cancels the watch") {
  auto store = OpenMem(Options{.compaction_interval = 0ms});
  for (int i = 0; i < 4; ++i) REQUIRE(store->Put("/p/k", std::to_string(i)).ok());  // 2..5
  REQUIRE(store->Compact(4).ok());
  auto ok_watch = WatchPrefix(*store, "/p/", 4);
  CHECK(NextOrFail(*ok_watch).revision == 4);
  auto w = WatchPrefix(*store, "/p/", 3);
  auto r = NextOrFail(*w);
  CHECK(r.kind == WatchResponse::Kind::kCompacted);
  CHECK(r.compact_revision == 4);
  CHECK(NextOrFail(*w).kind == WatchResponse::Kind::kCanceled);
}

TEST_CASE("kv watch: all events of one revision arrive in one response") {
  auto store = OpenMem();
  auto lease = store->GrantLease(3600);
  REQUIRE(store->Put("/p/a", "1", *lease).ok());
  REQUIRE(store->Put("/p/b", "1", *lease).ok());
  auto w = WatchPrefix(*store, "/p/");
  REQUIRE(store->RevokeLease(*lease).ok());
  auto r = NextOrFail(*w);
  CHECK(r.events.size() == 2);
  CHECK(Render(r) == "DEL /p/a=@4(prev 1@2); DEL /p/b=@4(prev 1@3); ");
}

TEST_CASE("kv watch: requested progress comes only after every earlier event") {
  auto store = OpenMem();
  auto w = WatchPrefix(*store, "/p/", 0);
  REQUIRE(store->Put("/p/a", "1").ok());   // 2
  REQUIRE(store->Put("/other", "1").ok()); // 3
  w->RequestProgress();
  auto first = NextOrFail(*w);
  CHECK(first.kind == WatchResponse::Kind::kEvents);
  CHECK(first.revision == 2);
  auto progress = NextOrFail(*w);
  CHECK(progress.kind == WatchResponse::Kind::kProgress);
  CHECK(progress.revision == 3);

  // A watcher still replaying history answers only once it has caught up.
  auto behind = WatchPrefix(*store, "/p/", 2);
  behind->RequestProgress();
  CHECK(NextOrFail(*behind).revision == 2);
  auto later = NextOrFail(*behind);
  CHECK(later.kind == WatchResponse::Kind::kProgress);
  CHECK(later.revision == 3);
}

TEST_CASE("kv watch: requested progress covers the revision current when it was asked") {
  // Writes elsewhere run concurrently, so a request often arrives while a write has raised the
  // revision but is still handing its events to the (many, idle) synced watchers.
  auto store = OpenMem();
  std::vector<WatcherPtr> idle;
  for (int i = 0; i < 1000; ++i) idle.push_back(WatchPrefix(*store, "/idle/" + std::to_string(i) + "/"));
  auto w = WatchPrefix(*store, "/p/");
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (int i = 0; !stop.load(); ++i) {
      if (!store->Put("/other/" + std::to_string(i % 64), "v").ok()) break;
    }
  });
  int below = 0, answered = 0, asked = 0;
  // Until the writer reaches revision 3000 (each write a fan-out to 1000 watchers).
  for (; store->CurrentRevision() < 3000; ++asked) {
    const int64_t before = store->CurrentRevision();
    w->RequestProgress();
    auto r = w->Next(std::chrono::steady_clock::now() + 5s);
    if (!r || r->kind != WatchResponse::Kind::kProgress) break;
    ++answered;
    if (r->revision < before) ++below;
  }
  stop = true;
  writer.join();
  CHECK(answered == asked);
  CHECK(below == 0);
}

TEST_CASE("kv watch: periodic progress for watchers that asked") {
  auto store = OpenMem(Options{.progress_notify_interval = 50ms});
  auto w = WatchPrefix(*store, "/p/", 0, /*progress=*/true);
  REQUIRE(store->Put("/other", "1").ok());
  auto r = NextOrFail(*w);
  CHECK(r.kind == WatchResponse::Kind::kProgress);
  CHECK(r.revision == 2);
}

TEST_CASE("kv watch: a slow watcher past its queue limit catches up from history") {
  auto store = OpenMem(Options{.watcher_queue_limit = 2});
  auto w = WatchPrefix(*store, "/p/");
  for (int i = 0; i < 50; ++i) REQUIRE(store->Put("/p/k", std::to_string(i)).ok());
  for (int64_t rev = 2; rev < 52; ++rev) {
    auto r = NextOrFail(*w);
    REQUIRE(r.kind == WatchResponse::Kind::kEvents);
    CHECK(r.revision == rev);
    CHECK(r.events.at(0)->kv.value == std::to_string(rev - 2));
  }
  REQUIRE(store->Put("/p/k", "live").ok());
  CHECK(NextOrFail(*w).events.at(0)->kv.value == "live");
}

TEST_CASE("kv watch: cancel wakes a blocked Next, and store shutdown cancels watchers") {
  auto store = OpenMem();
  auto w = WatchPrefix(*store, "/p/");
  std::thread t([&] {
    std::this_thread::sleep_for(20ms);
    w->Cancel();
  });
  auto r = w->Next(std::chrono::steady_clock::now() + 10s);
  t.join();
  REQUIRE(r.has_value());
  CHECK(r->kind == WatchResponse::Kind::kCanceled);

  auto w2 = WatchPrefix(*store, "/p/");
  store.reset();
  auto r2 = w2->Next(std::chrono::steady_clock::now() + 1s);
  REQUIRE(r2.has_value());
  CHECK(r2->kind == WatchResponse::Kind::kCanceled);
}

TEST_CASE("kv watch: concurrent writers and watchers see every revision exactly once") {
  auto store = OpenMem(Options{.watcher_queue_limit = 8});
  constexpr int kWatchers = 4;
  constexpr int kWrites = 400;
  std::vector<WatcherPtr> watchers;
  for (int i = 0; i < kWatchers; ++i) watchers.push_back(WatchPrefix(*store, "/p/"));
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t) {
    writers.emplace_back([&, t] {
      for (int i = 0; i < kWrites / 4; ++i) REQUIRE(store->Put("/p/" + std::to_string(t), "v").ok());
    });
  }
  std::vector<std::thread> readers;
  std::vector<std::vector<int64_t>> seen(kWatchers);
  for (int i = 0; i < kWatchers; ++i) {
    readers.emplace_back([&, i] {
      while (seen[i].size() < kWrites) {
        auto r = watchers[i]->Next(std::chrono::steady_clock::now() + 10s);
        if (!r || r->kind != WatchResponse::Kind::kEvents) break;
        seen[i].push_back(r->revision);
      }
    });
  }
  for (auto& t : writers) t.join();
  for (auto& t : readers) t.join();
  std::vector<int64_t> expected;
  for (int64_t rev = 2; rev < 2 + kWrites; ++rev) expected.push_back(rev);
  for (int i = 0; i < kWatchers; ++i) CHECK(seen[i] == expected);
}

}  // namespace kube::kv
