#include "validation/group_primitives.h"

#include <algorithm>
#include <charconv>

#include "util/go_format.h"
#include "validation/primitives.h"

namespace kube::validation {

using nlohmann::json;

const json& EmptyObject() {
  static const json kEmpty = json::object();
  return kEmpty;
}

const json& ObjectAt(const json& obj, const char* key) {
  if (!obj.is_object()) return EmptyObject();
  auto it = obj.find(key);
  return it != obj.end() && it->is_object() ? *it : EmptyObject();
}

std::string StringAt(const json& obj, const char* key) {
  if (!obj.is_object()) return "";
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

bool Has(const json& obj, const char* key) {
  if (!obj.is_object()) return false;
  auto it = obj.find(key);
  return it != obj.end() && !it->is_null();
}

bool BoolAt(const json& obj, const char* key, bool fallback) {
  if (!obj.is_object()) return fallback;
  auto it = obj.find(key);
  return it != obj.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

json Without(const json& obj, std::initializer_list<const char*> keys) {
  if (!obj.is_object()) return obj;
  json out = obj;
  for (const char* k : keys) out.erase(k);
  // Absent and null are the same to Go's DeepEqual of a decoded struct.
  for (auto it = out.begin(); it != out.end();) {
    it = it->is_null() ? out.erase(it) : std::next(it);
  }
  return out;
}

json ValueAt(const json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it == obj.end() ? json(nullptr) : *it;
}

namespace {

bool ValidKey(const json& key) { return key.is_string() && IsQualifiedName(key.get<std::string>()).empty(); }
bool ValidValue(const json& value) {
  return value.is_string() && IsValidLabelValue(value.get<std::string>()).empty();
}

const json& ArrayAt(const json& obj, const char* key) {
  static const json kEmpty = json::array();
  if (!obj.is_object()) return kEmpty;
  auto it = obj.find(key);
  return it != obj.end() && it->is_array() ? *it : kEmpty;
}

}  // namespace

bool SelectorConvertible(const json& selector) {
  if (selector.is_null()) return true;
  if (!selector.is_object()) return false;
  for (const auto& [k, v] : ObjectAt(selector, "matchLabels").items()) {
    if (!ValidKey(json(k)) || !ValidValue(v)) return false;
  }
  for (const json& expr : ArrayAt(selector, "matchExpressions")) {
    const std::string op = StringAt(expr, "operator");
    const json& values = ArrayAt(expr, "values");
    if (op == "In" || op == "NotIn") {
      if (values.empty()) return false;
    } else if (op == "Exists" || op == "DoesNotExist") {
      if (!values.empty()) return false;
    } else {
      return false;
    }
    if (!ValidKey(ValueAt(expr, "key"))) return false;
    if (!std::all_of(values.begin(), values.end(), ValidValue)) return false;
  }
  return true;
}

bool SelectorMatches(const json& selector, const json& labels) {
  if (selector.is_null() || !selector.is_object()) return false;
  auto label = [&](const std::string& key) -> const json* {
    if (!labels.is_object()) return nullptr;
    auto it = labels.find(key);
    return it == labels.end() || !it->is_string() ? nullptr : &*it;
  };
  for (const auto& [k, v] : ObjectAt(selector, "matchLabels").items()) {
    const json* have = label(k);
    if (have == nullptr || *have != v) return false;
  }
  for (const json& expr : ArrayAt(selector, "matchExpressions")) {
    const std::string op = StringAt(expr, "operator");
    const json* have = label(StringAt(expr, "key"));
    const json& values = ArrayAt(expr, "values");
    const bool in_values = have != nullptr && std::find(values.begin(), values.end(), *have) != values.end();
    if (op == "In" && !in_values) return false;
    if (op == "NotIn" && in_values) return false;
    if (op == "Exists" && have == nullptr) return false;
    if (op == "DoesNotExist" && have != nullptr) return false;
  }
  return true;
}

bool SelectorIsEmpty(const json& selector) {
  return selector.is_object() && ObjectAt(selector, "matchLabels").empty() &&
         ArrayAt(selector, "matchExpressions").empty();
}

namespace {

// getPercentValue: the number of a valid percentage string.
std::optional<int64_t> PercentValue(const json& value) {
  if (!value.is_string()) return std::nullopt;
  const std::string& s = value.get_ref<const std::string&>();
  if (!IsValidPercent(s).empty()) return std::nullopt;
  int64_t n = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size() - 1, n);
  if (ec != std::errc()) return std::nullopt;
  return n;
}

}  // namespace

FieldErrors ValidatePositiveIntOrPercent(const json& value, const std::string& field) {
  FieldErrors errors;
  if (value.is_string()) {
    for (const auto& msg : IsValidPercent(value.get<std::string>())) errors.push_back(Invalid(field, value, msg));
  } else if (value.is_number_integer()) {
    Append(&errors, ValidateNonnegativeField(value.get<int64_t>(), field));
  } else if (!value.is_null()) {
    errors.push_back(Invalid(field, value, "must be an integer or percentage (e.g '5%%')"));
  }
  return errors;
}

int64_t IntOrPercentValue(const json& value) {
  if (auto p = PercentValue(value)) return *p;
  if (value.is_number_integer()) return value.get<int64_t>();
  return 0;
}

FieldErrors IsNotMoreThan100Percent(const json& value, const std::string& field) {
  auto p = PercentValue(value);
  if (!p || *p <= 100) return {};
  return {Invalid(field, value, "must not be greater than 100%")};
}

FieldErrors IsDomainPrefixedPath(const std::string& field, std::string_view value) {
  if (value.empty()) return {Required(field)};
  const size_t slash = value.find('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 1 == value.size()) {
    return {Invalid(field, std::string(value), "must be a domain-prefixed path (such as \"acme.io/foo\")")};
  }
  FieldErrors errors;
  const std::string host(value.substr(0, slash));
  for (const auto& msg : IsDns1123Subdomain(host)) errors.push_back(Invalid(field, host, msg));
  const std::string path(value.substr(slash + 1));
  static constexpr std::string_view kPathChars = "/-._~%!$&'()*+,;=:";
  const bool ok = std::all_of(path.begin(), path.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           kPathChars.find(c) != std::string_view::npos;
  });
  if (!ok) {
    errors.push_back(Invalid(field, path,
                             "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"));
  }
  return errors;
}

std::optional<cel::netip::Prefix> ParseCidrSloppy(std::string_view value) {
  std::string text(value);
  const size_t slash = text.find('/');
  if (slash != std::string::npos && text.find(':') == std::string::npos) {
    // Go's net.ParseCIDR reads IPv4 octets with leading zeros as decimal; netip does not.
    std::string ip;
    size_t start = 0;
    const std::string addr = text.substr(0, slash);
    while (true) {
      const size_t dot = addr.find('.', start);
      std::string octet = addr.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      while (octet.size() > 1 && octet[0] == '0') octet.erase(0, 1);
      ip += (start ? "." : "") + octet;
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    text = ip + text.substr(slash);
  }
  std::string error;
  auto prefix = cel::netip::ParsePrefix(text, &error);
  if (!prefix) return std::nullopt;
  return prefix->Masked();
}

std::string RenderInternalStruct(const std::vector<std::pair<std::string, json>>& fields) {
  std::vector<std::pair<std::string, std::string>> rendered;
  for (const auto& [name, value] : fields) rendered.emplace_back(name, GoJsonMarshal(value));
  return RenderInternalStructRaw(rendered);
}

std::string RenderInternalStructRaw(const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string out = "{";
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ",";
    out += GoJsonMarshal(json(fields[i].first)) + ":" + fields[i].second;
  }
  return out + "}";
}

FieldError NotSupportedRendered(std::string field, std::string rendered, const std::vector<std::string>& supported) {
  FieldError e = NotSupported(std::move(field), json(nullptr), supported);
  e.value = std::move(rendered);
  return e;
}

FieldError InvalidRendered(std::string field, std::string rendered, std::string detail) {
  return FieldError{FieldError::Type::kInvalid, std::move(field), std::move(rendered), std::move(detail)};
}

}  // namespace kube::validation
