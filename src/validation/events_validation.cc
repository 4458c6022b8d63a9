// events.k8s.io/v1 Event, as kube's ValidateEventCreate / ValidateEventUpdate check an Event
// written through events.k8s.io/v1 (pkg/apis/core/validation/events.go, strict mode). kube
// validates the internal core Event, so its errors name the internal fields: involvedObject for
// regarding, message for note, count for deprecatedCount, and so on.
#include <nlohmann/json.hpp>

#include "validation/group_primitives.h"
#include "validation/group_validators.h"
#include "validation/primitives.h"

namespace kube::validation {
namespace {

using nlohmann::json;

constexpr size_t kReportingInstanceLengthLimit = 128;
constexpr size_t kActionLengthLimit = 128;
constexpr size_t kReasonLengthLimit = 128;
constexpr size_t kNoteLengthLimit = 1024;

// A timestamp field: present and not the zero time.
bool HasTime(const json& obj, const char* key) {
  const std::string t = StringAt(obj, key);
  return !t.empty() && t.rfind("0001-01-01T00:00:00", 0) != 0;
}

FieldError Omitted(std::string field, std::string detail) {
  // kube quotes "" for these, not the value.
  return Invalid(std::move(field), "", std::move(detail));
}

// legacyValidateEvent for an Event with eventTime set, then the namespace.
void ValidateLegacy(const json& obj, FieldErrors* errors) {
  const std::string ns = StringAt(ObjectAt(obj, "metadata"), "namespace");
  const json& regarding = ObjectAt(obj, "regarding");
  const std::string regarding_ns = StringAt(regarding, "namespace");
  if (!HasTime(obj, "eventTime")) {
    // An old-style Event: the namespaces must agree.
    const bool ok = regarding_ns.empty() ? (ns.empty() || ns == "default") : ns == regarding_ns;
    if (!ok) errors->push_back(Invalid("involvedObject.namespace", regarding_ns, "does not match event.namespace"));
  } else {
    if (regarding_ns.empty() && ns != "default" && ns != "kube-system") {
      errors->push_back(Invalid("involvedObject.namespace", regarding_ns, "does not match event.namespace"));
    }
    const std::string controller = StringAt(obj, "reportingController");
    if (controller.empty()) errors->push_back(Required("reportingController"));
    Append(errors, ValidateQualifiedName(controller, "reportingController"));
    const std::string instance = StringAt(obj, "reportingInstance");
    if (instance.empty()) errors->push_back(Required("reportingInstance"));
    if (instance.size() > kReportingInstanceLengthLimit) {
      errors->push_back(Omitted("reportingInstance", "can have at most 128 characters"));
    }
    const std::string action = StringAt(obj, "action");
    if (action.empty()) errors->push_back(Required("action"));
    if (action.size() > kActionLengthLimit) errors->push_back(Omitted("action", "can have at most 128 characters"));
    const std::string reason = StringAt(obj, "reason");
    if (reason.empty()) errors->push_back(Required("reason"));
    if (reason.size() > kReasonLengthLimit) errors->push_back(Omitted("reason", "can have at most 128 characters"));
    if (StringAt(obj, "note").size() > kNoteLengthLimit) {
      errors->push_back(Omitted("message", "can have at most 1024 characters"));
    }
  }
  for (const auto& msg : IsDns1123Subdomain(ns)) errors->push_back(Invalid("namespace", ns, msg));
}

void ValidateSeries(const json& obj, FieldErrors* errors) {
  if (!Has(obj, "series")) return;
  const json& series = obj["series"];
  if (IntField(series, "count").value_or(0) < 2) errors->push_back(Omitted("series.count", "should be at least 2"));
  if (!HasTime(series, "lastObservedTime")) errors->push_back(Required("series.lastObservedTime"));
}

FieldErrors ValidateEvent(const json& obj) {
  FieldErrors errors;
  ValidateLegacy(obj, &errors);
  ValidateSeries(obj, &errors);
  if (!HasTime(obj, "eventTime")) errors.push_back(Required("eventTime"));
  const std::string type = StringAt(obj, "type");
  if (type != "Normal" && type != "Warning") errors.push_back(Omitted("type", "has invalid value: " + type));
  if (HasTime(obj, "deprecatedFirstTimestamp")) errors.push_back(Omitted("deprecatedFirstTimestamp", "needs to be unset"));
  if (HasTime(obj, "deprecatedLastTimestamp")) errors.push_back(Omitted("deprecatedLastTimestamp", "needs to be unset"));
  if (IntField(obj, "deprecatedCount").value_or(0) != 0) errors.push_back(Omitted("deprecatedCount", "needs to be unset"));
  const json& source = ObjectAt(obj, "deprecatedSource");
  if (!StringAt(source, "component").empty() || !StringAt(source, "host").empty()) {
    errors.push_back(Omitted("deprecatedSource", "needs to be unset"));
  }
  return errors;
}

// An internal core ObjectReference as kube renders it (Go field names, declaration order).
std::string InternalReference(const json& ref) {
  if (!ref.is_object()) return "null";
  return RenderInternalStruct({{"Kind", StringAt(ref, "kind")},
                               {"Namespace", StringAt(ref, "namespace")},
                               {"Name", StringAt(ref, "name")},
                               {"UID", StringAt(ref, "uid")},
                               {"APIVersion", StringAt(ref, "apiVersion")},
                               {"ResourceVersion", StringAt(ref, "resourceVersion")},
                               {"FieldPath", StringAt(ref, "fieldPath")}});
}

FieldErrors ValidateEventUpdate(const json& obj, const json& old) {
  FieldErrors errors;
  ValidateLegacy(obj, &errors);
  if (ValueAt(obj, "series") != ValueAt(old, "series")) ValidateSeries(obj, &errors);
  auto immutable_ref = [&](const char* key, const char* internal) {
    if (ValueAt(obj, key) != ValueAt(old, key)) {
      errors.push_back(InvalidRendered(internal, InternalReference(ValueAt(obj, key)), std::string(kFieldImmutable)));
    }
  };
  auto immutable = [&](const char* key, const char* internal) {
    Append(&errors, ValidateImmutableField(ValueAt(obj, key), ValueAt(old, key), internal));
  };
  immutable_ref("regarding", "involvedObject");
  immutable("reason", "reason");
  immutable("note", "message");
  if (ValueAt(obj, "deprecatedSource") != ValueAt(old, "deprecatedSource")) {
    const json& source = ObjectAt(obj, "deprecatedSource");
    errors.push_back(InvalidRendered(
        "source", RenderInternalStruct({{"Component", StringAt(source, "component")}, {"Host", StringAt(source, "host")}}),
        std::string(kFieldImmutable)));
  }
  immutable("deprecatedFirstTimestamp", "firstTimestamp");
  immutable("deprecatedLastTimestamp", "lastTimestamp");
  immutable("deprecatedCount", "count");
  immutable("reason", "reason");
  immutable("type", "type");
  immutable("eventTime", "eventTime");
  immutable("action", "action");
  immutable_ref("related", "related");
  immutable("reportingController", "reportingController");
  immutable("reportingInstance", "reportingInstance");
  return errors;
}

}  // namespace

void AddEventsKinds(KindTable* table) {
  (*table)["events.k8s.io/events"] = {ValidateEvent, ValidateEventUpdate, nullptr};
}

}  // namespace kube::validation
