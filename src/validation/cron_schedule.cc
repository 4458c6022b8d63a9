#include "validation/cron_schedule.h"

#include <fstream>
#include <map>
#include <vector>

namespace kube::validation {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

// strings.Fields on ASCII whitespace.
std::vector<std::string> Fields(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && IsSpace(s[i])) ++i;
    size_t j = i;
    while (j < s.size() && !IsSpace(s[j])) ++j;
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::vector<std::string> Split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(sep, start);
    out.emplace_back(s.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos) return out;
    start = pos + 1;
  }
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return out;
}

// strconv.Atoi: an optional sign and decimal digits, within int64.
std::optional<long long> Atoi(std::string_view s, std::string* error) {
  std::string_view digits = s;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  const std::string quoted = "\"" + std::string(s) + "\"";
  if (digits.empty()) {
    *error = "strconv.Atoi: parsing " + quoted + ": invalid syntax";
    return std::nullopt;
  }
  unsigned long long v = 0;
  bool overflow = false;
  for (char c : digits) {
    if (c < '0' || c > '9') {
      *error = "strconv.Atoi: parsing " + quoted + ": invalid syntax";
      return std::nullopt;
    }
    if (v > (~0ULL >> 1) / 10) overflow = true;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  if (overflow || v > (negative ? (1ULL << 63) : (1ULL << 63) - 1)) {
    *error = "strconv.Atoi: parsing " + quoted + ": value out of range";
    return std::nullopt;
  }
  return negative ? -static_cast<long long>(v) : static_cast<long long>(v);
}

std::optional<std::string> MustParseInt(std::string_view expr, unsigned long long* out) {
  std::string err;
  auto n = Atoi(expr, &err);
  if (!n) return "failed to parse int from " + std::string(expr) + ": " + err;
  if (*n < 0) return "negative number (" + std::to_string(*n) + ") not allowed: " + std::string(expr);
  *out = static_cast<unsigned long long>(*n);
  return std::nullopt;
}

struct Bounds {
  unsigned long long min, max;
  const std::map<std::string, unsigned>* names;
};

const std::map<std::string, unsigned> kMonths = {{"jan", 1}, {"feb", 2}, {"mar", 3}, {"apr", 4},
                                                 {"may", 5}, {"jun", 6}, {"jul", 7}, {"aug", 8},
                                                 {"sep", 9}, {"oct", 10}, {"nov", 11}, {"dec", 12}};
const std::map<std::string, unsigned> kDays = {{"sun", 0}, {"mon", 1}, {"tue", 2}, {"wed", 3},
                                               {"thu", 4}, {"fri", 5}, {"sat", 6}};

std::optional<std::string> ParseIntOrName(std::string_view expr, const Bounds& b, unsigned long long* out) {
  if (b.names != nullptr) {
    auto it = b.names->find(Lower(expr));
    if (it != b.names->end()) {
      *out = it->second;
      return std::nullopt;
    }
  }
  return MustParseInt(expr, out);
}

// getRange: "*", "?", "a", "a-b", each optionally "/step".
std::optional<std::string> CheckRange(const std::string& expr, const Bounds& b) {
  const auto range_and_step = Split(expr, '/');
  const auto low_and_high = Split(range_and_step[0], '-');
  const bool single = low_and_high.size() == 1;
  unsigned long long start = 0, end = 0, step = 1;
  if (low_and_high[0] == "*" || low_and_high[0] == "?") {
    start = b.min;
    end = b.max;
  } else {
    if (auto e = ParseIntOrName(low_and_high[0], b, &start)) return e;
    if (low_and_high.size() == 1) {
      end = start;
    } else if (low_and_high.size() == 2) {
      if (auto e = ParseIntOrName(low_and_high[1], b, &end)) return e;
    } else {
      return "too many hyphens: " + expr;
    }
  }
  if (range_and_step.size() == 2) {
    if (auto e = MustParseInt(range_and_step[1], &step)) return e;
    if (single) end = b.max;
  } else if (range_and_step.size() > 2) {
    return "too many slashes: " + expr;
  }
  if (start < b.min) {
    return "beginning of range (" + std::to_string(start) + ") below minimum (" + std::to_string(b.min) + "): " + expr;
  }
  if (end > b.max) {
    return "end of range (" + std::to_string(end) + ") above maximum (" + std::to_string(b.max) + "): " + expr;
  }
  if (start > end) {
    return "beginning of range (" + std::to_string(start) + ") beyond end of range (" + std::to_string(end) +
           "): " + expr;
  }
  if (step == 0) return "step of range should be a positive number: " + expr;
  return std::nullopt;
}

std::optional<std::string> CheckField(const std::string& field, const Bounds& b) {
  for (const auto& expr : Split(field, ',')) {
    if (expr.empty()) continue;  // strings.FieldsFunc drops empty parts
    if (auto e = CheckRange(expr, b)) return e;
  }
  return std::nullopt;
}

// time.ParseDuration's acceptance, with its error texts.
std::optional<std::string> DurationError(std::string_view s) {
  const std::string quoted = "\"" + std::string(s) + "\"";
  std::string_view rest = s;
  if (!rest.empty() && (rest[0] == '+' || rest[0] == '-')) rest.remove_prefix(1);
  if (rest == "0") return std::nullopt;
  if (rest.empty()) return "time: invalid duration " + quoted;
  while (!rest.empty()) {
    size_t i = 0;
    while (i < rest.size() && rest[i] >= '0' && rest[i] <= '9') ++i;
    size_t digits = i;
    if (i < rest.size() && rest[i] == '.') {
      ++i;
      while (i < rest.size() && rest[i] >= '0' && rest[i] <= '9') ++i;
    }
    if (i == 0 || (digits == 0 && i == 1)) return "time: invalid duration " + quoted;
    rest.remove_prefix(i);
    size_t u = 0;
    while (u < rest.size() && rest[u] != '.' && (rest[u] < '0' || rest[u] > '9')) ++u;
    if (u == 0) return "time: missing unit in duration " + quoted;
    const std::string_view unit = rest.substr(0, u);
    static const char* kUnits[] = {"ns", "us", "\xC2\xB5s", "\xCE\xBCs", "ms", "s", "m", "h"};
    bool known = false;
    for (const char* k : kUnits) known = known || unit == k;
    if (!known) return "time: unknown unit \"" + std::string(unit) + "\" in duration " + quoted;
    rest.remove_prefix(u);
  }
  return std::nullopt;
}

std::optional<std::string> DescriptorError(const std::string& spec) {
  for (const char* d : {"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"}) {
    if (spec == d) return std::nullopt;
  }
  const std::string every = "@every ";
  if (spec.rfind(every, 0) == 0) {
    if (auto e = DurationError(std::string_view(spec).substr(every.size()))) {
      return "failed to parse duration " + spec + ": " + *e;
    }
    return std::nullopt;
  }
  return "unrecognized descriptor: " + spec;
}

}  // namespace

std::optional<std::string> CronScheduleError(std::string_view schedule_view) {
  std::string spec(schedule_view);
  if (spec.empty()) return "empty spec string";
  if (spec.rfind("TZ=", 0) == 0 || spec.rfind("CRON_TZ=", 0) == 0) {
    const size_t space = spec.find(' ');
    const size_t eq = spec.find('=');
    const std::string zone = spec.substr(eq + 1, space == std::string::npos ? std::string::npos : space - eq - 1);
    if (auto e = TimeZoneError(zone)) return "provided bad location " + zone + ": " + *e;
    spec = space == std::string::npos ? "" : spec.substr(space);
    const size_t first = spec.find_first_not_of(" \t\n\v\f\r");
    const size_t last = spec.find_last_not_of(" \t\n\v\f\r");
    spec = first == std::string::npos ? "" : spec.substr(first, last - first + 1);
  }
  if (!spec.empty() && spec[0] == '@') return DescriptorError(spec);
  const auto fields = Fields(spec);
  if (fields.size() != 5) {
    std::string listed = "[";
    for (size_t i = 0; i < fields.size(); ++i) listed += (i ? " " : "") + fields[i];
    return "expected exactly 5 fields, found " + std::to_string(fields.size()) + ": " + listed + "]";
  }
  const Bounds bounds[] = {{0, 59, nullptr}, {0, 23, nullptr}, {1, 31, nullptr}, {1, 12, &kMonths}, {0, 6, &kDays}};
  for (size_t i = 0; i < 5; ++i) {
    if (auto e = CheckField(fields[i], bounds[i])) return e;
  }
  return std::nullopt;
}

std::optional<std::string> TimeZoneError(std::string_view name) {
  if (name.empty() || name == "UTC" || name == "Local") return std::nullopt;
  if (name.find("..") != std::string_view::npos || name[0] == '/' || name[0] == '\\') {
    return "time: invalid location name";
  }
  // A zone is a TZif file under the system's zoneinfo (directories and other files are not).
  std::ifstream in("/usr/share/zoneinfo/" + std::string(name), std::ios::binary);
  char magic[4] = {};
  if (in && in.read(magic, 4) && std::string_view(magic, 4) == "TZif") return std::nullopt;
  return "unknown time zone " + std::string(name);
}

}  // namespace kube::validation
