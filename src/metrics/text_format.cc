#include "metrics/text_format.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace kube::metrics {

std::string FormatValue(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  if (v == 0) return std::signbit(v) ? "-0" : "0";
  // The shortest round-trip digits; Go's 'g' then picks %e when the decimal exponent is below -4
  // or at least 6 (the precision 'g' uses for shortest output), with a two-digit exponent.
  char sci[64];
  auto [end, ec] = std::to_chars(sci, sci + sizeof sci, v, std::chars_format::scientific);
  std::string_view s(sci, end - sci);
  const size_t e = s.find('e');
  int exp = 0;
  std::from_chars(s.data() + e + (s[e + 1] == '+' ? 2 : 1), s.data() + s.size(), exp);
  if (exp < -4 || exp >= 6) {
    char buf[80];
    const int n = std::snprintf(buf, sizeof buf, "%.*se%c%02d", static_cast<int>(e), s.data(), exp < 0 ? '-' : '+',
                                exp < 0 ? -exp : exp);
    return std::string(buf, n);
  }
  char fixed[64];
  auto [fend, fec] = std::to_chars(fixed, fixed + sizeof fixed, v, std::chars_format::fixed);
  return std::string(fixed, fend - fixed);
}

void AppendLabelValue(std::string* out, std::string_view v) {
  for (char c : v) {
    switch (c) {
      case '\\': out->append("\\\\"); break;
      case '"': out->append("\\\""); break;
      case '\n': out->append("\\n"); break;
      default: out->push_back(c);
    }
  }
}

void AppendHeader(std::string* out, const Desc& desc, std::string_view type) {
  out->append("# HELP ").append(desc.name).push_back(' ');
  // component-base prefixes the help with the stability level.
  switch (desc.stability) {
    case Stability::kAlpha: out->append("[ALPHA] "); break;
    case Stability::kBeta: out->append("[BETA] "); break;
    case Stability::kStable: out->append("[STABLE] "); break;
    case Stability::kRaw: break;
  }
  for (char c : desc.help) {
    if (c == '\\') {
      out->append("\\\\");
    } else if (c == '\n') {
      out->append("\\n");
    } else {
      out->push_back(c);
    }
  }
  out->append("\n# TYPE ").append(desc.name).push_back(' ');
  out->append(type).push_back('\n');
}

void AppendSample(std::string* out, std::string_view name, const std::vector<std::string>& labels,
                  const std::vector<std::string>& values, std::string_view extra_name,
                  std::string_view extra_value, std::string_view value) {
  out->append(name);
  if (!labels.empty() || !extra_name.empty()) {
    out->push_back('{');
    bool first = true;
    for (size_t i = 0; i < labels.size(); ++i) {
      if (!first) out->push_back(',');
      first = false;
      out->append(labels[i]).append("=\"");
      AppendLabelValue(out, i < values.size() ? std::string_view(values[i]) : std::string_view());
      out->push_back('"');
    }
    if (!extra_name.empty()) {
      if (!first) out->push_back(',');
      out->append(extra_name).append("=\"");
      AppendLabelValue(out, extra_value);
      out->push_back('"');
    }
    out->push_back('}');
  }
  out->push_back(' ');
  out->append(value).push_back('\n');
}

}  // namespace kube::metrics
