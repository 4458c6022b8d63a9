// Deleting a CRD through the registry (the cleanup finalizer: Terminating, creates refused 403,
// every custom resource deleted with their finalizers honoured, then the CRD and its serving
// gone), re-creating it, and serving again after a restart over a data directory.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "apiextensions/crd_serving_test_util.h"

namespace kube::apiextensions::testing {
namespace {

using storage::Object;
using storage::WatchEvent;
using storage::WatchEventType;
using storage::WatchStream;

constexpr const char* kHold = "kal.example.com/hold";

bool Served(const CrdServer& s, bool terminating) {
  auto store = s.Find("v1");
  if (!store) return false;
  const auto& verbs = store->info().verbs;
  return (std::find(verbs.begin(), verbs.end(), "create") == verbs.end()) == terminating;
}

// Drains a watch on its own thread, as the endpoints' watch handler does, until it closes: the
// types of the events seen, then "<closed>" (or "<timeout>").
class WatchDrain {
 public:
  explicit WatchDrain(storage::WatchStreamPtr w)
      : stream_(std::move(w)), thread_([this] {
          const auto deadline = storage::Clock::now() + 30s;
          while (true) {
            WatchEvent e;
            auto r = stream_->NextEvent(&e, deadline);
            if (r != WatchStream::Next::kEvent) {
              seen_ += r == WatchStream::Next::kClosed ? "<closed>" : "<timeout>";
              return;
            }
            if (e.type != WatchEventType::kBookmark) seen_ += std::string(storage::WatchEventTypeName(e.type)) + " ";
          }
        }) {}
  ~WatchDrain() {
    if (thread_.joinable()) thread_.join();
  }
  // Waits for the stream to end.
  std::string Seen() {
    thread_.join();
    return seen_;
  }

 private:
  storage::WatchStreamPtr stream_;
  std::string seen_;  // written by thread_ only, read after it ends
  std::thread thread_;
};

// Follows a CRD watch until the CRD is deleted: its last Terminating condition as "status
// reason", or "<not deleted>" when no DELETED event came.
std::string LastTerminatingBeforeDeletion(WatchStream& w) {
  std::string last;
  while (true) {
    WatchEvent e;
    if (w.NextEvent(&e, storage::Clock::now() + 10s) != WatchStream::Next::kEvent) return "<not deleted>";
    if (e.type == WatchEventType::kBookmark) continue;
    const Json cond = Condition(*e.object, "Terminating");
    if (!cond.empty()) last = cond["status"].get<std::string>() + " " + cond["reason"].get<std::string>();
    if (e.type == WatchEventType::kDeleted) return last;
  }
}

TEST_CASE("crd cleanup: a deleted CRD terminates, deletes its custom resources, waits for their finalizers") {
  CrdServer s;
  s.Install(WidgetCrd());
  StorePtr widgets = s.WaitServed();
  MustCreate(widgets.get(), "default", Widget("a"));
  MustCreate(widgets.get(), "kube-system", Widget("b"));
  Json held = Widget("held");
  held["metadata"]["finalizers"] = {kHold};
  MustCreate(widgets.get(), "default", held);
  auto list = widgets->List("", storage::ListOptions{});
  REQUIRE(list.ok());
  REQUIRE(list->items.size() == 3);
  auto cr_watch = widgets->Watch("", storage::ListOptions{.resource_version = list->resource_version});
  REQUIRE(cr_watch.ok());
  WatchDrain cr_events(std::move(*cr_watch));
  auto crd_watch = s.crds->Watch("", storage::ListOptions{.resource_version = list->resource_version});
  REQUIRE(crd_watch.ok());

  auto deleted = s.crds->Delete("", kWidgets, registry::DeleteOptions{});
  REQUIRE_MESSAGE(deleted.ok(), deleted.status().ToString());
  CHECK_FALSE(deleted->deleted);
  CHECK(At(deleted->object, "/metadata/deletionTimestamp").is_string());
  CHECK(At(deleted->object, "/metadata/finalizers") == Json::array({"customresourcecleanup.apiextensions.k8s.io"}));

  const Json terminating = s.WaitCondition(kWidgets, "Terminating", "True");
  CHECK(Condition(terminating, "Terminating")["reason"] == "InstanceDeletionInProgress");
  CHECK(Condition(terminating, "Terminating")["message"] == "CustomResource deletion is in progress");
  REQUIRE(Eventually([&] { return Served(s, /*terminating=*/true); }));
  widgets = s.Find("v1");
  CHECK(widgets->info().verbs == std::vector<std::string>{"delete", "deletecollection", "get", "list", "watch"});
  auto refused = widgets->Create("default", Widget("late"), registry::WriteOptions{});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().HttpCode() == 403);  // kube's forbidCreateAdmission
  CHECK(refused.status().message() ==
        "widgets.kal.example.com \"late\" is forbidden: create not allowed while custom resource definition is "
        "terminating");

  // Everything without a finalizer goes; the held one is marked and holds the CRD.
  REQUIRE(Eventually([&] {
    return Gone(widgets.get(), "default", "a") && Gone(widgets.get(), "kube-system", "b") &&
           At(MustGet(widgets.get(), "default", "held"), "/metadata/deletionTimestamp").is_string();
  }));
  CHECK_FALSE(Gone(s.crds.get(), "", kWidgets));
  CHECK(s.Find("v1") != nullptr);

  auto released = widgets->Update(
      "default", "held", "",
      [](const Object& cur) -> Result<Object> {
        Object next = cur;
        next["metadata"]["finalizers"] = Object::array();
        return next;
      },
      registry::WriteOptions{});
  REQUIRE_MESSAGE(released.ok(), released.status().ToString());
  CHECK(Gone(widgets.get(), "default", "held"));

  REQUIRE(Eventually([&] { return Gone(s.crds.get(), "", kWidgets); }));
  REQUIRE(Eventually([&] { return s.Find("v1") == nullptr; }));
  CHECK_FALSE(s.registry->CustomResources()->sets.contains(kWidgets));
  // The open watch saw every custom resource go, then ended.
  // (a deleted, held marked, b deleted, held released and deleted.)
  CHECK(cr_events.Seen() == "DELETED MODIFIED DELETED MODIFIED DELETED <closed>");

  // The CRD's own last writes: Terminating completed, then the finalizer removed and the CRD gone.
  CHECK(LastTerminatingBeforeDeletion(**crd_watch) == "False InstanceDeletionCompleted");
}

TEST_CASE("crd cleanup: a re-created CRD is served again with an empty collection") {
  CrdServer s;
  s.Install(WidgetCrd());
  StorePtr widgets = s.WaitServed();
  MustCreate(widgets.get(), "default", Widget("a"));
  const std::string first_uid = s.Crd()["metadata"]["uid"];
  REQUIRE(s.crds->Delete("", kWidgets, registry::DeleteOptions{}).ok());
  REQUIRE(Eventually([&] { return Gone(s.crds.get(), "", kWidgets) && s.Find("v1") == nullptr; }));
  auto raw = s.registry->kv()->Get("/registry/kal.example.com/widgets/default/a");
  REQUIRE(raw.ok());
  CHECK_FALSE(raw->kv.has_value());

  s.Install(WidgetCrd());
  CHECK(s.Crd()["metadata"]["uid"] != first_uid);
  widgets = s.WaitServed();
  auto list = widgets->List("", storage::ListOptions{});
  REQUIRE(list.ok());
  CHECK(list->items.empty());
  CHECK(Gone(widgets.get(), "default", "a"));
  MustCreate(widgets.get(), "default", Widget("a"));
}

TEST_CASE("crd cleanup: a CRD that was never established is deleted without serving anything") {
  CrdServer s;
  s.Install(WidgetCrd());
  s.WaitServed();
  s.Install(OtherCrd("gadgets", "Gadget", {"wd"}));
  const std::string gadgets = std::string("gadgets.") + kGroup;
  s.WaitCondition(gadgets, "NamesAccepted", "False");
  auto watch = s.crds->Watch("", storage::ListOptions{.resource_version = s.Crd(gadgets)["metadata"]["resourceVersion"]});
  REQUIRE(watch.ok());
  REQUIRE(s.crds->Delete("", gadgets, registry::DeleteOptions{}).ok());
  REQUIRE(Eventually([&] { return Gone(s.crds.get(), "", gadgets); }));
  CHECK(LastTerminatingBeforeDeletion(**watch) == "False NeverEstablished");
  CHECK(s.Find("v1", "gadgets") == nullptr);
  CHECK(s.Find("v1") != nullptr);  // the other CRD is untouched
}

TEST_CASE("crd persistence: with a data directory, CRDs and custom resources are served once Start() returns") {
  TempDir dir;
  std::string uid;
  {
    CrdServer s(dir.path);
    s.Install(WidgetCrd());
    StorePtr widgets = s.WaitServed();
    MustCreate(widgets.get(), "default", Widget("a", {{"size", 4}}));
    MustCreate(widgets.get(), "kube-system", Widget("b"));
    uid = (*MustGet(widgets.get(), "default", "a"))["metadata"]["uid"];
  }
  CrdServer s(dir.path);
  // No waiting: Start() has served every stored, established CRD.
  StorePtr widgets = s.Find("v1");
  REQUIRE(widgets != nullptr);
  auto a = MustGet(widgets.get(), "default", "a");
  CHECK((*a)["metadata"]["uid"] == uid);
  CHECK((*a)["spec"]["size"] == 4);
  auto list = widgets->List("", storage::ListOptions{});
  REQUIRE(list.ok());
  CHECK(list->items.size() == 2);
  CHECK(Condition(s.Crd(), "Established")["status"] == "True");
  // And it keeps being served and followed.
  MustCreate(widgets.get(), "default", Widget("c"));
  REQUIRE(s.crds->Delete("", kWidgets, registry::DeleteOptions{}).ok());
  REQUIRE(Eventually([&] { return Gone(s.crds.get(), "", kWidgets) && s.Find("v1") == nullptr; }));
}

}  // namespace
}  // namespace kube::apiextensions::testing
