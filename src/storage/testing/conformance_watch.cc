// Conformance: watch semantics (storage.md §2.6, §3.5, §4.3) shared by storage and cacher.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <thread>

#include "storage/object_codec.h"
#include "storage/testing/conformance.h"

namespace kube::storage::testing {

std::string Render(const WatchEvent& e) {
  std::string out(WatchEventTypeName(e.type));
  if (e.type == WatchEventType::kError) {
    return out + " " + std::to_string(e.error.HttpCode()) + " " + std::string(e.error.Reason());
  }
  const Object& meta = (*e.object)["metadata"];
  if (e.type == WatchEventType::kBookmark) {
    out += "@" + meta["resourceVersion"].get<std::string>();
    if (meta.contains("annotations")) out += "+end";
    return out;
  }
  return out + " " + meta["namespace"].get<std::string>() + "/" + meta["name"].get<std::string>() +
         "@" + meta["resourceVersion"].get<std::string>();
}

std::vector<std::string> NextEvents(WatchStream& w, size_t n, Clock::duration wait) {
  std::vector<std::string> out;
  const auto deadline = Clock::now() + wait;
  while (out.size() < n) {
    WatchEvent e;
    auto r = w.NextEvent(&e, deadline);
    if (r != WatchStream::Next::kEvent) {
      out.push_back(r == WatchStream::Next::kClosed ? "<closed>" : "<timeout>");
      break;
    }
    // Periodic bookmarks are optional for storage and timing-dependent for the cache.
    if (e.type == WatchEventType::kBookmark && !(*e.object)["metadata"].contains("annotations")) continue;
    out.push_back(Render(e));
  }
  return out;
}

void ExpectNoEvent(WatchStream& w, Clock::duration wait) {
  const auto deadline = Clock::now() + wait;
  WatchEvent e;
  while (true) {
    auto r = w.NextEvent(&e, deadline);
    if (r == WatchStream::Next::kTimeout) return;
    if (r == WatchStream::Next::kEvent && e.type == WatchEventType::kBookmark) continue;
    FAIL("unexpected: " << (r == WatchStream::Next::kClosed ? "<closed>" : Render(e)));
    return;
  }
}

WatchStreamPtr MustWatch(Interface& s, const std::string& key, ListOptions options) {
  auto w = s.Watch(key, options);
  REQUIRE_MESSAGE(w.ok(), w.status().ToString());
  return std::move(w).value();
}

namespace {

std::unique_ptr<Fixture> NewFixture(FixtureOptions options = {}) {
  options.kv.compaction_interval = std::chrono::milliseconds(0);
  return MakeConformanceFixture(options);
}

ListOptions WatchAt(std::string rv, std::optional<bool> send_initial = std::nullopt,
                    bool bookmarks = false) {
  ListOptions o;
  o.resource_version = std::move(rv);
  o.recursive = true;
  o.send_initial_events = send_initial;
  o.predicate.allow_watch_bookmarks = bookmarks;
  return o;
}

std::string At(const std::string& what, int64_t rv) { return what + "@" + std::to_string(rv); }

ObjectPtr Relabel(Interface& s, const std::string& ns, const std::string& name, const std::string& app) {
  auto r = s.GuaranteedUpdate(
      PodKey(ns, name), false, nullptr,
      [&](const Object& cur, const ResponseMeta&, std::optional<uint64_t>*) -> Result<Object> {
        Object next = cur;
        next["metadata"]["labels"]["app"] = app;
        return next;
      },
      nullptr);
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return *r;
}

}  // namespace

TEST_CASE("watch: from a resourceVersion delivers later changes with their revisions") {
  auto f = NewFixture();
  auto a = MustCreate(f->store(), Pod("ns", "a"));
  f->WaitForRevision(RV(*a));
  auto w = MustWatch(f->store(), Collection(), WatchAt(std::to_string(RV(*a))));
  auto b = MustCreate(f->store(), Pod("ns", "b"));
  auto a2 = Relabel(f->store(), "ns", "a", "x");
  auto gone = f->store().Delete(PodKey("ns", "b"), nullptr, nullptr, nullptr, {});
  REQUIRE(gone.ok());
  CHECK(NextEvents(*w, 3) == std::vector<std::string>{At("ADDED ns/b", RV(*b)),
                                                       At("MODIFIED ns/a", RV(*a2)),
                                                       At("DELETED ns/b", RV(**gone))});
  // The DELETED object is the last state, stamped with the deletion revision.
  CHECK(RV(**gone) == f->kv().CurrentRevision());
  ExpectNoEvent(*w);
}

TEST_CASE("watch: semantics of resourceVersion x sendInitialEvents x allowWatchBookmarks") {
  auto f = NewFixture();
  auto a = MustCreate(f->store(), Pod("ns", "a"));
  auto b = MustCreate(f->store(), Pod("ns", "b"));
  const int64_t rv_a = RV(*a), rv_b = RV(*b);
  f->WaitForRevision(rv_b);
  const std::string initial_a = At("ADDED ns/a", rv_a), initial_b = At("ADDED ns/b", rv_b);
  const std::string end_bookmark = At("BOOKMARK", rv_b) + "+end";

  struct Case {
    std::string rv;
    std::optional<bool> send_initial;
    bool bookmarks;
    std::vector<std::string> expected;  // before the live event
  };
  const std::vector<Case> cases = {
      {"", std::nullopt, false, {initial_a, initial_b}},
      {"0", std::nullopt, false, {initial_a, initial_b}},
      {std::to_string(rv_a), std::nullopt, false, {}},
      {"", true, true, {initial_a, initial_b, end_bookmark}},
      {"", true, false, {initial_a, initial_b}},
      {"0", true, true, {initial_a, initial_b, end_bookmark}},
      {std::to_string(rv_a), true, true, {initial_a, initial_b, end_bookmark}},
      {"", false, false, {}},
      {"0", false, true, {}},
      {std::to_string(rv_b), false, false, {}},
  };
  std::vector<WatchStreamPtr> watches;
  for (const auto& c : cases) watches.push_back(MustWatch(f->store(), Collection(), WatchAt(c.rv, c.send_initial, c.bookmarks)));
  auto c_obj = MustCreate(f->store(), Pod("ns", "c"));
  const std::string live = At("ADDED ns/c", RV(*c_obj));
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    CAPTURE(c.rv);
    CAPTURE(c.send_initial.has_value() ? (*c.send_initial ? "true" : "false") : "nil");
    CAPTURE(c.bookmarks);
    std::vector<std::string> expected = c.expected;
    // A watch from rv_a still has b's creation to deliver.
    if (c.rv == std::to_string(rv_a) && !c.send_initial) expected.push_back(initial_b);
    expected.push_back(live);
    CHECK(NextEvents(*watches[i], expected.size()) == expected);
  }
}

TEST_CASE("watch: label selectors turn transitions into ADDED and DELETED") {
  auto f = NewFixture();
  auto a = MustCreate(f->store(), Pod("ns", "a", {{"app", "web"}}));
  f->WaitForRevision(RV(*a));
  ListOptions o = WatchAt(std::to_string(RV(*a)));
  o.predicate.label = *LabelSelector::Parse("app=web");
  auto w = MustWatch(f->store(), Collection(), o);
  auto out = Relabel(f->store(), "ns", "a", "db");
  auto back = Relabel(f->store(), "ns", "a", "web");
  auto again = Relabel(f->store(), "ns", "a", "web");  // a no-op: no event
  auto other = MustCreate(f->store(), Pod("ns", "x", {{"app", "db"}}));
  auto gone = f->store().Delete(PodKey("ns", "a"), nullptr, nullptr, nullptr, {});
  REQUIRE(gone.ok());
  CHECK(RV(*again) == RV(*back));
  CHECK(NextEvents(*w, 3) == std::vector<std::string>{At("DELETED ns/a", RV(*out)),
                                                       At("ADDED ns/a", RV(*back)),
                                                       At("DELETED ns/a", RV(**gone))});
  ExpectNoEvent(*w);
  (void)other;
}

TEST_CASE("watch: a metadata.name field selector and a single-key watch see only that object") {
  auto f = NewFixture();
  const int64_t start = f->kv().CurrentRevision();
  ListOptions by_name = WatchAt(std::to_string(start));
  by_name.predicate.field = *FieldSelector::Parse("metadata.name=b");
  auto named = MustWatch(f->store(), Collection(), by_name);
  ListOptions exact = WatchAt(std::to_string(start));
  exact.recursive = false;
  auto single = MustWatch(f->store(), PodKey("ns", "b"), exact);
  MustCreate(f->store(), Pod("ns", "a"));
  auto b = MustCreate(f->store(), Pod("ns", "b"));
  MustCreate(f->store(), Pod("ns", "bb"));
  CHECK(NextEvents(*named, 1) == std::vector<std::string>{At("ADDED ns/b", RV(*b))});
  CHECK(NextEvents(*single, 1) == std::vector<std::string>{At("ADDED ns/b", RV(*b))});
  ExpectNoEvent(*named);
  ExpectNoEvent(*single);
}

TEST_CASE("watch: a namespace key does not see other namespaces or prefixes of its name") {
  auto f = NewFixture();
  const int64_t start = f->kv().CurrentRevision();
  auto w = MustWatch(f->store(), Collection("ns"), WatchAt(std::to_string(start)));
  MustCreate(f->store(), Pod("ns2", "a"));
  auto mine = MustCreate(f->store(), Pod("ns", "a"));
  CHECK(NextEvents(*w, 1) == std::vector<std::string>{At("ADDED ns/a", RV(*mine))});
  ExpectNoEvent(*w);
}

TEST_CASE("watch: a too old resourceVersion gets one 410 ERROR and nothing after it") {
  auto f = NewFixture(FixtureOptions{.max_event_capacity = 100});
  MustCreate(f->store(), Pod("ns", "a"));
  for (int i = 0; i < 150; ++i) Relabel(f->store(), "ns", "a", "v" + std::to_string(i));
  REQUIRE(f->kv().Compact(f->kv().CurrentRevision()).ok());
  f->WaitForRevision(f->kv().CurrentRevision());
  auto w = MustWatch(f->store(), Collection(), WatchAt("2"));
  CHECK(NextEvents(*w, 1) == std::vector<std::string>{"ERROR 410 Expired"});
  Relabel(f->store(), "ns", "a", "after");
  WatchEvent e;
  CHECK(w->NextEvent(&e, Clock::now() + 200ms) == WatchStream::Next::kClosed);
}

TEST_CASE("watch: a future resourceVersion waits for it") {
  auto f = NewFixture();
  const int64_t now = f->kv().CurrentRevision();
  auto w = MustWatch(f->store(), Collection(), WatchAt(std::to_string(now + 1)));
  MustCreate(f->store(), Pod("ns", "a"));   // now + 1: not after the requested revision
  auto b = MustCreate(f->store(), Pod("ns", "b"));
  CHECK(NextEvents(*w, 1) == std::vector<std::string>{At("ADDED ns/b", RV(*b))});
}

TEST_CASE("watch: Stop closes the stream") {
  auto f = NewFixture();
  auto w = MustWatch(f->store(), Collection(), WatchAt("", false));
  std::thread stopper([&] {
    std::this_thread::sleep_for(50ms);
    w->Stop();
  });
  WatchEvent e;
  CHECK(w->NextEvent(&e, Clock::now() + 10s) == WatchStream::Next::kClosed);
  stopper.join();
}

TEST_CASE("watch: 8 writers and 8 watchers; every acknowledged write seen once, in order") {
  auto f = NewFixture();
  constexpr int kKeys = 4, kWriters = 8, kUpdatesPerWriter = 40, kWatchers = 8;
  for (int k = 0; k < kKeys; ++k) MustCreate(f->store(), Pod("ns", "k" + std::to_string(k)));
  const int64_t start = f->kv().CurrentRevision();
  f->WaitForRevision(start);

  // Watchers behave like real clients: if the server closes the stream (a slow cache watcher is
  // terminated), they re-watch from the last resourceVersion they saw.
  std::vector<std::vector<int64_t>> seen(kWatchers);
  std::vector<std::map<std::string, int>> last_generation(kWatchers);
  std::atomic<bool> ordered{true};
  std::atomic<int> acknowledged{0};
  std::set<int64_t> acked_revisions;
  std::mutex acked_mu;
  std::vector<std::thread> watchers;
  for (int i = 0; i < kWatchers; ++i) {
    watchers.emplace_back([&, i] {
      int64_t last = start;
      auto w = MustWatch(f->store(), Collection(), WatchAt(std::to_string(last)));
      const auto deadline = Clock::now() + 60s;
      while (static_cast<int>(seen[i].size()) < kWriters * kUpdatesPerWriter && Clock::now() < deadline) {
        WatchEvent e;
        auto r = w->NextEvent(&e, Clock::now() + 1s);
        if (r == WatchStream::Next::kClosed) {
          w = MustWatch(f->store(), Collection(), WatchAt(std::to_string(last)));
          continue;
        }
        if (r != WatchStream::Next::kEvent || e.type == WatchEventType::kBookmark) continue;
        if (e.type != WatchEventType::kModified) {
          ordered = false;
          continue;
        }
        const int64_t rv = RV(*e.object);
        if (rv <= last) ordered = false;
        last = rv;
        seen[i].push_back(rv);
        // Each key's counter moves by exactly one per event: no update lost or duplicated.
        const std::string name = (*e.object)["metadata"]["name"];
        const int generation = (*e.object)["spec"]["generation"];
        auto& prev = last_generation[i][name];
        if (prev != 0 && generation != prev + 1) ordered = false;
        if (prev == 0 && generation != 2) ordered = false;
        prev = generation;
      }
    });
  }
  std::vector<std::thread> writers;
  for (int t = 0; t < kWriters; ++t) {
    writers.emplace_back([&, t] {
      for (int i = 0; i < kUpdatesPerWriter; ++i) {
        const std::string key = PodKey("ns", "k" + std::to_string((t + i) % kKeys));
        auto r = f->store().GuaranteedUpdate(
            key, false, nullptr,
            [](const Object& cur, const ResponseMeta&, std::optional<uint64_t>*) -> Result<Object> {
              Object next = cur;
              next["spec"]["generation"] = cur["spec"]["generation"].get<int>() + 1;
              return next;
            },
            nullptr);
        if (r.ok()) {
          ++acknowledged;
          std::lock_guard lock(acked_mu);
          acked_revisions.insert(RV(**r));
        }
      }
    });
  }
  for (auto& t : writers) t.join();
  for (auto& t : watchers) t.join();
  CHECK(acknowledged == kWriters * kUpdatesPerWriter);
  CHECK(ordered);
  const std::vector<int64_t> expected(acked_revisions.begin(), acked_revisions.end());
  for (int i = 0; i < kWatchers; ++i) {
    CAPTURE(i);
    CHECK(seen[i] == expected);
  }
  int total = 0;
  for (int k = 0; k < kKeys; ++k) {
    auto got = f->store().Get(PodKey("ns", "k" + std::to_string(k)), GetOptions{});
    REQUIRE(got.ok());
    total += (**got)["spec"]["generation"].get<int>() - 1;
  }
  CHECK(total == kWriters * kUpdatesPerWriter);
}

}  // namespace kube::storage::testing
