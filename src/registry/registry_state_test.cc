// ApiRegistry's state between tests: MarkInitialState / Reset and named snapshots — the restored
// objects, monotonic resourceVersions, 410 for old reads and watches, open watches ending with
// ERROR 410, the namespace controller and restore listeners following the restore.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <atomic>

#include "registry/api_registry.h"
#include "registry/registry_test_util.h"

namespace kube::registry {
namespace {

using namespace testing;
using T = storage::WatchEventType;
using namespace std::chrono_literals;

uint64_t RvNum(const ObjectPtr& o) { return std::stoull(Rv(o)); }

std::set<std::string> Names(Store* s, std::string_view ns) {
  auto list = s->List(ns, storage::ListOptions{});
  REQUIRE(list.ok());
  std::set<std::string> out;
  for (const auto& item : list->items) out.insert(At(item, "/metadata/name").get<std::string>());
  return out;
}

// The events of `stream` until it closes (or 5 s pass).
std::vector<storage::WatchEvent> Drain(storage::WatchStream& stream) {
  std::vector<storage::WatchEvent> out;
  const auto until = storage::Clock::now() + 5s;
  while (storage::Clock::now() < until) {
    storage::WatchEvent e;
    auto next = stream.NextEvent(&e, until);
    if (next == storage::WatchStream::Next::kClosed) break;
    if (next == storage::WatchStream::Next::kEvent) out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

TEST_CASE("registry state: Reset before MarkInitialState is 503") {
  Reg reg;
  Status s = reg.r->Reset();
  CHECK(s.code() == StatusCode::kServiceUnavailable);
  CHECK(!reg.r->InitialState().has_value());
}

TEST_CASE("registry state: Reset returns to the initial objects with newer resourceVersions") {
  Reg reg;
  auto kept = MustCreate(reg.cm, "default", Cm("kept"));
  auto edited = MustCreate(reg.cm, "default", Cm("edited"));
  auto removed = MustCreate(reg.cm, "default", Cm("removed"));
  REQUIRE(reg.r->MarkInitialState().ok());
  auto initial = reg.r->InitialState();
  REQUIRE(initial.has_value());
  CHECK(initial->name == "initial");
  CHECK(initial->objects >= 7);  // 4 namespaces + 3 config maps

  MustCreate(reg.cm, "default", Cm("added"));
  auto changed = reg.cm->Update("default", "edited", "", [](const Object& cur) -> Result<Object> {
    Object next = cur;
    next["data"]["a"] = "2";
    return next;
  }, WriteOptions{});
  REQUIRE(changed.ok());
  REQUIRE(reg.cm->Delete("default", "removed", DeleteOptions{}).ok());
  MustCreate(reg.ns, "", Named("scratch"));
  const uint64_t before_reset = reg.r->kv()->CurrentRevision();

  REQUIRE(reg.r->Reset().ok());
  const uint64_t reset_rv = reg.r->kv()->CurrentRevision();
  CHECK(reset_rv == before_reset + 1);
  CHECK(Names(reg.cm, "default") == std::set<std::string>{"edited", "kept", "removed"});
  CHECK(Gone(reg.ns, "", "scratch"));
  // Unchanged objects keep their resourceVersion; restored ones get the reset's, never an old one.
  CHECK(Rv(MustGet(reg.cm, "default", "kept")) == Rv(kept));
  auto restored_edit = MustGet(reg.cm, "default", "edited");
  CHECK(At(restored_edit, "/data/a") == "1");
  CHECK(RvNum(restored_edit) == reset_rv);
  CHECK(RvNum(restored_edit) > RvNum(*changed));
  auto restored_removed = MustGet(reg.cm, "default", "removed");
  CHECK(RvNum(restored_removed) == reset_rv);
  CHECK(At(restored_removed, "/metadata/uid") == At(removed, "/metadata/uid"));
  CHECK(At(restored_edit, "/metadata/uid") == At(edited, "/metadata/uid"));

  // Reads from before the reset are 410, as after a compaction; a list's RV is the new one.
  storage::ListOptions exact{.resource_version = std::to_string(before_reset), .resource_version_match = "Exact"};
  auto old_list = reg.cm->List("default", exact);
  REQUIRE_FALSE(old_list.ok());
  CHECK(old_list.status().IsExpired());
  auto list = reg.cm->List("default", storage::ListOptions{});
  REQUIRE(list.ok());
  CHECK(std::stoull(list->resource_version) >= reset_rv);
  auto old_watch = reg.cm->Watch("default", storage::ListOptions{.resource_version = std::to_string(before_reset)});
  REQUIRE(old_watch.ok());
  auto events = Drain(**old_watch);
  REQUIRE(events.size() == 1);
  CHECK(events[0].type == T::kError);
  CHECK(events[0].error.IsExpired());

  // Writes after the reset continue the sequence.
  auto after = MustCreate(reg.cm, "default", Cm("after"));
  CHECK(RvNum(after) > reset_rv);
}

TEST_CASE("registry state: paged lists continued across a reset get 410") {
  Reg reg;
  for (int i = 0; i < 5; ++i) MustCreate(reg.cm, "default", Cm("cm" + std::to_string(i)));
  REQUIRE(reg.r->MarkInitialState().ok());
  storage::ListOptions first;
  first.predicate.limit = 2;
  auto page = reg.cm->List("default", first);
  REQUIRE(page.ok());
  REQUIRE(!page->continue_token.empty());
  MustCreate(reg.cm, "default", Cm("extra"));
  REQUIRE(reg.r->Reset().ok());
  storage::ListOptions next;
  next.predicate.limit = 2;
  next.predicate.continue_token = page->continue_token;
  auto continued = reg.cm->List("default", next);
  REQUIRE_FALSE(continued.ok());
  CHECK(continued.status().IsExpired());
}

TEST_CASE("registry state: open watches end with ERROR 410 Expired, new ones see the restored state") {
  Reg reg;
  MustCreate(reg.cm, "default", Cm("base"));
  REQUIRE(reg.r->MarkInitialState().ok());
  auto all = reg.cm->Watch("", storage::ListOptions{});  // RV "": from now
  auto one_ns = reg.pods->Watch("default", storage::ListOptions{.resource_version = "0"});
  REQUIRE(all.ok());
  REQUIRE(one_ns.ok());
  MustCreate(reg.cm, "default", Cm("temp"));
  REQUIRE(reg.r->Reset().ok());

  auto events = Drain(**all);
  REQUIRE(!events.empty());
  CHECK(events.back().type == T::kError);
  CHECK(events.back().error.IsExpired());
  CHECK(events.back().error.message().starts_with("too old resource version: "));
  // Nothing of the restore itself reaches the old watch: only what came before it, then the ERROR.
  for (size_t i = 0; i + 1 < events.size(); ++i) CHECK(RvNum(events[i].object) < reg.r->kv()->CurrentRevision());
  // A watch on a resource the reset did not touch ends too.
  auto pod_events = Drain(**one_ns);
  REQUIRE(pod_events.size() == 1);
  CHECK(pod_events[0].type == T::kError);

  auto fresh = reg.cm->Watch("default", storage::ListOptions{.resource_version = "0"});
  REQUIRE(fresh.ok());
  storage::WatchEvent e;
  REQUIRE((*fresh)->NextEvent(&e, storage::Clock::now() + 5s) == storage::WatchStream::Next::kEvent);
  CHECK(e.type == T::kAdded);
  CHECK(At(e.object, "/metadata/name") == "base");
  CHECK((*fresh)->NextEvent(&e, storage::Clock::now() + 100ms) == storage::WatchStream::Next::kTimeout);
}

TEST_CASE("registry state: named snapshots save, restore, list and delete") {
  Reg reg;
  MustCreate(reg.cm, "default", Cm("one"));
  REQUIRE(reg.r->SaveSnapshot("first").ok());
  MustCreate(reg.cm, "default", Cm("two"));
  REQUIRE(reg.r->SaveSnapshot("second").ok());
  MustCreate(reg.cm, "default", Cm("three"));

  auto list = reg.r->Snapshots();
  REQUIRE(list.size() == 2);
  CHECK(list[0].name == "first");
  CHECK(list[1].name == "second");
  CHECK(list[1].objects == list[0].objects + 1);
  CHECK(list[1].resource_version > list[0].resource_version);

  REQUIRE(reg.r->RestoreSnapshot("first").ok());
  CHECK(Names(reg.cm, "default") == std::set<std::string>{"one"});
  REQUIRE(reg.r->RestoreSnapshot("second").ok());
  CHECK(Names(reg.cm, "default") == std::set<std::string>{"one", "two"});
  // A restored snapshot stays; saving under a taken name replaces it.
  REQUIRE(reg.r->RestoreSnapshot("first").ok());
  MustCreate(reg.cm, "default", Cm("four"));
  REQUIRE(reg.r->SaveSnapshot("second").ok());
  REQUIRE(reg.r->RestoreSnapshot("first").ok());
  REQUIRE(reg.r->RestoreSnapshot("second").ok());
  CHECK(Names(reg.cm, "default") == std::set<std::string>{"four", "one"});

  CHECK(reg.r->RestoreSnapshot("missing").code() == StatusCode::kNotFound);
  CHECK(reg.r->DeleteSnapshot("missing").code() == StatusCode::kNotFound);
  REQUIRE(reg.r->DeleteSnapshot("first").ok());
  CHECK(reg.r->Snapshots().size() == 1);
  CHECK(reg.r->RestoreSnapshot("first").code() == StatusCode::kNotFound);
  CHECK(reg.r->SaveSnapshot("").code() == StatusCode::kBadRequest);
  CHECK(reg.r->SaveSnapshot("a/b").code() == StatusCode::kBadRequest);
  CHECK(reg.r->SaveSnapshot(std::string(254, 'a')).code() == StatusCode::kBadRequest);
  CHECK(reg.r->SaveSnapshot("ok-name_1.2").ok());
}

TEST_CASE("registry state: a namespace terminating at reset time is not finalized once restored") {
  Reg reg;
  MustCreate(reg.ns, "", Named("app"));
  MustCreate(reg.cm, "app", Cm("data"));
  // A finalizer keeps the content (and so the namespace) around while it terminates.
  Object held = Cm("held");
  held["metadata"]["finalizers"] = {"example.com/hold"};
  MustCreate(reg.cm, "app", held);
  REQUIRE(reg.r->MarkInitialState().ok());
  REQUIRE(reg.ns->Delete("", "app", DeleteOptions{}).ok());
  // The controller deletes what it can; "held" stays, with a deletionTimestamp.
  for (int i = 0; i < 100 && !Gone(reg.cm, "app", "data"); ++i) std::this_thread::sleep_for(20ms);
  REQUIRE(Gone(reg.cm, "app", "data"));

  REQUIRE(reg.r->Reset().ok());
  auto ns = MustGet(reg.ns, "", "app");
  CHECK(At(ns, "/metadata/deletionTimestamp").is_null());
  CHECK(At(ns, "/status/phase") == "Active");
  std::this_thread::sleep_for(400ms);  // two controller periods: nothing may be deleted now
  CHECK(Names(reg.cm, "app") == std::set<std::string>{"data", "held"});
  CHECK(At(MustGet(reg.cm, "app", "held"), "/metadata/deletionTimestamp").is_null());
}

TEST_CASE("registry state: restore listeners run around the restore, in order, and can be removed") {
  Reg reg;
  REQUIRE(reg.r->MarkInitialState().ok());
  std::vector<std::string> calls;
  int64_t seen = 0;
  const uint64_t id = reg.r->AddRestoreListener(RestoreListener{
      .before = [&] { calls.push_back("before"); },
      .after = [&](int64_t rev) {
        calls.push_back("after");
        seen = rev;
        // The caches already hold the restored state.
        CHECK(Gone(reg.cm, "default", "temp"));
      }});
  MustCreate(reg.cm, "default", Cm("temp"));
  REQUIRE(reg.r->Reset().ok());
  CHECK(calls == std::vector<std::string>{"before", "after"});
  CHECK(seen == reg.r->kv()->CurrentRevision());
  reg.r->RemoveRestoreListener(id);
  REQUIRE(reg.r->Reset().ok());
  CHECK(calls.size() == 2);
}

}  // namespace kube::registry
