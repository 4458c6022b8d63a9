// core v1 Event <-> events.k8s.io/v1 Event. Both are one stored object (kube's internal core
// Event); the newer group renames the fields the older one had under other names and marks the
// series-less ones deprecated. Every other field (reason, type, action, related, eventTime,
// series, reportingInstance) has the same name in both.
#include "conversion/conversion_internal.h"

namespace kube::conversion::internal {

namespace {

struct FieldPair {
  const char* core;
  const char* events;
};

// core v1 name, events.k8s.io/v1 name.
constexpr FieldPair kRenamed[] = {
    {"involvedObject", "regarding"},
    {"message", "note"},
    {"source", "deprecatedSource"},
    {"firstTimestamp", "deprecatedFirstTimestamp"},
    {"lastTimestamp", "deprecatedLastTimestamp"},
    {"count", "deprecatedCount"},
    {"reportingComponent", "reportingController"},
};

}  // namespace

void Rename(Object& obj, const char* from, const char* to) {
  auto it = obj.find(from);
  if (it == obj.end()) return;
  Object value = std::move(*it);
  obj.erase(it);
  obj[to] = std::move(value);
}

Object CoreEventToEventsV1(Object in) {
  // Fields of the target name that the source version does not have are dropped, as decoding
  // into the source version's type would have dropped them.
  for (const auto& f : kRenamed) in.erase(f.events);
  for (const auto& f : kRenamed) Rename(in, f.core, f.events);
  in["apiVersion"] = "events.k8s.io/v1";
  return in;
}

Object EventsV1ToCoreEvent(Object in) {
  for (const auto& f : kRenamed) in.erase(f.core);
  for (const auto& f : kRenamed) Rename(in, f.events, f.core);
  in["apiVersion"] = "v1";
  return in;
}

}  // namespace kube::conversion::internal
