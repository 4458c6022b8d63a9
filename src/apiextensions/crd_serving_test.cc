// The serving machinery without HTTP: a registry with the CRD strategy, a CrdController, CRDs
// written through the CRD store, and custom resources through the Stores the controller serves.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <functional>
#include <thread>

#include "apiextensions/crd_controller.h"
#include "apiextensions/crd_strategy.h"
#include "registry/api_registry.h"

namespace kube::apiextensions {
namespace {

using nlohmann::json;
using storage::Object;

// Polls `done` until it holds or five seconds pass.
bool Eventually(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return done();
}

json Crd(const std::string& plural, const std::string& kind, std::vector<std::string> short_names = {}) {
  json crd = json::parse(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
    "spec":{"group":"test.example.com","scope":"Namespaced",
      "versions":[{"name":"v1","served":true,"storage":true,
        "schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",
          "properties":{"size":{"type":"integer","maximum":10},"color":{"type":"string","default":"red"}}}}}}}]}})");
  crd["metadata"]["name"] = plural + ".test.example.com";
  crd["spec"]["names"] = {{"plural", plural}, {"kind", kind}};
  if (!short_names.empty()) crd["spec"]["names"]["shortNames"] = short_names;
  return crd;
}

struct Fixture {
  std::unique_ptr<registry::ApiRegistry> registry;
  std::unique_ptr<CrdController> controller;
  registry::StorePtr crds;

  explicit Fixture(const std::string& data_dir = "") {
    registry::RegistryOptions options;
    options.kv.data_dir = data_dir;
    options.strategies["apiextensions.k8s.io/customresourcedefinitions"] = std::make_shared<CrdStrategy>();
    auto opened = registry::ApiRegistry::Open(options, catalogue::Catalogue::BuiltIn());
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    registry = std::move(*opened);
    controller = std::make_unique<CrdController>(registry.get());
    REQUIRE(controller->Start().ok());
    crds = registry->Find("apiextensions.k8s.io", "v1", "customresourcedefinitions");
    REQUIRE(crds);
  }
  ~Fixture() {
    controller.reset();  // before the registry it uses
    registry.reset();
  }
  std::string Condition(const std::string& crd, const std::string& type) {
    auto got = crds->Get("", crd, storage::GetOptions{});
    if (!got.ok()) return "gone";
    for (const auto& c : (**got)["status"].value("conditions", json::array())) {
      if (c.value("type", "") == type) return c.value("status", "") + "/" + c.value("reason", "");
    }
    return "";
  }
  registry::StorePtr Widgets() { return registry->Find("test.example.com", "v1", "widgets"); }
};

TEST_CASE("a CRD is established and its custom resources are served through a Store") {
  Fixture f;
  REQUIRE(f.crds->Create("", Crd("widgets", "Widget", {"wd"}), {}).ok());
  REQUIRE(Eventually([&] { return f.Widgets() != nullptr; }));
  CHECK(f.Condition("widgets.test.example.com", "NamesAccepted") == "True/NoConflicts");
  CHECK(f.Condition("widgets.test.example.com", "Established") == "True/InitialNamesAccepted");
  auto widgets = f.Widgets();
  auto created = widgets->Create(
      "default", json::parse(R"({"metadata":{"name":"w1"},"spec":{"size":3}})"), {});
  REQUIRE_MESSAGE(created.ok(), created.status().ToString());
  CHECK((**created)["metadata"]["generation"] == 1);
  auto read = widgets->Get("default", "w1", storage::GetOptions{});
  REQUIRE(read.ok());
  // Defaulted on read from storage, served with the version's apiVersion and kind.
  CHECK((**read)["spec"]["color"] == "red");
  CHECK((**read)["apiVersion"] == "test.example.com/v1");
  CHECK((**read)["kind"] == "Widget");
  auto invalid = widgets->Create("default", json::parse(R"({"metadata":{"name":"w2"},"spec":{"size":11}})"), {});
  CHECK(invalid.status().code() == StatusCode::kInvalid);
  CHECK(invalid.status().message().find("spec.size") != std::string::npos);
}

TEST_CASE("a conflicting short name is not accepted until the CRD holding it goes") {
  Fixture f;
  REQUIRE(f.crds->Create("", Crd("widgets", "Widget", {"wd"}), {}).ok());
  REQUIRE(Eventually([&] { return f.Widgets() != nullptr; }));
  REQUIRE(f.crds->Create("", Crd("gizmos", "Gizmo", {"wd"}), {}).ok());
  REQUIRE(Eventually([&] { return f.Condition("gizmos.test.example.com", "NamesAccepted") == "False/ShortNamesConflict"; }));
  CHECK(f.registry->Find("test.example.com", "v1", "gizmos") == nullptr);
  REQUIRE(f.crds->Delete("", "widgets.test.example.com", registry::DeleteOptions{}).ok());
  CHECK(Eventually([&] { return f.Condition("widgets.test.example.com", "Established") == "gone"; }));
  CHECK(Eventually([&] { return f.registry->Find("test.example.com", "v1", "gizmos") != nullptr; }));
  CHECK(f.Widgets() == nullptr);
}

TEST_CASE("deleting a CRD deletes its custom resources first, honouring their finalizers") {
  Fixture f;
  REQUIRE(f.crds->Create("", Crd("widgets", "Widget"), {}).ok());
  REQUIRE(Eventually([&] { return f.Widgets() != nullptr; }));
  auto widgets = f.Widgets();
  REQUIRE(widgets->Create("default", json::parse(R"({"metadata":{"name":"held","finalizers":["example.com/hold"]}})"), {}).ok());
  REQUIRE(widgets->Create("default", json::parse(R"({"metadata":{"name":"free"}})"), {}).ok());
  auto watch = widgets->Watch("", storage::ListOptions{.resource_version = "0"});
  REQUIRE(watch.ok());

  auto deleted = f.crds->Delete("", "widgets.test.example.com", registry::DeleteOptions{});
  REQUIRE(deleted.ok());
  CHECK_FALSE(deleted->deleted);  // held by the cleanup finalizer
  REQUIRE(Eventually([&] { return f.Condition("widgets.test.example.com", "Terminating") == "True/InstanceDeletionInProgress"; }));
  // Creates are refused while it terminates; the held object stays until its finalizer goes.
  auto create = f.Widgets()->Create("default", json::parse(R"({"metadata":{"name":"late"}})"), {});
  CHECK(create.status().code() == StatusCode::kForbidden);
  CHECK(Eventually([&] { return !f.Widgets()->Get("default", "free", storage::GetOptions{}).ok(); }));
  CHECK(f.Condition("widgets.test.example.com", "Terminating") == "True/InstanceDeletionInProgress");
  auto released = f.Widgets()->Update(
      "default", "held", "",
      [](const Object& cur) -> Result<Object> {
        Object next = cur;
        next["metadata"]["finalizers"] = json::array();
        return next;
      },
      {});
  REQUIRE_MESSAGE(released.ok(), released.status().ToString());
  CHECK(Eventually([&] { return f.Condition("widgets.test.example.com", "Established") == "gone"; }));
  CHECK(Eventually([&] { return f.Widgets() == nullptr; }));
  // The open watch of the custom resources ends, after it has seen both objects deleted.
  storage::WatchEvent event;
  bool closed = false;
  std::vector<std::string> deletions;
  for (int i = 0; i < 100 && !closed; ++i) {
    auto next = (*watch)->NextEvent(&event, storage::Clock::now() + std::chrono::milliseconds(50));
    closed = next == storage::WatchStream::Next::kClosed;
    if (next == storage::WatchStream::Next::kEvent && event.type == storage::WatchEventType::kDeleted) {
      deletions.push_back((*event.object)["metadata"]["name"].get<std::string>());
    }
  }
  CHECK(closed);
  CHECK(deletions == std::vector<std::string>{"free", "held"});
  // Re-created, it starts empty.
  REQUIRE(f.crds->Create("", Crd("widgets", "Widget"), {}).ok());
  REQUIRE(Eventually([&] { return f.Widgets() != nullptr; }));
  auto list = f.Widgets()->List("", storage::ListOptions{});
  REQUIRE(list.ok());
  CHECK(list->items.empty());
}

TEST_CASE("with a data dir, CRDs and their resources are served again once Start returns") {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("crd-serving-test-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  {
    Fixture f(dir.string());
    REQUIRE(f.crds->Create("", Crd("widgets", "Widget"), {}).ok());
    REQUIRE(Eventually([&] { return f.Widgets() != nullptr; }));
    REQUIRE(f.Widgets()->Create("default", json::parse(R"({"metadata":{"name":"kept"}})"), {}).ok());
  }
  {
    Fixture f(dir.string());
    auto widgets = f.Widgets();  // no waiting: Start() served it
    REQUIRE(widgets != nullptr);
    auto kept = widgets->Get("default", "kept", storage::GetOptions{});
    REQUIRE(kept.ok());
    CHECK((**kept)["metadata"]["name"] == "kept");
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kube::apiextensions
