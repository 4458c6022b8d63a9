// The conformance suite against the cacher, plus what only the cache does: readiness and 429,
// consistent reads through progress notifications, periodic bookmarks, slow watchers,
// re-initialisation.
#include "cacher/cacher.h"

#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "storage/kv_store.h"
#include "storage/object_codec.h"
#include "storage/testing/conformance.h"

namespace kube::cacher {

using namespace storage::testing;
using storage::Clock;
using storage::WatchEvent;
using storage::WatchEventType;
using storage::WatchStream;

namespace {

// Storage that forwards to a KvStore but whose watches can be refused or broken, to drive the
// cache through (re-)initialisation.
class ControllableStorage final : public storage::Interface {
 public:
  explicit ControllableStorage(storage::Interface* inner) : inner_(inner) {}
  std::atomic<bool> refuse_watch{false};

  void BreakWatches() {
    std::lock_guard lock(mu_);
    for (auto* s : streams_) s->Stop();
  }

  Result<storage::ObjectPtr> Create(std::string_view k, const storage::Object& o, uint64_t t) override {
    return inner_->Create(k, o, t);
  }
  Result<storage::ObjectPtr> Delete(std::string_view k, const storage::Preconditions* p,
                                    const storage::ValidateDeletionFunc& v, storage::ObjectPtr c,
                                    const storage::DeleteOptions& o) override {
    return inner_->Delete(k, p, v, c, o);
  }
  Result<storage::WatchStreamPtr> Watch(std::string_view k, const storage::ListOptions& o) override {
    if (refuse_watch) return Status::Internal("watch refused by the test");
    auto w = inner_->Watch(k, o);
    if (!w.ok()) return w;
    std::lock_guard lock(mu_);
    streams_.push_back(w->get());
    return w;
  }
  Result<storage::ObjectPtr> Get(std::string_view k, const storage::GetOptions& o) override {
    return inner_->Get(k, o);
  }
  Result<storage::ListResult> GetList(std::string_view k, const storage::ListOptions& o) override {
    ++lists;
    return inner_->GetList(k, o);
  }
  Result<storage::ObjectPtr> GuaranteedUpdate(std::string_view k, bool i, const storage::Preconditions* p,
                                              const storage::UpdateFunc& u, storage::ObjectPtr c) override {
    return inner_->GuaranteedUpdate(k, i, p, u, c);
  }
  Result<storage::Stats> GetStats() override { return inner_->GetStats(); }
  Status ReadinessCheck() override { return inner_->ReadinessCheck(); }
  Status RequestWatchProgress() override { return inner_->RequestWatchProgress(); }
  Result<uint64_t> GetCurrentResourceVersion() override { return inner_->GetCurrentResourceVersion(); }
  int64_t CompactRevision() override { return inner_->CompactRevision(); }

  std::atomic<int> lists{0};

 private:
  storage::Interface* inner_;
  std::mutex mu_;
  std::vector<storage::WatchStream*> streams_;  // streams are only stopped while the cacher lives
};

struct CacheStack {
  explicit CacheStack(Options options = {}, const FixtureOptions& fixture = {}) {
    auto opened = kv::Store::Open(fixture.kv);
    REQUIRE(opened.ok());
    kv = std::move(*opened);
    store = std::make_unique<storage::KvStore>(kv.get(), storage::StoreConfig{.resource_prefix = fixture.prefix});
    controllable = std::make_unique<ControllableStorage>(store.get());
    options.max_event_capacity = fixture.max_event_capacity;
    cacher = std::make_unique<Cacher>(
        controllable.get(),
        CacherConfig{.resource_prefix = fixture.prefix,
                     .empty_object = std::make_shared<storage::Object>(
                         storage::Object{{"apiVersion", "v1"}, {"kind", "Pod"}})},
        options);
  }
  ~CacheStack() { cacher.reset(); }
  void WaitFresh(int64_t rv) { REQUIRE(cacher->WaitUntilFresh(static_cast<uint64_t>(rv), 10s)); }

  std::unique_ptr<kv::Store> kv;
  std::unique_ptr<storage::KvStore> store;
  std::unique_ptr<ControllableStorage> controllable;
  std::unique_ptr<Cacher> cacher;
};

class CacherFixture final : public Fixture {
 public:
  explicit CacherFixture(const FixtureOptions& options)
      : stack_(Options{.block_timeout = std::chrono::seconds(1)}, options) {
    stack_.WaitFresh(0);
  }
  storage::Interface& store() override { return *stack_.cacher; }
  kv::Store& kv() override { return *stack_.kv; }
  bool IsCacher() const override { return true; }
  void WaitForRevision(int64_t revision) override { stack_.WaitFresh(revision); }

 private:
  CacheStack stack_;
};

storage::ListOptions Recursive(std::string rv = "") {
  storage::ListOptions o;
  o.recursive = true;
  o.resource_version = std::move(rv);
  return o;
}

}  // namespace
}  // namespace kube::cacher

namespace kube::storage::testing {
std::unique_ptr<Fixture> MakeConformanceFixture(const FixtureOptions& options) {
  return std::make_unique<cacher::CacherFixture>(options);
}
}  // namespace kube::storage::testing

namespace kube::cacher {

TEST_CASE("cacher: before initialisation reads go to storage or get 429") {
  CacheStack never_ready;  // restarted below with watches refused from the start
  never_ready.controllable->refuse_watch = true;
  never_ready.cacher.reset();
  never_ready.cacher = std::make_unique<Cacher>(never_ready.controllable.get(),
                                                CacherConfig{.resource_prefix = "/pods"}, Options{});
  Cacher& c = *never_ready.cacher;
  MustCreate(*never_ready.store, Pod("ns", "a"));

  CHECK(c.ReadinessCheck().code() == StatusCode::kServiceUnavailable);
  auto list = c.GetList("/pods", Recursive());
  REQUIRE_FALSE(list.ok());
  CHECK(list.status().code() == StatusCode::kTooManyRequests);
  CHECK(list.status().retry_after_seconds() >= 1);
  auto paged_options = Recursive();
  paged_options.predicate.limit = 10;
  auto paged = c.GetList("/pods", paged_options);  // KEP-4568: served by storage
  REQUIRE(paged.ok());
  CHECK(Names(paged->items) == "ns/a");
  auto watch = c.Watch("/pods", Recursive());
  REQUIRE_FALSE(watch.ok());
  CHECK(watch.status().code() == StatusCode::kTooManyRequests);
  auto get = c.Get(PodKey("ns", "a"), storage::GetOptions{.resource_version = "0"});
  REQUIRE(get.ok());  // falls through to storage
  CHECK((**get)["metadata"]["name"] == "a");
}

TEST_CASE("cacher: consistent reads catch up through storage progress notifications") {
  CacheStack s;
  s.WaitFresh(0);
  MustCreate(*s.cacher, Pod("ns", "a"));
  // A write elsewhere in the kv store moves the revision without any event for this cache.
  REQUIRE(s.kv->Put("/registry/configmaps/ns/x", "{}").ok());
  const int64_t current = s.kv->CurrentRevision();
  const int lists_before = s.controllable->lists;
  auto list = s.cacher->GetList("/pods", Recursive());
  REQUIRE(list.ok());
  CHECK(std::stoll(list->resource_version) >= current);
  CHECK(Names(list->items) == "ns/a");
  CHECK(s.controllable->lists == lists_before);  // served by the cache, not storage
}

TEST_CASE("cacher: a read that must wait asks storage for progress at once, not on a timer") {
  // The periodic request is pushed out of reach, so only an on-demand request can tell the cache
  // that it is current. A missing request shows as a consistent list served by storage after
  // block_timeout (or a Get timing out), never as a timing assertion.
  CacheStack s(Options{.block_timeout = 10s, .progress_request_period = 1h});
  s.WaitFresh(0);
  MustCreate(*s.cacher, Pod("ns", "a"));
  for (int i = 0; i < 20; ++i) {
    // A write elsewhere in the kv store: no event for this cache.
    auto written = s.kv->Put("/registry/configmaps/ns/x" + std::to_string(i), "{}");
    REQUIRE(written.ok());
    const int lists_before = s.controllable->lists;
    auto list = s.cacher->GetList("/pods", Recursive());
    REQUIRE(list.ok());
    REQUIRE(s.controllable->lists == lists_before);  // served by the cache, not storage
    CHECK(std::stoll(list->resource_version) >= *written);
    CHECK(Names(list->items) == "ns/a");

    REQUIRE(s.kv->Put("/registry/configmaps/ns/y" + std::to_string(i), "{}").ok());
    const int64_t current = s.kv->CurrentRevision();
    auto got = s.cacher->Get(PodKey("ns", "a"),
                             storage::GetOptions{.resource_version = std::to_string(current)});
    REQUIRE(got.ok());
    CHECK((**got)["metadata"]["name"] == "a");
  }
}

TEST_CASE("cacher: concurrent consistent reads after writes elsewhere are all served by the cache") {
  CacheStack s(Options{.block_timeout = 10s, .progress_request_period = 1h});
  s.WaitFresh(0);
  MustCreate(*s.cacher, Pod("ns", "a"));
  const int lists_before = s.controllable->lists;
  std::atomic<int> failures{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 4; ++t) {
    readers.emplace_back([&, t] {
      for (int i = 0; i < 25 && failures == 0; ++i) {
        auto written = s.kv->Put("/registry/configmaps/ns/t" + std::to_string(t), std::to_string(i));
        auto list = written.ok() ? s.cacher->GetList("/pods", Recursive())
                                 : Result<storage::ListResult>(written.status());
        if (!list.ok() || std::stoll(list->resource_version) < *written || list->items.size() != 1 ||
            s.controllable->lists != lists_before) {
          ++failures;
        }
      }
    });
  }
  for (auto& r : readers) r.join();
  CHECK(failures == 0);
  CHECK(s.controllable->lists == lists_before);
}

TEST_CASE("cacher: periodic bookmarks carry the cache's resourceVersion") {
  CacheStack s(Options{.bookmark_tick = 20ms, .bookmark_frequency = 50ms});
  s.WaitFresh(0);
  auto a = MustCreate(*s.cacher, Pod("ns", "a"));
  s.WaitFresh(RV(*a));
  storage::ListOptions o = Recursive(std::to_string(RV(*a)));
  o.predicate.allow_watch_bookmarks = true;
  auto w = MustWatch(*s.cacher, "/pods", o);
  REQUIRE(s.kv->Put("/registry/configmaps/ns/x", "{}").ok());
  REQUIRE(s.cacher->RequestWatchProgress().ok());  // lets the cache learn the new revision
  WatchEvent e;
  int64_t last_bookmark = 0;
  const auto deadline = Clock::now() + 5s;
  while (last_bookmark < s.kv->CurrentRevision() && Clock::now() < deadline) {
    if (w->NextEvent(&e, deadline) != WatchStream::Next::kEvent) break;
    REQUIRE(e.type == WatchEventType::kBookmark);
    CHECK((*e.object)["kind"] == "Pod");
    last_bookmark = RV(*e.object);
  }
  CHECK(last_bookmark == s.kv->CurrentRevision());
}

TEST_CASE("cacher: a bookmark comes two seconds before the watch deadline") {
  CacheStack s(Options{.bookmark_tick = 20ms});
  s.WaitFresh(0);
  storage::ListOptions o = Recursive("0");
  o.send_initial_events = false;
  o.predicate.allow_watch_bookmarks = true;
  o.deadline = Clock::now() + 2300ms;
  auto w = MustWatch(*s.cacher, "/pods", o);
  WatchEvent e;
  const auto start = Clock::now();
  REQUIRE(w->NextEvent(&e, Clock::now() + 5s) == WatchStream::Next::kEvent);
  CHECK(e.type == WatchEventType::kBookmark);
  CHECK(Clock::now() - start >= 250ms);
  CHECK(Clock::now() - start < 1500ms);
}

TEST_CASE("cacher: a watcher that does not keep up is closed; others are unaffected") {
  CacheStack s(Options{.watcher_queue_capacity = 2, .dispatch_budget = 10ms});
  s.WaitFresh(0);
  auto slow = MustWatch(*s.cacher, "/pods", Recursive(std::to_string(s.kv->CurrentRevision())));
  auto fast = MustWatch(*s.cacher, "/pods", Recursive(std::to_string(s.kv->CurrentRevision())));
  std::atomic<int> fast_seen{0};
  std::thread consumer([&] {
    WatchEvent e;
    while (fast_seen < 20 && fast->NextEvent(&e, Clock::now() + 5s) == WatchStream::Next::kEvent) {
      if (e.type == WatchEventType::kAdded) ++fast_seen;
    }
  });
  for (int i = 0; i < 20; ++i) MustCreate(*s.cacher, Pod("ns", "p" + std::to_string(i)));
  consumer.join();
  CHECK(fast_seen == 20);
  WatchEvent e;
  int slow_seen = 0;
  WatchStream::Next r;
  while ((r = slow->NextEvent(&e, Clock::now() + 2s)) == WatchStream::Next::kEvent) ++slow_seen;
  CHECK(r == WatchStream::Next::kClosed);  // closed without an ERROR event
  CHECK(slow_seen < 20);
}

TEST_CASE("cacher: re-initialises after its storage watch breaks") {
  CacheStack s(Options{.reinit_delay = 50ms});
  s.WaitFresh(0);
  auto a = MustCreate(*s.cacher, Pod("ns", "a"));
  s.WaitFresh(RV(*a));
  auto client = MustWatch(*s.cacher, "/pods", Recursive(std::to_string(RV(*a))));
  s.controllable->BreakWatches();
  // Client watches of the old generation end without an error...
  WatchEvent e;
  CHECK(client->NextEvent(&e, Clock::now() + 5s) == WatchStream::Next::kClosed);
  // ... and the cache comes back with writes made meanwhile.
  auto b = MustCreate(*s.store, Pod("ns", "b"));
  s.WaitFresh(RV(*b));
  auto list = s.cacher->GetList("/pods", Recursive("0"));
  REQUIRE(list.ok());
  CHECK(Names(list->items) == "ns/a ns/b");
  auto again = MustWatch(*s.cacher, "/pods", Recursive(std::to_string(RV(*b))));
  auto c = MustCreate(*s.cacher, Pod("ns", "c"));
  CHECK(NextEvents(*again, 1) == std::vector<std::string>{"ADDED ns/c@" + std::to_string(RV(*c))});
}

TEST_CASE("cacher: a consistent watch-list waits for the current revision") {
  CacheStack s;
  s.WaitFresh(0);
  auto a = MustCreate(*s.cacher, Pod("ns", "a"));
  REQUIRE(s.kv->Put("/registry/configmaps/ns/x", "{}").ok());
  storage::ListOptions o = Recursive("");
  o.send_initial_events = true;
  o.predicate.allow_watch_bookmarks = true;
  auto w = MustWatch(*s.cacher, "/pods", o);
  CHECK(NextEvents(*w, 2) == std::vector<std::string>{
                                 "ADDED ns/a@" + std::to_string(RV(*a)),
                                 "BOOKMARK@" + std::to_string(s.kv->CurrentRevision()) + "+end"});
}

TEST_CASE("cacher: a state restore ends every watch with ERROR 410 and swaps the cache in place") {
  CacheStack s;
  s.WaitFresh(0);
  auto kept = MustCreate(*s.cacher, Pod("ns", "kept"));
  auto edited = MustCreate(*s.cacher, Pod("ns", "edited"));
  auto saved = s.kv->SaveState();
  REQUIRE(saved.ok());
  storage::Object edit = Pod("ns", "edited");
  edit["metadata"]["labels"]["x"] = "y";
  auto updated = s.cacher->GuaranteedUpdate(PodKey("ns", "edited"), false, nullptr,
                                            [&](const storage::Object&, const storage::ResponseMeta&,
                                                std::optional<uint64_t>*) -> Result<storage::Object> { return edit; },
                                            nullptr);
  REQUIRE(updated.ok());
  auto added = MustCreate(*s.cacher, Pod("ns", "added"));
  s.WaitFresh(RV(*added));
  const int64_t before = RV(*added);
  auto client = MustWatch(*s.cacher, "/pods", Recursive(std::to_string(before)));
  auto old_client = MustWatch(*s.cacher, "/pods", Recursive(std::to_string(RV(*kept))));
  const int lists = s.controllable->lists;

  auto restored = s.kv->RestoreState(**saved);
  REQUIRE(restored.ok());
  s.WaitFresh(*restored);
  // Ended as a compaction ends them, with the revision the client had and the restore's.
  CHECK(NextEvents(*client, 1) == std::vector<std::string>{"ERROR 410 Expired"});
  WatchEvent e;
  CHECK(client->NextEvent(&e, Clock::now() + 1s) == WatchStream::Next::kClosed);
  // One that still had history to replay ends too: what it had not read yet is dropped.
  CHECK(NextEvents(*old_client, 1) == std::vector<std::string>{"ERROR 410 Expired"});

  // The cache holds the restored state at once, without relisting storage.
  auto list = s.cacher->GetList("/pods", Recursive("0"));
  REQUIRE(list.ok());
  CHECK(Names(list->items) == "ns/edited ns/kept");
  CHECK(list->resource_version == std::to_string(*restored));
  CHECK(s.controllable->lists == lists);
  auto got = s.cacher->Get(PodKey("ns", "edited"), storage::GetOptions{.resource_version = "0"});
  REQUIRE(got.ok());
  CHECK(RV(**got) == *restored);
  CHECK(!(**got)["metadata"].contains("labels"));
  // Watches from before the restore are too old; from it on they work.
  auto too_old = MustWatch(*s.cacher, "/pods", Recursive(std::to_string(before)));
  CHECK(NextEvents(*too_old, 1) == std::vector<std::string>{"ERROR 410 Expired"});
  auto fresh = MustWatch(*s.cacher, "/pods", Recursive(std::to_string(*restored)));
  auto later = MustCreate(*s.cacher, Pod("ns", "later"));
  CHECK(NextEvents(*fresh, 1) == std::vector<std::string>{"ADDED ns/later@" + std::to_string(RV(*later))});
}

}  // namespace kube::cacher
