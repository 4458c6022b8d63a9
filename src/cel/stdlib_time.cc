// Timestamps and durations: their text forms (RFC 3339 as Go's time package reads and writes it,
// Go's duration syntax), conversions, arithmetic with range checks, and the calendar getters with
// an optional time zone — an IANA name read from the system's zoneinfo files (libstdc++ 12 has no
// time-zone database) or a fixed "[+-]HH:MM" offset.
#include <array>
#include <charconv>
#include <cstdio>
#include <optional>
#include <fstream>
#include <iterator>

#include "cel/stdlib_internal.h"
#include "util/civil_time.h"

namespace kube::cel::internal {

namespace {

constexpr Kind S = Kind::kString, I = Kind::kInt, TS = Kind::kTimestamp, DUR = Kind::kDuration;
constexpr int64_t kMinSeconds = -62135596800;  // 0001-01-01T00:00:00Z
constexpr int64_t kMaxSeconds = 253402300799;  // 9999-12-31T23:59:59Z
constexpr int64_t kNanosPerSecond = 1000000000;

struct Civil {
  int64_t year;
  unsigned month, day;  // 1-based
};

Civil CivilFromDays(int64_t z) {
  Civil c;
  kube::CivilFromDays(z, &c.year, &c.month, &c.day);
  return c;
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

bool Digits(std::string_view s, size_t pos, size_t n, int* out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = 0; i < n; ++i) {
    const char c = s[pos + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

// ---- time zones

// UTC offset in seconds at `unix_seconds` for an IANA zone (TZif file), or nullopt.
std::optional<int64_t> ZoneOffset(const std::string& name, int64_t unix_seconds) {
  if (name == "UTC" || name.empty()) return 0;
  if (name.find("..") != std::string::npos || name[0] == '/' || name.size() > 255) return std::nullopt;
  std::ifstream in("/usr/share/zoneinfo/" + name, std::ios::binary);
  if (!in) return std::nullopt;
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto be = [&](size_t at, int bytes) -> int64_t {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v = (v << 8) | static_cast<unsigned char>(data[at + i]);
    if (bytes == 4) return static_cast<int32_t>(static_cast<uint32_t>(v));
    return static_cast<int64_t>(v);
  };
  if (data.size() < 44 || data.compare(0, 4, "TZif") != 0) return std::nullopt;
  // Counts: isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt.
  auto counts = [&](size_t header) {
    std::array<int64_t, 6> c{};
    for (int i = 0; i < 6; ++i) c[i] = be(header + 20 + 4 * i, 4);
    return c;
  };
  size_t header = 0;
  int time_bytes = 4;
  auto c = counts(0);
  if (data[4] >= '2') {
    // Skip the 32-bit block to the 64-bit one.
    const size_t v1 = 44 + c[3] * 4 + c[3] + c[4] * 6 + c[5] + c[2] * 8 + c[1] + c[0];
    if (data.size() < v1 + 44) return std::nullopt;
    header = v1;
    time_bytes = 8;
    c = counts(header);
  }
  const int64_t timecnt = c[3], typecnt = c[4];
  const size_t times = header + 44, indexes = times + timecnt * time_bytes, types = indexes + timecnt;
  if (typecnt <= 0 || data.size() < types + typecnt * 6) return std::nullopt;
  // The type in force: that of the last transition at or before the instant; before the first
  // transition, the first type. After the last one the file's footer rule applies; its last
  // transition's type stands in for it.
  size_t type = 0;
  for (int64_t i = 0; i < timecnt; ++i) {
    if (be(times + i * time_bytes, time_bytes) > unix_seconds) break;
    type = static_cast<unsigned char>(data[indexes + i]);
  }
  if (static_cast<int64_t>(type) >= typecnt) return std::nullopt;
  return be(types + type * 6, 4);
}

// The offset of a time-zone argument, or an error value.
Value TimeZoneOffset(const std::string& tz, int64_t unix_seconds, int64_t* offset) {
  const size_t colon = tz.find(':');
  if (colon == std::string::npos) {
    auto zone = ZoneOffset(tz, unix_seconds);
    if (!zone) return Value::Error("unknown time zone " + tz);
    *offset = *zone;
    return Value();
  }
  int hours = 0, minutes = 0;
  std::string_view h(tz.data(), colon), m(tz.data() + colon + 1, tz.size() - colon - 1);
  if (!h.empty() && h[0] == '+') h.remove_prefix(1);
  auto rh = std::from_chars(h.data(), h.data() + h.size(), hours);
  auto rm = std::from_chars(m.data(), m.data() + m.size(), minutes);
  if (rh.ec != std::errc() || rh.ptr != h.data() + h.size() || rm.ec != std::errc() || rm.ptr != m.data() + m.size()) {
    return Value::Error("invalid time zone offset: " + tz);
  }
  if (minutes < 0 || minutes > 59) return Value::Error("timezone offset minutes out of range [0, 59]: " + tz);
  const int total = tz[0] == '-' ? hours * 60 - minutes : hours * 60 + minutes;
  *offset = int64_t{total} * 60;
  return Value();
}

enum class Field { kYear, kMonth, kDayOfYear, kDayOfMonth0, kDayOfMonth1, kDayOfWeek, kHours, kMinutes, kSeconds, kMillis };

Value Get(Field field, Timestamp t, int64_t offset) {
  const int64_t local = t.seconds + offset;
  const int64_t days = FloorDiv(local, 86400);
  const int64_t secs = local - days * 86400;
  const Civil c = CivilFromDays(days);
  switch (field) {
    case Field::kYear: return Value::Int(c.year);
    case Field::kMonth: return Value::Int(c.month - 1);
    case Field::kDayOfYear: return Value::Int(days - DaysFromCivil(c.year, 1, 1));
    case Field::kDayOfMonth0: return Value::Int(c.day - 1);
    case Field::kDayOfMonth1: return Value::Int(c.day);
    case Field::kDayOfWeek: return Value::Int(((days % 7) + 11) % 7);  // 1970-01-01 was a Thursday
    case Field::kHours: return Value::Int(secs / 3600);
    case Field::kMinutes: return Value::Int(secs / 60 % 60);
    case Field::kSeconds: return Value::Int(secs % 60);
    case Field::kMillis: return Value::Int(t.nanos / 1000000);
  }
  return Value::Error("unknown getter");
}

Value CheckedTimestamp(int64_t seconds, int64_t nanos) {
  seconds += FloorDiv(nanos, kNanosPerSecond);
  nanos -= FloorDiv(nanos, kNanosPerSecond) * kNanosPerSecond;
  Timestamp t{seconds, static_cast<int32_t>(nanos)};
  if (!InTimestampRange(t)) return Value::Error("timestamp overflow");
  return Value::OfTimestamp(t);
}

Value AddDuration(Timestamp t, int64_t nanos) {
  const int64_t secs = FloorDiv(nanos, kNanosPerSecond);
  return CheckedTimestamp(t.seconds + secs, t.nanos + (nanos - secs * kNanosPerSecond));
}

}  // namespace

bool InTimestampRange(Timestamp t) { return t.seconds >= kMinSeconds && t.seconds <= kMaxSeconds; }

bool ParseRfc3339(std::string_view s, Timestamp* out) {
  int y, mo, d, h, mi, sec;
  if (!Digits(s, 0, 4, &y) || s.size() < 20 || s[4] != '-' || !Digits(s, 5, 2, &mo) || s[7] != '-' ||
      !Digits(s, 8, 2, &d) || s[10] != 'T' || !Digits(s, 11, 2, &h) || s[13] != ':' || !Digits(s, 14, 2, &mi) ||
      s[16] != ':' || !Digits(s, 17, 2, &sec)) {
    return false;
  }
  size_t pos = 19;
  int64_t nanos = 0;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    int digits = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (digits < 9) nanos = nanos * 10 + (s[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0) return false;
    for (int i = digits; i < 9; ++i) nanos *= 10;
  }
  int64_t offset = 0;
  if (pos < s.size() && s[pos] == 'Z') {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int oh, om;
    if (!Digits(s, pos + 1, 2, &oh) || pos + 3 >= s.size() || s[pos + 3] != ':' || !Digits(s, pos + 4, 2, &om) ||
        oh > 23 || om > 59) {
      return false;
    }
    offset = (s[pos] == '-' ? -1 : 1) * (oh * 3600 + om * 60);
    pos += 6;
  } else {
    return false;
  }
  if (pos != s.size()) return false;
  static constexpr int kDaysIn[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (mo < 1 || mo > 12 || d < 1 || d > kDaysIn[mo - 1] || (mo == 2 && d == 29 && !leap) || h > 23 || mi > 59 ||
      sec > 59) {
    return false;
  }
  out->seconds = DaysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - offset;
  out->nanos = static_cast<int32_t>(nanos);
  return true;
}

std::string FormatRfc3339(Timestamp t) {
  const int64_t days = FloorDiv(t.seconds, 86400);
  const int64_t secs = t.seconds - days * 86400;
  const Civil c = CivilFromDays(days);
  char buf[64];
  int n = snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02lld:%02lld:%02lld", static_cast<long long>(c.year), c.month,
                   c.day, static_cast<long long>(secs / 3600), static_cast<long long>(secs / 60 % 60),
                   static_cast<long long>(secs % 60));
  std::string out(buf, n);
  if (t.nanos != 0) {
    snprintf(buf, sizeof buf, ".%09d", t.nanos);
    std::string frac(buf);
    while (frac.back() == '0') frac.pop_back();
    out += frac;
  }
  return out + "Z";
}

bool ParseGoDuration(std::string_view s, Duration* out) {
  if (s.empty()) return false;
  bool negative = false;
  if (s[0] == '-' || s[0] == '+') {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") {
    out->nanos = 0;
    return true;
  }
  if (s.empty()) return false;
  // Accumulated in unsigned nanoseconds; the magnitude may reach 2^63 for a negative duration.
  unsigned __int128 total = 0;
  while (!s.empty()) {
    uint64_t whole = 0;
    size_t i = 0;
    bool any = false;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      if (whole > (UINT64_MAX - 9) / 10) return false;
      whole = whole * 10 + (s[i++] - '0');
      any = true;
    }
    unsigned __int128 frac = 0, scale = 1;
    if (i < s.size() && s[i] == '.') {
      ++i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
        if (scale < static_cast<unsigned __int128>(1e18)) {
          frac = frac * 10 + (s[i] - '0');
          scale *= 10;
        }
        ++i;
        any = true;
      }
    }
    if (!any) return false;
    size_t u = i;
    while (u < s.size() && !(s[u] >= '0' && s[u] <= '9') && s[u] != '.') ++u;
    const std::string_view unit = s.substr(i, u - i);
    uint64_t per;
    if (unit == "ns") per = 1;
    else if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") per = 1000;
    else if (unit == "ms") per = 1000000;
    else if (unit == "s") per = 1000000000;
    else if (unit == "m") per = 60ull * 1000000000;
    else if (unit == "h") per = 3600ull * 1000000000;
    else return false;
    total += static_cast<unsigned __int128>(whole) * per + frac * per / scale;
    if (total > (static_cast<unsigned __int128>(1) << 63)) return false;
    s.remove_prefix(u);
  }
  if (!negative && total > static_cast<unsigned __int128>(INT64_MAX)) return false;
  out->nanos = negative ? static_cast<int64_t>(0 - static_cast<uint64_t>(total)) : static_cast<int64_t>(total);
  return true;
}

std::string FormatDurationSeconds(Duration d) {
  // Go's Duration.Seconds(): whole seconds plus the remainder, as a float64, printed shortest.
  const double seconds =
      static_cast<double>(d.nanos / kNanosPerSecond) + static_cast<double>(d.nanos % kNanosPerSecond) / 1e9;
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, seconds, std::chars_format::fixed);
  return std::string(buf, r.ptr) + "s";
}

void RegisterTime(FunctionRegistry& r) {
  r.Add("timestamp", {.params = {TS}}, [](const Value* a, CallContext&) { return a[0]; });
  r.Add("timestamp", {.params = {S}}, [](const Value* a, CallContext&) {
    Timestamp t;
    if (!ParseRfc3339(a[0].AsString(), &t)) return Value::Error("timestamp(\"" + a[0].AsString() + "\") is not a valid RFC 3339 timestamp");
    if (!InTimestampRange(t)) return Value::Error("timestamp out of range");
    return Value::OfTimestamp(t);
  });
  r.Add("timestamp", {.params = {I}}, [](const Value* a, CallContext&) { return CheckedTimestamp(a[0].AsInt(), 0); });
  r.Add("duration", {.params = {DUR}}, [](const Value* a, CallContext&) { return a[0]; });
  r.Add("duration", {.params = {S}}, [](const Value* a, CallContext&) {
    Duration d;
    if (!ParseGoDuration(a[0].AsString(), &d)) return Value::Error("invalid duration: " + a[0].AsString());
    return Value::OfDuration(d);
  });

  r.Add("_+_", {.params = {TS, DUR}}, [](const Value* a, CallContext&) { return AddDuration(a[0].AsTimestamp(), a[1].AsDuration().nanos); });
  r.Add("_+_", {.params = {DUR, TS}}, [](const Value* a, CallContext&) { return AddDuration(a[1].AsTimestamp(), a[0].AsDuration().nanos); });
  r.Add("_-_", {.params = {TS, DUR}}, [](const Value* a, CallContext&) {
    if (a[1].AsDuration().nanos == INT64_MIN) return Overflow();
    return AddDuration(a[0].AsTimestamp(), -a[1].AsDuration().nanos);
  });
  r.Add("_-_", {.params = {TS, TS}}, [](const Value* a, CallContext&) {
    const Timestamp x = a[0].AsTimestamp(), y = a[1].AsTimestamp();
    int64_t secs, nanos;
    if (__builtin_sub_overflow(x.seconds, y.seconds, &secs) || __builtin_mul_overflow(secs, kNanosPerSecond, &nanos) ||
        __builtin_add_overflow(nanos, int64_t{x.nanos} - y.nanos, &nanos)) {
      return Overflow();
    }
    return Value::OfDuration({nanos});
  });
  r.Add("_+_", {.params = {DUR, DUR}}, [](const Value* a, CallContext&) {
    int64_t out;
    return __builtin_add_overflow(a[0].AsDuration().nanos, a[1].AsDuration().nanos, &out) ? Overflow() : Value::OfDuration({out});
  });
  r.Add("_-_", {.params = {DUR, DUR}}, [](const Value* a, CallContext&) {
    int64_t out;
    return __builtin_sub_overflow(a[0].AsDuration().nanos, a[1].AsDuration().nanos, &out) ? Overflow() : Value::OfDuration({out});
  });

  const std::pair<std::string_view, Field> getters[] = {
      {"getFullYear", Field::kYear},       {"getMonth", Field::kMonth},       {"getDayOfYear", Field::kDayOfYear},
      {"getDayOfMonth", Field::kDayOfMonth0}, {"getDate", Field::kDayOfMonth1}, {"getDayOfWeek", Field::kDayOfWeek},
      {"getHours", Field::kHours},          {"getMinutes", Field::kMinutes},   {"getSeconds", Field::kSeconds},
      {"getMilliseconds", Field::kMillis}};
  for (const auto& [name, field] : getters) {
    r.Add(name, {.receiver = true, .params = {TS}}, [f = field](const Value* a, CallContext&) { return Get(f, a[0].AsTimestamp(), 0); });
    r.Add(name, {.receiver = true, .params = {TS, S}}, [f = field](const Value* a, CallContext&) {
      int64_t offset = 0;
      Value err = TimeZoneOffset(a[1].AsString(), a[0].AsTimestamp().seconds, &offset);
      if (err.IsError()) return err;
      return Get(f, a[0].AsTimestamp(), offset);
    });
  }
  auto duration_getter = [&](std::string_view name, int64_t unit) {
    r.Add(name, {.receiver = true, .params = {DUR}}, [unit](const Value* a, CallContext&) { return Value::Int(a[0].AsDuration().nanos / unit); });
  };
  duration_getter("getHours", 3600 * kNanosPerSecond);
  duration_getter("getMinutes", 60 * kNanosPerSecond);
  duration_getter("getSeconds", kNanosPerSecond);
  duration_getter("getMilliseconds", 1000000);
}

}  // namespace kube::cel::internal

namespace kube::cel {

bool ParseTimestamp(std::string_view rfc3339, Timestamp* out) {
  return internal::ParseRfc3339(rfc3339, out) && internal::InTimestampRange(*out);
}

}  // namespace kube::cel
