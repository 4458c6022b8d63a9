// A strict reader of Prometheus' text exposition format (0.0.4), for tests: every line must be a
// HELP or TYPE comment or a sample; names and label names must be valid; label values must be
// well escaped; values must parse; TYPE precedes a family's samples and comes once; histograms'
// buckets are cumulative, end in +Inf, and +Inf equals _count. Parse() says what is wrong, with
// the line number, or returns the samples.
//
// Thread-safety: pure functions.
#pragma once

#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kube::metrics::testing {

struct ParsedSample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;
};

struct ParsedExposition {
  std::map<std::string, std::string> types;  // family -> counter|gauge|histogram|summary|untyped
  std::map<std::string, std::string> help;
  std::vector<ParsedSample> samples;

  // The value of the one sample with this name whose labels include `match`; nullopt when none.
  std::optional<double> Value(std::string_view name, const std::map<std::string, std::string>& match = {}) const {
    std::optional<double> found;
    for (const auto& s : samples) {
      if (s.name != name) continue;
      bool ok = true;
      for (const auto& [k, v] : match) {
        auto it = s.labels.find(k);
        if (it == s.labels.end() || it->second != v) ok = false;
      }
      if (ok) found = found.value_or(0) + s.value;
    }
    return found;
  }
};

namespace internal {

inline bool NameStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':'; }
inline bool NameChar(char c) { return NameStart(c) || (c >= '0' && c <= '9'); }
inline bool ValidName(std::string_view n, bool colon_ok = true) {
  if (n.empty() || !NameStart(n[0]) || (!colon_ok && n[0] == ':')) return false;
  for (char c : n) {
    if (!NameChar(c) || (!colon_ok && c == ':')) return false;
  }
  return true;
}
inline std::optional<double> ParseValue(std::string_view v) {
  if (v == "+Inf") return INFINITY;
  if (v == "-Inf") return -INFINITY;
  if (v == "NaN") return NAN;
  if (v.empty()) return std::nullopt;
  std::string s(v);
  char* end = nullptr;
  const double d = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  // strtod takes "inf"/"nan"/hex forms the format does not.
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) return std::nullopt;
  }
  return d;
}
// The family a sample belongs to: histograms' _bucket/_sum/_count belong to their base name.
inline std::string FamilyOf(const std::string& name, const std::map<std::string, std::string>& types) {
  for (std::string_view suffix : {"_bucket", "_sum", "_count"}) {
    if (name.size() > suffix.size() && name.ends_with(suffix)) {
      std::string base = name.substr(0, name.size() - suffix.size());
      auto it = types.find(base);
      if (it != types.end() && (it->second == "histogram" || it->second == "summary")) return base;
    }
  }
  return name;
}

}  // namespace internal

// Empty `error` on success.
inline ParsedExposition Parse(std::string_view text, std::string* error) {
  using namespace internal;
  ParsedExposition out;
  error->clear();
  std::set<std::string> seen_sample_family;
  size_t line_no = 0;
  auto fail = [&](const std::string& why, std::string_view line) {
    *error = "line " + std::to_string(line_no) + ": " + why + ": " + std::string(line);
  };
  if (!text.empty() && text.back() != '\n') {
    *error = "exposition does not end with a newline";
    return out;
  }
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (line.empty()) continue;
    if (line[0] == '#') {
      if (line.starts_with("# HELP ") || line.starts_with("# TYPE ")) {
        const bool is_type = line[2] == 'T';
        std::string_view rest = line.substr(7);
        const size_t sp = rest.find(' ');
        std::string name(rest.substr(0, sp));
        if (!ValidName(name)) return fail("bad metric name in comment", line), out;
        std::string_view arg = sp == std::string_view::npos ? std::string_view() : rest.substr(sp + 1);
        if (is_type) {
          if (arg != "counter" && arg != "gauge" && arg != "histogram" && arg != "summary" && arg != "untyped") {
            return fail("unknown type", line), out;
          }
          if (out.types.count(name)) return fail("second TYPE line", line), out;
          if (seen_sample_family.count(name)) return fail("TYPE after samples", line), out;
          out.types[name] = std::string(arg);
        } else {
          if (out.help.count(name)) return fail("second HELP line", line), out;
          for (size_t i = 0; i < arg.size(); ++i) {
            if (arg[i] == '\\' && (i + 1 >= arg.size() || (arg[i + 1] != '\\' && arg[i + 1] != 'n'))) {
              return fail("bad escape in HELP", line), out;
            }
            if (arg[i] == '\\') ++i;
          }
          out.help[name] = std::string(arg);
        }
      }
      continue;  // other comments are allowed
    }
    ParsedSample s;
    size_t i = 0;
    while (i < line.size() && line[i] != '{' && line[i] != ' ') ++i;
    s.name = std::string(line.substr(0, i));
    if (!ValidName(s.name)) return fail("bad metric name", line), out;
    if (i < line.size() && line[i] == '{') {
      ++i;
      while (true) {
        if (i < line.size() && line[i] == '}') {
          ++i;
          break;
        }
        size_t start = i;
        while (i < line.size() && line[i] != '=') ++i;
        std::string label(line.substr(start, i - start));
        if (!ValidName(label, /*colon_ok=*/false) || label.starts_with("__")) return fail("bad label name", line), out;
        if (i + 1 >= line.size() || line[i + 1] != '"') return fail("label value not quoted", line), out;
        i += 2;
        std::string value;
        bool closed = false;
        while (i < line.size()) {
          char c = line[i++];
          if (c == '"') {
            closed = true;
            break;
          }
          if (c == '\\') {
            if (i >= line.size()) break;
            char e = line[i++];
            if (e == '\\') value += '\\';
            else if (e == '"') value += '"';
            else if (e == 'n') value += '\n';
            else return fail("bad escape in label value", line), out;
          } else {
            value += c;
          }
        }
        if (!closed) return fail("unterminated label value", line), out;
        if (s.labels.count(label)) return fail("repeated label", line), out;
        s.labels[label] = value;
        if (i < line.size() && line[i] == ',') {
          ++i;
          continue;
        }
        if (i < line.size() && line[i] == '}') continue;
        return fail("expected , or } after label", line), out;
      }
    }
    if (i >= line.size() || line[i] != ' ') return fail("no value", line), out;
    std::string_view rest = line.substr(i + 1);
    std::string_view value_text = rest.substr(0, rest.find(' '));  // an optional timestamp may follow
    auto v = ParseValue(value_text);
    if (!v) return fail("bad value", line), out;
    s.value = *v;
    const std::string family = FamilyOf(s.name, out.types);
    if (!out.types.count(family)) return fail("sample without TYPE", line), out;
    seen_sample_family.insert(family);
    out.samples.push_back(std::move(s));
  }
  // Histograms: per series (labels without le), buckets cumulative, +Inf present and == _count.
  for (const auto& [family, type] : out.types) {
    if (type != "histogram") continue;
    std::map<std::map<std::string, std::string>, std::vector<std::pair<double, double>>> buckets;
    std::map<std::map<std::string, std::string>, double> counts;
    for (const auto& s : out.samples) {
      if (s.name == family + "_bucket") {
        auto labels = s.labels;
        auto le = labels.find("le");
        if (le == labels.end()) return *error = family + ": bucket without le", out;
        auto bound = ParseValue(le->second);
        if (!bound) return *error = family + ": bad le " + le->second, out;
        labels.erase(le);
        buckets[labels].emplace_back(*bound, s.value);
      } else if (s.name == family + "_count") {
        counts[s.labels] = s.value;
      }
    }
    for (const auto& [labels, series] : buckets) {
      for (size_t k = 1; k < series.size(); ++k) {
        if (!(series[k].first > series[k - 1].first)) return *error = family + ": le not increasing", out;
        if (series[k].second < series[k - 1].second) return *error = family + ": buckets not cumulative", out;
      }
      if (series.empty() || !std::isinf(series.back().first)) return *error = family + ": no +Inf bucket", out;
      auto c = counts.find(labels);
      if (c == counts.end()) return *error = family + ": no _count", out;
      if (c->second != series.back().second) return *error = family + ": +Inf bucket differs from _count", out;
    }
  }
  return out;
}

}  // namespace kube::metrics::testing
