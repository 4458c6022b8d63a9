// metadata.managedFields on the wire (managed_fields.h) and the apply conflict Status
// (apply_conflict.h): kube's entry checks and messages, the manager identifier, the order entries
// are written in, times, and the 409's message and causes.
#include "registry/managed_fields.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "registry/apply_conflict.h"

namespace kube::registry {
namespace {

using nlohmann::json;

json Entry(std::string manager, std::string operation, std::string time) {
  json e = {{"manager", manager},
            {"operation", operation},
            {"apiVersion", "v1"},
            {"fieldsType", "FieldsV1"},
            {"fieldsV1", {{"f:data", {{"f:a", json::object()}}}}}};
  if (!time.empty()) e["time"] = time;
  return e;
}

TEST_CASE("decoding managedFields: entries as sent, absent members as Go's zero values") {
  auto entries = DecodeManagedFieldsEntries(json::array(
      {Entry("kubectl", "Apply", "2024-05-01T12:00:00Z"),
       {{"manager", "ctrl"}, {"operation", "Update"}, {"apiVersion", "apps/v1"}, {"fieldsType", "FieldsV1"},
        {"subresource", "status"}, {"time", nullptr}}}));
  REQUIRE(entries.ok());
  REQUIRE(entries->size() == 2);
  CHECK((*entries)[0].manager == "kubectl");
  CHECK((*entries)[0].time == ParseRfc3339("2024-05-01T12:00:00Z"));
  CHECK((*entries)[0].fields_v1 == json{{"f:data", {{"f:a", json::object()}}}});
  CHECK((*entries)[1].subresource == "status");
  CHECK_FALSE((*entries)[1].time.has_value());
  CHECK((*entries)[1].fields_v1.is_null());
  CHECK(DecodeManagedFieldsEntries(nullptr)->empty());
}

TEST_CASE("decoding managedFields: kube's checks, in its order, with its messages") {
  auto message = [](json value) {
    auto r = DecodeManagedFieldsEntries(value);
    return r.ok() ? std::string("ok") : r.status().message();
  };
  json e = Entry("m", "Apply", "");
  e["operation"] = "Patch";
  CHECK(message(json::array({e})) == "operation must be `Apply` or `Update`");
  e = Entry("m", "Update", "");
  e.erase("apiVersion");
  CHECK(message(json::array({e})) == "apiVersion must not be empty");
  e = Entry("m", "Update", "");
  e.erase("fieldsType");
  CHECK(message(json::array({Entry("ok", "Apply", ""), e})) == "missing fieldsType in managed fields entry 1");
  e["fieldsType"] = "FieldsV2";
  CHECK(message(json::array({e})) == "invalid fieldsType \"FieldsV2\" in managed fields entry 0");
  e = Entry("m", "Update", "yesterday");
  CHECK(message(json::array({e})).starts_with("invalid time"));
  CHECK(message(json{{"a", 1}}).starts_with("json: cannot unmarshal object"));
  CHECK(message(json::array({1})).starts_with("json: cannot unmarshal number"));
}

TEST_CASE("a reset is an empty list or one empty entry") {
  CHECK(IsResetManagedFields(json::array()));
  CHECK(IsResetManagedFields(json::array({json::object()})));
  CHECK(IsResetManagedFields(json::array({{{"manager", ""}, {"time", nullptr}, {"unknown", 1}}})));
  CHECK_FALSE(IsResetManagedFields(nullptr));
  CHECK_FALSE(IsResetManagedFields(json::array({{{"manager", "m"}}})));
  CHECK_FALSE(IsResetManagedFields(json::array({{{"fieldsV1", json::object()}}})));
  CHECK_FALSE(IsResetManagedFields(json::array({json::object(), json::object()})));
}

TEST_CASE("encoding sorts as kube does: Apply first, then by time, manager, apiVersion, subresource") {
  auto entry = [](std::string manager, std::string operation, std::optional<int64_t> time,
                  std::string api_version = "v1", std::string subresource = "") {
    return ManagedFieldsEntry{manager, operation, api_version, time, "FieldsV1", json::object(), subresource};
  };
  json out = EncodeManagedFieldsEntries({entry("z", "Update", 100), entry("b", "Update", 50), entry("a", "Update", 100),
                                         entry("late", "Apply", 900), entry("early", "Apply", std::nullopt),
                                         entry("a", "Update", 100, "v1", "status"), entry("a", "Update", 100, "apps/v1")});
  std::vector<std::string> order;
  for (const auto& e : out) order.push_back(e["manager"].get<std::string>() + "/" + e.value("apiVersion", "") + "/" +
                                            e.value("subresource", ""));
  CHECK(order == std::vector<std::string>{"early/v1/", "late/v1/", "b/v1/", "a/apps/v1/", "a/v1/", "a/v1/status",
                                          "z/v1/"});
  CHECK(out[1]["time"] == "1970-01-01T00:15:00Z");
  CHECK_FALSE(out[0].contains("time"));
  CHECK(out[0]["fieldsType"] == "FieldsV1");
  CHECK(EncodeManagedFieldsEntries({}).is_null());
}

TEST_CASE("encoded lists sort again as the encoder sorts, and answer membership of paths") {
  json entries = json::array({Entry("b", "Update", "2024-01-02T00:00:00Z"), Entry("a", "Update", "2024-01-03T00:00:00Z"),
                              Entry("z", "Apply", "2024-01-04T00:00:00Z")});
  SortManagedFields(&entries);
  CHECK(entries[0]["manager"] == "z");
  CHECK(entries[1]["manager"] == "b");
  CHECK(entries[2]["manager"] == "a");
  const json fields = {{"f:data", {{".", json::object()}, {"f:a", json::object()}}},
                       {"f:spec", {{"f:c", {{"k:{\"name\":\"x\"}", {{"f:image", json::object()}}}}}}}};
  CHECK(FieldsV1HasMember(fields, {"f:data"}));
  CHECK(FieldsV1HasMember(fields, {"f:data", "f:a"}));
  CHECK(FieldsV1HasMember(fields, {"f:spec", "f:c", "k:{\"name\":\"x\"}", "f:image"}));
  CHECK_FALSE(FieldsV1HasMember(fields, {"f:spec"}));
  CHECK_FALSE(FieldsV1HasMember(fields, {"f:spec", "f:c", "k:{\"name\":\"x\"}"}));
  CHECK_FALSE(FieldsV1HasMember(fields, {"f:data", "f:b"}));
}

TEST_CASE("times: RFC 3339 in, UTC with second precision out") {
  CHECK(ParseRfc3339("2024-05-01T12:00:00Z") == 1714564800);
  CHECK(ParseRfc3339("2024-05-01T14:00:00+02:00") == 1714564800);
  CHECK(ParseRfc3339("2024-05-01T11:30:00.123456-00:30") == 1714564800);
  CHECK(FormatRfc3339(1714564800) == "2024-05-01T12:00:00Z");
  CHECK(ParseRfc3339("2024-02-29T00:00:00Z").has_value());
  for (const char* bad : {"2023-02-29T00:00:00Z", "2024-05-01 12:00:00Z", "2024-05-01T12:00:00", "2024-13-01T00:00:00Z",
                          "2024-05-01T12:00:00.Z", "2024-05-01T24:00:00Z", ""}) {
    CHECK_MESSAGE(!ParseRfc3339(bad).has_value(), bad);
  }
}

TEST_CASE("the manager identifier leaves out time, fields, and an applier's version") {
  ManagedFieldsEntry apply{"kubectl", "Apply", "v1", 5, "FieldsV1", json::object(), ""};
  CHECK(ManagerIdentifier(apply) == R"({"manager":"kubectl","operation":"Apply"})");
  ManagedFieldsEntry update{"ctrl <x>", "Update", "apps/v1", std::nullopt, "", nullptr, "status"};
  CHECK(ManagerIdentifier(update) ==
        R"({"manager":"ctrl \u003cx\u003e","operation":"Update","apiVersion":"apps/v1","subresource":"status"})");
  auto back = EntryOfIdentifier(ManagerIdentifier(update));
  REQUIRE(back.has_value());
  CHECK(back->manager == "ctrl <x>");
  CHECK(back->api_version == "apps/v1");
  CHECK(back->subresource == "status");
  CHECK_FALSE(EntryOfIdentifier("not json").has_value());
}

TEST_CASE("conflict messages name managers as kube prints them") {
  CHECK(PrintManager(R"({"manager":"kubectl","operation":"Apply"})") == R"("kubectl")");
  CHECK(PrintManager(R"({"manager":"ctrl","operation":"Update","apiVersion":"apps/v1"})") == R"("ctrl" using apps/v1)");
  CHECK(PrintManager(R"({"manager":"ctrl","operation":"Update","apiVersion":"v1","subresource":"status"})") ==
        R"("ctrl" with subresource "status" using v1)");
  CHECK(PrintManager("before-first-apply") == R"("before-first-apply")");
}

TEST_CASE("the apply conflict Status: one conflict") {
  Status s = ApplyConflictError({{R"({"manager":"kubectl","operation":"Apply"})", ".data.a"}});
  CHECK(s.code() == StatusCode::kConflict);
  CHECK(s.message() == R"(Apply failed with 1 conflict: conflict with "kubectl": .data.a)");
  REQUIRE(s.details().causes.size() == 1);
  CHECK(s.details().causes[0].type == "FieldManagerConflict");
  CHECK(s.details().causes[0].message == R"(conflict with "kubectl")");
  CHECK(s.details().causes[0].field == ".data.a");
  CHECK(s.details().name.empty());
}

TEST_CASE("the apply conflict Status: several, grouped by manager") {
  const std::string kubectl = R"({"manager":"kubectl","operation":"Apply"})";
  const std::string ctrl = R"({"manager":"ctrl","operation":"Update","apiVersion":"apps/v1"})";
  Status s = ApplyConflictError({{kubectl, ".spec.replicas"},
                                 {ctrl, R"(.spec.template.spec.containers[name="app"].image)"},
                                 {kubectl, ".metadata.labels.app"}});
  // Managers in the order of their identifiers, as kube sorts them.
  CHECK(s.message() == "Apply failed with 3 conflicts: conflicts with \"ctrl\" using apps/v1:\n"
                       "- .spec.template.spec.containers[name=\"app\"].image\nconflicts with \"kubectl\":\n"
                       "- .spec.replicas\n- .metadata.labels.app");
  REQUIRE(s.details().causes.size() == 3);
  CHECK(s.details().causes[0].message == R"(conflict with "ctrl" using apps/v1)");
  CHECK(s.details().causes[1].field == ".spec.replicas");
  CHECK(s.details().causes[2].field == ".metadata.labels.app");
}

}  // namespace
}  // namespace kube::registry
