#include "validation/primitives.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "util/go_format.h"
#include "validation/object_meta.h"

namespace kube::validation {

namespace {

bool IsAsciiAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

std::vector<std::string> Prefixed(std::vector<std::string> problems, std::string_view prefix) {
  for (auto& p : problems) p = std::string(prefix) + p;
  return problems;
}

// kube's hasChDirPrefix, shared by env var names and config keys (both become file names).
void AppendChDirProblems(std::string_view value, std::vector<std::string>* out) {
  if (value == ".") {
    out->push_back("must not be '.'");
  } else if (value == "..") {
    out->push_back("must not be '..'");
  } else if (value.starts_with("..")) {
    out->push_back("must not start with '..'");
  }
}

}  // namespace

// ---- Field paths ----

std::string Child(std::string_view path, std::string_view name) {
  if (path.empty()) return std::string(name);
  std::string out(path);
  out += '.';
  out += name;
  return out;
}

std::string Index(std::string_view path, size_t i) {
  return std::string(path) + "[" + std::to_string(i) + "]";
}

std::string Key(std::string_view path, std::string_view key) {
  return std::string(path) + "[" + std::string(key) + "]";
}

// ---- Field errors ----

std::string RenderValue(const nlohmann::json& value) {
  if (value.is_string()) return GoQuote(value.get_ref<const std::string&>());
  if (value.is_number_integer() || value.is_number_unsigned()) return value.dump();
  if (value.is_number_float()) return GoFormatFloat(value.get<double>());
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  return GoJsonMarshal(value);
}

FieldError Required(std::string field, std::string detail) {
  return FieldError{FieldError::Type::kRequired, std::move(field), "", std::move(detail)};
}

FieldError Forbidden(std::string field, std::string detail) {
  return FieldError{FieldError::Type::kForbidden, std::move(field), "", std::move(detail)};
}

FieldError Invalid(std::string field, const nlohmann::json& value, std::string detail) {
  return FieldError{FieldError::Type::kInvalid, std::move(field), RenderValue(value), std::move(detail)};
}

FieldError NotFound(std::string field, const nlohmann::json& value) {
  return FieldError{FieldError::Type::kNotFound, std::move(field), RenderValue(value), ""};
}

FieldError Duplicate(std::string field, const nlohmann::json& value) {
  return FieldError{FieldError::Type::kDuplicate, std::move(field), RenderValue(value), ""};
}

FieldError NotSupported(std::string field, const nlohmann::json& value,
                        const std::vector<std::string>& supported) {
  std::string detail;
  for (size_t i = 0; i < supported.size(); ++i) {
    detail += i == 0 ? "supported values: " : ", ";
    detail += GoQuote(supported[i]);
  }
  return FieldError{FieldError::Type::kNotSupported, std::move(field), RenderValue(value), std::move(detail)};
}

FieldError TooLong(std::string field, int64_t max_length) {
  return FieldError{FieldError::Type::kTooLong, std::move(field), "",
                    "may not be more than " + std::to_string(max_length) + (max_length == 1 ? " byte" : " bytes")};
}

FieldError TooMany(std::string field, int64_t actual, int64_t max) {
  return FieldError{FieldError::Type::kTooMany, std::move(field), std::to_string(actual),
                    "must have at most " + std::to_string(max) + (max == 1 ? " item" : " items")};
}

void Append(FieldErrors* errors, FieldErrors more) {
  errors->insert(errors->end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
}

void AppendProblems(FieldErrors* errors, const std::string& field, const nlohmann::json& value,
                    const std::vector<std::string>& problems) {
  for (const auto& p : problems) errors->push_back(Invalid(field, value, p));
}

// ---- Messages ----

std::string MaxLenError(int64_t length) { return "must be no more than " + std::to_string(length) + " characters"; }

std::string InclusiveRangeError(int64_t lo, int64_t hi) {
  return "must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", inclusive";
}

std::string RegexError(std::string_view msg, std::string_view fmt, const std::vector<std::string>& examples) {
  std::string out(msg);
  if (examples.empty()) return out + " (regex used for validation is '" + std::string(fmt) + "')";
  out += " (e.g. ";
  for (size_t i = 0; i < examples.size(); ++i) {
    if (i > 0) out += " or ";
    out += "'" + examples[i] + "', ";
  }
  return out + "regex used for validation is '" + std::string(fmt) + "')";
}

// ---- String checks ----

std::vector<std::string> IsDns1123Label(std::string_view value) {
  std::vector<std::string> out;
  if (value.size() > 63) out.push_back(MaxLenError(63));
  if (!MatchesDnsLabel(value)) out.emplace_back(kLabelMsg);
  return out;
}

std::vector<std::string> IsDns1123Subdomain(std::string_view value) {
  std::vector<std::string> out;
  if (value.size() > 253) out.push_back(MaxLenError(253));
  if (!MatchesDnsSubdomain(value)) out.emplace_back(kSubdomainMsg);
  return out;
}

std::vector<std::string> IsDns1035Label(std::string_view value) {
  std::vector<std::string> out;
  if (value.size() > 63) out.push_back(MaxLenError(63));
  if (!MatchesDns1035Label(value)) out.emplace_back(kDns1035Msg);
  return out;
}

std::vector<std::string> IsWildcardDns1123Subdomain(std::string_view value) {
  std::vector<std::string> out;
  if (value.size() > 253) out.push_back(MaxLenError(253));
  if (!value.starts_with("*.") || !MatchesDnsSubdomain(value.substr(2))) {
    out.push_back(RegexError(
        "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which "
        "must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
        "\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*", {"*.example.com"}));
  }
  return out;
}

std::vector<std::string> IsQualifiedName(std::string_view value) {
  static const std::string kKeyMsg = RegexError(
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
      "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]", {"MyName", "my.name", "123-abc"});
  std::vector<std::string> out;
  std::string_view name = value;
  const size_t slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      out.push_back("a valid label key " + kKeyMsg +
                    " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return out;
    }
    const std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      out.emplace_back("prefix part must be non-empty");
    } else {
      for (auto& p : Prefixed(IsDns1123Subdomain(prefix), "prefix part ")) out.push_back(std::move(p));
    }
  }
  if (name.empty()) {
    out.emplace_back("name part must be non-empty");
  } else if (name.size() > 63) {
    out.push_back("name part " + MaxLenError(63));
  }
  if (!MatchesQualifiedNamePart(name)) out.push_back("name part " + kKeyMsg);
  return out;
}

std::vector<std::string> IsValidLabelValue(std::string_view value) {
  std::vector<std::string> out;
  if (value.size() > 63) out.push_back(MaxLenError(63));
  if (!MatchesLabelValue(value)) out.emplace_back(kLabelValueMsg);
  return out;
}

std::vector<std::string> IsCIdentifier(std::string_view value) {
  const bool ok = !value.empty() && (IsAsciiAlpha(value[0]) || value[0] == '_') &&
                  std::all_of(value.begin(), value.end(),
                              [](char c) { return IsAsciiAlpha(c) || IsDigit(c) || c == '_'; });
  if (ok) return {};
  return {RegexError("a valid C identifier must start with alphabetic character or '_', followed by a string of "
                     "alphanumeric characters or '_'",
                     "[A-Za-z_][A-Za-z0-9_]*", {"my_name", "MY_NAME", "MyName"})};
}

std::vector<std::string> IsValidPortNum(int64_t port) {
  if (port >= 1 && port <= 65535) return {};
  return {InclusiveRangeError(1, 65535)};
}

std::vector<std::string> IsInRange(int64_t value, int64_t lo, int64_t hi) {
  if (value >= lo && value <= hi) return {};
  return {InclusiveRangeError(lo, hi)};
}

std::vector<std::string> IsValidUserID(int64_t uid) { return IsInRange(uid, 0, 2147483647); }
std::vector<std::string> IsValidGroupID(int64_t gid) { return IsInRange(gid, 0, 2147483647); }

std::vector<std::string> IsValidPortName(std::string_view value) {
  std::vector<std::string> out;
  if (value.size() > 15) out.push_back(MaxLenError(15));
  const bool charset = !value.empty() && std::all_of(value.begin(), value.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || IsDigit(c) || c == '-';
  });
  if (!charset) out.emplace_back("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (std::none_of(value.begin(), value.end(), [](char c) { return c >= 'a' && c <= 'z'; })) {
    out.emplace_back("must contain at least one letter (a-z)");
  }
  if (value.find("--") != std::string_view::npos) out.emplace_back("must not contain consecutive hyphens");
  if (!value.empty() && (value.front() == '-' || value.back() == '-')) {
    out.emplace_back("must not begin or end with a hyphen");
  }
  return out;
}

std::vector<std::string> IsValidPercent(std::string_view value) {
  const bool ok = value.size() >= 2 && value.back() == '%' &&
                  std::all_of(value.begin(), value.end() - 1, IsDigit);
  if (ok) return {};
  return {RegexError("a valid percent string must be a numeric string followed by an ending '%'", "[0-9]+%",
                     {"1%", "93%"})};
}

std::vector<std::string> IsHttpHeaderName(std::string_view value) {
  const bool ok = !value.empty() && std::all_of(value.begin(), value.end(), [](char c) {
    return IsAsciiAlpha(c) || IsDigit(c) || c == '-';
  });
  if (ok) return {};
  return {RegexError("a valid HTTP header must consist of alphanumeric characters or '-'", "[-A-Za-z0-9]+",
                     {"X-Header-Name"})};
}

std::vector<std::string> IsEnvVarName(std::string_view value) {
  std::vector<std::string> out;
  auto body = [](char c) { return IsAsciiAlpha(c) || IsDigit(c) || c == '-' || c == '.' || c == '_'; };
  const bool ok = !value.empty() && !IsDigit(value[0]) && std::all_of(value.begin(), value.end(), body);
  if (!ok) {
    out.push_back(RegexError("a valid environment variable name must consist of alphabetic characters, digits, "
                             "'_', '-', or '.', and must not start with a digit",
                             "[-._a-zA-Z][-._a-zA-Z0-9]*", {"my.env-name", "MY_ENV.NAME", "MyEnvName1"}));
  }
  AppendChDirProblems(value, &out);
  return out;
}

std::vector<std::string> IsRelaxedEnvVarName(std::string_view value) {
  std::vector<std::string> out;
  if (value.empty()) out.emplace_back("environment variable name must be non-empty");
  // Any non-ASCII byte means a rune beyond ASCII, which kube refuses as well.
  for (unsigned char c : value) {
    if (c < 0x20 || c > 0x7e || c == '=') {
      out.emplace_back("a valid environment variable name must consist only of printable ASCII characters other than '='");
      break;
    }
  }
  return out;
}

std::vector<std::string> IsConfigMapKey(std::string_view value) {
  std::vector<std::string> out;
  if (value.size() > 253) out.push_back(MaxLenError(253));
  const bool ok = !value.empty() && std::all_of(value.begin(), value.end(), [](char c) {
    return IsAsciiAlpha(c) || IsDigit(c) || c == '-' || c == '.' || c == '_';
  });
  if (!ok) {
    out.push_back(RegexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
                             "[-._a-zA-Z0-9]+", {"key.name", "KEY_NAME", "key-name"}));
  }
  AppendChDirProblems(value, &out);
  return out;
}

// ---- Field validators ----

FieldErrors ValidateDns1123Label(std::string_view value, const std::string& field) {
  FieldErrors errors;
  AppendProblems(&errors, field, value, IsDns1123Label(value));
  return errors;
}

FieldErrors ValidateDns1123Subdomain(std::string_view value, const std::string& field) {
  FieldErrors errors;
  AppendProblems(&errors, field, value, IsDns1123Subdomain(value));
  return errors;
}

FieldErrors ValidateQualifiedName(std::string_view value, const std::string& field) {
  FieldErrors errors;
  AppendProblems(&errors, field, value, IsQualifiedName(value));
  return errors;
}

FieldErrors ValidateLabels(const nlohmann::json& labels, const std::string& field) {
  FieldErrors errors;
  if (!labels.is_object()) return errors;
  for (const auto& [key, value] : labels.items()) {
    AppendProblems(&errors, field, key, IsQualifiedName(key));
    const std::string v = value.is_string() ? value.get<std::string>() : "";
    AppendProblems(&errors, field, v, IsValidLabelValue(v));
  }
  return errors;
}

FieldErrors ValidateNonnegativeField(int64_t value, const std::string& field) {
  if (value >= 0) return {};
  return {Invalid(field, value, std::string(kIsNegative))};
}

FieldErrors ValidateImmutableField(const nlohmann::json& value, const nlohmann::json& old, const std::string& field) {
  if (value == old) return {};
  return {Invalid(field, value, std::string(kFieldImmutable))};
}

FieldErrors ValidateLabelSelector(const nlohmann::json& selector, const std::string& field) {
  FieldErrors errors;
  if (!selector.is_object()) return errors;
  if (const auto* ml = Field(selector, "matchLabels")) Append(&errors, ValidateLabels(*ml, Child(field, "matchLabels")));
  const auto& exprs = ArrayField(selector, "matchExpressions");
  for (size_t i = 0; i < exprs.size(); ++i) {
    const auto& e = exprs[i];
    const std::string path = Index(Child(field, "matchExpressions"), i);
    const std::string op = e.is_object() ? e.value("operator", "") : "";
    const auto& values = ArrayField(e, "values");
    if (op == "In" || op == "NotIn") {
      if (values.empty()) {
        errors.push_back(Required(Child(path, "values"), "must be specified when `operator` is 'In' or 'NotIn'"));
      }
    } else if (op == "Exists" || op == "DoesNotExist") {
      if (!values.empty()) {
        errors.push_back(Forbidden(Child(path, "values"),
                                   "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      }
    } else {
      errors.push_back(Invalid(Child(path, "operator"), op, "not a valid selector operator"));
    }
    const std::string key = e.is_object() ? e.value("key", "") : "";
    AppendProblems(&errors, Child(path, "key"), key, IsQualifiedName(key));
    for (size_t j = 0; j < values.size(); ++j) {
      const std::string v = values[j].is_string() ? values[j].get<std::string>() : "";
      AppendProblems(&errors, Index(Child(path, "values"), j), v, IsValidLabelValue(v));
    }
  }
  return errors;
}

// ---- IPs and CIDRs ----

std::optional<cel::netip::Addr> ParseIPSloppy(std::string_view value) {
  std::string error;
  if (value.find(':') == std::string_view::npos) {
    // Dotted quad with optional leading zeros, each octet read as decimal (Go's pre-1.17 rule).
    cel::netip::Addr addr;
    addr.is4 = true;
    addr.bytes[10] = addr.bytes[11] = 0xff;
    size_t pos = 0;
    for (int i = 0; i < 4; ++i) {
      size_t end = pos;
      int v = 0;
      while (end < value.size() && IsDigit(value[end]) && end - pos < 3) v = v * 10 + (value[end++] - '0');
      if (end == pos || v > 255) return std::nullopt;
      addr.bytes[12 + i] = static_cast<uint8_t>(v);
      if (i < 3) {
        if (end >= value.size() || value[end] != '.') return std::nullopt;
        ++end;
      }
      pos = end;
    }
    if (pos != value.size()) return std::nullopt;
    return addr;
  }
  if (value.find('%') != std::string_view::npos) return std::nullopt;  // net.ParseIP refuses zones
  auto addr = cel::netip::ParseAddr(value, &error);
  if (!addr) return std::nullopt;
  if (addr->Is4In6()) addr->is4 = true;  // net.IP treats these as IPv4
  return addr;
}

FieldErrors IsValidIPForLegacyField(const std::string& field, std::string_view value) {
  if (ParseIPSloppy(value)) return {};
  return {Invalid(field, value, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")};
}

FieldErrors IsValidIP(const std::string& field, std::string_view value) {
  auto sloppy = ParseIPSloppy(value);
  if (!sloppy) return {Invalid(field, value, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")};
  FieldErrors errors;
  std::string error;
  auto strict = cel::netip::ParseAddr(value, &error);
  if (!strict) errors.push_back(Invalid(field, value, "must not have leading 0s"));
  if (strict && strict->Is4In6()) errors.push_back(Invalid(field, value, "must not be an IPv4-mapped IPv6 address"));
  if (!errors.empty()) return errors;
  const std::string canonical = strict->String();
  if (canonical != value) errors.push_back(Invalid(field, value, "must be in canonical form (" + GoQuote(canonical) + ")"));
  return errors;
}

namespace {

// net.ParseCIDR as ParseCIDRSloppy runs it: an address (leading zeros allowed) '/' decimal bits.
std::optional<cel::netip::Prefix> ParseCIDRSloppy(std::string_view value) {
  const size_t slash = value.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  auto addr = ParseIPSloppy(value.substr(0, slash));
  if (!addr) return std::nullopt;
  const std::string_view bits = value.substr(slash + 1);
  if (bits.empty() || bits.size() > 3 || !std::all_of(bits.begin(), bits.end(), IsDigit)) return std::nullopt;
  const int n = std::stoi(std::string(bits));
  const bool v4_text = value.substr(0, slash).find(':') == std::string_view::npos;
  if (n > (v4_text ? 32 : 128)) return std::nullopt;
  cel::netip::Prefix prefix;
  prefix.ip = *addr;
  prefix.bits = v4_text || !addr->Is4In6() ? n : n - 96;
  if (prefix.bits < 0) return std::nullopt;
  return prefix;
}

}  // namespace

FieldErrors IsValidCIDRForLegacyField(const std::string& field, std::string_view value) {
  if (ParseCIDRSloppy(value)) return {};
  return {Invalid(field, value, "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)")};
}

FieldErrors IsValidCIDR(const std::string& field, std::string_view value) {
  auto sloppy = ParseCIDRSloppy(value);
  if (!sloppy) return {Invalid(field, value, "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)")};
  std::string error;
  auto strict = cel::netip::ParsePrefix(value, &error);
  if (!strict) return {Invalid(field, value, "must not have leading 0s in IP or prefix length")};
  if (strict->ip.Is4In6()) return {Invalid(field, value, "must not have an IPv4-mapped IPv6 address")};
  if (!(strict->ip == strict->Masked().ip)) {
    return {Invalid(field, value, "must not have bits set beyond the prefix length")};
  }
  const std::string canonical = strict->String();
  if (canonical != value) return {Invalid(field, value, "must be in canonical form (" + GoQuote(canonical) + ")")};
  return {};
}

// ---- Quantities ----

std::optional<cel::Quantity> ParseQuantity(const nlohmann::json& value) {
  std::string error;
  if (value.is_string()) return cel::Quantity::Parse(value.get_ref<const std::string&>(), &error);
  if (value.is_number()) return cel::Quantity::Parse(QuantityText(value), &error);
  return std::nullopt;
}

std::string QuantityText(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_float()) return GoFormatFloat(value.get<double>());
  return value.dump();
}

// ---- JSON reads ----

std::optional<int64_t> IntField(const nlohmann::json& obj, const char* key) {
  if (!obj.is_object()) return std::nullopt;
  auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;
  if (it->is_number_integer()) return it->get<int64_t>();
  if (it->is_number_unsigned()) return static_cast<int64_t>(it->get<uint64_t>());
  if (it->is_number_float()) return static_cast<int64_t>(it->get<double>());
  return std::nullopt;
}

const nlohmann::json* Field(const nlohmann::json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it == obj.end() || it->is_null() ? nullptr : &*it;
}

const nlohmann::json& ArrayField(const nlohmann::json& obj, const char* key) {
  static const nlohmann::json kEmpty = nlohmann::json::array();
  if (!obj.is_object()) return kEmpty;
  auto it = obj.find(key);
  return it != obj.end() && it->is_array() ? *it : kEmpty;
}

}  // namespace kube::validation
