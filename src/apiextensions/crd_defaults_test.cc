// CRD defaulting and the strategy's create/update/status preparation.

#include "apiextensions/crd_defaults.h"

#include <doctest/doctest.h>

#include "apiextensions/apiextensions_test_util.h"

namespace kube::apiextensions {
namespace {

using testing::J;
using testing::Json;
using testing::WidgetCrd;

TEST_CASE("SetDefaults fills names, conversion and storedVersions") {
  struct Case {
    const char* name;
    const char* spec_names;
    const char* want_names;
  };
  const Case cases[] = {
      {"singular and listKind from kind", R"({"plural": "widgets", "kind": "Widget"})",
       R"({"plural": "widgets", "kind": "Widget", "singular": "widget", "listKind": "WidgetList"})"},
      {"mixed case kind lowercases whole", R"({"plural": "dnsrecords", "kind": "DNSRecord"})",
       R"({"plural": "dnsrecords", "kind": "DNSRecord", "singular": "dnsrecord", "listKind": "DNSRecordList"})"},
      {"explicit names kept", R"({"plural": "a", "kind": "B", "singular": "s", "listKind": "BList2"})",
       R"({"plural": "a", "kind": "B", "singular": "s", "listKind": "BList2"})"},
      {"empty strings count as unset", R"({"plural": "a", "kind": "B", "singular": "", "listKind": ""})",
       R"({"plural": "a", "kind": "B", "singular": "b", "listKind": "BList"})"},
      {"no kind: nothing to derive", R"({"plural": "a"})", R"({"plural": "a"})"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    Json crd = WidgetCrd();
    crd["spec"]["names"] = J(c.spec_names);
    SetDefaults(&crd);
    CHECK(crd["spec"]["names"] == J(c.want_names));
    CHECK(crd["spec"]["conversion"] == J(R"({"strategy": "None"})"));
    CHECK(crd["status"]["storedVersions"] == J(R"(["v1"])"));
  }
}

TEST_CASE("SetDefaults: conversion webhook service port, existing conversion and storedVersions kept") {
  Json crd = WidgetCrd();
  crd["spec"]["conversion"] = J(R"({"strategy": "Webhook", "webhook": {"clientConfig": {"service": {"name": "s", "namespace": "n"}},
                                   "conversionReviewVersions": ["v1"]}})");
  crd["status"] = J(R"({"storedVersions": ["v1beta1"]})");
  SetDefaults(&crd);
  CHECK(crd["spec"]["conversion"]["webhook"]["clientConfig"]["service"]["port"] == 443);
  CHECK(crd["spec"]["conversion"]["strategy"] == "Webhook");
  CHECK(crd["status"]["storedVersions"] == J(R"(["v1beta1"])"));

  Json url_only = WidgetCrd();
  url_only["spec"]["conversion"] = J(R"({"strategy": "Webhook", "webhook": {"clientConfig": {"url": "https://x"}}})");
  SetDefaults(&url_only);
  CHECK_FALSE(url_only["spec"]["conversion"]["webhook"]["clientConfig"].contains("service"));
  CHECK_FALSE(url_only["spec"]["conversion"]["webhook"].contains("conversionReviewVersions"));

  Json second_storage = WidgetCrd();
  Json v2 = second_storage["spec"]["versions"][0];
  second_storage["spec"]["versions"][0]["storage"] = false;
  v2["name"] = "v2";
  second_storage["spec"]["versions"].push_back(v2);
  SetDefaults(&second_storage);
  CHECK(second_storage["status"]["storedVersions"] == J(R"(["v2"])"));
}

TEST_CASE("PrepareForCreate resets status the way Go serialises it") {
  Json crd = WidgetCrd();
  crd["status"] = J(R"({"conditions": [{"type": "Established", "status": "True"}], "acceptedNames": {"plural": "x", "kind": "X"},
                       "storedVersions": ["v0"]})");
  crd["metadata"]["generation"] = 7;
  SetDefaults(&crd);
  PrepareForCreate(&crd);
  CHECK(crd["status"] == J(R"({"acceptedNames": {"plural": "", "kind": ""}, "storedVersions": ["v1"]})"));
  CHECK(crd["metadata"]["generation"] == 1);

  Json no_storage = WidgetCrd();
  no_storage["spec"]["versions"][0]["storage"] = false;
  PrepareForCreate(&no_storage);
  CHECK(no_storage["status"]["storedVersions"].is_null());
}

TEST_CASE("PrepareForUpdate keeps status, bumps generation on spec changes, accumulates storedVersions") {
  Json old = WidgetCrd();
  SetDefaults(&old);
  PrepareForCreate(&old);
  old["status"]["conditions"] = J(R"([{"type": "Established", "status": "True"}])");

  Json same = old;
  same["status"] = J(R"({"storedVersions": []})");  // status writes through the main resource are ignored
  same["metadata"]["labels"] = {{"a", "b"}};
  PrepareForUpdate(&same, old);
  CHECK(same["status"] == old["status"]);
  CHECK(same["metadata"]["generation"] == 1);

  Json next = old;
  next["spec"]["versions"][0]["storage"] = false;
  Json v2 = old["spec"]["versions"][0];
  v2["name"] = "v2";
  next["spec"]["versions"].push_back(v2);
  PrepareForUpdate(&next, old);
  CHECK(next["metadata"]["generation"] == 2);
  CHECK(next["status"]["storedVersions"] == J(R"(["v1", "v2"])"));

  // Switching back does not duplicate.
  Json back = next;
  back["spec"]["versions"][0]["storage"] = true;
  back["spec"]["versions"][1]["storage"] = false;
  PrepareForUpdate(&back, next);
  CHECK(back["status"]["storedVersions"] == J(R"(["v1", "v2"])"));
  CHECK(back["metadata"]["generation"] == 3);
}

TEST_CASE("PrepareForStatusUpdate keeps the stored spec and the new metadata") {
  Json old = WidgetCrd();
  Json next = WidgetCrd();
  next["spec"]["scope"] = "Cluster";
  next["metadata"]["labels"] = {{"x", "y"}};
  next["status"] = J(R"({"acceptedNames": {"plural": "widgets", "kind": "Widget"}})");
  PrepareForStatusUpdate(&next, old);
  CHECK(next["spec"] == old["spec"]);
  CHECK(next["metadata"]["labels"]["x"] == "y");
  CHECK(next["status"]["acceptedNames"]["plural"] == "widgets");
}

TEST_CASE("defaulting never throws on malformed objects") {
  for (const char* text : {"null", "[]", "5", R"({"spec": []})", R"({"spec": {"names": 5, "conversion": []}})",
                           R"({"spec": {"conversion": {"webhook": {"clientConfig": {"service": 1}}}}, "status": 3})",
                           R"({"metadata": 1, "spec": {"versions": [1, {"storage": true, "name": 2}]}})"}) {
    CAPTURE(text);
    Json crd = Json::parse(text);
    Json old = crd;
    CHECK_NOTHROW(SetDefaults(&crd));
    CHECK_NOTHROW(PrepareForCreate(&crd));
    CHECK_NOTHROW(PrepareForUpdate(&crd, old));
    CHECK_NOTHROW(PrepareForStatusUpdate(&crd, old));
  }
}

}  // namespace
}  // namespace kube::apiextensions
