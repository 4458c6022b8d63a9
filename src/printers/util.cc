#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

#include "util/strings.h"
#include "printers/internal.h"

namespace kube::printers {

std::string HumanDuration(std::chrono::nanoseconds d) {
  // Mirrors apimachinery's duration.HumanDuration, including Go's truncating int conversions.
  const int64_t ns = d.count();
  const int64_t seconds = ns / 1'000'000'000;
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return std::to_string(seconds) + "s";
  const int64_t minutes = seconds / 60;
  if (minutes < 10) {
    const int64_t s = seconds % 60;
    if (s == 0) return std::to_string(minutes) + "m";
    return std::to_string(minutes) + "m" + std::to_string(s) + "s";
  }
  if (minutes < 60 * 3) return std::to_string(minutes) + "m";
  const int64_t hours = seconds / 3600;
  if (hours < 8) {
    const int64_t m = minutes % 60;
    if (m == 0) return std::to_string(hours) + "h";
    return std::to_string(hours) + "h" + std::to_string(m) + "m";
  }
  if (hours < 48) return std::to_string(hours) + "h";
  if (hours < 24 * 8) {
    const int64_t h = hours % 24;
    if (h == 0) return std::to_string(hours / 24) + "d";
    return std::to_string(hours / 24) + "d" + std::to_string(h) + "h";
  }
  if (hours < 24 * 365 * 2) return std::to_string(hours / 24) + "d";
  if (hours < 24 * 365 * 8) {
    const int64_t dy = (hours / 24) % 365;
    if (dy == 0) return std::to_string(hours / 24 / 365) + "y";
    return std::to_string(hours / 24 / 365) + "y" + std::to_string(dy) + "d";
  }
  return std::to_string(hours / 24 / 365) + "y";
}

namespace internal {

namespace {

const Json& EmptyArray() {
  static const Json* const kEmpty = new Json(Json::array());
  return *kEmpty;
}

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

// Reads exactly `n` digits at s[pos].
bool Digits(std::string_view s, size_t pos, size_t n, int* out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!IsDigit(s[pos + i])) return false;
    v = v * 10 + (s[pos + i] - '0');
  }
  *out = v;
  return true;
}

int DaysIn(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// Seconds of Go's zero time.Time (0001-01-01T00:00:00Z) since the Unix epoch.
constexpr int64_t kGoZeroSec = -62135596800;

}  // namespace

const Json* Field(const Json* obj, std::string_view key) {
  if (obj == nullptr || !obj->is_object()) return nullptr;
  auto it = obj->find(key);
  if (it == obj->end()) return nullptr;
  return &*it;
}

const Json* Path(const Json* obj, std::initializer_list<std::string_view> keys) {
  const Json* cur = obj;
  for (std::string_view k : keys) {
    cur = Field(cur, k);
    if (cur == nullptr) return nullptr;
  }
  return cur;
}

bool IsSet(const Json* v) {
  return v != nullptr && !v->is_null();
}
bool IsObject(const Json* v) {
  return v != nullptr && v->is_object();
}

std::string Str(const Json* v) {
  if (v == nullptr || !v->is_string()) return "";
  return v->get_ref<const std::string&>();
}

int64_t Int32(const Json* v) {
  if (v == nullptr) return 0;
  constexpr int64_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  if (v->is_number_unsigned()) {
    const uint64_t u = v->get<uint64_t>();
    return u > static_cast<uint64_t>(kMax) ? kMax : static_cast<int64_t>(u);
  }
  if (v->is_number_integer()) return std::clamp<int64_t>(v->get<int64_t>(), kMin, kMax);
  if (v->is_number_float()) {
    const double d = v->get<double>();
    if (std::isnan(d)) return 0;
    return static_cast<int64_t>(std::clamp<double>(std::trunc(d), kMin, kMax));
  }
  return 0;
}

bool Bool(const Json* v) {
  return v != nullptr && v->is_boolean() && v->get<bool>();
}

const Json& Array(const Json* v) {
  if (v == nullptr || !v->is_array()) return EmptyArray();
  return *v;
}

size_t ObjectSize(const Json* v) {
  return IsObject(v) ? v->size() : 0;
}

std::string Name(const Json& object) {
  return Str(Path(&object, {"metadata", "name"}));
}

std::optional<Time> ParseTime(const Json* v) {
  if (v == nullptr || !v->is_string()) return std::nullopt;
  std::string_view s = v->get_ref<const std::string&>();
  int y, mo, d, h, mi, se;
  if (!Digits(s, 0, 4, &y) || s.size() < 20 || s[4] != '-' || !Digits(s, 5, 2, &mo) ||
      s[7] != '-' || !Digits(s, 8, 2, &d) || s[10] != 'T' || !Digits(s, 11, 2, &h) ||
      s[13] != ':' || !Digits(s, 14, 2, &mi) || s[16] != ':' || !Digits(s, 17, 2, &se)) {
    return std::nullopt;
  }
  if (mo < 1 || mo > 12 || d < 1 || d > DaysIn(y, mo) || h > 23 || mi > 59 || se > 59) {
    return std::nullopt;
  }
  size_t pos = 19;
  int64_t nsec = 0;
  if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
    ++pos;
    size_t ndigits = 0;
    int64_t scale = 100'000'000;
    while (pos < s.size() && IsDigit(s[pos])) {
      if (ndigits < 9) nsec += (s[pos] - '0') * scale;
      scale /= 10;
      ++ndigits;
      ++pos;
    }
    if (ndigits == 0) return std::nullopt;
  }
  int64_t offset = 0;
  if (pos < s.size() && s[pos] == 'Z') {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int oh, om;
    if (!Digits(s, pos + 1, 2, &oh) || pos + 3 >= s.size() || s[pos + 3] != ':' ||
        !Digits(s, pos + 4, 2, &om) || oh > 23 || om > 59) {
      return std::nullopt;
    }
    offset = (oh * 3600 + om * 60) * (s[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != s.size()) return std::nullopt;
  using namespace std::chrono;
  const sys_days days{year{y} / month{static_cast<unsigned>(mo)} / day{static_cast<unsigned>(d)}};
  Time t;
  t.sec = static_cast<int64_t>(days.time_since_epoch().count()) * 86400 + h * 3600 + mi * 60 + se -
          offset;
  t.nsec = static_cast<int32_t>(nsec);
  if (t.sec == kGoZeroSec && t.nsec == 0) return std::nullopt;
  return t;
}

std::chrono::nanoseconds Sub(const Time& t2, const Time& t1) {
  // Both operands come from 4-digit years, so the second difference cannot overflow; only the
  // conversion to nanoseconds can, and Go saturates it.
  const int64_t dsec = t2.sec - t1.sec;
  constexpr int64_t kMaxSec = std::numeric_limits<int64_t>::max() / 1'000'000'000 - 1;
  if (dsec > kMaxSec) return std::chrono::nanoseconds::max();
  if (dsec < -kMaxSec) return std::chrono::nanoseconds::min();
  return std::chrono::nanoseconds(dsec * 1'000'000'000 + (t2.nsec - t1.nsec));
}

Time FromTimePoint(TimePoint tp) {
  using namespace std::chrono;
  const auto ns = duration_cast<nanoseconds>(tp.time_since_epoch()).count();
  Time t;
  t.sec = ns / 1'000'000'000;
  int64_t rem = ns % 1'000'000'000;
  if (rem < 0) {
    rem += 1'000'000'000;
    t.sec -= 1;
  }
  t.nsec = static_cast<int32_t>(rem);
  return t;
}

std::string Since(const Json* ts, TimePoint now) {
  std::optional<Time> t = ParseTime(ts);
  if (!t) return "<unknown>";
  return HumanDuration(Sub(FromTimePoint(now), *t));
}

std::string FormatRFC3339(const Time& t) {
  using namespace std::chrono;
  int64_t days = t.sec / 86400;
  int64_t secs = t.sec % 86400;
  if (secs < 0) {
    secs += 86400;
    days -= 1;
  }
  const year_month_day ymd{sys_days{std::chrono::days{days}}};
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02dZ", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<int>(secs / 3600), static_cast<int>(secs / 60 % 60),
                static_cast<int>(secs % 60));
  return buf;
}

std::string FormatLabels(const Json* labels) {
  if (!IsObject(labels) || labels->empty()) return "<none>";
  // nlohmann objects iterate in key order, which is the sorted order kube uses.
  std::string out;
  for (auto it = labels->begin(); it != labels->end(); ++it) {
    if (!out.empty()) out += ',';
    out += it.key();
    out += '=';
    out += Str(&it.value());
  }
  return out;
}

namespace {

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// validation.IsQualifiedName's name part and IsValidLabelValue share this shape.
bool IsLabelToken(std::string_view s, bool allow_empty) {
  if (s.empty()) return allow_empty;
  if (s.size() > 63 || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return IsAlnum(c) || c == '-' || c == '_' || c == '.'; });
}

bool IsDNS1123Subdomain(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    std::string_view label = s.substr(start, dot == std::string_view::npos ? s.npos : dot - start);
    if (label.empty()) return false;
    for (char c : label) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
    }
    if (label.front() == '-' || label.back() == '-') return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

bool IsQualifiedName(std::string_view key) {
  size_t slash = key.find('/');
  if (slash == std::string_view::npos) return IsLabelToken(key, false);
  if (key.find('/', slash + 1) != std::string_view::npos) return false;
  return IsDNS1123Subdomain(key.substr(0, slash)) && IsLabelToken(key.substr(slash + 1), false);
}

struct Requirement {
  std::string key;
  std::string text;
};

}  // namespace

std::optional<std::string> SelectorString(const Json* selector) {
  // A nil selector is labels.Nothing() and an empty one labels.Everything(); both print "".
  if (!IsObject(selector)) return std::string();
  const Json* match_labels = Field(selector, "matchLabels");
  const Json& exprs = Array(Field(selector, "matchExpressions"));
  std::vector<Requirement> reqs;
  if (IsObject(match_labels)) {
    for (auto it = match_labels->begin(); it != match_labels->end(); ++it) {
      const std::string value = Str(&it.value());
      if (!IsQualifiedName(it.key()) || !IsLabelToken(value, true)) return std::nullopt;
      reqs.push_back({it.key(), it.key() + "=" + value});
    }
  }
  for (const Json& e : exprs) {
    const std::string key = Str(Field(&e, "key"));
    const std::string op = Str(Field(&e, "operator"));
    std::vector<std::string> values;
    for (const Json& v : Array(Field(&e, "values"))) values.push_back(Str(&v));
    if (!IsQualifiedName(key)) return std::nullopt;
    for (const std::string& v : values) {
      if (!IsLabelToken(v, true)) return std::nullopt;
    }
    if (op == "In" || op == "NotIn") {
      if (values.empty()) return std::nullopt;
      std::sort(values.begin(), values.end());
      reqs.push_back({key, key + (op == "In" ? " in (" : " notin (") + Join(values, ",") + ")"});
    } else if (op == "Exists" || op == "DoesNotExist") {
      if (!values.empty()) return std::nullopt;
      reqs.push_back({key, (op == "Exists" ? "" : "!") + key});
    } else {
      return std::nullopt;
    }
  }
  std::stable_sort(reqs.begin(), reqs.end(),
                   [](const Requirement& a, const Requirement& b) { return a.key < b.key; });
  std::string out;
  for (const Requirement& r : reqs) {
    if (!out.empty()) out += ',';
    out += r.text;
  }
  return out;
}

std::string FormatLabelSelector(const Json* selector) {
  std::optional<std::string> s = SelectorString(selector);
  if (!s) return "<error>";
  return s->empty() ? "<none>" : *s;
}

std::pair<std::string, std::string> ContainerCells(const Json* containers) {
  std::vector<std::string> names, images;
  for (const Json& c : Array(containers)) {
    names.push_back(Str(Field(&c, "name")));
    images.push_back(Str(Field(&c, "image")));
  }
  return {Join(names, ","), Join(images, ",")};
}

std::string JoinHostPort(const std::string& host, int64_t port) {
  if (host.find(':') != std::string::npos) return "[" + host + "]:" + std::to_string(port);
  return host + ":" + std::to_string(port);
}


std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(sep, start);
    out.push_back(s.substr(start, pos == std::string::npos ? std::string::npos : pos - start));
    if (pos == std::string::npos) return out;
    start = pos + 1;
  }
}

std::vector<std::string> Strings(const Json* arr) {
  std::vector<std::string> out;
  for (const Json& v : Array(arr)) out.push_back(Str(&v));
  return out;
}

std::string LoadBalancerIngress(const Json* status) {
  std::set<std::string> result;
  for (const Json& ing : Array(Path(status, {"loadBalancer", "ingress"}))) {
    const std::string ip = Str(Field(&ing, "ip"));
    const std::string host = Str(Field(&ing, "hostname"));
    if (!ip.empty()) {
      result.insert(ip);
    } else if (!host.empty()) {
      result.insert(host);
    }
  }
  return Join({result.begin(), result.end()}, ",");
}

// A resource.Quantity as printed. Stored quantities are already in canonical form when they come
// from a real apiserver; this prints what is stored and does not re-canonicalise. A missing
// quantity is the zero Quantity, "0".
std::string Quantity(const Json* q) {
  if (q == nullptr) return "0";
  if (q->is_string()) return q->get_ref<const std::string&>();
  if (q->is_number_unsigned()) return std::to_string(q->get<uint64_t>());
  if (q->is_number_integer()) return std::to_string(q->get<int64_t>());
  if (q->is_number_float()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", q->get<double>());
    return buf;
  }
  return "0";
}

std::string IntOrString(const Json* v) {
  if (v == nullptr) return "";
  if (v->is_string()) return v->get_ref<const std::string&>();
  if (v->is_number()) return std::to_string(Int32(v));
  return "";
}

std::string LabelSelectorGoString(const Json* selector) {
  // The gogo-protobuf String() of metav1.LabelSelector: map keys sorted, each field followed by a
  // comma, requirement values as fmt's %v of a []string.
  std::string out = "&LabelSelector{MatchLabels:map[string]string{";
  if (const Json* labels = Field(selector, "matchLabels"); IsObject(labels)) {
    std::map<std::string, std::string> sorted;
    for (auto it = labels->begin(); it != labels->end(); ++it) sorted[it.key()] = Str(&it.value());
    for (const auto& [k, v] : sorted) out += k + ": " + v + ",";
  }
  out += "},MatchExpressions:[]LabelSelectorRequirement{";
  for (const Json& req : Array(Field(selector, "matchExpressions"))) {
    out += "LabelSelectorRequirement{Key:" + Str(Field(&req, "key")) + ",Operator:" + Str(Field(&req, "operator")) +
           ",Values:[" + Join(Strings(Field(&req, "values")), " ") + "],},";
  }
  return out + "},}";
}

std::string StrOr(const Json* v, std::string_view fallback) {
  return v != nullptr && v->is_string() ? v->get_ref<const std::string&>() : std::string(fallback);
}

std::string OrNone(std::string s) {
  return s.empty() ? "<none>" : s;
}

std::string Age(const Json& object, TimePoint now) {
  return Since(Path(&object, {"metadata", "creationTimestamp"}), now);
}

Column NameColumn() {
  return {"Name", "string", "name",
          "Name must be unique within a namespace; it identifies the object.", 0};
}

Column AgeColumn() {
  return {"Age", "string", "", "Time since the object was created (metadata.creationTimestamp).",
          0};
}

}  // namespace internal
}  // namespace kube::printers
