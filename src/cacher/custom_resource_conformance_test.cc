// The storage conformance suite against a custom resource's storage: the KvStore and Cacher a
// CustomResourceDefinition is served from, at its key layout "/<group>/<plural>" (this binary is
// compiled with KUBE_CONFORMANCE_PREFIX="/kal.example.com/widgets") and with the empty object the
// registry gives it (the storage version's apiVersion and the kind).
#include <doctest/doctest.h>

#include "cacher/cacher.h"
#include "storage/kv_store.h"
#include "storage/testing/conformance.h"

namespace kube::storage::testing {
namespace {

class CustomResourceFixture final : public Fixture {
 public:
  explicit CustomResourceFixture(const FixtureOptions& options) {
    auto opened = kv::Store::Open(options.kv);
    REQUIRE(opened.ok());
    kv_ = std::move(*opened);
    auto empty = std::make_shared<Object>(Object{{"apiVersion", "kal.example.com/v1"}, {"kind", "Widget"}});
    store_ = std::make_unique<KvStore>(kv_.get(), StoreConfig{.resource_prefix = options.prefix, .empty_object = empty});
    cacher_ = std::make_unique<cacher::Cacher>(
        store_.get(),
        cacher::CacherConfig{.resource_prefix = options.prefix, .empty_object = empty, .namespaced = true},
        cacher::Options{.max_event_capacity = options.max_event_capacity});
    WaitForRevision(0);
  }
  ~CustomResourceFixture() override { cacher_.reset(); }  // before the store it reads

  Interface& store() override { return *cacher_; }
  kv::Store& kv() override { return *kv_; }
  bool IsCacher() const override { return true; }
  void WaitForRevision(int64_t revision) override {
    REQUIRE(cacher_->WaitUntilFresh(static_cast<uint64_t>(revision), std::chrono::seconds(10)));
  }

 private:
  std::unique_ptr<kv::Store> kv_;
  std::unique_ptr<KvStore> store_;
  std::unique_ptr<cacher::Cacher> cacher_;
};

}  // namespace

std::unique_ptr<Fixture> MakeConformanceFixture(const FixtureOptions& options) {
  return std::make_unique<CustomResourceFixture>(options);
}

TEST_CASE("custom resource storage: objects live at /registry/<group>/<plural>/<ns>/<name>") {
  auto f = MakeConformanceFixture(FixtureOptions{});
  CHECK(PodKey("ns", "a") == "/kal.example.com/widgets/ns/a");
  auto created = MustCreate(f->store(), Pod("ns", "a"));
  auto raw = f->kv().Get("/registry/kal.example.com/widgets/ns/a");
  REQUIRE(raw.ok());
  REQUIRE(raw->kv.has_value());
  CHECK(nlohmann::json::parse(raw->kv->value)["metadata"]["name"] == "a");
  // Another CRD's plural in the same group is another collection.
  CHECK_FALSE(f->store().Create("/kal.example.com/gadgets/ns/a", Pod("ns", "a"), 0).ok());
  f->WaitForRevision(RV(*created));
  ListOptions all;
  all.recursive = true;
  auto list = f->store().GetList("/kal.example.com/widgets", all);
  REQUIRE(list.ok());
  CHECK(Names(list->items) == "ns/a");
}

}  // namespace kube::storage::testing
