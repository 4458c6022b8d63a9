// Helpers for the tests of CRD serving: a registry with the CRD strategy and a running
// CrdController (in memory, or over a data directory), bounded polling, and the CRDs the tests
// install. Test-only; include from doctest test sources.
#pragma once

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "apiextensions/crd_conditions.h"
#include "apiextensions/crd_controller.h"
#include "apiextensions/crd_strategy.h"
#include "registry/api_registry.h"
#include "registry/registry_test_util.h"
#include "storage/object_codec.h"

namespace kube::apiextensions::testing {

using Json = nlohmann::json;
using registry::StorePtr;
using registry::testing::At;
using registry::testing::Gone;
using registry::testing::MustCreate;
using registry::testing::MustGet;
using namespace std::chrono_literals;

inline constexpr const char* kGroup = "kal.example.com";
inline constexpr const char* kWidgets = "widgets.kal.example.com";

// Polls `done` until it holds or `within` passes; true when it held.
inline bool Eventually(const std::function<bool()>& done, std::chrono::milliseconds within = 10s) {
  const auto deadline = std::chrono::steady_clock::now() + within;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(2ms);
  }
  return true;
}

// widgets.kal.example.com: namespaced, short name "wd", one version v1 (served, storage) with the
// status subresource; spec.size defaults to 3 and is at least 1, spec.legacy is a plain string.
inline Json WidgetCrd() {
  return Json::parse(R"({
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "widgets.kal.example.com"},
    "spec": {
      "group": "kal.example.com", "scope": "Namespaced",
      "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "shortNames": ["wd"]},
      "versions": [{
        "name": "v1", "served": true, "storage": true,
        "schema": {"openAPIV3Schema": {"type": "object", "properties": {
          "spec": {"type": "object", "properties": {
            "size": {"type": "integer", "minimum": 1, "default": 3},
            "color": {"type": "string", "enum": ["red", "blue"]},
            "legacy": {"type": "string"}}},
          "status": {"type": "object", "properties": {"replicas": {"type": "integer"}}}}}},
        "subresources": {"status": {}}
      }]
    }
  })");
}

// A second CRD of the same group: `plural`.kal.example.com of kind `kind`.
inline Json OtherCrd(const std::string& plural, const std::string& kind, const Json& short_names = Json::array()) {
  Json crd = WidgetCrd();
  crd["metadata"]["name"] = plural + "." + kGroup;
  crd["spec"]["names"] = {{"plural", plural}, {"kind", kind}};
  if (!short_names.empty()) crd["spec"]["names"]["shortNames"] = short_names;
  return crd;
}

inline Json Widget(const std::string& name, Json spec = Json::object()) {
  return {{"metadata", {{"name", name}}}, {"spec", std::move(spec)}};
}

// The condition of `type` in the CRD's status, or an empty object.
inline Json Condition(const Json& crd, std::string_view type) {
  const Json* c = FindCondition(crd, type);
  return c && c->is_object() ? *c : Json::object();
}

// An ApiRegistry with the CRD strategy (as the server wires it) and a started CrdController.
struct CrdServer {
  explicit CrdServer(std::string data_dir = "") { Open(std::move(data_dir)); }
  ~CrdServer() { Close(); }

  void Open(std::string data_dir) {
    registry::RegistryOptions options;
    options.kv.data_dir = std::move(data_dir);
    options.strategies["apiextensions.k8s.io/customresourcedefinitions"] = std::make_shared<CrdStrategy>();
    auto opened = registry::ApiRegistry::Open(options, catalogue::Catalogue::BuiltIn());
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    registry = std::move(*opened);
    crds = registry->Find("apiextensions.k8s.io", "v1", "customresourcedefinitions");
    REQUIRE(crds != nullptr);
    controller = std::make_unique<CrdController>(registry.get());
    const Status started = controller->Start();
    REQUIRE_MESSAGE(started.ok(), started.ToString());
  }
  // The controller goes first: it uses the registry.
  void Close() {
    controller.reset();
    crds.reset();
    registry.reset();
  }

  StorePtr Find(const std::string& version, const std::string& plural = "widgets") const {
    return registry->Find(kGroup, version, plural);
  }
  // The stored CRD, or null when there is none.
  Json Crd(const std::string& name = kWidgets) const {
    auto got = crds->Get("", name, storage::GetOptions{});
    return got.ok() ? **got : Json();
  }
  void Install(const Json& crd) { MustCreate(crds.get(), "", crd); }
  // Waits for the condition to reach `status` and returns the CRD.
  Json WaitCondition(const std::string& name, std::string_view type, std::string_view status) const {
    Json crd;
    const bool reached = Eventually([&] {
      crd = Crd(name);
      return Condition(crd, type).value("status", "") == status;
    });
    REQUIRE_MESSAGE(reached, name << " " << type << " never became " << status << ": " << crd.dump());
    return crd;
  }
  // Waits until the CRD is Established and its `version` is served; returns the Store.
  StorePtr WaitServed(const std::string& name = kWidgets, const std::string& version = "v1") const {
    WaitCondition(name, "Established", "True");
    const std::string plural = name.substr(0, name.find('.'));
    StorePtr store;
    REQUIRE(Eventually([&] { return (store = Find(version, plural)) != nullptr; }));
    return store;
  }

  std::unique_ptr<registry::ApiRegistry> registry;
  std::unique_ptr<CrdController> controller;
  StorePtr crds;
};

// A fresh directory under the system's temporary directory, removed with the object.
struct TempDir {
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "crd-serving-XXXXXX").string();
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  std::string path;
};

}  // namespace kube::apiextensions::testing
