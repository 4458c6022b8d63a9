// CrdController and ApiRegistry together, without HTTP: names and conditions, serving custom
// resources through the registry's Store, name conflicts, several versions, change listeners.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "apiextensions/crd_serving_test_util.h"

namespace kube::apiextensions::testing {
namespace {

using storage::WatchEvent;
using storage::WatchEventType;
using storage::WatchStream;

std::vector<std::string> Verbs(const StorePtr& store) { return store->info().verbs; }

// The next non-bookmark event of `w` as "TYPE name apiVersion", or "<closed>" / "<timeout>".
std::string NextEvent(WatchStream& w) {
  const auto deadline = storage::Clock::now() + 10s;
  while (true) {
    WatchEvent e;
    auto r = w.NextEvent(&e, deadline);
    if (r == WatchStream::Next::kClosed) return "<closed>";
    if (r == WatchStream::Next::kTimeout) return "<timeout>";
    if (e.type == WatchEventType::kBookmark) continue;
    return std::string(storage::WatchEventTypeName(e.type)) + " " + At(*e.object, "/metadata/name").get<std::string>() +
           " " + At(*e.object, "/apiVersion").get<std::string>();
  }
}

TEST_CASE("crd controller: a new CRD gets its accepted names and NamesAccepted/Established conditions") {
  CrdServer s;
  CHECK(s.Find("v1") == nullptr);
  s.Install(WidgetCrd());
  const Json crd = s.WaitCondition(kWidgets, "Established", "True");
  CHECK(crd["status"]["acceptedNames"] == Json::parse(R"({"plural": "widgets", "singular": "widget", "kind": "Widget",
                                                          "listKind": "WidgetList", "shortNames": ["wd"]})"));
  const Json names = Condition(crd, "NamesAccepted");
  CHECK(names["status"] == "True");
  CHECK(names["reason"] == "NoConflicts");
  CHECK(names["message"] == "no conflicts found");
  const Json established = Condition(crd, "Established");
  CHECK(established["reason"] == "InitialNamesAccepted");
  CHECK(established["message"] == "the initial names have been accepted");
  CHECK(established["lastTransitionTime"].is_string());
  CHECK(crd["status"]["storedVersions"] == Json::array({"v1"}));
  CHECK(At(crd, "/metadata/finalizers").is_null());  // only a delete adds the cleanup finalizer
}

TEST_CASE("crd controller: an Established CRD is already served when its condition can be read") {
  // Clients (envtest, Helm, kubectl wait) create custom resources as soon as they see
  // Established: at the moment the registry starts serving, the stored CRD must not say so yet.
  CrdServer s;
  std::atomic<int> published{0};
  std::atomic<bool> established_before_served{false};
  s.registry->AddChangeListener([&] {
    auto served = s.registry->CustomResources();
    if (!served->sets.contains(kWidgets) || published++ > 0) return;
    if (Condition(s.Crd(), "Established").value("status", "") == "True") established_before_served = true;
  });
  s.Install(WidgetCrd());
  s.WaitServed();
  CHECK(published >= 1);
  CHECK_FALSE(established_before_served);
}

TEST_CASE("crd controller: custom resources are created, listed and watched through the registry's Store") {
  CrdServer s;
  s.Install(WidgetCrd());
  StorePtr widgets = s.WaitServed();
  CHECK(widgets->info().kind == "Widget");
  CHECK(widgets->info().namespaced);
  CHECK(widgets->info().short_names == std::vector<std::string>{"wd"});
  CHECK(widgets->Key("default", "a") == "/kal.example.com/widgets/default/a");
  CHECK(Verbs(widgets) ==
        std::vector<std::string>{"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"});

  auto a = MustCreate(widgets.get(), "default", Widget("a", {{"size", 2}}));
  CHECK((*a)["apiVersion"] == "kal.example.com/v1");
  CHECK((*a)["kind"] == "Widget");
  CHECK((*a)["metadata"]["generation"] == 1);
  CHECK((*a)["metadata"]["uid"].is_string());
  CHECK((*a)["metadata"]["creationTimestamp"].is_string());
  // The object sits at kube's key layout in the one kv store.
  auto raw = s.registry->kv()->Get("/registry/kal.example.com/widgets/default/a");
  REQUIRE(raw.ok());
  REQUIRE(raw->kv.has_value());
  CHECK(Json::parse(raw->kv->value)["spec"]["size"] == 2);

  auto list = widgets->List("", storage::ListOptions{});
  REQUIRE(list.ok());
  REQUIRE(list->items.size() == 1);
  CHECK(At(list->items[0], "/metadata/name") == "a");

  auto watch = widgets->Watch("default", storage::ListOptions{.resource_version = list->resource_version});
  REQUIRE(watch.ok());
  MustCreate(widgets.get(), "default", Widget("b"));
  CHECK(NextEvent(**watch) == "ADDED b kal.example.com/v1");
  REQUIRE(widgets->Delete("default", "a", registry::DeleteOptions{}).ok());
  CHECK(NextEvent(**watch) == "DELETED a kal.example.com/v1");

  auto dup = widgets->Create("default", Widget("b"), registry::WriteOptions{});
  REQUIRE_FALSE(dup.ok());
  CHECK(dup.status().IsAlreadyExists());
  CHECK(dup.status().message() == "widgets.kal.example.com \"b\" already exists");
}

TEST_CASE("crd controller: a conflicting short name is not accepted and not served until it is freed") {
  CrdServer s;
  s.Install(WidgetCrd());
  s.WaitServed();
  s.Install(OtherCrd("gadgets", "Gadget", {"wd", "gd"}));
  const std::string gadgets = std::string("gadgets.") + kGroup;
  Json crd = s.WaitCondition(gadgets, "NamesAccepted", "False");
  const Json names = Condition(crd, "NamesAccepted");
  CHECK(names["reason"] == "ShortNamesConflict");
  CHECK(names["message"] == "\"wd\" is already in use");
  const Json established = Condition(crd, "Established");
  CHECK(established["status"] == "False");
  CHECK(established["reason"] == "NotAccepted");
  CHECK(established["message"] == "not all names are accepted");
  // The other names are accepted; the conflicting short names are not.
  CHECK(crd["status"]["acceptedNames"]["plural"] == "gadgets");
  CHECK(crd["status"]["acceptedNames"]["kind"] == "Gadget");
  CHECK_FALSE(crd["status"]["acceptedNames"].contains("shortNames"));
  CHECK(s.Find("v1", "gadgets") == nullptr);
  CHECK_FALSE(s.registry->CustomResources()->sets.contains(gadgets));

  // The first CRD goes: its short name is free and the second CRD gets it.
  REQUIRE(s.crds->Delete("", kWidgets, registry::DeleteOptions{}).ok());
  REQUIRE(Eventually([&] { return Gone(s.crds.get(), "", kWidgets); }));
  crd = s.WaitCondition(gadgets, "NamesAccepted", "True");
  CHECK(crd["status"]["acceptedNames"]["shortNames"] == Json::array({"wd", "gd"}));
  StorePtr store = s.WaitServed(gadgets);
  CHECK(store->info().short_names == std::vector<std::string>{"wd", "gd"});
  CHECK(s.Find("v1") == nullptr);
}

TEST_CASE("crd controller: every served version is served; objects read through one carry its apiVersion") {
  CrdServer s;
  Json crd = WidgetCrd();
  Json beta = crd["spec"]["versions"][0];
  beta["name"] = "v1beta1";
  beta["storage"] = false;
  crd["spec"]["versions"].push_back(beta);
  Json old = beta;
  old["name"] = "v1alpha1";
  old["served"] = false;
  crd["spec"]["versions"].push_back(old);
  s.Install(crd);
  StorePtr v1 = s.WaitServed(kWidgets, "v1");
  StorePtr v1beta1 = s.WaitServed(kWidgets, "v1beta1");
  CHECK(s.Find("v1alpha1") == nullptr);
  auto served = s.registry->CustomResources();
  REQUIRE(served->sets.contains(kWidgets));
  std::vector<std::string> versions;
  for (const auto& v : served->sets.at(kWidgets)->versions) versions.push_back(v.info.version);
  CHECK(versions == std::vector<std::string>{"v1", "v1beta1"});  // kube's priority order

  MustCreate(v1beta1.get(), "default", Widget("old", {{"size", 5}}));
  MustCreate(v1.get(), "default", Widget("new", {{"size", 6}}));
  for (const auto& [store, api_version] : {std::pair{v1, "kal.example.com/v1"}, {v1beta1, "kal.example.com/v1beta1"}}) {
    CAPTURE(api_version);
    for (const char* name : {"old", "new"}) {
      auto got = MustGet(store.get(), "default", name);
      CHECK((*got)["apiVersion"] == api_version);
      CHECK((*got)["kind"] == "Widget");
    }
    auto list = store->List("default", storage::ListOptions{});
    REQUIRE(list.ok());
    REQUIRE(list->items.size() == 2);
    for (const auto& item : list->items) CHECK((*item)["apiVersion"] == api_version);
  }
  // Both versions share one storage: an update through one is read through the other.
  auto updated = v1beta1->Update(
      "default", "new", "",
      [](const storage::Object& cur) -> Result<storage::Object> {
        storage::Object next = cur;
        next["spec"]["size"] = 7;
        return next;
      },
      registry::WriteOptions{});
  REQUIRE_MESSAGE(updated.ok(), updated.status().ToString());
  CHECK((*MustGet(v1.get(), "default", "new"))["spec"]["size"] == 7);
  CHECK(s.Crd()["status"]["storedVersions"] == Json::array({"v1"}));
}

TEST_CASE("crd controller: change listeners follow serving and stopping") {
  CrdServer s;
  std::atomic<int> calls{0};
  s.registry->AddChangeListener([&] { ++calls; });
  const uint64_t before = s.registry->CustomResources()->generation;
  s.Install(WidgetCrd());
  s.WaitServed();
  CHECK(calls >= 1);
  auto served = s.registry->CustomResources();
  CHECK(served->generation > before);
  REQUIRE(served->resources.size() == 1);
  CHECK(served->resources[0].resource == "widgets");
  CHECK(served->stores.contains("kal.example.com/v1/widgets"));

  const int after_serving = calls;
  REQUIRE(s.crds->Delete("", kWidgets, registry::DeleteOptions{}).ok());
  REQUIRE(Eventually([&] { return s.Find("v1") == nullptr; }));
  CHECK(calls > after_serving);
  CHECK(s.registry->CustomResources()->resources.empty());
  CHECK(s.registry->CustomResources()->stores.empty());
}

TEST_CASE("crd controller: a reset takes CRDs with it — serving follows before Reset returns") {
  CrdServer s;
  REQUIRE(s.registry->MarkInitialState().ok());
  s.Install(WidgetCrd());
  StorePtr widgets = s.WaitServed();
  MustCreate(widgets.get(), "default", Widget("a", {{"size", 1}}));
  REQUIRE(s.registry->SaveSnapshot("with-widgets").ok());
  const uint64_t generation = s.registry->CustomResources()->generation;

  // Created after the initial state: gone, with its custom resources, and no longer served.
  REQUIRE(s.registry->Reset().ok());
  CHECK(s.Crd().is_null());
  CHECK(s.Find("v1") == nullptr);
  CHECK_FALSE(s.registry->CustomResources()->sets.contains(kWidgets));

  // Restored: served again at once, with its custom resource.
  REQUIRE(s.registry->RestoreSnapshot("with-widgets").ok());
  StorePtr again = s.Find("v1");
  REQUIRE(again != nullptr);
  auto a = again->Get("default", "a", storage::GetOptions{});
  REQUIRE(a.ok());
  CHECK((**a)["spec"]["size"] == 1);
  CHECK(Condition(s.Crd(), "Established").value("status", "") == "True");

  // Restoring the same state again re-serves nothing (the CRD object did not change). The
  // controller relists on its own once its watch ended with the first restore; that settles first.
  std::this_thread::sleep_for(300ms);
  const uint64_t served_generation = s.registry->CustomResources()->generation;
  CHECK(served_generation > generation);
  REQUIRE(s.registry->RestoreSnapshot("with-widgets").ok());
  std::this_thread::sleep_for(300ms);  // the controller's own relist after its watch ended
  CHECK(s.registry->CustomResources()->generation == served_generation);
  CHECK(s.Find("v1") != nullptr);
}

}  // namespace
}  // namespace kube::apiextensions::testing
