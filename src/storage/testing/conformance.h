// The storage conformance suite: one set of doctest cases exercising storage::Interface, compiled
// into the test binary of each implementation (kv-backed store, cacher), as upstream's
// pkg/storage/testing suites run against both etcd3 and the cacher.
//
// A test binary provides the implementation by defining MakeConformanceFixture(). Behaviour that
// legitimately differs between the two (storage.md §3–§4: e.g. RV=0 lists ignore the limit in the
// cacher) is asserted per implementation through Fixture::IsCacher().
//
// Thread-safety: a fixture is used by one test case at a time.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "kv/store.h"
#include "storage/interface.h"

namespace kube::storage::testing {

// Where the suite's resource lives: "/pods", unless the test binary is compiled with another
// KUBE_CONFORMANCE_PREFIX (a custom resource's "/<group>/<plural>"). Every source of one binary
// sees the same value.
#ifndef KUBE_CONFORMANCE_PREFIX
#define KUBE_CONFORMANCE_PREFIX "/pods"
#endif
inline constexpr std::string_view kConformancePrefix = KUBE_CONFORMANCE_PREFIX;

struct FixtureOptions {
  kv::Options kv;
  // The storage's resource prefix (keys "<prefix>/<ns>/<name>"). Default: kConformancePrefix.
  std::string prefix{kConformancePrefix};
  // Cacher only: upper bound of the event buffer (small values make "too old" reachable).
  size_t max_event_capacity = 100 * 1024;
};

// A pods-like resource at options.prefix (keys "<prefix>/<ns>/<name>") over a fresh in-memory kv
// store.
class Fixture {
 public:
  virtual ~Fixture() = default;
  virtual Interface& store() = 0;
  virtual kv::Store& kv() = 0;
  virtual bool IsCacher() const = 0;
  // Blocks until the implementation reflects every write up to `revision` (no-op for storage).
  virtual void WaitForRevision(int64_t revision) = 0;
};

std::unique_ptr<Fixture> MakeConformanceFixture(const FixtureOptions& options);

// --- helpers shared by the suite

using namespace std::chrono_literals;

Object Pod(const std::string& ns, const std::string& name,
           const std::map<std::string, std::string>& labels = {}, int generation = 1);
std::string PodKey(const std::string& ns, const std::string& name);
// The key of the whole collection ("/pods"), or of one namespace ("/pods/<ns>").
std::string Collection(const std::string& ns = "");
int64_t RV(const Object& obj);  // metadata.resourceVersion as a number
std::string Names(const std::vector<ObjectPtr>& items);  // "ns/name ns/name"

ObjectPtr MustCreate(Interface& s, const Object& pod);
ListOptions ListAt(std::string rv, std::string match = "", int64_t limit = 0);

// One event rendered as "ADDED ns/name@rv" (BOOKMARK@rv, with "+end" when annotated;
// "ERROR <code> <reason>").
std::string Render(const WatchEvent& e);
// Renders the next `n` events (fails the test if they do not arrive within `wait`).
std::vector<std::string> NextEvents(WatchStream& w, size_t n, Clock::duration wait = 5s);
// Asserts nothing but bookmarks arrives for `wait`.
void ExpectNoEvent(WatchStream& w, Clock::duration wait = 100ms);
// Starts a watch, failing the test on error.
WatchStreamPtr MustWatch(Interface& s, const std::string& key, ListOptions options);

}  // namespace kube::storage::testing
