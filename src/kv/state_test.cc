// Store::SaveState / RestoreState: the restored live state, revisions, compaction and watchers.
#include <doctest/doctest.h>

#include <filesystem>

#include "kv/store.h"
#include "kv/watcher.h"

namespace kube::kv {

namespace {

using namespace std::chrono_literals;

std::unique_ptr<Store> OpenStore(Options options = {}) {
  auto store = Store::Open(options);
  REQUIRE(store.ok());
  return std::move(store).value();
}

// "key=value@mod " for every live key under "/".
std::string Dump(const Store& store) {
  auto all = store.Range("/", PrefixEnd("/"));
  REQUIRE(all.ok());
  std::string out;
  for (const auto& kv : all->kvs) out += kv.key + "=" + kv.value + "@" + std::to_string(kv.mod_revision) + " ";
  return out;
}

WatchResponse NextOrFail(Watcher& w) {
  auto r = w.Next(std::chrono::steady_clock::now() + 5s);
  REQUIRE(r.has_value());
  return *r;
}

}  // namespace

TEST_CASE("kv state: restore writes only what differs, at one new revision, and compacts there") {
  auto store = OpenStore();
  REQUIRE(store->Put("/a", "1").ok());      // 2
  REQUIRE(store->Put("/b", "1").ok());      // 3
  REQUIRE(store->Put("/c", "1").ok());      // 4
  auto saved = store->SaveState();
  REQUIRE(saved.ok());
  CHECK((*saved)->revision == 4);
  CHECK((*saved)->entries.size() == 3);
  CHECK((*saved)->value_bytes == 3);

  REQUIRE(store->Put("/b", "2").ok());      // 5
  REQUIRE(store->Delete("/c").ok());        // 6
  REQUIRE(store->Put("/d", "new").ok());    // 7
  auto restored = store->RestoreState(**saved);
  REQUIRE(restored.ok());
  CHECK(*restored == 8);
  CHECK(store->CurrentRevision() == 8);
  CHECK(store->CompactRevision() == 8);
  CHECK(store->RestoreRevision() == 8);
  // /a is untouched and keeps its revision; /b and /c come back at the new one; /d is gone.
  CHECK(Dump(*store) == "/a=1@2 /b=1@8 /c=1@8 ");
  auto c = store->Get("/c");
  REQUIRE(c.ok());
  REQUIRE(c->kv.has_value());
  CHECK(c->kv->create_revision == 8);
  CHECK(c->kv->version == 1);
  // Reads from before the restore are compacted away.
  CHECK(store->Get("/b", 5).status().IsExpired());
  CHECK(store->Range("/", PrefixEnd("/"), 7).status().IsExpired());

  // Restoring again with nothing changed still takes a revision but rewrites no key, including
  // those the first restore wrote.
  auto again = store->RestoreState(**saved);
  REQUIRE(again.ok());
  CHECK(*again == 9);
  CHECK(Dump(*store) == "/a=1@2 /b=1@8 /c=1@8 ");
  // A snapshot taken after a restore is equivalent to the one restored.
  auto resaved = store->SaveState();
  REQUIRE(resaved.ok());
  REQUIRE(store->Put("/b", "3").ok());  // 10
  REQUIRE(store->RestoreState(**saved).ok());  // 11
  CHECK(Dump(*store) == "/a=1@2 /b=1@11 /c=1@8 ");
  REQUIRE(store->RestoreState(**resaved).ok());  // 12: /b@11 is /b@3 is /b@8
  CHECK(Dump(*store) == "/a=1@2 /b=1@11 /c=1@8 ");
}

TEST_CASE("kv state: a snapshot keeps its values across compaction and restores into an empty store") {
  auto store = OpenStore();
  for (int i = 0; i < 50; ++i) REQUIRE(store->Put("/k/" + std::to_string(i), "v" + std::to_string(i)).ok());
  auto saved = store->SaveState();
  REQUIRE(saved.ok());
  for (int i = 0; i < 50; ++i) REQUIRE(store->Put("/k/" + std::to_string(i), "changed").ok());
  REQUIRE(store->Compact(store->CurrentRevision()).ok());
  auto empty = store->SaveState();
  REQUIRE(empty.ok());
  REQUIRE(store->RestoreState(**saved).ok());
  auto all = store->Range("/k/", PrefixEnd("/k/"));
  REQUIRE(all.ok());
  REQUIRE(all->kvs.size() == 50);
  CHECK(all->kvs[0].value == "v0");
  CHECK(all->kvs[0].mod_revision == store->CurrentRevision());

  // Into another store: its revisions mean nothing there, so every key is written.
  auto other = OpenStore();
  REQUIRE(other->Put("/x", "gone").ok());
  for (int i = 0; i < 60; ++i) REQUIRE(other->Put("/k/" + std::to_string(i), "other").ok());
  REQUIRE(other->RestoreState(**saved).ok());
  auto copied = other->Range("/", PrefixEnd("/"));
  REQUIRE(copied.ok());
  REQUIRE(copied->count == 50);
  for (const auto& kv : copied->kvs) CHECK(kv.value.starts_with("v"));
}

TEST_CASE("kv state: leases are re-attached only while they exist") {
  auto store = OpenStore();
  auto kept = store->GrantLease(3600);
  auto revoked = store->GrantLease(3600);
  REQUIRE(kept.ok());
  REQUIRE(revoked.ok());
  REQUIRE(store->Put("/kept", "1", *kept).ok());
  REQUIRE(store->Put("/revoked", "1", *revoked).ok());
  auto saved = store->SaveState();
  REQUIRE(saved.ok());
  REQUIRE(store->Delete("/kept").ok());
  REQUIRE(store->RevokeLease(*revoked).ok());
  REQUIRE(store->RestoreState(**saved).ok());
  auto k = store->Get("/kept");
  auto r = store->Get("/revoked");
  REQUIRE(k.ok());
  REQUIRE(r.ok());
  REQUIRE(k->kv.has_value());
  REQUIRE(r->kv.has_value());
  CHECK(k->kv->lease == *kept);
  CHECK(r->kv->lease == 0);
  // The re-attached key goes with its lease again.
  REQUIRE(store->RevokeLease(*kept).ok());
  CHECK(!store->Get("/kept")->kv.has_value());
}

TEST_CASE("kv state: every watcher reaching the restore gets kRestored with its own changes") {
  auto store = OpenStore();
  REQUIRE(store->Put("/p/a", "1").ok());  // 2
  REQUIRE(store->Put("/q/a", "1").ok());  // 3
  auto saved = store->SaveState();
  REQUIRE(saved.ok());
  REQUIRE(store->Put("/p/a", "2").ok());  // 4

  auto on_p = store->Watch(WatchOptions{"/p/", PrefixEnd("/p/"), 0, false});
  auto on_q = store->Watch(WatchOptions{"/q/", PrefixEnd("/q/"), 0, false});
  // Behind: starts at 4, which the restore compacts away.
  auto behind = store->Watch(WatchOptions{"/p/", PrefixEnd("/p/"), 4, false});
  REQUIRE(on_p.ok());
  REQUIRE(on_q.ok());
  REQUIRE(behind.ok());
  auto rev = store->RestoreState(**saved);
  REQUIRE(rev.ok());
  CHECK(*rev == 5);

  auto p = NextOrFail(**on_p);
  CHECK(p.kind == WatchResponse::Kind::kRestored);
  CHECK(p.revision == 5);
  REQUIRE(p.events.size() == 1);
  CHECK(p.events[0]->kv.value == "1");
  REQUIRE(p.events[0]->prev_kv.has_value());
  CHECK(p.events[0]->prev_kv->value == "2");
  auto q = NextOrFail(**on_q);
  CHECK(q.kind == WatchResponse::Kind::kRestored);
  CHECK(q.events.empty());
  auto b = NextOrFail(**behind);
  CHECK(b.kind == WatchResponse::Kind::kCompacted);
  CHECK(b.compact_revision == 5);

  // Live events follow the restore as usual.
  REQUIRE(store->Put("/p/b", "x").ok());
  auto live = NextOrFail(**on_p);
  CHECK(live.kind == WatchResponse::Kind::kEvents);
  CHECK(live.revision == 6);

  // A watch starting exactly at the restore reads it from history, also marked.
  auto from_history = store->Watch(WatchOptions{"/q/", PrefixEnd("/q/"), 5, false});
  REQUIRE(from_history.ok());
  auto h = NextOrFail(**from_history);
  CHECK(h.kind == WatchResponse::Kind::kRestored);
  CHECK(h.revision == 5);
  CHECK(h.events.empty());
}

TEST_CASE("kv state: a restore persists with a data dir") {
  const auto dir = std::filesystem::temp_directory_path() / ("kv_state_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  {
    auto store = OpenStore(Options{.data_dir = dir.string()});
    REQUIRE(store->Put("/a", "1").ok());
    auto saved = store->SaveState();
    REQUIRE(saved.ok());
    REQUIRE(store->Put("/a", "2").ok());
    REQUIRE(store->Put("/b", "2").ok());
    REQUIRE(store->RestoreState(**saved).ok());
  }
  {
    auto store = OpenStore(Options{.data_dir = dir.string()});
    CHECK(Dump(*store) == "/a=1@5 ");
    CHECK(store->CurrentRevision() == 5);
    CHECK(store->CompactRevision() == 5);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace kube::kv
