// The pieces of Prometheus' text exposition format (0.0.4) the Registry writes with: sample
// values as Go's strconv.FormatFloat(v, 'g', -1, 64) renders them (what kube's client_golang
// writes), escaped label values and HELP text, and HELP/TYPE lines with kube's stability marks.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "metrics/metrics.h"

namespace kube::metrics {

// "3", "0.005", "1.5e+09", "1e-05", "+Inf", "-Inf", "NaN".
std::string FormatValue(double v);
// Appends `v` with backslash, double quote and newline escaped.
void AppendLabelValue(std::string* out, std::string_view v);
// "# HELP name [STABLE] help\n# TYPE name type\n".
void AppendHeader(std::string* out, const Desc& desc, std::string_view type);
// name{l1="v1",...,extra_name="extra_value"} value\n — the extra label for histogram buckets.
void AppendSample(std::string* out, std::string_view name, const std::vector<std::string>& labels,
                  const std::vector<std::string>& values, std::string_view extra_name,
                  std::string_view extra_value, std::string_view value);

}  // namespace kube::metrics
