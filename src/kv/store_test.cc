#include "kv/store.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <random>
#include <string>
#include <thread>

namespace kube::kv {

namespace {

std::unique_ptr<Store> OpenMem(Options options = {}) {
  auto store = Store::Open(options);
  REQUIRE(store.ok());
  return std::move(store).value();
}

std::string Keys(const RangeResult& r) {
  std::string out;
  for (const auto& kv : r.kvs) out += kv.key + "=" + kv.value + "@" + std::to_string(kv.mod_revision) + " ";
  return out;
}

std::filesystem::path TempDir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() /
             (name + "-" + std::to_string(std::random_device{}()));
  std::filesystem::remove_all(dir);
  return dir;
}

}  // namespace

TEST_CASE("kv: a fresh store is at revision 1 and the first write gets 2") {
  auto store = OpenMem();
  CHECK(store->CurrentRevision() == 1);
  auto rev = store->Put("/a", "1");
  REQUIRE(rev.ok());
  CHECK(*rev == 2);
  auto get = store->Get("/a");
  REQUIRE(get.ok());
  REQUIRE(get->kv.has_value());
  CHECK(get->kv->value == "1");
  CHECK(get->kv->create_revision == 2);
  CHECK(get->kv->mod_revision == 2);
  CHECK(get->kv->version == 1);
  CHECK(get->revision == 2);
}

TEST_CASE("kv: create-if-absent, update-if-mod-revision, delete-if-mod-revision") {
  auto store = OpenMem();
  auto created = store->OptimisticPut("/k", "v1", 0);
  REQUIRE(created.ok());
  CHECK(created->succeeded);
  CHECK(created->revision == 2);

  auto again = store->OptimisticPut("/k", "v1b", 0);
  REQUIRE(again.ok());
  CHECK_FALSE(again->succeeded);
  REQUIRE(again->current.has_value());
  CHECK(again->current->value == "v1");
  CHECK(again->revision == 2);  // a failed compare does not advance the revision
  CHECK(store->CurrentRevision() == 2);

  auto stale = store->OptimisticPut("/k", "v2", 1);
  REQUIRE(stale.ok());
  CHECK_FALSE(stale->succeeded);
  auto updated = store->OptimisticPut("/k", "v2", 2);
  REQUIRE(updated.ok());
  CHECK(updated->succeeded);
  auto get = store->Get("/k");
  CHECK(get->kv->version == 2);
  CHECK(get->kv->create_revision == 2);
  CHECK(get->kv->mod_revision == 3);

  auto bad_delete = store->OptimisticDelete("/k", 2);
  REQUIRE(bad_delete.ok());
  CHECK_FALSE(bad_delete->succeeded);
  CHECK(bad_delete->current->mod_revision == 3);
  auto deleted = store->OptimisticDelete("/k", 3);
  REQUIRE(deleted.ok());
  CHECK(deleted->succeeded);
  CHECK(deleted->revision == 4);
  CHECK_FALSE(store->Get("/k")->kv.has_value());
  auto missing = store->OptimisticDelete("/k", 0);
  CHECK_FALSE(missing->succeeded);
  CHECK_FALSE(missing->current.has_value());

  // Re-create starts a new incarnation: create revision == mod revision, version 1.
  auto recreated = store->OptimisticPut("/k", "v3", 0);
  REQUIRE(recreated->succeeded);
  auto kv = store->Get("/k")->kv;
  CHECK(kv->create_revision == 5);
  CHECK(kv->version == 1);
}

TEST_CASE("kv: reads at past revisions, ranges, limits and counts") {
  auto store = OpenMem();
  REQUIRE(store->Put("/p/a", "a1").ok());  // 2
  REQUIRE(store->Put("/p/b", "b1").ok());  // 3
  REQUIRE(store->Put("/p/a", "a2").ok());  // 4
  REQUIRE(store->Delete("/p/b").ok());     // 5
  REQUIRE(store->Put("/p/c", "c1").ok());  // 6
  REQUIRE(store->Put("/q/x", "x1").ok());  // 7

  const std::string end = PrefixEnd("/p/");
  CHECK(Keys(*store->Range("/p/", end, 3)) == "/p/a=a1@2 /p/b=b1@3 ");
  CHECK(Keys(*store->Range("/p/", end, 4)) == "/p/a=a2@4 /p/b=b1@3 ");
  CHECK(Keys(*store->Range("/p/", end, 5)) == "/p/a=a2@4 ");
  CHECK(Keys(*store->Range("/p/", end)) == "/p/a=a2@4 /p/c=c1@6 ");

  auto limited = store->Range("/p/", end, 0, 1);
  REQUIRE(limited.ok());
  CHECK(Keys(*limited) == "/p/a=a2@4 ");
  CHECK(limited->count == 2);
  CHECK(limited->more);
  CHECK(limited->revision == 7);  // header revision is the current one, for past reads too

  auto past = store->Range("/p/", end, 3);
  CHECK(past->revision == 7);
  CHECK(store->Count("/p/", end)->count == 2);
  CHECK(store->Get("/p/b", 4)->kv->value == "b1");
  CHECK_FALSE(store->Get("/p/b", 5)->kv.has_value());
  CHECK(store->Get("/nothing")->revision == 7);

  auto future = store->Get("/p/a", 8);
  REQUIRE_FALSE(future.ok());
  CHECK(future.status().IsTooLargeResourceVersion());
  CHECK(future.status().message() == "mvcc: required revision is a future revision");
}

TEST_CASE("kv: compaction forgets history and reports compacted reads") {
  auto store = OpenMem(Options{.compaction_interval = std::chrono::milliseconds(0)});
  REQUIRE(store->Put("/a", "1").ok());  // 2
  REQUIRE(store->Put("/a", "2").ok());  // 3
  REQUIRE(store->Put("/b", "1").ok());  // 4
  REQUIRE(store->Delete("/b").ok());    // 5
  REQUIRE(store->Put("/a", "3").ok());  // 6
  REQUIRE(store->Compact(5).ok());
  CHECK(store->CompactRevision() == 5);
  CHECK(store->Get("/a", 5)->kv->value == "2");  // the compaction revision itself is readable
  auto old = store->Get("/a", 4);
  REQUIRE_FALSE(old.ok());
  CHECK(old.status().IsExpired());
  CHECK(old.status().message() == "mvcc: required revision has been compacted");
  CHECK_FALSE(store->Range("/", "0", 3).ok());
  CHECK(store->Compact(5).IsExpired());
  CHECK(store->Compact(4).IsExpired());
  CHECK(store->Compact(7).IsTooLargeResourceVersion());
  CHECK(store->Get("/a")->kv->value == "3");
}

TEST_CASE("kv: automatic compaction runs on the configured interval") {
  auto store = OpenMem(Options{.compaction_interval = std::chrono::milliseconds(50)});
  REQUIRE(store->Put("/a", "1").ok());
  REQUIRE(store->Put("/a", "2").ok());
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (store->CompactRevision() < 3 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(store->CompactRevision() == 3);
  CHECK(store->Get("/a", 2).status().IsExpired());
}

TEST_CASE("kv: keys with NUL or empty keys are rejected") {
  auto store = OpenMem();
  CHECK(store->Put(std::string_view("a\0b", 3), "x").status().code() == StatusCode::kBadRequest);
  CHECK_FALSE(store->Put("", "x").ok());
  CHECK_FALSE(store->Get("").ok());
}

TEST_CASE("kv: leases delete their keys at one revision on expiry and revoke") {
  auto store = OpenMem();
  auto lease = store->GrantLease(1);
  REQUIRE(lease.ok());
  REQUIRE(store->Put("/e/1", "a", *lease).ok());
  REQUIRE(store->Put("/e/2", "b", *lease).ok());
  REQUIRE(store->Put("/e/3", "c").ok());
  CHECK(store->Put("/e/4", "d", 999).status().IsNotFound());
  int64_t before = store->CurrentRevision();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (store->Get("/e/1")->kv.has_value() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK_FALSE(store->Get("/e/1")->kv.has_value());
  CHECK_FALSE(store->Get("/e/2")->kv.has_value());
  CHECK(store->Get("/e/3")->kv.has_value());
  CHECK(store->CurrentRevision() == before + 1);  // both keys at one revision

  auto second = store->GrantLease(3600);
  REQUIRE(store->Put("/e/5", "x", *second).ok());
  REQUIRE(store->RevokeLease(*second).ok());
  CHECK_FALSE(store->Get("/e/5")->kv.has_value());
  CHECK(store->RevokeLease(*second).IsNotFound());
}

TEST_CASE("kv: a data dir survives a restart with revision, history and compaction") {
  auto dir = TempDir("kv-restart");
  Options options{.data_dir = dir.string(), .compaction_interval = std::chrono::milliseconds(0)};
  {
    auto store = OpenMem(options);
    REQUIRE(store->Put("/a", "1").ok());   // 2
    REQUIRE(store->Put("/b", "1").ok());   // 3
    REQUIRE(store->Put("/a", "2").ok());   // 4
    REQUIRE(store->Delete("/b").ok());     // 5
    REQUIRE(store->Put("/c", "1").ok());   // 6
    REQUIRE(store->Compact(3).ok());
  }
  {
    auto store = OpenMem(options);
    CHECK(store->CurrentRevision() == 6);
    CHECK(store->CompactRevision() == 3);
    CHECK(Keys(*store->Range("/", "0")) == "/a=2@4 /c=1@6 ");
    CHECK(store->Get("/b", 4)->kv->value == "1");
    CHECK(store->Get("/a", 2).status().IsExpired());
    auto next = store->Put("/d", "1");
    REQUIRE(next.ok());
    CHECK(*next == 7);
    auto kv = store->Get("/a")->kv;
    CHECK(kv->version == 2);
    CHECK(kv->create_revision == 2);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace kube::kv
