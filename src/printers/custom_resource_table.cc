#include "printers/custom_resource_table.h"

#include <cmath>
#include <limits>

#include "printers/internal.h"

namespace kube::printers {

using internal::Json;

namespace {

constexpr const char* kNameDescription =
    "Name must be unique within a namespace. Is required when creating resources, although some resources may "
    "allow a client to request the generation of an appropriate name automatically. Name is primarily intended "
    "for creation idempotence and configuration definition. Cannot be updated. More info: "
    "https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
constexpr const char* kCreationTimestampDescription =
    "CreationTimestamp is a timestamp representing the server time when this object was created. It is not "
    "guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It "
    "is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More "
    "info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

Json AgeColumnDefinition() {
  return Json{{"name", "Age"}, {"type", "date"}, {"description", kCreationTimestampDescription},
              {"jsonPath", ".metadata.creationTimestamp"}};
}

std::string Str(const Json& obj, const char* key) {
  const Json* v = internal::Field(&obj, key);
  return v != nullptr && v->is_string() ? v->get<std::string>() : "";
}

// A float64 as Go's encoding/json writes it: integral values without a fraction.
Json GoFloat(double f) {
  if (std::isfinite(f) && f == std::trunc(f) && std::fabs(f) < 9.2e18) return Json(static_cast<int64_t>(f));
  return Json(f);
}

// cellForJSONValue for every type but string.
Json TypedCell(const std::string& type, const JsonPathValue& value, std::chrono::system_clock::time_point now) {
  if (!value.valid() || value.get().is_null() || value.is_byte()) return nullptr;
  const Json& v = value.get();
  if (type == "integer") {
    if (v.is_number_integer()) return v;
    if (v.is_number_float()) {
      const double d = v.get<double>();
      if (std::isnan(d)) return nullptr;
      if (d >= 9.2233720368547758e18) return Json(std::numeric_limits<int64_t>::max());
      if (d <= -9.2233720368547758e18) return Json(std::numeric_limits<int64_t>::min());
      return Json(static_cast<int64_t>(d));
    }
  } else if (type == "number") {
    if (v.is_number()) return GoFloat(v.get<double>());
  } else if (type == "boolean") {
    if (v.is_boolean()) return v;
  } else if (type == "date") {
    if (!v.is_string()) return nullptr;
    const std::string& s = v.get_ref<const std::string&>();
    if (s.empty() || s == "null") return "<unknown>";
    std::optional<internal::Time> t = internal::ParseTime(&v);
    if (!t) return s.starts_with("0001-01-01T00:00:00") ? "<unknown>" : "<invalid>";
    return HumanDuration(internal::Sub(internal::FromTimePoint(now), *t));
  }
  return nullptr;
}

}  // namespace

CustomResourceTable CustomResourceTable::Build(const Json& additional_printer_columns, std::string* error) {
  if (error != nullptr) error->clear();
  CustomResourceTable t;
  t.columns_.push_back(Column{"Name", "string", "name", kNameDescription, 0});
  Json defs = additional_printer_columns.is_array() && !additional_printer_columns.empty()
                  ? additional_printer_columns
                  : Json::array({AgeColumnDefinition()});
  for (const Json& col : defs) {
    const std::string path = Str(col, "jsonPath");
    Result<JsonPath> parsed = JsonPath::Parse("{" + path + "}");
    if (!parsed.ok()) {
      if (error != nullptr) *error = "unrecognized column definition \"" + path + "\"";
      break;
    }
    std::string description = Str(col, "description");
    if (description.empty()) description = "Custom resource definition column (in JSONPath format): " + path;
    const Json* priority = internal::Field(&col, "priority");
    t.columns_.push_back(Column{Str(col, "name"), Str(col, "type"), Str(col, "format"), description,
                                priority != nullptr && priority->is_number_integer() ? priority->get<int>() : 0});
    t.paths_.push_back(std::move(*parsed));
  }
  return t;
}

CustomResourceTable CustomResourceTable::BuildForScale(const Json& version) {
  Json cols = Json::array();
  const Json* scale = internal::Path(&version, {"subresources", "scale"});
  if (internal::IsObject(scale)) {
    if (!Str(*scale, "specReplicasPath").empty()) {
      cols.push_back({{"name", "Desired"}, {"type", "integer"}, {"description", "Number of desired replicas"},
                      {"jsonPath", ".spec.replicas"}});
    }
    if (!Str(*scale, "statusReplicasPath").empty()) {
      cols.push_back({{"name", "Available"}, {"type", "integer"}, {"description", "Number of actual replicas"},
                      {"jsonPath", ".status.replicas"}});
    }
  }
  cols.push_back(AgeColumnDefinition());
  return Build(cols);
}

std::vector<Json> CustomResourceTable::Cells(const Json& object, std::chrono::system_clock::time_point now) const {
  std::vector<Json> cells;
  cells.reserve(columns_.size());
  cells.push_back(internal::Name(object));
  for (size_t i = 0; i < paths_.size(); ++i) {
    const std::string& type = columns_[i + 1].type;
    Result<std::vector<std::vector<JsonPathValue>>> results = paths_[i].FindResults(object, true);
    if (!results.ok() || results->empty() || (*results)[0].empty()) {
      cells.push_back(nullptr);
      continue;
    }
    // kube takes the first value only, and re-wraps it, so a JSON null prints "<no value>".
    const JsonPathValue& value = (*results)[0][0];
    if (type == "string") {
      cells.push_back(value.valid() && value.get().is_null() ? "<no value>" : JsonPath::PrintValue(value));
    } else {
      cells.push_back(TypedCell(type, value, now));
    }
  }
  return cells;
}

Json CustomResourceTable::BuildTable(const std::vector<const Json*>& objects, const std::string& list_resource_version,
                                     std::string_view include_object, std::chrono::system_clock::time_point now) const {
  return internal::TableJson(
      columns_, [&](const Json& obj) { return Cells(obj, now); }, objects, list_resource_version, include_object,
      /*pod_conditions=*/false);
}

}  // namespace kube::printers
