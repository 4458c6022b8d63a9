#include "registry/managed_fields.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>

#include "util/civil_time.h"
#include "util/go_format.h"

namespace kube::registry {

using nlohmann::json;

namespace {

// A string member of an entry: absent and null read as "" (Go's zero value); another type is
// the decoding error kube's typed decoder would give.
Status StringMember(const json& entry, const char* key, std::string* out) {
  auto it = entry.find(key);
  if (it == entry.end() || it->is_null()) return Status::OK();
  if (!it->is_string()) {
    return Status::BadRequest(std::string("json: cannot unmarshal ") + it->type_name() +
                              " into Go struct field ManagedFieldsEntry." + key + " of type string");
  }
  *out = it->get<std::string>();
  return Status::OK();
}

Status DecodeEntry(const json& item, ManagedFieldsEntry* e, bool copy_fields = true) {
  if (!item.is_object()) {
    return Status::BadRequest(std::string("json: cannot unmarshal ") + item.type_name() +
                              " into Go value of type v1.ManagedFieldsEntry");
  }
  KUBE_RETURN_IF_ERROR(StringMember(item, "manager", &e->manager));
  KUBE_RETURN_IF_ERROR(StringMember(item, "operation", &e->operation));
  KUBE_RETURN_IF_ERROR(StringMember(item, "apiVersion", &e->api_version));
  KUBE_RETURN_IF_ERROR(StringMember(item, "fieldsType", &e->fields_type));
  KUBE_RETURN_IF_ERROR(StringMember(item, "subresource", &e->subresource));
  if (auto t = item.find("time"); t != item.end() && !t->is_null()) {
    std::optional<int64_t> seconds = t->is_string() ? ParseRfc3339(t->get_ref<const std::string&>()) : std::nullopt;
    if (!seconds) return Status::BadRequest("invalid time in managed fields entry: " + t->dump());
    e->time = seconds;
  }
  if (auto f = item.find("fieldsV1"); f != item.end() && !f->is_null()) {
    if (!f->is_object()) return Status::BadRequest("fieldsV1 must be an object, got " + f->dump());
    if (copy_fields) e->fields_v1 = *f;
  }
  return Status::OK();
}

int Digits(std::string_view s, size_t pos, size_t n) {
  int v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (i >= s.size() || s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

}  // namespace

Result<std::vector<ManagedFieldsEntry>> DecodeManagedFieldsEntries(const json& value, bool copy_fields) {
  std::vector<ManagedFieldsEntry> entries;
  if (value.is_null()) return entries;
  if (!value.is_array()) {
    return Status::BadRequest(std::string("json: cannot unmarshal ") + value.type_name() +
                              " into Go value of type []v1.ManagedFieldsEntry");
  }
  entries.reserve(value.size());
  for (size_t i = 0; i < value.size(); ++i) {
    ManagedFieldsEntry e;
    KUBE_RETURN_IF_ERROR(DecodeEntry(value[i], &e, copy_fields));
    // kube's DecodeManagedFields, in its order.
    if (e.operation != kOperationApply && e.operation != kOperationUpdate) {
      return Status::BadRequest("operation must be `Apply` or `Update`");
    }
    if (e.api_version.empty()) return Status::BadRequest("apiVersion must not be empty");
    if (e.fields_type.empty()) {
      return Status::BadRequest("missing fieldsType in managed fields entry " + std::to_string(i));
    }
    if (e.fields_type != "FieldsV1") {
      return Status::BadRequest("invalid fieldsType " + GoQuote(e.fields_type) + " in managed fields entry " +
                                std::to_string(i));
    }
    entries.push_back(std::move(e));
  }
  return entries;
}

bool IsResetManagedFields(const json& value) {
  if (!value.is_array()) return false;
  if (value.empty()) return true;
  // One entry with every member at its zero value (reflect.DeepEqual with an empty entry).
  if (value.size() != 1 || !value[0].is_object()) return false;
  // Members the entry does not have are ignored by Go's decoder, so they do not count.
  for (const char* key : {"manager", "operation", "apiVersion", "time", "fieldsType", "fieldsV1", "subresource"}) {
    auto member = value[0].find(key);
    if (member == value[0].end() || member->is_null()) continue;
    if (!member->is_string() || !member->get_ref<const std::string&>().empty()) return false;
  }
  return true;
}

namespace {

// kube's sortEncodedManagedFields: Apply before Update, then oldest first, then by manager,
// apiVersion and subresource.
bool EntryLess(const ManagedFieldsEntry& p, const ManagedFieldsEntry& q) {
  if (p.operation != q.operation) return p.operation < q.operation;
  const int64_t ps = p.time.value_or(0), qs = q.time.value_or(0);
  if (ps != qs) return ps < qs;
  if (p.manager != q.manager) return p.manager < q.manager;
  if (p.api_version != q.api_version) return p.api_version < q.api_version;
  return p.subresource < q.subresource;
}

}  // namespace

json EncodeManagedFieldsEntries(std::vector<ManagedFieldsEntry> entries) {
  if (entries.empty()) return nullptr;
  std::sort(entries.begin(), entries.end(), EntryLess);
  json out = json::array();
  for (auto& e : entries) {
    json item = json::object();
    if (!e.manager.empty()) item["manager"] = std::move(e.manager);
    if (!e.operation.empty()) item["operation"] = std::move(e.operation);
    if (!e.api_version.empty()) item["apiVersion"] = std::move(e.api_version);
    if (e.time) item["time"] = FormatRfc3339(*e.time);
    if (!e.fields_type.empty()) item["fieldsType"] = std::move(e.fields_type);
    if (!e.fields_v1.is_null()) item["fieldsV1"] = std::move(e.fields_v1);
    if (!e.subresource.empty()) item["subresource"] = std::move(e.subresource);
    out.push_back(std::move(item));
  }
  return out;
}

void SortManagedFields(json* entries) {
  if (!entries->is_array()) return;
  auto key = [](const json& e) {
    ManagedFieldsEntry k;
    (void)DecodeEntry(e, &k, /*copy_fields=*/false);
    return k;
  };
  std::vector<std::pair<ManagedFieldsEntry, json>> keyed;
  keyed.reserve(entries->size());
  for (auto& e : *entries) keyed.emplace_back(key(e), std::move(e));
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return EntryLess(a.first, b.first); });
  json out = json::array();
  for (auto& [k, e] : keyed) out.push_back(std::move(e));
  *entries = std::move(out);
}

bool FieldsV1HasMember(const json& fields_v1, const std::vector<std::string>& serialized_path) {
  const json* node = &fields_v1;
  for (size_t i = 0; i < serialized_path.size(); ++i) {
    if (!node->is_object()) return false;
    auto it = node->find(serialized_path[i]);
    if (it == node->end()) return false;
    if (i + 1 == serialized_path.size()) return it->empty() || it->contains(".");
    node = &*it;
  }
  return false;
}

std::string ManagerIdentifier(const ManagedFieldsEntry& entry) {
  // Go marshals the members in declaration order and leaves empty ones out.
  std::string out = "{";
  auto add = [&](const char* key, const std::string& value) {
    if (value.empty()) return;
    if (out.size() > 1) out += ',';
    out += '"';
    out += key;
    out += "\":" + GoJsonMarshal(json(value));
  };
  add("manager", entry.manager);
  add("operation", entry.operation);
  if (entry.operation != kOperationApply) add("apiVersion", entry.api_version);
  add("subresource", entry.subresource);
  return out + "}";
}

std::optional<ManagedFieldsEntry> EntryOfIdentifier(std::string_view identifier) {
  json parsed = json::parse(identifier, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return std::nullopt;
  ManagedFieldsEntry e;
  if (!DecodeEntry(parsed, &e).ok()) return std::nullopt;
  return e;
}

std::string PrintManager(std::string_view identifier) {
  std::optional<ManagedFieldsEntry> e = EntryOfIdentifier(identifier);
  if (!e) return GoQuote(identifier);
  std::string out = GoQuote(e->manager);
  if (!e->subresource.empty()) out += " with subresource " + GoQuote(e->subresource);
  // Identifiers carry no time, so an Update manager is named with its version only.
  if (e->operation == kOperationUpdate) out += " using " + e->api_version;
  return out;
}

std::optional<int64_t> ParseRfc3339(std::string_view s) {
  // Go's time.RFC3339 layout: YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM).
  if (s.size() < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':') {
    return std::nullopt;
  }
  const int year = Digits(s, 0, 4), month = Digits(s, 5, 2), day = Digits(s, 8, 2);
  const int hour = Digits(s, 11, 2), minute = Digits(s, 14, 2), second = Digits(s, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 ||
      second < 0 || second > 59) {
    return std::nullopt;
  }
  static constexpr int kDaysIn[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (day > kDaysIn[month - 1] || (month == 2 && day == 29 && !leap)) return std::nullopt;
  size_t pos = 19;
  if (pos < s.size() && s[pos] == '.') {
    size_t digits = 0;
    for (++pos; pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; ++pos) ++digits;
    if (digits == 0) return std::nullopt;
  }
  int64_t offset = 0;
  if (pos < s.size() && s[pos] == 'Z' && pos + 1 == s.size()) {
    offset = 0;
  } else if (pos + 6 == s.size() && (s[pos] == '+' || s[pos] == '-') && s[pos + 3] == ':') {
    const int oh = Digits(s, pos + 1, 2), om = Digits(s, pos + 4, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return std::nullopt;
    offset = (oh * 3600 + om * 60) * (s[pos] == '-' ? -1 : 1);
  } else {
    return std::nullopt;
  }
  const int64_t days = DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  return days * 86400 + hour * 3600 + minute * 60 + second - offset;
}

std::string FormatRfc3339(int64_t seconds) {
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

int64_t NowUnixSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace kube::registry
