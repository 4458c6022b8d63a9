// The naming and establishing controllers' logic and the condition helpers.

#include "apiextensions/crd_names.h"

#include <doctest/doctest.h>

#include "apiextensions/apiextensions_test_util.h"

namespace kube::apiextensions {
namespace {

using namespace std::chrono_literals;
using testing::J;
using testing::Json;

const auto kT0 = std::chrono::system_clock::time_point(std::chrono::seconds(1700000000));  // 2023-11-14T22:13:20Z

// A stored CRD of group example.com with the given spec names and accepted names.
Json Crd(const std::string& name, const char* names, const char* accepted = nullptr) {
  Json crd = {{"metadata", {{"name", name}}}, {"spec", {{"group", "example.com"}, {"names", J(names)}}}};
  crd["status"]["acceptedNames"] = accepted ? J(accepted) : J(R"({"plural": "", "kind": ""})");
  return crd;
}

TEST_CASE("fresh names are accepted, then established") {
  Json crd = Crd("widgets.example.com",
                 R"({"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList",
                     "shortNames": ["wd"], "categories": ["all"]})");
  REQUIRE(SyncNames(&crd, {}, kT0));
  CHECK(crd["status"]["acceptedNames"] ==
        J(R"({"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList", "shortNames": ["wd"], "categories": ["all"]})"));
  CHECK(crd["status"]["conditions"] == J(R"([
    {"type": "NamesAccepted", "status": "True", "reason": "NoConflicts", "message": "no conflicts found", "lastTransitionTime": "2023-11-14T22:13:20Z"},
    {"type": "Established", "status": "False", "reason": "Installing", "message": "the initial names have been accepted", "lastTransitionTime": "2023-11-14T22:13:20Z"}])"));
  // Names now equal: nothing more to do.
  CHECK_FALSE(SyncNames(&crd, {}, kT0 + 1s));

  REQUIRE(SyncEstablished(&crd, kT0 + 2s));
  CHECK(crd["status"]["conditions"][1] ==
        J(R"({"type": "Established", "status": "True", "reason": "InitialNamesAccepted", "message": "the initial names have been accepted", "lastTransitionTime": "2023-11-14T22:13:22Z"})"));
  CHECK_FALSE(SyncEstablished(&crd, kT0 + 3s));
  CHECK(IsConditionTrue(crd, "Established"));
}

TEST_CASE("conflicts with other CRDs of the group") {
  const Json other = Crd("gadgets.example.com", R"({"plural": "gadgets", "kind": "Gadget"})",
                         R"({"plural": "gadgets", "singular": "gadget", "kind": "Gadget", "listKind": "GadgetList", "shortNames": ["gd", "g"]})");
  const Json other_group = [] {
    Json c = Crd("things.other.io", R"({"plural": "things", "kind": "Thing"})",
                 R"({"plural": "things", "singular": "thing", "kind": "Thing", "listKind": "ThingList"})");
    c["spec"]["group"] = "other.io";
    return c;
  }();
  struct Case {
    const char* name;
    const char* names;
    const char* reason;
    const char* message;
    const char* accepted;
  };
  const Case cases[] = {
      {"plural taken", R"({"plural": "gadgets", "singular": "w", "kind": "W", "listKind": "WList"})", "PluralConflict",
       R"("gadgets" is already in use)", R"({"plural": "", "singular": "w", "kind": "W", "listKind": "WList"})"},
      {"singular vs other's short name", R"({"plural": "ws", "singular": "gd", "kind": "W", "listKind": "WList"})",
       "SingularConflict", R"("gd" is already in use)", R"({"plural": "ws", "kind": "W", "listKind": "WList"})"},
      {"short names: all conflicts listed", R"({"plural": "ws", "singular": "w", "kind": "W", "listKind": "WList", "shortNames": ["g", "ok", "gadget"]})",
       "ShortNamesConflict", R"(["g" is already in use, "gadget" is already in use])",
       R"({"plural": "ws", "singular": "w", "kind": "W", "listKind": "WList"})"},
      {"one short name conflict", R"({"plural": "ws", "singular": "w", "kind": "W", "listKind": "WList", "shortNames": ["gd"]})",
       "ShortNamesConflict", R"("gd" is already in use)", R"({"plural": "ws", "singular": "w", "kind": "W", "listKind": "WList"})"},
      {"kind taken", R"({"plural": "ws", "singular": "w", "kind": "Gadget", "listKind": "WList"})", "KindConflict",
       R"("Gadget" is already in use)", R"({"plural": "ws", "singular": "w", "kind": "", "listKind": "WList"})"},
      {"listKind vs kind namespace; the last conflict wins the reason",
       R"({"plural": "gadgets", "singular": "w", "kind": "W", "listKind": "Gadget"})", "ListKindConflict",
       R"("Gadget" is already in use)", R"({"plural": "", "singular": "w", "kind": "W"})"},
      {"names of other groups do not count", R"({"plural": "things", "singular": "thing", "kind": "Thing", "listKind": "ThingList"})",
       "NoConflicts", "no conflicts found", R"({"plural": "things", "singular": "thing", "kind": "Thing", "listKind": "ThingList"})"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    Json crd = Crd("x.example.com", c.names);
    const NamingResult r = ComputeNames(crd, {&other, &other_group, &crd});
    CHECK(r.names_accepted.reason == c.reason);
    CHECK(r.names_accepted.message == c.message);
    CHECK(r.names_accepted.status == (std::string(c.reason) == "NoConflicts" ? "True" : "False"));
    CHECK(r.accepted_names == J(c.accepted));
    if (r.names_accepted.status == "False") {
      CHECK(r.established.reason == "NotAccepted");
      CHECK(r.established.message == "not all names are accepted");
      CHECK(r.established.status == "False");
    }
  }
}

TEST_CASE("renaming keeps own accepted names, frees nothing until accepted, and keeps lastTransitionTime") {
  Json crd = Crd("widgets.example.com", R"({"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"})");
  REQUIRE(SyncNames(&crd, {}, kT0));
  REQUIRE(SyncEstablished(&crd, kT0));
  const Json other = Crd("gadgets.example.com", R"({"plural": "gadgets", "kind": "Gadget"})",
                         R"({"plural": "gadgets", "singular": "gadget", "kind": "Gadget", "listKind": "GadgetList"})");
  // Asking for a short name that another CRD holds: NamesAccepted turns False, Established stays True.
  crd["spec"]["names"]["shortNames"] = {"gadget"};
  REQUIRE(SyncNames(&crd, {&other}, kT0 + 10s));
  CHECK(FindCondition(crd, "NamesAccepted")->at("reason") == "ShortNamesConflict");
  CHECK(FindCondition(crd, "NamesAccepted")->at("lastTransitionTime") == "2023-11-14T22:13:30Z");
  CHECK(FindCondition(crd, "Established")->at("status") == "True");
  CHECK(FindCondition(crd, "Established")->at("lastTransitionTime") == "2023-11-14T22:13:20Z");
  CHECK_FALSE(crd["status"]["acceptedNames"].contains("shortNames"));
  // Same result again: no write.
  CHECK_FALSE(SyncNames(&crd, {&other}, kT0 + 20s));
  // A fresh short name is accepted; the condition goes back to True with a new time.
  crd["spec"]["names"]["shortNames"] = {"wd"};
  REQUIRE(SyncNames(&crd, {&other}, kT0 + 30s));
  CHECK(crd["status"]["acceptedNames"]["shortNames"] == J(R"(["wd"])"));
  CHECK(FindCondition(crd, "NamesAccepted")->at("reason") == "NoConflicts");
  CHECK(FindCondition(crd, "NamesAccepted")->at("lastTransitionTime") == "2023-11-14T22:13:50Z");
}

TEST_CASE("two CRDs racing for a plural: the first accepted wins") {
  Json a = Crd("foos.example.com", R"({"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList"})");
  Json b = Crd("foos2.example.com", R"({"plural": "foos", "singular": "foo2", "kind": "Foo2", "listKind": "Foo2List"})");
  REQUIRE(SyncNames(&a, {&a, &b}, kT0));
  REQUIRE(SyncNames(&b, {&a, &b}, kT0));
  CHECK(FindCondition(b, "NamesAccepted")->at("reason") == "PluralConflict");
  CHECK(FindCondition(b, "Established")->at("reason") == "NotAccepted");
  CHECK_FALSE(SyncEstablished(&b, kT0));
  // Once `a` is gone, b's plural is free.
  REQUIRE(SyncNames(&b, {&b}, kT0 + 5s));
  CHECK(FindCondition(b, "NamesAccepted")->at("status") == "True");
  CHECK(FindCondition(b, "Established")->at("reason") == "Installing");
}

TEST_CASE("condition helpers and Terminating") {
  Json crd = Crd("widgets.example.com", R"({"plural": "widgets", "kind": "Widget"})");
  SetCondition(&crd, TerminatingInProgress(), kT0);
  SetCondition(&crd, TerminatingInProgress(), kT0 + 5s);
  CHECK(FindCondition(crd, "Terminating")->at("lastTransitionTime") == "2023-11-14T22:13:20Z");
  SetCondition(&crd, TerminatingCompleted(), kT0 + 9s);
  CHECK(*FindCondition(crd, "Terminating") ==
        J(R"({"type": "Terminating", "status": "False", "reason": "InstanceDeletionCompleted", "message": "removed all instances", "lastTransitionTime": "2023-11-14T22:13:29Z"})"));
  CHECK(TerminatingDeleteFailed("boom").message == "could not issue all deletes: boom");
  CHECK(TerminatingListFailed("x").reason == "InstanceDeletionFailed");
  CHECK(TerminatingCheckFailed("y").message == "could not confirm zero CustomResources remaining: y");
  CHECK(TerminatingNeverEstablished().message == "resource was never established");
  CHECK(IsConditionFalse(crd, "Terminating"));
  RemoveCondition(&crd, "Terminating");
  CHECK(FindCondition(crd, "Terminating") == nullptr);

  crd["metadata"]["finalizers"] = {"a", std::string(kCleanupFinalizer)};
  CHECK_FALSE(NeedsCleanup(crd));
  crd["metadata"]["deletionTimestamp"] = "2023-11-14T22:13:20Z";
  CHECK(NeedsCleanup(crd));
  RemoveCleanupFinalizer(&crd);
  CHECK(crd["metadata"]["finalizers"] == J(R"(["a"])"));
  CHECK_FALSE(NeedsCleanup(crd));
}

TEST_CASE("API approval condition for protected groups") {
  Json crd = Crd("widgets.example.com", R"({"plural": "widgets", "kind": "Widget"})");
  CHECK_FALSE(ApiApprovalCondition(crd).has_value());
  crd["spec"]["group"] = "networking.x-k8s.io";
  CHECK_FALSE(ApiApprovalCondition(crd).has_value());
  crd["spec"]["group"] = "gateway.networking.k8s.io";
  CHECK(ApiApprovalCondition(crd)->reason == "MissingAnnotation");
  crd["metadata"]["annotations"][std::string(kApiApprovedAnnotation)] = "https://github.com/kubernetes-sigs/gateway-api/pull/2466";
  auto c = ApiApprovalCondition(crd);
  CHECK(c->status == "True");
  CHECK(c->reason == "ApprovedAnnotation");
  CHECK(c->message == "approved in https://github.com/kubernetes-sigs/gateway-api/pull/2466");
  crd["metadata"]["annotations"][std::string(kApiApprovedAnnotation)] = "unapproved, experimental";
  CHECK(ApiApprovalCondition(crd)->reason == "UnapprovedAnnotation");
  CHECK(ApiApprovalCondition(crd)->message == R"(not approved: "unapproved, experimental")");
  crd["metadata"]["annotations"][std::string(kApiApprovedAnnotation)] = "/relative/path";
  CHECK(ApiApprovalCondition(crd)->reason == "InvalidAnnotation");
}

TEST_CASE("naming never throws on malformed objects") {
  for (const char* text : {"null", "{}", R"({"spec": {"names": 1}, "status": []})", R"({"status": {"conditions": [1, {"type": 2}]}})"}) {
    CAPTURE(text);
    Json crd = Json::parse(text);
    const Json other = crd;
    CHECK_NOTHROW(SyncNames(&crd, {&other, nullptr}, kT0));
    CHECK_NOTHROW(SyncEstablished(&crd, kT0));
  }
}

}  // namespace
}  // namespace kube::apiextensions
