// The event printer, for core/v1 Events and events.k8s.io/v1 Events (kube converts the latter
// to the same internal type and prints them with the same columns).

#include "printers/internal.h"

namespace kube::printers::internal {

namespace {

// Go's strings.TrimSpace for the whitespace that shows up in practice (ASCII, NEL, NBSP).
std::string TrimSpace(const std::string& s) {
  auto is_space_at = [&](size_t i, size_t* width) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == ' ' || (c >= '\t' && c <= '\r')) {
      *width = 1;
      return true;
    }
    if (c == 0xC2 && i + 1 < s.size() &&
        (static_cast<unsigned char>(s[i + 1]) == 0x85 ||
         static_cast<unsigned char>(s[i + 1]) == 0xA0)) {
      *width = 2;
      return true;
    }
    return false;
  };
  size_t begin = 0, w = 0;
  while (begin < s.size() && is_space_at(begin, &w)) begin += w;
  size_t end = s.size();
  while (end > begin) {
    if (is_space_at(end - 1, &w)) {
      end -= 1;
    } else if (end - begin >= 2 && is_space_at(end - 2, &w) && w == 2) {
      end -= 2;
    } else {
      break;
    }
  }
  return s.substr(begin, end - begin);
}

std::string Lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

// The fields of an internal core Event that the printer reads, wherever they live in the
// versioned object.
struct EventView {
  const Json* name;
  const Json* first_timestamp;
  const Json* last_timestamp;
  const Json* event_time;
  const Json* count;
  const Json* series;
  const Json* type;
  const Json* reason;
  const Json* involved;
  const Json* source;
  const Json* reporting_controller;
  const Json* reporting_instance;
  const Json* message;
};

Cells EventViewCells(const EventView& e, TimePoint now) {
  std::string first = Since(e.first_timestamp, now);
  if (!ParseTime(e.first_timestamp)) first = Since(e.event_time, now);
  std::string last = Since(e.last_timestamp, now);
  if (!ParseTime(e.last_timestamp)) last = first;
  int64_t count = Int32(e.count);
  if (IsSet(e.series)) {
    last = Since(Field(e.series, "lastObservedTime"), now);
    count = Int32(Field(e.series, "count"));
  } else if (count == 0) {
    count = 1;  // singleton events of the new API have no count
  }

  const std::string kind = Lower(Str(Field(e.involved, "kind")));
  const std::string involved_name = Str(Field(e.involved, "name"));
  const std::string target = involved_name.empty() ? kind : kind + "/" + involved_name;

  std::string component = Str(Field(e.source, "component"));
  if (component.empty()) component = Str(e.reporting_controller);
  std::string host = Str(Field(e.source, "host"));
  if (host.empty()) host = Str(e.reporting_instance);
  const std::string source = host.empty() ? component : component + ", " + host;

  return {
      last,
      Str(e.type),
      Str(e.reason),
      target,
      Str(Field(e.involved, "fieldPath")),
      source,
      TrimSpace(Str(e.message)),
      first,
      count,
      Str(e.name),
  };
}

}  // namespace

const std::vector<Column>& EventColumns() {
  static const std::vector<Column> kColumns = {
      {"Last Seen", "string", "", "Time since the event was last observed.", 0},
      {"Type", "string", "", "Type of this event (Normal, Warning).", 0},
      {"Reason", "string", "", "Short, machine understandable reason for the event.", 0},
      {"Object", "string", "", "The object that this event is about.", 0},
      {"Subobject", "string", "", "Field path of the involved object.", 1},
      {"Source", "string", "", "The component reporting this event.", 1},
      {"Message", "string", "", "A human-readable description of the event.", 0},
      {"First Seen", "string", "", "Time since the event was first observed.", 1},
      {"Count", "string", "", "The number of times this event has occurred.", 1},
      {"Name", "string", "name", "Name of the event.", 1},
  };
  return kColumns;
}

Cells EventCells(const Json& ev, TimePoint now) {
  EventView v{};
  v.name = Path(&ev, {"metadata", "name"});
  v.first_timestamp = Field(&ev, "firstTimestamp");
  v.last_timestamp = Field(&ev, "lastTimestamp");
  v.event_time = Field(&ev, "eventTime");
  v.count = Field(&ev, "count");
  v.series = Field(&ev, "series");
  v.type = Field(&ev, "type");
  v.reason = Field(&ev, "reason");
  v.involved = Field(&ev, "involvedObject");
  v.source = Field(&ev, "source");
  v.reporting_controller = Field(&ev, "reportingComponent");
  v.reporting_instance = Field(&ev, "reportingInstance");
  v.message = Field(&ev, "message");
  return EventViewCells(v, now);
}

const std::vector<Column>& EventsV1EventColumns() {
  return EventColumns();
}

Cells EventsV1EventCells(const Json& ev, TimePoint now) {
  // events.k8s.io/v1 field names, as its conversion to the internal core Event maps them.
  EventView v{};
  v.name = Path(&ev, {"metadata", "name"});
  v.first_timestamp = Field(&ev, "deprecatedFirstTimestamp");
  v.last_timestamp = Field(&ev, "deprecatedLastTimestamp");
  v.event_time = Field(&ev, "eventTime");
  v.count = Field(&ev, "deprecatedCount");
  v.series = Field(&ev, "series");
  v.type = Field(&ev, "type");
  v.reason = Field(&ev, "reason");
  v.involved = Field(&ev, "regarding");
  v.source = Field(&ev, "deprecatedSource");
  v.reporting_controller = Field(&ev, "reportingController");
  v.reporting_instance = Field(&ev, "reportingInstance");
  v.message = Field(&ev, "note");
  return EventViewCells(v, now);
}

}  // namespace kube::printers::internal
