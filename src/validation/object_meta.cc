#include "validation/object_meta.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

namespace kube::validation {

// kube's name grammars, matched by hand (declared in primitives.h for the kind validators): std::regex matches recursively, one stack frame per
// character, so a long hostile name would exhaust the stack. Each matcher is the regex quoted in
// the matching message below.
namespace {
bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool IsAlnum(char c) { return IsLowerAlnum(c) || (c >= 'A' && c <= 'Z'); }
}  // namespace

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool MatchesDnsLabel(std::string_view s) {
  return !s.empty() && IsLowerAlnum(s.front()) && IsLowerAlnum(s.back()) &&
         std::all_of(s.begin(), s.end(), [](char c) { return IsLowerAlnum(c) || c == '-'; });
}

// [a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*
bool MatchesDnsSubdomain(std::string_view s) {
  while (true) {
    const size_t dot = s.find('.');
    if (!MatchesDnsLabel(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

// [a-z]([-a-z0-9]*[a-z0-9])?
bool MatchesDns1035Label(std::string_view s) { return MatchesDnsLabel(s) && s.front() >= 'a' && s.front() <= 'z'; }

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool MatchesQualifiedNamePart(std::string_view s) {
  return !s.empty() && IsAlnum(s.front()) && IsAlnum(s.back()) &&
         std::all_of(s.begin(), s.end(), [](char c) { return IsAlnum(c) || c == '-' || c == '_' || c == '.'; });
}

// (([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?
bool MatchesLabelValue(std::string_view s) { return s.empty() || MatchesQualifiedNamePart(s); }

extern const std::string_view kSubdomainMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
    "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
extern const std::string_view kLabelMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
extern const std::string_view kDns1035Msg =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', "
    "regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
extern const std::string_view kQualifiedMsg =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
    "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
extern const std::string_view kLabelValueMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
    "'12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

namespace {

FieldError Invalid(std::string field, std::string_view value, std::string_view detail) {
  return FieldError{FieldError::Type::kInvalid, std::move(field), GoQuote(value), std::string(detail)};
}

// kube's maskTrailingDash: a generateName may end in '-' (it is followed by the random suffix).
// Its quirk of dropping the character before the dash is kept.
std::string MaskTrailingDash(std::string_view name) {
  if (name.size() > 1 && name.back() == '-') return std::string(name.substr(0, name.size() - 2)) + "a";
  return std::string(name);
}

void ValidateQualifiedName(std::string_view key, const std::string& field, FieldErrors* errors) {
  std::string_view name = key;
  auto slash = key.find('/');
  if (slash != std::string_view::npos) {
    std::string_view prefix = key.substr(0, slash);
    name = key.substr(slash + 1);
    if (prefix.empty()) {
      errors->push_back(Invalid(field, key, "prefix part must be non-empty"));
    } else if (prefix.size() > 253) {
      errors->push_back(Invalid(field, key, "prefix part must be no more than 253 characters"));
    } else if (!MatchesDnsSubdomain(prefix)) {
      errors->push_back(Invalid(field, key, "prefix part " + std::string(kSubdomainMsg)));
    }
  }
  if (name.empty()) {
    errors->push_back(Invalid(field, key, "name part must be non-empty"));
  } else if (name.size() > 63) {
    errors->push_back(Invalid(field, key, "name part must be no more than 63 characters"));
  } else if (!MatchesQualifiedNamePart(name)) {
    errors->push_back(Invalid(field, key, kQualifiedMsg));
  }
}

}  // namespace

std::vector<std::string> PathSegmentNameProblems(std::string_view name, bool prefix) {
  if (!prefix && (name == "." || name == "..")) return {"may not be '" + std::string(name) + "'"};
  std::vector<std::string> problems;
  for (const char* c : {"/", "%"}) {
    if (name.find(*c) != std::string_view::npos) problems.push_back("may not contain '" + std::string(c) + "'");
  }
  return problems;
}

namespace {

// The rule's own checks (kube's per-kind name function), as the strategy's validation runs them.
// `value` is what the errors quote.
void CheckNameRule(std::string_view name, NameRule rule, bool prefix, const std::string& field,
                   std::string_view value, FieldErrors* errors) {
  const std::string masked = prefix && rule != NameRule::kPathSegment ? MaskTrailingDash(name) : std::string(name);
  switch (rule) {
    case NameRule::kDnsSubdomain:
      if (masked.size() > 253) errors->push_back(Invalid(field, value, "must be no more than 253 characters"));
      if (!MatchesDnsSubdomain(masked)) errors->push_back(Invalid(field, value, kSubdomainMsg));
      break;
    case NameRule::kDnsLabel:
      if (masked.size() > 63) errors->push_back(Invalid(field, value, "must be no more than 63 characters"));
      if (!MatchesDnsLabel(masked)) errors->push_back(Invalid(field, value, kLabelMsg));
      break;
    case NameRule::kDns1035Label:
      if (masked.size() > 63) errors->push_back(Invalid(field, value, "must be no more than 63 characters"));
      if (!MatchesDns1035Label(masked)) errors->push_back(Invalid(field, value, kDns1035Msg));
      break;
    case NameRule::kPathSegment:
      for (const auto& p : PathSegmentNameProblems(name, prefix)) errors->push_back(Invalid(field, value, p));
      break;
  }
}

}  // namespace

FieldErrors ValidateName(std::string_view name, NameRule rule, std::string_view field_view) {
  FieldErrors errors;
  const std::string field(field_view);
  CheckNameRule(name, rule, /*prefix=*/false, field, name, &errors);
  // The generic check kube runs once the kind's own validation has passed: every name must be
  // usable as one URL path segment.
  if (errors.empty()) {
    for (const auto& p : PathSegmentNameProblems(name)) errors.push_back(Invalid(field, name, p));
  }
  return errors;
}

FieldErrors ValidateGenerateName(std::string_view generate_name, NameRule rule) {
  FieldErrors errors;
  CheckNameRule(generate_name, rule, /*prefix=*/true, "metadata.generateName", generate_name, &errors);
  return errors;
}

FieldErrors ValidateObjectMeta(const nlohmann::json& meta, NameRule rule, bool namespaced) {
  FieldErrors errors;
  const std::string name = meta.value("name", "");
  if (name.empty()) {
    errors.push_back(FieldError{FieldError::Type::kRequired, "metadata.name", "",
                                "name or generateName is required"});
  } else {
    auto name_errors = ValidateName(name, rule);
    errors.insert(errors.end(), name_errors.begin(), name_errors.end());
  }
  if (namespaced && meta.value("namespace", "").empty()) {
    errors.push_back(FieldError{FieldError::Type::kRequired, "metadata.namespace", "", ""});
  }
  if (auto labels = meta.find("labels"); labels != meta.end() && labels->is_object()) {
    for (const auto& [key, value] : labels->items()) {
      ValidateQualifiedName(key, "metadata.labels", &errors);
      const std::string v = value.is_string() ? value.get<std::string>() : "";
      // Length and format are reported independently, as kube's IsValidLabelValue does.
      if (v.size() > 63) errors.push_back(Invalid("metadata.labels", v, "must be no more than 63 characters"));
      if (!MatchesLabelValue(v)) errors.push_back(Invalid("metadata.labels", v, kLabelValueMsg));
    }
  }
  if (auto annotations = meta.find("annotations"); annotations != meta.end() && annotations->is_object()) {
    size_t total = 0;
    for (const auto& [key, value] : annotations->items()) {
      ValidateQualifiedName(key, "metadata.annotations", &errors);
      total += key.size() + (value.is_string() ? value.get_ref<const std::string&>().size() : 0);
    }
    if (total > 256 * 1024) {
      errors.push_back(FieldError{FieldError::Type::kTooLong, "metadata.annotations", "",
                                  "may not be more than 262144 bytes"});
    }
  }
  if (auto owners = meta.find("ownerReferences"); owners != meta.end() && owners->is_array()) {
    int controllers = 0;
    for (size_t i = 0; i < owners->size(); ++i) {
      const auto& ref = (*owners)[i];
      const std::string base = "metadata.ownerReferences[" + std::to_string(i) + "]";
      for (const char* f : {"apiVersion", "kind", "name", "uid"}) {
        if (!ref.is_object() || ref.value(f, "").empty()) {
          errors.push_back(FieldError{FieldError::Type::kRequired, base + "." + f, "", ""});
        }
      }
      if (ref.is_object() && ref.value("controller", false)) ++controllers;
    }
    if (controllers > 1) {
      errors.push_back(FieldError{FieldError::Type::kInvalid, "metadata.ownerReferences", "",
                                  "Only one reference can have Controller set to true"});
    }
  }
  return errors;
}

}  // namespace kube::validation
