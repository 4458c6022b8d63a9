#include "cacher/watch_cache.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

namespace kube::cacher {

namespace {
storage::ObjectPtr Obj(const std::string& name) {
  return std::make_shared<storage::Object>(storage::Object{{"metadata", {{"name", name}}}});
}
}  // namespace

TEST_CASE("watch cache: buffer grows while young, evicts at the upper bound") {
  WatchCache cache(Options{.min_event_capacity = 4, .max_event_capacity = 8});
  cache.Replace({}, 10);
  const auto t0 = Clock::now();
  for (uint64_t rv = 11; rv <= 30; ++rv) {
    cache.Apply(storage::WatchEventType::kAdded, "/pods/ns/p" + std::to_string(rv), Obj("p"), {}, rv, t0);
  }
  CHECK(cache.capacity() == 8);
  CHECK(cache.resource_version() == 30);
  CHECK(cache.objects().size() == 20);
  auto recent = cache.EventsSince(25);
  REQUIRE(recent.ok());
  CHECK(recent->size() == 5);
  // The buffer holds 8 events (23..30): a watch from 22 still gets everything after it.
  CHECK(cache.EventsSince(22).ok());
  auto old = cache.EventsSince(21);
  REQUIRE_FALSE(old.ok());
  CHECK(old.status().IsExpired());
  CHECK(old.status().message() == "too old resource version: 21 (22)");
}

TEST_CASE("watch cache: without evictions anything since the list is available") {
  WatchCache cache(Options{});
  cache.Replace({}, 100);
  CHECK(cache.EventsSince(100)->empty());
  CHECK(cache.EventsSince(99).status().IsExpired());
  CHECK(cache.EventsSince(500)->empty());  // a future RV is not an error
}

TEST_CASE("watch cache: buffer shrinks once old events age out") {
  WatchCache cache(Options{.min_event_capacity = 4, .max_event_capacity = 64,
                           .events_history_window = std::chrono::seconds(75)});
  cache.Replace({}, 1);
  auto t = Clock::now();
  for (uint64_t rv = 2; rv <= 17; ++rv) cache.Apply(storage::WatchEventType::kAdded, "/k", Obj("k"), {}, rv, t);
  CHECK(cache.capacity() == 16);
  t += std::chrono::minutes(5);
  for (uint64_t rv = 18; rv <= 20; ++rv) cache.Apply(storage::WatchEventType::kModified, "/k", Obj("k"), {}, rv, t);
  CHECK(cache.capacity() < 16);
}

TEST_CASE("watch cache: events keep the previous state for selector transitions") {
  WatchCache cache(Options{});
  cache.Replace({}, 1);
  auto first = cache.Apply(storage::WatchEventType::kAdded, "/k", Obj("v1"), {}, 2, Clock::now());
  CHECK(first->prev_object == nullptr);
  auto second = cache.Apply(storage::WatchEventType::kModified, "/k", Obj("v2"), {}, 3, Clock::now());
  REQUIRE(second->prev_object != nullptr);
  CHECK((*second->prev_object)["metadata"]["name"] == "v1");
  auto gone = cache.Apply(storage::WatchEventType::kDeleted, "/k", Obj("v2"), {}, 4, Clock::now());
  CHECK(gone->prev_object != nullptr);
  CHECK(cache.objects().empty());
}

}  // namespace kube::cacher
