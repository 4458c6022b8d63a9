// Helpers shared by the registry's test files: an in-memory ApiRegistry and terse object
// builders and checked store calls. Test-only; include from doctest test sources.
#pragma once

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "registry/api_registry.h"
#include "storage/object_codec.h"

namespace kube::registry::testing {

using storage::Object;
using storage::ObjectPtr;

// An in-memory registry of every built-in resource, with the stores the tests use most.
struct Reg {
  std::unique_ptr<ApiRegistry> r;
  Store *cm, *deploy, *pods, *ns, *svc, *croles;
  Reg() {
    auto opened = ApiRegistry::Open(RegistryOptions{}, catalogue::Catalogue::BuiltIn());
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    r = std::move(*opened);
    cm = Find("", "v1", "configmaps");
    deploy = Find("apps", "v1", "deployments");
    pods = Find("", "v1", "pods");
    ns = Find("", "v1", "namespaces");
    svc = Find("", "v1", "services");
    croles = Find("rbac.authorization.k8s.io", "v1", "clusterroles");
  }
  Store* Find(std::string_view g, std::string_view v, std::string_view res) {
    Store* s = r->Find(g, v, res).get();  // built-in stores live as long as the registry
    REQUIRE_MESSAGE(s != nullptr, res);
    return s;
  }
};

// The value at a JSON pointer ("/metadata/name"), null when absent (const operator[] on a
// missing key is undefined behaviour in nlohmann::json).
inline Object At(const Object& o, const char* ptr) {
  const Object::json_pointer p(ptr);
  return o.contains(p) ? o.at(p) : Object();
}
inline Object At(const ObjectPtr& o, const char* ptr) { return At(*o, ptr); }
inline std::string Rv(const ObjectPtr& o) { return storage::ObjectResourceVersion(*o); }

inline Object Named(std::string_view name, Object extra = Object::object()) {
  extra["metadata"]["name"] = std::string(name);
  return extra;
}
inline Object Cm(std::string_view name) { return Named(name, {{"data", {{"a", "1"}}}}); }
inline Object Pod(std::string_view name, std::string_view node = "") {
  Object pod = Named(name, {{"spec", {{"containers", {{{"name", "c"}, {"image", "nginx"}}}}}}});
  if (!node.empty()) pod["spec"]["nodeName"] = std::string(node);
  return pod;
}

inline ObjectPtr MustCreate(Store* s, std::string_view ns, Object obj) {
  auto r = s->Create(ns, std::move(obj), WriteOptions{});
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return *r;
}
inline ObjectPtr MustGet(Store* s, std::string_view ns, std::string_view name) {
  auto r = s->Get(ns, name, storage::GetOptions{});
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return *r;
}
inline bool Gone(Store* s, std::string_view ns, std::string_view name) {
  return s->Get(ns, name, storage::GetOptions{}).status().IsNotFound();
}

}  // namespace kube::registry::testing
