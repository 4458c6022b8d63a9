#include "registry/validation.h"

#include <nlohmann/json.hpp>

#include <regex>
#include <set>

namespace kube::registry {

namespace {

const std::regex kSubdomain(R"([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)");
const std::regex kLabel(R"([a-z0-9]([-a-z0-9]*[a-z0-9])?)");
const std::regex kDns1035(R"([a-z]([-a-z0-9]*[a-z0-9])?)");
const std::regex kQualifiedNamePart(R"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])");
const std::regex kLabelValue(R"((([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?)");

constexpr std::string_view kSubdomainMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
    "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
constexpr std::string_view kLabelMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
constexpr std::string_view kDns1035Msg =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', "
    "regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
constexpr std::string_view kQualifiedMsg =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
    "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
constexpr std::string_view kLabelValueMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
    "'12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

FieldError Invalid(std::string field, std::string_view value, std::string_view detail) {
  return FieldError{FieldError::Type::kInvalid, std::move(field), GoQuote(value), std::string(detail)};
}

// Every name must also be usable as one URL path segment.
void CheckPathSegment(std::string_view name, const std::string& field, FieldErrors* errors) {
  if (name == "." || name == "..") {
    errors->push_back(Invalid(field, name, "may not be '" + std::string(name) + "'"));
  } else if (name.find('/') != std::string_view::npos) {
    errors->push_back(Invalid(field, name, "may not contain '/'"));
  } else if (name.find('%') != std::string_view::npos) {
    errors->push_back(Invalid(field, name, "may not contain '%'"));
  }
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
    } else if (!std::regex_match(prefix.begin(), prefix.end(), kSubdomain)) {
      errors->push_back(Invalid(field, key, "prefix part " + std::string(kSubdomainMsg)));
    }
  }
  if (name.empty()) {
    errors->push_back(Invalid(field, key, "name part must be non-empty"));
  } else if (name.size() > 63) {
    errors->push_back(Invalid(field, key, "name part must be no more than 63 characters"));
  } else if (!std::regex_match(name.begin(), name.end(), kQualifiedNamePart)) {
    errors->push_back(Invalid(field, key, kQualifiedMsg));
  }
}

}  // namespace

FieldErrors ValidateName(std::string_view name, NameRule rule, std::string_view field_view) {
  FieldErrors errors;
  const std::string field(field_view);
  switch (rule) {
    case NameRule::kDnsSubdomain:
      if (name.size() > 253) errors.push_back(Invalid(field, name, "must be no more than 253 characters"));
      if (!std::regex_match(name.begin(), name.end(), kSubdomain)) errors.push_back(Invalid(field, name, kSubdomainMsg));
      break;
    case NameRule::kDnsLabel:
      if (name.size() > 63) errors.push_back(Invalid(field, name, "must be no more than 63 characters"));
      if (!std::regex_match(name.begin(), name.end(), kLabel)) errors.push_back(Invalid(field, name, kLabelMsg));
      break;
    case NameRule::kDns1035Label:
      if (name.size() > 63) errors.push_back(Invalid(field, name, "must be no more than 63 characters"));
      if (!std::regex_match(name.begin(), name.end(), kDns1035)) errors.push_back(Invalid(field, name, kDns1035Msg));
      break;
    case NameRule::kPathSegment:
      break;
  }
  CheckPathSegment(name, field, &errors);
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
      if (!std::regex_match(v, kLabelValue)) errors.push_back(Invalid("metadata.labels", v, kLabelValueMsg));
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

}  // namespace kube::registry
