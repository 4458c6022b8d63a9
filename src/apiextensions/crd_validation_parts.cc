// Per-part rules of the CRD validation: printer columns, subresources, selectable fields,
// conversion and the openAPIV3Schema of one CustomResourceValidation.

#include <algorithm>
#include <set>

#include "apiextensions/crd_validation_internal.h"
#include "apiextensions/go_url.h"
#include "apiextensions/name_formats.h"
#include "apiextensions/openapi_schema_validation.h"
#include "apiextensions/schema_field_path.h"
#include "util/go_format.h"

namespace kube::apiextensions::validation_internal {

using namespace json_access;

namespace {

constexpr size_t kMaxSelectableFields = 8;
const std::vector<std::string> kColumnTypes = {"boolean", "date", "integer", "number", "string"};
const std::vector<std::string> kColumnFormats = {"byte", "date", "date-time", "double", "float", "int32", "int64", "password"};

bool Contains(const std::vector<std::string>& set, const std::string& v) {
  return std::find(set.begin(), set.end(), v) != set.end();
}

std::string CommaList(const std::vector<std::string>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + v[i];
  return out;
}

// validateSimpleJSONPath.
FieldErrors ValidateSimpleJsonPath(const std::string& s, const FieldPath& path) {
  if (s.empty()) return {Invalid(path, s, "must not be empty")};
  if (s[0] != '.') return {Invalid(path, s, "must be a simple json path starting with .")};
  return {};
}

// The JSONSchemaProps fields kube allows at the root when the status subresource is enabled, in
// the Go struct's field order together with those it does not allow (the first offending one is
// reported).
struct RootField {
  const char* key;
  enum Kind { kString, kBool, kPresent } kind;
  bool allowed;
};
constexpr RootField kRootFields[] = {
    {"id", RootField::kString, false},
    {"$schema", RootField::kString, false},
    {"$ref", RootField::kPresent, false},
    {"description", RootField::kString, true},
    {"type", RootField::kString, true},
    {"nullable", RootField::kBool, false},
    {"format", RootField::kString, true},
    {"title", RootField::kString, true},
    {"default", RootField::kPresent, false},
    {"maximum", RootField::kPresent, true},
    {"exclusiveMaximum", RootField::kBool, true},
    {"minimum", RootField::kPresent, true},
    {"exclusiveMinimum", RootField::kBool, true},
    {"maxLength", RootField::kPresent, true},
    {"minLength", RootField::kPresent, true},
    {"pattern", RootField::kString, true},
    {"maxItems", RootField::kPresent, true},
    {"minItems", RootField::kPresent, true},
    {"uniqueItems", RootField::kBool, true},
    {"multipleOf", RootField::kPresent, true},
    {"enum", RootField::kPresent, false},
    {"maxProperties", RootField::kPresent, false},
    {"minProperties", RootField::kPresent, false},
    {"required", RootField::kPresent, true},
    {"items", RootField::kPresent, true},
    {"allOf", RootField::kPresent, false},
    {"oneOf", RootField::kPresent, false},
    {"anyOf", RootField::kPresent, false},
    {"not", RootField::kPresent, false},
    {"properties", RootField::kPresent, true},
    {"additionalProperties", RootField::kPresent, false},
    {"patternProperties", RootField::kPresent, false},
    {"dependencies", RootField::kPresent, false},
    {"additionalItems", RootField::kPresent, false},
    {"definitions", RootField::kPresent, false},
    {"externalDocs", RootField::kPresent, true},
    {"example", RootField::kPresent, true},
    {"x-kubernetes-preserve-unknown-fields", RootField::kPresent, true},
    {"x-kubernetes-embedded-resource", RootField::kBool, false},
    {"x-kubernetes-int-or-string", RootField::kBool, false},
    {"x-kubernetes-list-map-keys", RootField::kPresent, false},
    {"x-kubernetes-list-type", RootField::kPresent, false},
    {"x-kubernetes-map-type", RootField::kPresent, false},
    {"x-kubernetes-validations", RootField::kPresent, true},
};
constexpr std::string_view kAllowedAtRoot =
    "[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength "
    "Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example "
    "XPreserveUnknownFields XValidations]";

bool IsSet(const Json& schema, const RootField& f) {
  switch (f.kind) {
    case RootField::kString: return !Str(&schema, f.key).empty();
    case RootField::kBool: return Bool(&schema, f.key);
    case RootField::kPresent: return Get(&schema, f.key) != nullptr;
  }
  return false;
}

FieldErrors StatusRootRules(const Json& schema, const FieldPath& path) {
  for (const RootField& f : kRootFields) {
    if (!IsSet(schema, f)) continue;
    if (std::string_view(f.key) == "type") {
      const std::string type = Str(&schema, "type");
      if (type != "object") {
        return {Invalid(path.Child("openAPIV3Schema.type"), type,
                        "only \"object\" is allowed as the type at the root of the schema if the status subresource is enabled")};
      }
      continue;
    }
    if (!f.allowed) {
      return {InvalidRendered(path.Child("openAPIV3Schema"), RenderInternalSchema(schema),
                              "only " + std::string(kAllowedAtRoot) +
                                  " fields are allowed at the root of the schema if the status subresource is enabled")};
    }
  }
  return {};
}

FieldErrors ValidateWebhookService(const Json* service, const FieldPath& path) {
  FieldErrors errs;
  if (Str(service, "name").empty()) errs.push_back(Required(path.Child("name"), ""));
  if (Str(service, "namespace").empty()) errs.push_back(Required(path.Child("namespace"), ""));
  const Json* port = Get(service, "port");
  const int64_t port_num = port && port->is_number() ? port->get<int64_t>() : 0;
  if (port_num < 1 || port_num > 65535) {
    errs.push_back(InvalidRendered(path.Child("port"), std::to_string(port_num),
                                   "port is not valid: must be between 1 and 65535, inclusive"));
  }
  const auto url_path = OptStr(service, "path");
  if (!url_path || url_path->empty() || *url_path == "/") return errs;
  const FieldPath pp = path.Child("path");
  if (*url_path == "//") return errs.push_back(Invalid(pp, *url_path, "segment[0] may not be empty")), errs;
  if (!url_path->starts_with("/")) errs.push_back(Invalid(pp, *url_path, "must start with a '/'"));
  std::string check = url_path->substr(1);
  if (check.ends_with("/")) check.pop_back();
  size_t start = 0;
  for (size_t i = 0;; ++i) {
    const size_t slash = check.find('/', start);
    const std::string step = check.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (step.empty()) {
      errs.push_back(Invalid(pp, *url_path, "segment[" + std::to_string(i) + "] may not be empty"));
    } else {
      for (const std::string& failure : IsDNS1123Subdomain(step)) {
        errs.push_back(Invalid(pp, *url_path, "segment[" + std::to_string(i) + "]: " + failure));
      }
    }
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return errs;
}

FieldErrors ValidateWebhookUrl(const std::string& url, const FieldPath& path) {
  constexpr std::string_view kForm = "; desired format: https://host[/path]";
  const GoUrl u = ParseGoUrl(url, false);
  if (!u.error.empty()) return {Required(path, "url must be a valid URL: " + u.error + std::string(kForm))};
  FieldErrors errs;
  if (u.scheme != "https") errs.push_back(Invalid(path, u.scheme, "'https' is the only allowed URL scheme" + std::string(kForm)));
  if (u.host.empty()) errs.push_back(Invalid(path, u.host, "host must be specified" + std::string(kForm)));
  if (u.has_user) errs.push_back(Invalid(path, u.user, "user information is not permitted in the URL"));
  if (!u.fragment.empty()) errs.push_back(Invalid(path, u.fragment, "fragments are not permitted in the URL"));
  if (!u.raw_query.empty()) errs.push_back(Invalid(path, u.raw_query, "query parameters are not permitted in the URL"));
  return errs;
}

FieldErrors ValidateConversionReviewVersions(const Json* webhook, bool require_recognized, const FieldPath& path) {
  const Json* list = Arr(webhook, "conversionReviewVersions");
  if (list == nullptr || list->empty()) return {Required(path, "")};
  FieldErrors errs;
  std::set<std::string> seen;
  bool has_accepted = false;
  const std::vector<std::string> versions = Strings(webhook, "conversionReviewVersions");
  for (size_t i = 0; i < versions.size(); ++i) {
    const std::string& v = versions[i];
    if (!seen.insert(v).second) {
      errs.push_back(Invalid(path.Index(i), v, "duplicate version"));
      continue;
    }
    for (const std::string& e : IsDNS1035Label(v)) errs.push_back(Invalid(path.Index(i), v, e));
    if (v == "v1" || v == "v1beta1") has_accepted = true;
  }
  if (require_recognized && !has_accepted) {
    errs.push_back(InvalidRendered(path, GoJsonMarshal(Json(versions)), "must include at least one of v1, v1beta1"));
  }
  return errs;
}

}  // namespace

FieldErrors ValidateColumns(const Json* columns, const FieldPath& columns_path) {
  FieldErrors errs;
  if (columns == nullptr) return errs;
  for (size_t i = 0; i < columns->size(); ++i) {
    const Json& column = (*columns)[i];
    const FieldPath path = columns_path.Index(i);
    if (Str(&column, "name").empty()) errs.push_back(Required(path.Child("name"), ""));
    const std::string type = Str(&column, "type");
    const std::string type_detail = "must be one of " + CommaList(kColumnTypes);
    if (type.empty()) {
      errs.push_back(Required(path.Child("type"), type_detail));
    } else if (!Contains(kColumnTypes, type)) {
      errs.push_back(Invalid(path.Child("type"), type, type_detail));
    }
    const std::string format = Str(&column, "format");
    if (!format.empty() && !Contains(kColumnFormats, format)) {
      errs.push_back(Invalid(path.Child("format"), format, "must be one of " + CommaList(kColumnFormats)));
    }
    const std::string json_path = Str(&column, "jsonPath");
    if (json_path.empty()) {
      errs.push_back(Required(path.Child("JSONPath"), ""));
    } else {
      Append(&errs, ValidateSimpleJsonPath(json_path, path.Child("JSONPath")));
    }
  }
  return errs;
}

FieldErrors ValidateSubresources(const Json* subresources, const FieldPath& path) {
  FieldErrors errs;
  const Json* scale = Obj(subresources, "scale");
  if (scale == nullptr) return errs;
  const auto check_path = [&](const char* key, const char* prefix, const char* detail) {
    const FieldPath p = path.Child(std::string("scale.") + key);
    const std::string value = Str(scale, key);
    if (value.empty()) return errs.push_back(Required(p, ""));
    FieldErrors simple = ValidateSimpleJsonPath(value, p);
    if (!simple.empty()) return Append(&errs, std::move(simple));
    if (!value.starts_with(prefix)) errs.push_back(Invalid(p, value, detail));
  };
  check_path("specReplicasPath", ".spec.", "should be a json path under .spec");
  check_path("statusReplicasPath", ".status.", "should be a json path under .status");
  const std::string selector = Str(scale, "labelSelectorPath");
  if (!selector.empty()) {
    const FieldPath p = path.Child("scale.labelSelectorPath");
    FieldErrors simple = ValidateSimpleJsonPath(selector, p);
    if (!simple.empty()) {
      Append(&errs, std::move(simple));
    } else if (!selector.starts_with(".spec.") && !selector.starts_with(".status.")) {
      errs.push_back(InvalidRendered(p, GoJsonMarshal(Json(selector)), "should be a json path under either .spec or .status"));
    }
  }
  return errs;
}

FieldErrors ValidateSelectableFields(const Json& fields, const Json* schema, const FieldPath& schema_path,
                                     const FieldPath& path, const Rules& rules, const std::string& version) {
  FieldErrors errs;
  if (schema != nullptr) {
    if (std::string err = StructuralConversionError(*schema); !err.empty()) {
      errs.push_back(Invalid(schema_path, "", err));
      schema = nullptr;
    }
  }
  std::set<std::string> unique;
  for (size_t i = 0; i < fields.size(); ++i) {
    const FieldPath p = path.Index(i).Child("jsonPath");
    const std::string json_path = Str(&fields[i], "jsonPath");
    if (json_path.empty()) {
      errs.push_back(Required(p, ""));
      continue;
    }
    SchemaFieldPath resolved;
    if (schema != nullptr) {
      resolved = ResolveSchemaFieldPath(json_path, *schema, false);
    } else {
      resolved.error = "does not refer to a valid field";
    }
    if (!resolved.error.empty()) {
      errs.push_back(Invalid(p, json_path, "is an invalid path: " + resolved.error));
      continue;
    }
    if (resolved.root == "metadata") errs.push_back(Invalid(p, json_path, "must not point to fields in metadata"));
    const std::string type = Str(resolved.schema, "type");
    if (type != "string" && type != "boolean" && type != "integer") {
      errs.push_back(Invalid(p, json_path,
                             "must point to a field of type string, boolean or integer. Enum string fields and strings "
                             "with formats are allowed."));
    }
    if (!unique.insert(resolved.path).second) errs.push_back(Duplicate(p, json_path));
  }
  auto allowed = rules.allow_too_many_selectable_fields.find(version);
  const bool allow_too_many = allowed != rules.allow_too_many_selectable_fields.end() && allowed->second;
  if (unique.size() > kMaxSelectableFields && !allow_too_many) {
    errs.push_back(TooMany(path, static_cast<int>(unique.size()), static_cast<int>(kMaxSelectableFields)));
  }
  return errs;
}

FieldErrors ValidateConversion(const Json* conversion, const Rules& rules, const FieldPath& path) {
  FieldErrors errs;
  if (conversion == nullptr) return errs;
  const std::string strategy = Str(conversion, "strategy");
  if (strategy.empty()) {
    errs.push_back(Required(path.Child("strategy"), ""));
  } else if (strategy != "None" && strategy != "Webhook") {
    errs.push_back(NotSupported(path.Child("strategy"), strategy, {"None", "Webhook"}));
  }
  const Json* webhook = Obj(conversion, "webhook");
  const Json* client_config = Obj(webhook, "clientConfig");
  const FieldPath cc_path = path.Child("webhookClientConfig");
  if (strategy == "Webhook") {
    if (client_config == nullptr) {
      errs.push_back(Required(cc_path, "required when strategy is set to Webhook"));
    } else {
      const auto url = OptStr(client_config, "url");
      const Json* service = Obj(client_config, "service");
      if (url.has_value() == (service != nullptr)) {
        errs.push_back(Required(cc_path, "exactly one of url or service is required"));
      } else if (url) {
        Append(&errs, ValidateWebhookUrl(*url, cc_path.Child("url")));
      } else {
        Append(&errs, ValidateWebhookService(service, cc_path.Child("service")));
      }
    }
    Append(&errs, ValidateConversionReviewVersions(webhook, rules.require_recognized_conversion_review_version,
                                                   path.Child("conversionReviewVersions")));
  } else {
    if (client_config != nullptr) {
      errs.push_back(Forbidden(cc_path, "should not be set when strategy is not set to Webhook"));
    }
    if (const Json* crv = Arr(webhook, "conversionReviewVersions"); crv && !crv->empty()) {
      errs.push_back(Forbidden(path.Child("conversionReviewVersions"), "should not be set when strategy is not set to Webhook"));
    }
  }
  return errs;
}

FieldErrors ValidateSchemaValidation(const Json* validation, bool status_enabled, const Rules& rules,
                                     const FieldPath& path, const CrdValidationOptions& hooks) {
  FieldErrors errs;
  const Json* schema = Obj(validation, "openAPIV3Schema");
  if (schema == nullptr) return errs;
  if (status_enabled) Append(&errs, StatusRootRules(*schema, path));
  const FieldPath schema_path = path.Child("openAPIV3Schema");
  if (Bool(schema, "nullable")) errs.push_back(Forbidden(path.Child("openAPIV3Schema.nullable"), "nullable cannot be true at the root"));

  // Conversion errors overlap with the keyword rules below, so they are only reported when
  // nothing else is.
  FieldErrors conversion_errs;
  if (rules.require_structural_schema) {
    if (std::string err = StructuralConversionError(*schema); !err.empty()) {
      conversion_errs.push_back(Invalid(schema_path, "", err));
    } else if (FieldErrors structural = ValidateStructural(*schema, schema_path, hooks.check_pattern); !structural.empty()) {
      Append(&errs, std::move(structural));
    } else if (hooks.validate_defaults) {
      Append(&errs, hooks.validate_defaults(*schema, schema_path, rules.require_pruned_defaults));
    }
  }
  Append(&errs, ValidateOpenAPISchema(*schema, schema_path,
                                      OpenAPISchemaOptions{
                                          .allow_defaults = rules.allow_defaults,
                                          .require_valid_property_type = rules.require_valid_property_type,
                                          .require_atomic_set_type = rules.require_atomic_set_type,
                                          .require_map_list_keys_map_set_validation =
                                              rules.require_map_list_keys_map_set_validation,
                                          .suppress_per_expression_cost = rules.suppress_per_expression_cost,
                                      }));
  if (errs.empty()) Append(&errs, std::move(conversion_errs));
  return errs;
}

}  // namespace kube::apiextensions::validation_internal
