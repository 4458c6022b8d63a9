// The conformance suite against the kv-backed store, plus what only the store does: key layout,
// progress notifications on demand, persistence across a restart.
#include "storage/kv_store.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <random>

#include "storage/object_codec.h"
#include "storage/testing/conformance.h"

namespace kube::storage {

namespace testing {

namespace {
class StoreFixture final : public Fixture {
 public:
  explicit StoreFixture(const FixtureOptions& options) {
    auto kv = kv::Store::Open(options.kv);
    REQUIRE(kv.ok());
    kv_ = std::move(*kv);
    store_ = std::make_unique<KvStore>(kv_.get(), StoreConfig{.resource_prefix = options.prefix});
  }
  Interface& store() override { return *store_; }
  kv::Store& kv() override { return *kv_; }
  bool IsCacher() const override { return false; }
  void WaitForRevision(int64_t) override {}

 private:
  std::unique_ptr<kv::Store> kv_;
  std::unique_ptr<KvStore> store_;
};
}  // namespace

std::unique_ptr<Fixture> MakeConformanceFixture(const FixtureOptions& options) {
  return std::make_unique<StoreFixture>(options);
}

}  // namespace testing

using namespace testing;

TEST_CASE("kv store: objects live at /registry/<resource>/<ns>/<name> without a resourceVersion") {
  auto kv = kv::Store::Open({});
  REQUIRE(kv.ok());
  KvStore store(kv->get(), StoreConfig{.resource_prefix = "/pods"});
  MustCreate(store, Pod("ns", "a"));
  auto raw = (*kv)->Get("/registry/pods/ns/a");
  REQUIRE(raw.ok());
  REQUIRE(raw->kv.has_value());
  auto stored = nlohmann::json::parse(raw->kv->value);
  CHECK(stored["metadata"]["name"] == "a");
  CHECK_FALSE(stored["metadata"].contains("resourceVersion"));
}

TEST_CASE("kv store: writes larger than etcd's request limit are refused with 413") {
  auto kv = kv::Store::Open({});
  REQUIRE(kv.ok());
  KvStore store(kv->get(), StoreConfig{.resource_prefix = "/pods"});
  Object big = Pod("ns", "big");
  big["data"] = std::string(1600 * 1024, 'x');  // over 1.5 MiB once stored
  auto created = store.Create("/pods/ns/big", big, 0);
  REQUIRE_FALSE(created.ok());
  CHECK(created.status().code() == StatusCode::kRequestEntityTooLarge);
  CHECK(created.status().HttpCode() == 413);
  CHECK(created.status().message() == "etcdserver: request is too large");
  CHECK_FALSE((*kv)->Get("/registry/pods/ns/big")->kv.has_value());
  // Growing an object past the limit by an update is refused the same way; it stays as it was.
  Object small = Pod("ns", "grow");
  small["data"] = std::string(1400 * 1024, 'x');
  MustCreate(store, small);
  auto grown = store.GuaranteedUpdate(
      "/pods/ns/grow", false, nullptr,
      [](const Object& cur, const ResponseMeta&, std::optional<uint64_t>*) -> Result<Object> {
        Object next = cur;
        next["data"] = std::string(1600 * 1024, 'y');
        return next;
      },
      nullptr);
  REQUIRE_FALSE(grown.ok());
  CHECK(grown.status().code() == StatusCode::kRequestEntityTooLarge);
  auto stored = nlohmann::json::parse((*kv)->Get("/registry/pods/ns/grow")->kv->value);
  CHECK(stored["data"].get_ref<const std::string&>().front() == 'x');
}

TEST_CASE("kv store: RequestWatchProgress yields a BOOKMARK once earlier events are delivered") {
  auto kv = kv::Store::Open({});
  REQUIRE(kv.ok());
  KvStore store(kv->get(), StoreConfig{.resource_prefix = "/pods",
                                       .empty_object = std::make_shared<Object>(
                                           Object{{"apiVersion", "v1"}, {"kind", "Pod"}})});
  ListOptions o;
  o.recursive = true;
  o.progress_notify = true;
  o.send_initial_events = false;
  auto w = MustWatch(store, "/pods", o);
  auto a = MustCreate(store, Pod("ns", "a"));
  REQUIRE((*kv)->Put("/registry/other/x", "{}").ok());  // raises the revision, not this prefix
  REQUIRE(store.RequestWatchProgress().ok());
  WatchEvent e;
  REQUIRE(w->NextEvent(&e, Clock::now() + 5s) == WatchStream::Next::kEvent);
  CHECK(Render(e) == "ADDED ns/a@" + std::to_string(RV(*a)));
  REQUIRE(w->NextEvent(&e, Clock::now() + 5s) == WatchStream::Next::kEvent);
  CHECK(e.type == WatchEventType::kBookmark);
  CHECK((*e.object)["kind"] == "Pod");
  CHECK(RV(*e.object) == (*kv)->CurrentRevision());
}

TEST_CASE("kv store: a data dir keeps objects and revisions across a restart") {
  auto dir = std::filesystem::temp_directory_path() /
             ("storage-restart-" + std::to_string(std::random_device{}()));
  kv::Options options{.data_dir = dir.string()};
  std::string before;
  int64_t revision = 0;
  {
    auto kv = kv::Store::Open(options);
    REQUIRE(kv.ok());
    KvStore store(kv->get(), StoreConfig{.resource_prefix = "/pods"});
    MustCreate(store, Pod("ns", "a"));
    MustCreate(store, Pod("ns", "b"));
    REQUIRE(store.Delete(PodKey("ns", "a"), nullptr, nullptr, nullptr, {}).ok());
    auto list = store.GetList("/pods", ListAt(""));
    REQUIRE(list.ok());
    before = Names(list->items) + " @" + list->resource_version;
    revision = (*kv)->CurrentRevision();
  }
  {
    auto kv = kv::Store::Open(options);
    REQUIRE(kv.ok());
    KvStore store(kv->get(), StoreConfig{.resource_prefix = "/pods"});
    auto list = store.GetList("/pods", ListAt(""));
    REQUIRE(list.ok());
    CHECK(Names(list->items) + " @" + list->resource_version == before);
    CHECK((*kv)->CurrentRevision() == revision);
    // History survived too: the deleted object is visible at an older revision.
    auto old = store.GetList("/pods", ListAt(std::to_string(revision - 1), "Exact"));
    REQUIRE(old.ok());
    CHECK(Names(old->items) == "ns/a ns/b");
  }
  std::filesystem::remove_all(dir);
}

}  // namespace kube::storage

namespace kube::storage {

using namespace testing;

TEST_CASE("kv store: a state restore ends a watch with ERROR 410, or reports its changes when asked") {
  auto kv = kv::Store::Open({});
  REQUIRE(kv.ok());
  KvStore store(kv->get(), StoreConfig{.resource_prefix = "/pods"});
  MustCreate(store, Pod("ns", "kept"));
  MustCreate(store, Pod("ns", "changed"));
  auto saved = (*kv)->SaveState();
  REQUIRE(saved.ok());
  REQUIRE(store.Delete(PodKey("ns", "changed"), nullptr, nullptr, nullptr, DeleteOptions{}).ok());
  MustCreate(store, Pod("ns", "added"));

  auto plain = MustWatch(store, Collection(), ListAt(std::to_string((*kv)->CurrentRevision())));
  ListOptions reporting = ListAt(std::to_string((*kv)->CurrentRevision()));
  reporting.report_restores = true;
  auto reporter = MustWatch(store, Collection(), reporting);
  auto restored = (*kv)->RestoreState(**saved);
  REQUIRE(restored.ok());

  CHECK(NextEvents(*plain, 1) == std::vector<std::string>{"ERROR 410 Expired"});
  WatchEvent e;
  REQUIRE(reporter->NextEvent(&e, Clock::now() + 5s) == WatchStream::Next::kEvent);
  CHECK(e.type == WatchEventType::kBookmark);
  CHECK(RV(*e.object) == *restored);
  REQUIRE(e.restored != nullptr);
  REQUIRE(e.restored->size() == 2);
  CHECK((*e.restored)[0].key == "/pods/ns/added");
  CHECK((*e.restored)[0].object == nullptr);
  CHECK((*e.restored)[1].key == "/pods/ns/changed");
  REQUIRE((*e.restored)[1].object != nullptr);
  CHECK(RV(*(*e.restored)[1].object) == *restored);
  // The stream goes on after a restore.
  MustCreate(store, Pod("ns", "later"));
  CHECK(NextEvents(*reporter, 1) == std::vector<std::string>{"ADDED ns/later@" + std::to_string(*restored + 1)});

  // Reads from before the restore are 410, as after a compaction.
  auto old = store.GetList(Collection(), ListAt(std::to_string(*restored - 1), "Exact"));
  REQUIRE_FALSE(old.ok());
  CHECK(old.status().IsExpired());
}

}  // namespace kube::storage
