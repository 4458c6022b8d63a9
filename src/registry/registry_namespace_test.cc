// NamespaceLifecycle through ApiRegistry (in memory): the initial namespaces, undeletable
// namespaces, termination with content and finalizers (rest.md §4.1 item 5, §4.3, §2.1); and
// list/watch through registry::Store across namespaces (field selectors, watch events).
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <thread>

#include "registry/api_registry.h"
#include "registry/registry_test_util.h"

namespace kube::registry {
namespace {

using namespace testing;
using T = storage::WatchEventType;

ObjectPtr MustUpdate(Store* s, std::string_view ns, std::string_view name, std::function<void(Object&)> edit) {
  auto r = s->Update(ns, name, "", [edit](const Object& cur) -> Result<Object> {
    Object next = cur;
    edit(next);
    return next;
  }, WriteOptions{});
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return *r;
}
template <class R>
void ExpectError(const R& r, StatusCode code, std::string_view message) {
  REQUIRE_FALSE(r.ok());
  CHECK_MESSAGE(r.status().code() == code, r.status().ToString());
  CHECK(r.status().message() == message);
}
storage::ListOptions Selecting(std::string_view fields) {
  storage::ListOptions o;
  auto f = storage::FieldSelector::Parse(fields);
  REQUIRE(f.ok());
  o.predicate.field = *f;
  return o;
}
template <class F>
bool Eventually(F pred, std::chrono::milliseconds limit = std::chrono::seconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return pred();
}

// ---------------------------------------------------------------------------------------------
// Namespaces

TEST_CASE("the four initial namespaces are Active, finalized by kubernetes and labelled") {
  Reg reg;
  for (const char* name : {"default", "kube-system", "kube-public", "kube-node-lease"}) {
    CAPTURE(name);
    auto ns = MustGet(reg.ns, "", name);
    CHECK(At(ns, "/status/phase") == "Active");
    CHECK(At(ns, "/spec/finalizers") == Object::array({"kubernetes"}));
    CHECK(At(ns, "/metadata/labels/kubernetes.io~1metadata.name") == name);
    CHECK(At(ns, "/kind") == "Namespace");
    CHECK(At(ns, "/metadata/namespace").is_null());
  }
  auto created = MustCreate(reg.ns, "", Named("fresh"));
  CHECK(At(created, "/status/phase") == "Active");
  CHECK(At(created, "/spec/finalizers") == Object::array({"kubernetes"}));
  CHECK(At(created, "/metadata/labels/kubernetes.io~1metadata.name") == "fresh");
  // The label is the server's.
  auto upd = MustUpdate(reg.ns, "", "fresh",
                        [](Object& o) { o["metadata"]["labels"]["kubernetes.io/metadata.name"] = "x"; });
  CHECK(At(upd, "/metadata/labels/kubernetes.io~1metadata.name") == "fresh");
}

TEST_CASE("default, kube-system and kube-public cannot be deleted; kube-node-lease can") {
  Reg reg;
  for (const char* name : {"default", "kube-system", "kube-public"}) {
    auto r = reg.ns->Delete("", name, DeleteOptions{});
    ExpectError(r, StatusCode::kForbidden,
                "namespaces \"" + std::string(name) + "\" is forbidden: this namespace may not be deleted");
    CHECK(r.status().HttpCode() == 403);
    CHECK(r.status().details().name == name);
    CHECK(r.status().details().kind == "namespaces");
    CHECK(At(MustGet(reg.ns, "", name), "/status/phase") == "Active");
  }
  auto lease = reg.ns->Delete("", "kube-node-lease", DeleteOptions{});
  REQUIRE(lease.ok());
  CHECK(At(lease->object, "/status/phase") == "Terminating");
  ExpectError(reg.ns->Delete("", "missing", DeleteOptions{}), StatusCode::kNotFound,
              "namespaces \"missing\" not found");
}

TEST_CASE("a deleted namespace terminates, refuses new content and goes once its content is gone") {
  Reg reg;
  MustCreate(reg.ns, "", Named("doomed"));
  MustCreate(reg.cm, "doomed", Named("plain"));
  MustCreate(reg.cm, "doomed", Named("held", {{"metadata", {{"finalizers", {"example.com/hold"}}}}}));

  auto r = reg.ns->Delete("", "doomed", DeleteOptions{});
  REQUIRE(r.ok());
  CHECK_FALSE(r->deleted);
  CHECK(At(r->object, "/status/phase") == "Terminating");
  CHECK(At(r->object, "/metadata/deletionTimestamp").is_string());
  CHECK(At(MustGet(reg.ns, "", "doomed"), "/status/phase") == "Terminating");
  // Admission reads the watch cache; wait for it to see the phase (see the race test below).
  CHECK(Eventually([&] {
    auto cached = reg.ns->Get("", "doomed", storage::GetOptions{.resource_version = "0"});
    return cached.ok() && At(*cached, "/status/phase") == "Terminating";
  }));

  auto create = reg.cm->Create("doomed", Named("new"), WriteOptions{});
  ExpectError(create, StatusCode::kForbidden,
              "configmaps \"new\" is forbidden: unable to create new content in namespace doomed because it is "
              "being terminated");
  REQUIRE(create.status().details().causes.size() == 1);
  CHECK(create.status().details().causes[0].type == "NamespaceTerminating");
  CHECK(create.status().details().causes[0].message == "namespace doomed is being terminated");
  CHECK(create.status().details().causes[0].field == "metadata.namespace");

  ExpectError(reg.ns->Delete("", "doomed", DeleteOptions{}), StatusCode::kConflict,
              "Operation cannot be fulfilled on namespaces \"doomed\": The system is ensuring all content is "
              "removed from this namespace.  Upon completion, this namespace will automatically be purged by "
              "the system.");

  CHECK(Eventually([&] { return Gone(reg.cm, "doomed", "plain"); }));
  CHECK(Eventually([&] { return At(MustGet(reg.cm, "doomed", "held"), "/metadata/deletionTimestamp").is_string(); }));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  CHECK_FALSE(Gone(reg.ns, "", "doomed"));  // the finalizer holds it

  // Updates (unlike creates) are admitted; dropping the finalizer lets everything go.
  MustUpdate(reg.cm, "doomed", "held", [](Object& o) { o["metadata"].erase("finalizers"); });
  CHECK(Gone(reg.cm, "doomed", "held"));
  CHECK(Eventually([&] { return Gone(reg.ns, "", "doomed"); }));
  CHECK(reg.cm->Create("doomed", Named("late"), WriteOptions{}).status().IsNotFound());
  // The name can be used again.
  CHECK(At(MustCreate(reg.ns, "", Named("doomed")), "/status/phase") == "Active");
}

// BUG (namespace_lifecycle.cc NamespaceLifecycle::Admit): admission reads the namespace from the
// watch cache (resourceVersion "0"), which may not yet show the Terminating phase that Delete has
// just written, so a create right after the delete is admitted. kube's NamespaceLifecycle puts a
// namespace it sees deleted into forceLiveLookupCache and reads it live for 30 s, so such a create
// is always 403. (This loop let 1 to 26 of 30 creates through per run.)
TEST_CASE("a create right after its namespace's delete is refused") {
  Reg reg;
  int admitted = 0;
  for (int i = 0; i < 30; ++i) {
    const std::string name = "race-" + std::to_string(i);
    MustCreate(reg.ns, "", Named(name));
    for (const char* cm : {"x1", "x2", "x3"}) MustCreate(reg.cm, name, Cm(cm));
    REQUIRE(reg.ns->Delete("", name, DeleteOptions{}).ok());
    if (reg.cm->Create(name, Cm("late"), WriteOptions{}).ok()) ++admitted;
  }
  CHECK(admitted == 0);
}

// BUG (namespace_lifecycle.cc PrepareNamespaceObject): kube's namespaceStrategy.PrepareForCreate
// forces status {phase: Active} and always adds the kubernetes finalizer (appending it to
// client-sent finalizers); the code keeps a client status and then adds no finalizer at all.
TEST_CASE("namespace create forces phase Active and the kubernetes finalizer") {
  Reg reg;
  auto a = MustCreate(reg.ns, "", Named("ns-a", {{"status", {{"phase", "Terminating"}}}}));
  CHECK(At(a, "/status/phase") == "Active");
  CHECK(At(a, "/spec/finalizers") == Object::array({"kubernetes"}));
  auto b = MustCreate(reg.ns, "", Named("ns-b", {{"spec", {{"finalizers", {"example.com/x"}}}}}));
  CHECK(At(b, "/spec/finalizers") == Object::array({"example.com/x", "kubernetes"}));
}

TEST_CASE("a namespace's name label follows a generated name") {
  Reg reg;
  auto a = MustCreate(reg.ns, "", Object{{"metadata", {{"generateName", "gen-"}}}});
  const std::string name = At(a, "/metadata/name");
  CHECK(name.starts_with("gen-"));
  CHECK(At(a, "/metadata/labels/kubernetes.io~1metadata.name") == name);
}

// BUG (store_update.cc PrepareForUpdate / PrepareNamespaceObject): kube's
// namespaceStrategy.PrepareForUpdate copies spec.finalizers from the stored namespace (only
// /finalize may change them); here a PUT without spec drops them.
TEST_CASE("namespace update keeps spec.finalizers") {
  Reg reg;
  MustCreate(reg.ns, "", Named("keep"));
  auto upd = reg.ns->Update("", "keep", "", [](const Object&) -> Result<Object> {
    return Named("keep", {{"metadata", {{"labels", {{"team", "a"}}}}}});
  }, WriteOptions{});
  REQUIRE(upd.ok());
  CHECK(At(*upd, "/metadata/labels/team") == "a");
  CHECK(At(*upd, "/spec/finalizers") == Object::array({"kubernetes"}));
}

// BUG (store_delete.cc Store::Delete): kube's namespace REST Delete sets only deletionTimestamp
// and phase Terminating; it never sets deletionGracePeriodSeconds on a namespace.
TEST_CASE("a terminating namespace has no deletionGracePeriodSeconds") {
  Reg reg;
  MustCreate(reg.ns, "", Named("grace"));
  auto r = reg.ns->Delete("", "grace", DeleteOptions{});
  REQUIRE(r.ok());
  CHECK(At(r->object, "/metadata/deletionGracePeriodSeconds").is_null());
}

// ---------------------------------------------------------------------------------------------
// List and watch

TEST_CASE("field selectors: unsupported fields are 400 with the kind's message; spec.nodeName works") {
  Reg reg;
  ExpectError(reg.pods->List("default", Selecting("spec.foo=x")), StatusCode::kBadRequest,
              "field label not supported: spec.foo");
  ExpectError(reg.cm->List("default", Selecting("spec.foo=x")), StatusCode::kBadRequest,
              "\"spec.foo\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"");
  CHECK(reg.cm->Watch("default", Selecting("spec.foo=x")).status().code() == StatusCode::kBadRequest);

  MustCreate(reg.pods, "default", Pod("on1", "node-1"));
  MustCreate(reg.pods, "default", Pod("on2", "node-2"));
  MustCreate(reg.pods, "kube-system", Pod("sys1", "node-1"));
  auto names = [&](std::string_view ns, std::string_view fields) {
    auto l = reg.pods->List(ns, Selecting(fields));
    REQUIRE_MESSAGE(l.ok(), l.status().ToString());
    std::set<std::string> out;
    for (const auto& p : l->items) out.insert(At(p, "/metadata/name").get<std::string>());
    return out;
  };
  CHECK(names("", "spec.nodeName=node-1") == std::set<std::string>{"on1", "sys1"});
  CHECK(names("default", "spec.nodeName!=node-1") == std::set<std::string>{"on2"});
  CHECK(names("default", "metadata.name=on2") == std::set<std::string>{"on2"});
}

// BUG (kind_rules.cc CheckFieldSelector): kinds without their own field-label conversion use
// runtime.DefaultMetaV1FieldSelectorConversion, which accepts metadata.namespace even for
// cluster-scoped kinds and always lists both fields in its message.
TEST_CASE("cluster-scoped default field selectors accept metadata.namespace") {
  Reg reg;
  MustCreate(reg.croles, "", Named("r1"));
  auto l = reg.croles->List("", Selecting("metadata.namespace="));
  REQUIRE_MESSAGE(l.ok(), l.status().ToString());
  CHECK(l->items.size() >= 1);
  ExpectError(reg.croles->List("", Selecting("spec.foo=x")), StatusCode::kBadRequest,
              "\"spec.foo\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"");
}

TEST_CASE("a watch from a resourceVersion sees ADDED, MODIFIED and DELETED") {
  Reg reg;
  auto list = reg.cm->List("default", storage::ListOptions{});
  REQUIRE(list.ok());
  storage::ListOptions opts;
  opts.resource_version = list->resource_version;
  auto w = reg.cm->Watch("default", opts);
  REQUIRE_MESSAGE(w.ok(), w.status().ToString());
  MustCreate(reg.cm, "default", Cm("w"));
  MustCreate(reg.cm, "kube-system", Cm("elsewhere"));
  MustUpdate(reg.cm, "default", "w", [](Object& o) { o["data"]["a"] = "2"; });
  REQUIRE(reg.cm->Delete("default", "w", DeleteOptions{}).ok());
  std::vector<std::pair<T, std::string>> seen;
  storage::WatchEvent ev;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (seen.size() < 3 && (*w)->NextEvent(&ev, deadline) == storage::WatchStream::Next::kEvent) {
    if (ev.type == T::kBookmark) continue;
    REQUIRE(ev.object);
    seen.emplace_back(ev.type, At(ev.object, "/metadata/name").get<std::string>());
    if (ev.type == T::kModified) CHECK(At(ev.object, "/data/a") == "2");
  }
  CHECK(seen == decltype(seen){{T::kAdded, "w"}, {T::kModified, "w"}, {T::kDeleted, "w"}});
}

}  // namespace
}  // namespace kube::registry
