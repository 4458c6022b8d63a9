// Custom resources served through the registry's Store against their CRD's schema: defaulting on
// create and on read, pruning of fields a changed schema no longer has, 422 on invalid objects,
// and the generation rules with and without the status subresource.
#include <doctest/doctest.h>

#include "apiextensions/crd_serving_test_util.h"

namespace kube::apiextensions::testing {
namespace {

using storage::Object;

// The object as stored in the kv store, without the registry's decoration.
Json Raw(const CrdServer& s, const std::string& key) {
  auto raw = s.registry->kv()->Get("/registry" + key);
  REQUIRE(raw.ok());
  REQUIRE(raw->kv.has_value());
  return Json::parse(raw->kv->value);
}

// Decodes `body` as the endpoints do for a custom resource (prune, default), then creates it.
Result<storage::ObjectPtr> CreateDecoded(const StorePtr& store, Json body, std::vector<std::string>* pruned = nullptr) {
  auto dropped = store->strategy()->DecodeBody(&body);
  REQUIRE(dropped.has_value());
  if (pruned) *pruned = *dropped;
  return store->Create("default", std::move(body), registry::WriteOptions{});
}

registry::Store::Transform Set(const char* pointer, Json value) {
  return [pointer, value](const Object& cur) -> Result<Object> {
    Object next = cur;
    next[Object::json_pointer(pointer)] = value;
    return next;
  };
}

int64_t Generation(const StorePtr& store, const std::string& name) {
  return (*MustGet(store.get(), "default", name))["metadata"]["generation"].get<int64_t>();
}

// Replaces the CRD's v1 schema (and waits until the served strategy has it).
void ChangeSchema(CrdServer& s, const Json& schema) {
  const auto before = s.registry->CustomResources()->generation;
  auto updated = s.crds->Update("", kWidgets, "", Set("/spec/versions/0/schema/openAPIV3Schema", schema),
                                registry::WriteOptions{});
  REQUIRE_MESSAGE(updated.ok(), updated.status().ToString());
  REQUIRE(Eventually([&] { return s.registry->CustomResources()->generation > before; }));
}

TEST_CASE("crd serving: defaults are applied on create and unknown fields pruned") {
  CrdServer s;
  s.Install(WidgetCrd());
  StorePtr widgets = s.WaitServed();
  std::vector<std::string> pruned;
  auto created = CreateDecoded(widgets, Json::parse(R"({"metadata": {"name": "a"},
                                                        "spec": {"color": "red", "shape": "round"},
                                                        "extra": 1})"),
                               &pruned);
  REQUIRE_MESSAGE(created.ok(), created.status().ToString());
  CHECK(pruned == std::vector<std::string>{"extra", "spec.shape"});
  CHECK((**created)["spec"] == Json::parse(R"({"color": "red", "size": 3})"));
  // Stored defaulted, not only decorated on the way out.
  const Json raw = Raw(s, "/kal.example.com/widgets/default/a");
  CHECK(raw["spec"] == Json::parse(R"({"color": "red", "size": 3})"));
  CHECK_FALSE(raw.contains("extra"));
}

TEST_CASE("crd serving: an invalid custom resource is refused with 422 and its field paths") {
  CrdServer s;
  s.Install(WidgetCrd());
  StorePtr widgets = s.WaitServed();
  auto bad = CreateDecoded(widgets, Widget("bad", {{"size", 0}, {"color", "green"}}));
  REQUIRE_FALSE(bad.ok());
  const Status invalid = bad.status();
  CHECK(invalid.code() == StatusCode::kInvalid);
  CHECK(invalid.HttpCode() == 422);
  CHECK(invalid.details().kind == "Widget");
  CHECK(invalid.details().group == "kal.example.com");
  CHECK(invalid.details().name == "bad");
  std::vector<std::string> fields;
  for (const auto& c : invalid.details().causes) fields.push_back(c.field + " " + c.type);
  CHECK(fields == std::vector<std::string>{"spec.color FieldValueNotSupported", "spec.size FieldValueInvalid"});
  CHECK(invalid.message().find("spec.size: Invalid value: 0: spec.size in body should be greater than or "
                               "equal to 1") != std::string::npos);
  CHECK(invalid.message().starts_with("Widget.kal.example.com \"bad\" is invalid: "));
  CHECK(Gone(widgets.get(), "default", "bad"));

  // An update is validated the same way.
  MustCreate(widgets.get(), "default", Widget("ok", {{"size", 2}}));
  auto update = widgets->Update("default", "ok", "", Set("/spec/size", -1), registry::WriteOptions{});
  REQUIRE_FALSE(update.ok());
  const Status update_invalid = update.status();
  CHECK(update_invalid.code() == StatusCode::kInvalid);
  REQUIRE(update_invalid.details().causes.size() == 1);
  CHECK(update_invalid.details().causes[0].field == "spec.size");
  CHECK((*MustGet(widgets.get(), "default", "ok"))["spec"]["size"] == 2);
}

TEST_CASE("crd serving: a field dropped from the schema is pruned on read; a new default applies on read") {
  CrdServer s;
  s.Install(WidgetCrd());
  StorePtr widgets = s.WaitServed();
  auto created = CreateDecoded(widgets, Widget("a", {{"size", 2}, {"legacy", "x"}}));
  REQUIRE_MESSAGE(created.ok(), created.status().ToString());
  CHECK((*MustGet(widgets.get(), "default", "a"))["spec"]["legacy"] == "x");

  Json schema = WidgetCrd()["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
  schema["properties"]["spec"]["properties"].erase("legacy");
  schema["properties"]["spec"]["properties"]["color"]["default"] = "blue";
  ChangeSchema(s, schema);
  widgets = s.Find("v1");
  REQUIRE(widgets != nullptr);

  auto got = MustGet(widgets.get(), "default", "a");
  CHECK((*got)["spec"] == Json::parse(R"({"size": 2, "color": "blue"})"));
  auto list = widgets->List("default", storage::ListOptions{});
  REQUIRE(list.ok());
  REQUIRE(list->items.size() == 1);
  CHECK((*list->items[0])["spec"] == Json::parse(R"({"size": 2, "color": "blue"})"));
  // Storage still holds what was written: reads are pruned and defaulted, not rewritten.
  const Json raw = Raw(s, "/kal.example.com/widgets/default/a");
  CHECK(raw["spec"] == Json::parse(R"({"size": 2, "legacy": "x"})"));

  // An update starts from the object as served, so the pruned field goes for good.
  auto updated = widgets->Update("default", "a", "", Set("/spec/size", 4), registry::WriteOptions{});
  REQUIRE_MESSAGE(updated.ok(), updated.status().ToString());
  CHECK(Raw(s, "/kal.example.com/widgets/default/a")["spec"] == Json::parse(R"({"size": 4, "color": "blue"})"));
}

TEST_CASE("crd serving: reads are decorated once per stored object, which the strategy does not keep alive") {
  CrdServer s;
  s.Install(WidgetCrd());
  StorePtr widgets = s.WaitServed();
  const registry::Strategy* strategy = widgets->strategy();
  REQUIRE(strategy != nullptr);

  // Already as the schema says: served as stored, and not held once its owners let go.
  auto as_stored = std::make_shared<const Object>(Widget("a", {{"size", 2}}));
  std::weak_ptr<const Object> stored_weak = as_stored;
  CHECK(strategy->Decorate(as_stored) == as_stored);
  CHECK(strategy->Decorate(as_stored) == as_stored);
  as_stored.reset();
  CHECK(stored_weak.expired());

  // Needing a default: one decorated copy, handed out again for the same stored object.
  auto undefaulted = std::make_shared<const Object>(Widget("b"));
  auto first = strategy->Decorate(undefaulted);
  CHECK(first != undefaulted);
  CHECK((*first)["spec"]["size"] == 3);
  CHECK(strategy->Decorate(undefaulted) == first);
  std::weak_ptr<const Object> source_weak = undefaulted;
  undefaulted.reset();
  CHECK(source_weak.expired());
}

TEST_CASE("crd serving: with the status subresource, status and metadata writes do not bump generation") {
  CrdServer s;
  s.Install(WidgetCrd());
  StorePtr widgets = s.WaitServed();
  auto created = MustCreate(widgets.get(), "default",
                            Json::parse(R"({"metadata": {"name": "a"}, "spec": {"size": 1},
                                            "status": {"replicas": 9}})"));
  CHECK((*created)["metadata"]["generation"] == 1);
  CHECK_FALSE(created->contains("status"));  // a create starts with an empty status

  auto status = widgets->Update("default", "a", "status", Set("/status/replicas", 2), registry::WriteOptions{});
  REQUIRE_MESSAGE(status.ok(), status.status().ToString());
  CHECK((**status)["status"]["replicas"] == 2);
  CHECK(Generation(widgets, "a") == 1);
  // A status write ignores spec; a main write ignores status.
  auto spec_via_status = widgets->Update("default", "a", "status", Set("/spec/size", 5), registry::WriteOptions{});
  REQUIRE(spec_via_status.ok());
  CHECK((**spec_via_status)["spec"]["size"] == 1);
  auto status_via_main = widgets->Update("default", "a", "", Set("/status/replicas", 7), registry::WriteOptions{});
  REQUIRE(status_via_main.ok());
  CHECK((**status_via_main)["status"]["replicas"] == 2);
  CHECK(Generation(widgets, "a") == 1);

  auto labelled = widgets->Update("default", "a", "", Set("/metadata/labels", {{"app", "x"}}), registry::WriteOptions{});
  REQUIRE(labelled.ok());
  CHECK(Generation(widgets, "a") == 1);

  auto spec = widgets->Update("default", "a", "", Set("/spec/size", 2), registry::WriteOptions{});
  REQUIRE(spec.ok());
  CHECK(Generation(widgets, "a") == 2);
}

TEST_CASE("crd serving: without the status subresource, a status change bumps generation") {
  CrdServer s;
  Json crd = OtherCrd("plainwidgets", "PlainWidget");
  crd["spec"]["versions"][0].erase("subresources");
  s.Install(crd);
  StorePtr plain = s.WaitServed(std::string("plainwidgets.") + kGroup);
  CHECK_FALSE(plain->HasSubresource("status"));
  auto created = MustCreate(plain.get(), "default",
                            Json::parse(R"({"metadata": {"name": "a"}, "spec": {"size": 1},
                                            "status": {"replicas": 9}})"));
  CHECK((*created)["status"]["replicas"] == 9);  // status is just more of the object
  CHECK((*created)["metadata"]["generation"] == 1);

  auto status = plain->Update("default", "a", "", Set("/status/replicas", 2), registry::WriteOptions{});
  REQUIRE(status.ok());
  CHECK((**status)["status"]["replicas"] == 2);
  CHECK(Generation(plain, "a") == 2);
  auto labelled = plain->Update("default", "a", "", Set("/metadata/labels", {{"app", "x"}}), registry::WriteOptions{});
  REQUIRE(labelled.ok());
  CHECK(Generation(plain, "a") == 2);
  auto spec = plain->Update("default", "a", "", Set("/spec/size", 3), registry::WriteOptions{});
  REQUIRE(spec.ok());
  CHECK(Generation(plain, "a") == 3);
}

}  // namespace
}  // namespace kube::apiextensions::testing
