#include "schema/go_values.h"

#include <charconv>
#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "util/go_format.h"

namespace kube::schema {

bool IsGoInt(const nlohmann::json& v) {
  if (v.is_number_integer() && !v.is_number_unsigned()) return true;
  return v.is_number_unsigned() &&
         v.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
}

int64_t GoInt(const nlohmann::json& v) {
  return v.is_number_unsigned() ? static_cast<int64_t>(v.get<uint64_t>()) : v.get<int64_t>();
}

double GoFloat(const nlohmann::json& v) {
  if (v.is_number_unsigned()) return static_cast<double>(v.get<uint64_t>());
  if (v.is_number_integer()) return static_cast<double>(v.get<int64_t>());
  return v.is_number() ? v.get<double>() : 0;
}

std::string FormatFloatPlain(double f) {
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "+Inf" : "-Inf";
  char buf[512];  // the longest fixed rendering of a double has about 330 characters
  auto r = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::fixed);  // shortest digits
  return std::string(buf, r.ptr);
}

std::string GoJson(const nlohmann::json& v) {
  // Integers beyond int64 are float64 to Go.
  if (v.is_number() && !IsGoInt(v)) return GoJsonFloat(GoFloat(v));
  return GoJsonMarshal(v);
}

std::string GoValue(const nlohmann::json& v) {
  if (v.is_string()) return GoQuote(v.get_ref<const std::string&>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number()) return IsGoInt(v) ? std::to_string(GoInt(v)) : GoFormatFloat(GoFloat(v));
  return GoJson(v);
}

bool GoDeepEqual(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.is_number() && b.is_number()) {
    if (IsGoInt(a) != IsGoInt(b)) return false;
    return IsGoInt(a) ? GoInt(a) == GoInt(b) : GoFloat(a) == GoFloat(b);
  }
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto it = a.begin(); it != a.end(); ++it) {
      auto other = b.find(it.key());
      if (other == b.end() || !GoDeepEqual(it.value(), *other)) return false;
    }
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!GoDeepEqual(a[i], b[i])) return false;
    }
    return true;
  }
  return a == b;
}

}  // namespace kube::schema
