// Conformance: create, get, list (RV rules, paging, continue, predicates), guaranteed update,
// delete, stats. Watch cases are in conformance_watch.cc.
#include "storage/testing/conformance.h"

#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "storage/object_codec.h"

namespace kube::storage::testing {

Object Pod(const std::string& ns, const std::string& name,
           const std::map<std::string, std::string>& labels, int generation) {
  Object pod = {{"apiVersion", "v1"},
                {"kind", "Pod"},
                {"metadata", {{"name", name}, {"namespace", ns}, {"uid", "uid-" + ns + "-" + name}}},
                {"spec", {{"containers", Object::array({{{"name", "c"}, {"image", "nginx"}}})},
                          {"generation", generation}}}};
  if (!labels.empty()) pod["metadata"]["labels"] = labels;
  return pod;
}

std::string PodKey(const std::string& ns, const std::string& name) { return Collection(ns) + "/" + name; }

std::string Collection(const std::string& ns) {
  std::string key(kConformancePrefix);
  return ns.empty() ? key : key + "/" + ns;
}

int64_t RV(const Object& obj) { return std::stoll(ObjectResourceVersion(obj)); }

std::string Names(const std::vector<ObjectPtr>& items) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += " ";
    out += (*item)["metadata"]["namespace"].get<std::string>() + "/" +
           (*item)["metadata"]["name"].get<std::string>();
  }
  return out;
}

ObjectPtr MustCreate(Interface& s, const Object& pod) {
  auto created = s.Create(PodKey(pod["metadata"]["namespace"], pod["metadata"]["name"]), pod, 0);
  REQUIRE_MESSAGE(created.ok(), created.status().ToString());
  return *created;
}

ListOptions ListAt(std::string rv, std::string match, int64_t limit) {
  ListOptions o;
  o.resource_version = std::move(rv);
  o.resource_version_match = std::move(match);
  o.recursive = true;
  o.predicate.limit = limit;
  return o;
}

namespace {

std::unique_ptr<Fixture> NewFixture(FixtureOptions options = {}) {
  options.kv.compaction_interval = std::chrono::milliseconds(0);
  return MakeConformanceFixture(options);
}

ListResult MustList(Interface& s, const std::string& key, const ListOptions& o) {
  auto r = s.GetList(key, o);
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return std::move(r).value();
}

// Creates ns/a, ns/b, ns/c, other/d and returns the revision after the last one.
int64_t SeedFour(Fixture& f) {
  MustCreate(f.store(), Pod("ns", "a", {{"app", "web"}}));
  MustCreate(f.store(), Pod("ns", "b", {{"app", "db"}}));
  MustCreate(f.store(), Pod("ns", "c", {{"app", "web"}}));
  auto last = MustCreate(f.store(), Pod("other", "d", {{"app", "web"}}));
  f.WaitForRevision(RV(*last));
  return RV(*last);
}

UpdateFunc SetGeneration(int generation) {
  return [generation](const Object& cur, const ResponseMeta&, std::optional<uint64_t>*) -> Result<Object> {
    Object next = cur;
    next["spec"]["generation"] = generation;
    return next;
  };
}

}  // namespace

TEST_CASE("create: stamps the revision and refuses duplicates and preset resourceVersions") {
  auto f = NewFixture();
  auto created = MustCreate(f->store(), Pod("ns", "a"));
  CHECK(RV(*created) == f->kv().CurrentRevision());
  CHECK((*created)["spec"]["generation"] == 1);

  auto dup = f->store().Create(PodKey("ns", "a"), Pod("ns", "a"), 0);
  REQUIRE_FALSE(dup.ok());
  CHECK(dup.status().IsAlreadyExists());

  Object with_rv = Pod("ns", "b");
  with_rv["metadata"]["resourceVersion"] = "5";
  auto bad = f->store().Create(PodKey("ns", "b"), with_rv, 0);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().code() == StatusCode::kUnknown);
  CHECK(bad.status().message() == "resourceVersion should not be set on objects to be created");

  CHECK_FALSE(f->store().Create(Collection("..") + "/x", Pod("ns", "x"), 0).ok());
  CHECK_FALSE(f->store().Create("/nodes/x", Pod("ns", "x"), 0).ok());
}

TEST_CASE("create: an object with a TTL disappears after it") {
  auto f = NewFixture();
  auto created = f->store().Create(PodKey("ns", "ttl"), Pod("ns", "ttl"), 1);
  REQUIRE(created.ok());
  auto deadline = Clock::now() + 10s;
  bool gone = false;
  while (!gone && Clock::now() < deadline) {
    auto got = f->store().Get(PodKey("ns", "ttl"), GetOptions{.ignore_not_found = true});
    REQUIRE(got.ok());
    gone = *got == nullptr;
    if (!gone) std::this_thread::sleep_for(50ms);
  }
  CHECK(gone);
}

TEST_CASE("get: resourceVersion rules and not-found handling") {
  auto f = NewFixture();
  auto a = MustCreate(f->store(), Pod("ns", "a"));
  f->WaitForRevision(RV(*a));
  for (const std::string& rv : std::vector<std::string>{"", "0", std::to_string(RV(*a))}) {
    CAPTURE(rv);
    auto got = f->store().Get(PodKey("ns", "a"), GetOptions{.resource_version = rv});
    REQUIRE(got.ok());
    CHECK(RV(**got) == RV(*a));
    CHECK((**got)["metadata"]["name"] == "a");
  }
  auto missing = f->store().Get(PodKey("ns", "zz"), GetOptions{});
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().IsNotFound());
  auto ignored = f->store().Get(PodKey("ns", "zz"), GetOptions{.ignore_not_found = true});
  REQUIRE(ignored.ok());
  CHECK(*ignored == nullptr);

  auto bad = f->store().Get(PodKey("ns", "a"), GetOptions{.resource_version = "abc"});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().code() == StatusCode::kBadRequest);

  auto future = f->store().Get(PodKey("ns", "a"), GetOptions{.resource_version = "100000"});
  REQUIRE_FALSE(future.ok());
  CHECK(future.status().IsTooLargeResourceVersion());
  CHECK(future.status().HttpCode() == 504);
}

TEST_CASE("list: consistent, any, not-older-than and exact reads") {
  auto f = NewFixture();
  const int64_t seeded = SeedFour(*f);
  auto all = MustList(f->store(), Collection(), ListAt(""));
  CHECK(Names(all.items) == "ns/a ns/b ns/c other/d");
  CHECK(all.resource_version == std::to_string(f->kv().CurrentRevision()));
  CHECK(all.continue_token.empty());
  CHECK_FALSE(all.remaining_item_count.has_value());

  auto ns_only = MustList(f->store(), Collection("ns"), ListAt(""));
  CHECK(Names(ns_only.items) == "ns/a ns/b ns/c");

  CHECK(Names(MustList(f->store(), Collection(), ListAt("0")).items) == "ns/a ns/b ns/c other/d");
  auto not_older = MustList(f->store(), Collection(), ListAt(std::to_string(seeded), "NotOlderThan"));
  CHECK(std::stoll(not_older.resource_version) >= seeded);

  // Exact reads see the past, even after later writes.
  const int64_t after_two = seeded - 2;
  REQUIRE(f->store().Delete(PodKey("ns", "a"), nullptr, nullptr, nullptr, {}).ok());
  auto exact = MustList(f->store(), Collection(), ListAt(std::to_string(after_two), "Exact"));
  CHECK(Names(exact.items) == "ns/a ns/b");
  CHECK(exact.resource_version == std::to_string(after_two));
  // The legacy form: an RV with a limit and no match is exact as well.
  auto legacy = MustList(f->store(), Collection(), ListAt(std::to_string(after_two), "", 10));
  CHECK(Names(legacy.items) == "ns/a ns/b");
  CHECK(legacy.resource_version == std::to_string(after_two));
  CHECK(Names(MustList(f->store(), Collection(), ListAt("")).items) == "ns/b ns/c other/d");
}

TEST_CASE("list: errors for bad, future and compacted resourceVersions") {
  auto f = NewFixture();
  const int64_t seeded = SeedFour(*f);
  auto bad = f->store().GetList(Collection(), ListAt("abc"));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().code() == StatusCode::kBadRequest);
  CHECK(f->store().GetList(Collection(), ListAt("1", "Sometimes")).status().code() ==
        StatusCode::kBadRequest);

  const std::string future = std::to_string(seeded + 1000);
  for (const auto& o : {ListAt(future, "Exact"), ListAt(future, "NotOlderThan"), ListAt(future)}) {
    auto r = f->store().GetList(Collection(), o);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().IsTooLargeResourceVersion());
  }

  REQUIRE(f->kv().Compact(seeded).ok());
  auto old = f->store().GetList(Collection(), ListAt(std::to_string(seeded - 1), "Exact"));
  REQUIRE_FALSE(old.ok());
  CHECK(old.status().IsExpired());
  CHECK(old.status().HttpCode() == 410);
  CHECK(old.status().message() == "The resourceVersion for the provided list is too old.");
}

TEST_CASE("list: limit and continue page through one snapshot") {
  auto f = NewFixture();
  SeedFour(*f);
  auto first = MustList(f->store(), Collection(), ListAt("", "", 2));
  CHECK(Names(first.items) == "ns/a ns/b");
  REQUIRE_FALSE(first.continue_token.empty());
  REQUIRE(first.remaining_item_count.has_value());
  CHECK(*first.remaining_item_count == 2);

  // Writes between pages do not show: later pages read at the first page's revision.
  REQUIRE(f->store().Delete(PodKey("ns", "c"), nullptr, nullptr, nullptr, {}).ok());
  MustCreate(f->store(), Pod("ns", "bb"));
  ListOptions next = ListAt("", "", 2);
  next.predicate.continue_token = first.continue_token;
  auto second = MustList(f->store(), Collection(), next);
  CHECK(Names(second.items) == "ns/c other/d");
  CHECK(second.resource_version == first.resource_version);
  CHECK(second.continue_token.empty());
  CHECK_FALSE(second.remaining_item_count.has_value());

  // A continue token may not be combined with a resourceVersion other than "" or "0".
  ListOptions with_rv = next;
  with_rv.resource_version = first.resource_version;
  auto refused = f->store().GetList(Collection(), with_rv);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == StatusCode::kBadRequest);
  CHECK(refused.status().message() == "specifying resource version is not allowed when using continue");

  ListOptions garbage = ListAt("", "", 2);
  garbage.predicate.continue_token = "not-a-token!";
  auto invalid = f->store().GetList(Collection(), garbage);
  REQUIRE_FALSE(invalid.ok());
  CHECK(invalid.status().code() == StatusCode::kBadRequest);
  CHECK(invalid.status().message().starts_with("invalid continue token: "));
}

TEST_CASE("list: a compacted continue token answers 410 with an inconsistent-continue token") {
  auto f = NewFixture();
  SeedFour(*f);
  auto first = MustList(f->store(), Collection(), ListAt("", "", 1));
  REQUIRE_FALSE(first.continue_token.empty());
  MustCreate(f->store(), Pod("ns", "e"));
  REQUIRE(f->kv().Compact(f->kv().CurrentRevision()).ok());

  ListOptions next = ListAt("", "", 2);
  next.predicate.continue_token = first.continue_token;
  auto expired = f->store().GetList(Collection(), next);
  REQUIRE_FALSE(expired.ok());
  CHECK(expired.status().IsExpired());
  CHECK(expired.status().message().starts_with(
      "The provided continue parameter is too old to display a consistent list result."));
  REQUIRE_FALSE(expired.status().continue_token().empty());

  // The rv=-1 token continues at the latest revision from the same key.
  next.predicate.continue_token = expired.status().continue_token();
  next.predicate.limit = 10;
  auto rest = MustList(f->store(), Collection(), next);
  CHECK(Names(rest.items) == "ns/b ns/c ns/e other/d");
  CHECK(std::stoll(rest.resource_version) == f->kv().CurrentRevision());
}

TEST_CASE("list: label and field selectors, with paging over filtered items") {
  auto f = NewFixture();
  SeedFour(*f);
  ListOptions web = ListAt("");
  web.predicate.label = *LabelSelector::Parse("app=web");
  CHECK(Names(MustList(f->store(), Collection(), web).items) == "ns/a ns/c other/d");

  ListOptions paged = web;
  paged.predicate.limit = 1;
  auto p1 = MustList(f->store(), Collection(), paged);
  CHECK(Names(p1.items) == "ns/a");
  CHECK_FALSE(p1.remaining_item_count.has_value());  // never with a selector
  REQUIRE_FALSE(p1.continue_token.empty());
  paged.predicate.continue_token = p1.continue_token;
  auto p2 = MustList(f->store(), Collection(), paged);
  CHECK(Names(p2.items) == "ns/c");
  paged.predicate.continue_token = p2.continue_token;
  auto p3 = MustList(f->store(), Collection(), paged);
  CHECK(Names(p3.items) == "other/d");

  ListOptions by_name = ListAt("");
  by_name.predicate.field = *FieldSelector::Parse("metadata.name=b");
  CHECK(Names(MustList(f->store(), Collection(), by_name).items) == "ns/b");
  ListOptions by_ns = ListAt("");
  by_ns.predicate.field = *FieldSelector::Parse("metadata.namespace!=ns");
  CHECK(Names(MustList(f->store(), Collection(), by_ns).items) == "other/d");
}

TEST_CASE("list: a non-recursive list reads exactly one key") {
  auto f = NewFixture();
  SeedFour(*f);
  ListOptions one = ListAt("");
  one.recursive = false;
  CHECK(Names(MustList(f->store(), PodKey("ns", "b"), one).items) == "ns/b");
  CHECK(MustList(f->store(), PodKey("ns", "zz"), one).items.empty());
}

TEST_CASE("list: a limit on an RV=0 list is honoured by storage and ignored by the cache") {
  auto f = NewFixture();
  SeedFour(*f);
  auto r = MustList(f->store(), Collection(), ListAt("0", "", 2));
  if (f->IsCacher()) {
    CHECK(r.items.size() == 4);
    CHECK(r.continue_token.empty());
  } else {
    CHECK(r.items.size() == 2);
    CHECK_FALSE(r.continue_token.empty());
  }
}

TEST_CASE("guaranteed update: writes, bumps the revision and detects no-ops") {
  auto f = NewFixture();
  auto a = MustCreate(f->store(), Pod("ns", "a"));
  auto updated = f->store().GuaranteedUpdate(PodKey("ns", "a"), false, nullptr, SetGeneration(2), nullptr);
  REQUIRE(updated.ok());
  CHECK((**updated)["spec"]["generation"] == 2);
  CHECK(RV(**updated) > RV(*a));
  const int64_t rev = f->kv().CurrentRevision();
  CHECK(RV(**updated) == rev);

  // Identical bytes: nothing is written, the existing object comes back.
  auto noop = f->store().GuaranteedUpdate(PodKey("ns", "a"), false, nullptr, SetGeneration(2), nullptr);
  REQUIRE(noop.ok());
  CHECK(RV(**noop) == rev);
  CHECK(f->kv().CurrentRevision() == rev);

  auto missing = f->store().GuaranteedUpdate(PodKey("ns", "zz"), false, nullptr, SetGeneration(2), nullptr);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().IsNotFound());

  // ignore_not_found starts from an empty object (create-on-update).
  auto created = f->store().GuaranteedUpdate(
      PodKey("ns", "new"), true, nullptr,
      [](const Object& cur, const ResponseMeta& meta, std::optional<uint64_t>*) -> Result<Object> {
        CHECK(meta.resource_version == 0);
        CHECK(cur.empty());
        return Pod("ns", "new");
      },
      nullptr);
  REQUIRE(created.ok());
  CHECK((**created)["metadata"]["name"] == "new");

  auto failing = f->store().GuaranteedUpdate(
      PodKey("ns", "a"), false, nullptr,
      [](const Object&, const ResponseMeta&, std::optional<uint64_t>*) -> Result<Object> {
        return Status::Invalid("spec is wrong");
      },
      nullptr);
  REQUIRE_FALSE(failing.ok());
  CHECK(failing.status().code() == StatusCode::kInvalid);
}

TEST_CASE("guaranteed update: preconditions and retries on a stale cached object") {
  auto f = NewFixture();
  auto a = MustCreate(f->store(), Pod("ns", "a"));
  Preconditions wrong_uid{.uid = std::string("other")};
  auto refused = f->store().GuaranteedUpdate(PodKey("ns", "a"), false, &wrong_uid, SetGeneration(3), nullptr);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().IsConflict());
  CHECK(refused.status().message() ==
        "Precondition failed: UID in precondition: other, UID in object meta: uid-ns-a");
  Preconditions right_uid{.uid = std::string("uid-ns-a")};
  CHECK(f->store().GuaranteedUpdate(PodKey("ns", "a"), false, &right_uid, SetGeneration(3), nullptr).ok());

  // A stale cached object: the update runs again on the fresh one, and no write is lost.
  auto fresh = f->store().GuaranteedUpdate(PodKey("ns", "a"), false, nullptr, SetGeneration(4), nullptr);
  REQUIRE(fresh.ok());
  int calls = 0;
  auto bumped = f->store().GuaranteedUpdate(
      PodKey("ns", "a"), false, nullptr,
      [&](const Object& cur, const ResponseMeta&, std::optional<uint64_t>*) -> Result<Object> {
        ++calls;
        Object next = cur;
        next["spec"]["generation"] = cur["spec"]["generation"].get<int>() + 10;
        return next;
      },
      a);
  REQUIRE(bumped.ok());
  CHECK((**bumped)["spec"]["generation"] == 14);
  CHECK(calls >= 1);
}

TEST_CASE("guaranteed update: concurrent read-modify-write loses no update") {
  auto f = NewFixture();
  MustCreate(f->store(), Pod("ns", "counter"));
  constexpr int kThreads = 8;
  constexpr int kPerThread = 25;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kPerThread; ++i) {
        auto r = f->store().GuaranteedUpdate(
            PodKey("ns", "counter"), false, nullptr,
            [](const Object& cur, const ResponseMeta&, std::optional<uint64_t>*) -> Result<Object> {
              Object next = cur;
              next["spec"]["generation"] = cur["spec"]["generation"].get<int>() + 1;
              return next;
            },
            nullptr);
        if (!r.ok()) ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(failures == 0);
  auto got = f->store().Get(PodKey("ns", "counter"), GetOptions{});
  REQUIRE(got.ok());
  CHECK((**got)["spec"]["generation"] == 1 + kThreads * kPerThread);
}

TEST_CASE("delete: returns the last state at the deletion revision; preconditions and validation") {
  auto f = NewFixture();
  auto a = MustCreate(f->store(), Pod("ns", "a"));
  auto missing = f->store().Delete(PodKey("ns", "zz"), nullptr, nullptr, nullptr, {});
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().IsNotFound());

  Preconditions wrong_rv{.resource_version = std::string("1")};
  auto refused = f->store().Delete(PodKey("ns", "a"), &wrong_rv, nullptr, nullptr, {});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().IsConflict());

  auto vetoed = f->store().Delete(
      PodKey("ns", "a"), nullptr, [](const Object&) { return Status::Forbidden("has finalizers"); },
      nullptr, {});
  REQUIRE_FALSE(vetoed.ok());
  CHECK(vetoed.status().code() == StatusCode::kForbidden);

  Preconditions right{.uid = std::string("uid-ns-a"), .resource_version = std::to_string(RV(*a))};
  auto deleted = f->store().Delete(PodKey("ns", "a"), &right, nullptr, nullptr, {});
  REQUIRE(deleted.ok());
  CHECK((**deleted)["metadata"]["name"] == "a");
  CHECK(RV(**deleted) == f->kv().CurrentRevision());
  CHECK(RV(**deleted) > RV(*a));
  CHECK(f->store().Get(PodKey("ns", "a"), GetOptions{}).status().IsNotFound());
}

TEST_CASE("delete: a stale cached object is re-read before deleting") {
  auto f = NewFixture();
  auto a = MustCreate(f->store(), Pod("ns", "a"));
  auto updated = f->store().GuaranteedUpdate(PodKey("ns", "a"), false, nullptr, SetGeneration(7), nullptr);
  REQUIRE(updated.ok());
  auto deleted = f->store().Delete(PodKey("ns", "a"), nullptr, nullptr, a, {});
  REQUIRE(deleted.ok());
  CHECK((**deleted)["spec"]["generation"] == 7);
}

TEST_CASE("stats, current resourceVersion, readiness and compaction revision") {
  auto f = NewFixture();
  const int64_t seeded = SeedFour(*f);
  auto stats = f->store().GetStats();
  REQUIRE(stats.ok());
  CHECK(stats->object_count == 4);
  auto current = f->store().GetCurrentResourceVersion();
  REQUIRE(current.ok());
  CHECK(*current == static_cast<uint64_t>(seeded));
  CHECK(f->store().ReadinessCheck().ok());
  CHECK(f->store().CompactRevision() == 0);
  REQUIRE(f->kv().Compact(seeded).ok());
  CHECK(f->store().CompactRevision() == seeded);
}

}  // namespace kube::storage::testing
