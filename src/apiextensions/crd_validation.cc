#include "apiextensions/crd_validation.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "apiextensions/crd_conditions.h"
#include "apiextensions/crd_validation_internal.h"
#include "apiextensions/name_formats.h"
#include "apiextensions/openapi_schema_validation.h"
#include "util/go_format.h"

namespace kube::apiextensions {

using namespace json_access;
using validation_internal::Rules;

namespace {

const FieldPath kSpec("spec");

std::string ToLower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool HasStatus(const Json* subresources) { return Get(subresources, "status") != nullptr; }

bool AnyStatusEnabled(const InternalSpec& spec) {
  if (HasStatus(spec.subresources)) return true;
  return std::any_of(spec.versions.begin(), spec.versions.end(),
                     [](const InternalVersion& v) { return HasStatus(v.subresources); });
}

// Every openAPIV3Schema of the spec (top level and per version).
std::vector<const Json*> Schemas(const InternalSpec& spec) {
  std::vector<const Json*> out;
  if (const Json* s = Obj(spec.validation, "openAPIV3Schema")) out.push_back(s);
  for (const auto& v : spec.versions) {
    if (const Json* s = Obj(v.schema, "openAPIV3Schema")) out.push_back(s);
  }
  return out;
}

bool AnySchema(const InternalSpec& spec, bool (*pred)(const Json&)) {
  for (const Json* s : Schemas(spec)) {
    if (pred(*s)) return true;
  }
  return false;
}

FieldErrors ValidateNames(const Json* names, const FieldPath& path) {
  FieldErrors errs;
  const auto label = [&](const char* key) {
    const std::string v = Str(names, key);
    if (v.empty()) return;
    if (auto e = IsDNS1035Label(v); !e.empty()) errs.push_back(Invalid(path.Child(key), v, JoinMessages(e)));
  };
  const auto kind = [&](const char* key) {
    const std::string v = Str(names, key);
    if (v.empty()) return;
    if (auto e = IsDNS1035Label(ToLower(v)); !e.empty()) {
      errs.push_back(Invalid(path.Child(key), v, "may have mixed case, but should otherwise match: " + JoinMessages(e)));
    }
  };
  label("plural");
  label("singular");
  kind("kind");
  kind("listKind");
  const std::vector<std::string> short_names = Strings(names, "shortNames");
  for (size_t i = 0; i < short_names.size(); ++i) {
    if (auto e = IsDNS1035Label(short_names[i]); !e.empty()) {
      errs.push_back(Invalid(path.Child("shortNames").Index(i), short_names[i], JoinMessages(e)));
    }
  }
  const std::string k = Str(names, "kind");
  if (!k.empty() && k == Str(names, "listKind")) {
    errs.push_back(Invalid(path.Child("listKind"), k, "kind and listKind may not be the same"));
  }
  const std::vector<std::string> categories = Strings(names, "categories");
  for (size_t i = 0; i < categories.size(); ++i) {
    if (auto e = IsDNS1035Label(categories[i]); !e.empty()) {
      errs.push_back(Invalid(path.Child("categories").Index(i), categories[i], JoinMessages(e)));
    }
  }
  return errs;
}

// validateDeprecationWarning.
std::vector<std::string> DeprecationWarningErrors(const InternalVersion& v) {
  if (!v.deprecation_warning) return {};
  if (!v.deprecated) return {"can only be set for deprecated versions"};
  const std::string& w = *v.deprecation_warning;
  std::vector<std::string> errs;
  if (w.size() > 256) errs.push_back("must be <= 256 characters long");
  if (w.empty()) errs.push_back("must not be an empty string");
  bool valid_utf8 = true;
  for (size_t i = 0; i < w.size();) {
    const unsigned char c = static_cast<unsigned char>(w[i]);
    size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    bool ok = n > 0 && i + n <= w.size();
    for (size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(w[i + k]) & 0xC0) == 0x80;
    if (!ok) {
      // Go decodes a bad byte as U+FFFD, which is printable.
      valid_utf8 = false;
      ++i;
      continue;
    }
    const bool control = (c < 0x20 || c == 0x7f) ||
                         (n == 2 && c == 0xC2 && static_cast<unsigned char>(w[i + 1]) < 0xA0);
    if (control) {
      errs.push_back("must only contain printable UTF-8 characters; non-printable character found at index " + std::to_string(i));
      break;
    }
    i += n;
  }
  if (!valid_utf8) errs.push_back("must only contain printable UTF-8 characters");
  return errs;
}

FieldErrors ValidateVersion(const InternalSpec& spec, const InternalVersion& v, const FieldPath& path,
                            const Rules& rules, const CrdValidationOptions& hooks) {
  FieldErrors errs;
  for (const std::string& e : DeprecationWarningErrors(v)) {
    errs.push_back(InvalidRendered(path.Child("deprecationWarning"), GoJsonMarshal(Json(*v.deprecation_warning)), e));
  }
  Rules version_rules = rules;
  version_rules.suppress_per_expression_cost = rules.unchanged_schema_versions.contains(v.name);
  Append(&errs, validation_internal::ValidateSchemaValidation(v.schema, HasStatus(SubresourcesForVersion(spec, v)),
                                                              version_rules, path.Child("schema"), hooks));
  Append(&errs, validation_internal::ValidateSubresources(v.subresources, path.Child("subresources")));
  Append(&errs, validation_internal::ValidateColumns(v.columns, path.Child("additionalPrinterColumns")));
  if (v.selectable_fields != nullptr && !v.selectable_fields->empty()) {
    const Json* schema = Obj(v.schema, "openAPIV3Schema");
    if (schema == nullptr) {
      errs.push_back(Invalid(path.Child("selectableFields"), "", "may only be set when `version.schema.openAPIV3Schema` is not included"));
    } else {
      Append(&errs, validation_internal::ValidateSelectableFields(*v.selectable_fields, schema, path.Child("schema.openAPIV3Schema"),
                                                                  path.Child("selectableFields"), rules, v.name));
    }
  }
  return errs;
}

FieldErrors ValidateSpec(const InternalSpec& spec, Rules rules, const CrdValidationOptions& hooks) {
  FieldErrors errs;
  if (spec.group.empty()) {
    errs.push_back(Required(kSpec.Child("group"), ""));
  } else if (auto e = IsDNS1123Subdomain(spec.group); !e.empty()) {
    errs.push_back(Invalid(kSpec.Child("group"), spec.group, JoinMessages(e)));
  } else if (spec.group.find('.') == std::string::npos) {
    errs.push_back(Invalid(kSpec.Child("group"), spec.group, "should be a domain with at least one dot"));
  }
  if (spec.scope.empty()) {
    errs.push_back(Required(kSpec.Child("scope"), ""));
  } else if (spec.scope != "Cluster" && spec.scope != "Namespaced") {
    errs.push_back(NotSupported(kSpec.Child("scope"), spec.scope, {"Cluster", "Namespaced"}));
  }
  // Pruning (preserveUnknownFields false) needs structural schemas.
  if (!spec.preserve_unknown_fields) rules.require_structural_schema = true;

  const bool top_level_schema = Obj(spec.validation, "openAPIV3Schema") != nullptr;
  if (!top_level_schema) {
    for (size_t i = 0; i < spec.versions.size(); ++i) {
      const InternalVersion& v = spec.versions[i];
      if (Obj(v.schema, "openAPIV3Schema") != nullptr) continue;
      const FieldPath p = kSpec.Child("versions").Index(i).Child("schema").Child("openAPIV3Schema");
      if (rules.require_openapi_schema) {
        errs.push_back(Required(p, ""));
      } else if (!spec.preserve_unknown_fields && v.served) {
        errs.push_back(Required(p, "because otherwise all fields are pruned"));
      }
    }
  }
  if (rules.allow_defaults && AnySchema(spec, &SchemaHasDefaults)) {
    rules.require_structural_schema = true;
    if (spec.preserve_unknown_fields) {
      errs.push_back(InvalidRendered(kSpec.Child("preserveUnknownFields"), "true", "must be false in order to use defaults in the schema"));
    }
  }

  int storage_count = 0;
  std::set<std::string> names;
  bool unique = true;
  for (size_t i = 0; i < spec.versions.size(); ++i) {
    const InternalVersion& v = spec.versions[i];
    if (v.storage) ++storage_count;
    if (!names.insert(v.name).second) unique = false;
    const FieldPath p = kSpec.Child("versions").Index(i);
    if (auto e = IsDNS1035Label(v.name); !e.empty()) errs.push_back(Invalid(p.Child("name"), v.name, JoinMessages(e)));
    Append(&errs, ValidateVersion(spec, v, p, rules, hooks));
  }
  if (!unique) {
    errs.push_back(InvalidRendered(kSpec.Child("versions"), RenderInternalVersions(spec), "must contain unique version names"));
  }
  if (storage_count != 1) {
    errs.push_back(InvalidRendered(kSpec.Child("versions"), RenderInternalVersions(spec),
                                   "must have exactly one version marked as storage version"));
  }
  // The internal spec.version mirrors the first version's name, so a bad first name is reported
  // twice, as kube does.
  if (!spec.version.empty()) {
    if (auto e = IsDNS1035Label(spec.version); !e.empty()) errs.push_back(Invalid(kSpec.Child("version"), spec.version, JoinMessages(e)));
  }

  const FieldPath names_path = kSpec.Child("names");
  for (const char* key : {"plural", "singular", "kind", "listKind"}) {
    if (Str(spec.names, key).empty()) errs.push_back(Required(names_path.Child(key), ""));
  }
  Append(&errs, ValidateNames(spec.names, names_path));
  Rules top_rules = rules;
  top_rules.suppress_per_expression_cost =
      !spec.versions.empty() && rules.unchanged_schema_versions.contains(spec.versions.front().name);
  Append(&errs, validation_internal::ValidateSchemaValidation(spec.validation, AnyStatusEnabled(spec), top_rules,
                                                              kSpec.Child("validation"), hooks));
  Append(&errs, validation_internal::ValidateSubresources(spec.subresources, kSpec.Child("subresources")));
  Append(&errs, validation_internal::ValidateColumns(spec.columns, kSpec.Child("additionalPrinterColumns")));
  if (spec.selectable_fields != nullptr && !spec.selectable_fields->empty()) {
    if (spec.validation == nullptr) {
      errs.push_back(Invalid(kSpec.Child("selectableFields"), "", "may only be set when validations.schema is included"));
    } else {
      Append(&errs, validation_internal::ValidateSelectableFields(*spec.selectable_fields, Obj(spec.validation, "openAPIV3Schema"),
                                                                  kSpec.Child("schema.openAPIV3Schema"),
                                                                  kSpec.Child("selectableFields"), rules, ""));
    }
  }
  const std::string strategy = Str(spec.conversion, "strategy");
  if (spec.conversion != nullptr && strategy != "None" && spec.preserve_unknown_fields) {
    errs.push_back(Invalid(kSpec.Child("conversion").Child("strategy"), strategy, "must be None if spec.preserveUnknownFields is true"));
  }
  Append(&errs, validation_internal::ValidateConversion(spec.conversion, rules, kSpec.Child("conversion")));
  return errs;
}

FieldErrors ValidateStatus(const Json& crd) {
  return ValidateNames(Obj(Obj(&crd, "status"), "acceptedNames"), FieldPath("status").Child("acceptedNames"));
}

FieldErrors ValidateStoredVersions(const Json& crd, const InternalSpec& spec) {
  const FieldPath path = FieldPath("status").Child("storedVersions");
  const Json* stored_json = Arr(Obj(&crd, "status"), "storedVersions");
  const std::vector<std::string> stored = Strings(Obj(&crd, "status"), "storedVersions");
  const std::string rendered = stored_json ? GoJsonMarshal(Json(stored)) : "null";
  if (stored.empty()) return {InvalidRendered(path, rendered, "must have at least one stored version")};
  FieldErrors errs;
  std::set<std::string> in_spec;
  for (const auto& v : spec.versions) {
    in_spec.insert(v.name);
    if (v.storage && std::find(stored.begin(), stored.end(), v.name) == stored.end()) {
      errs.push_back(InvalidRendered(path, rendered, "must have the storage version " + v.name));
    }
  }
  // A stored version no longer in spec.versions is reported once, at its last index.
  for (size_t i = 0; i < stored.size(); ++i) {
    const std::string& v = stored[i];
    if (in_spec.count(v) || std::find(stored.begin() + i + 1, stored.end(), v) != stored.end()) continue;
    errs.push_back(Invalid(path.Index(i), v,
                           "missing from spec.versions; " + v + " was previously a storage version, and must remain in "
                           "spec.versions until a storage migration ensures no data remains persisted in " + v +
                           " and removes " + v + " from status.storedVersions"));
  }
  return errs;
}

FieldErrors ValidateApiApproval(const Json& crd, const Json* old) {
  if (!IsProtectedCommunityGroup(Str(Obj(&crd, "spec"), "group"))) return {};
  std::string reason, old_reason;
  const ApiApprovalState state = GetApiApprovalState(crd, &reason);
  if (old != nullptr && GetApiApprovalState(*old, &old_reason) == state) return {};
  const FieldPath path = FieldPath("metadata").Child("annotations").Key(kApiApprovedAnnotation);
  const std::string value = Str(Obj(Obj(&crd, "metadata"), "annotations"), kApiApprovedAnnotation);
  switch (state) {
    case ApiApprovalState::kMissing: return {Required(path, reason)};
    case ApiApprovalState::kInvalid: return {Invalid(path, value, reason)};
    case ApiApprovalState::kApproved:
    case ApiApprovalState::kBypassed: return {};
  }
  return {};
}

FieldErrors ValidatePreserveUnknownFields(const Json& crd, const Json* old) {
  if (old != nullptr && Bool(Obj(old, "spec"), "preserveUnknownFields")) return {};
  if (!Bool(Obj(&crd, "spec"), "preserveUnknownFields")) return {};
  return {InvalidRendered(kSpec.Child("preserveUnknownFields"), "true",
                          "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead")};
}

// The stored-versions, status, approval and preserveUnknownFields checks create and update share.
void ValidateRest(const Json& crd, const InternalSpec& spec, const Json* old, FieldErrors* errs) {
  Append(errs, ValidateStatus(crd));
  Append(errs, ValidateStoredVersions(crd, spec));
  Append(errs, ValidateApiApproval(crd, old));
  Append(errs, ValidatePreserveUnknownFields(crd, old));
}

bool HasTooManySelectableFields(const Json* fields) { return fields != nullptr && fields->size() > 8; }

}  // namespace

FieldErrors ValidateCustomResourceDefinition(const Json& crd, const CrdValidationOptions& options) {
  const InternalSpec spec = ToInternal(crd);
  FieldErrors errs;
  // kube's name rule for CRDs applies to generateName as well as name.
  const std::string required_name = Str(spec.names, "plural") + "." + spec.group;
  for (const char* key : {"generateName", "name"}) {
    const std::string value = Str(Obj(&crd, "metadata"), key);
    if (!value.empty() && value != required_name) {
      errs.push_back(Invalid(FieldPath("metadata").Child(key), value, "must be spec.names.plural+\".\"+spec.group"));
    }
  }
  Append(&errs, ValidateSpec(spec, Rules{}, options));
  ValidateRest(crd, spec, nullptr, &errs);
  return errs;
}

FieldErrors ValidateCustomResourceDefinitionUpdate(const Json& crd, const Json& old_crd, const CrdValidationOptions& options) {
  const InternalSpec spec = ToInternal(crd);
  const InternalSpec old = ToInternal(old_crd);
  Rules rules;
  {
    const Json* webhook = Obj(old.conversion, "webhook");
    const std::vector<std::string> review = Strings(webhook, "conversionReviewVersions");
    rules.require_recognized_conversion_review_version =
        old.conversion == nullptr || review.empty() ||
        std::any_of(review.begin(), review.end(), [](const std::string& v) { return v == "v1" || v == "v1beta1"; });
  }
  rules.require_immutable_names = IsConditionTrue(old_crd, "Established");
  rules.require_openapi_schema =
      Obj(old.validation, "openAPIV3Schema") != nullptr ||
      std::all_of(old.versions.begin(), old.versions.end(),
                  [](const InternalVersion& v) { return Obj(v.schema, "openAPIV3Schema") != nullptr; });
  rules.require_valid_property_type = !AnySchema(old, &SchemaHasInvalidTypes);
  if (options.has_unpruned_defaults) {
    for (const Json* s : Schemas(old)) {
      if (SchemaHasDefaults(*s) && options.has_unpruned_defaults(*s)) rules.require_pruned_defaults = false;
    }
  }
  rules.require_atomic_set_type = !AnySchema(old, &SchemaHasNonAtomicSetType);
  rules.require_map_list_keys_map_set_validation = !AnySchema(old, &SchemaHasInvalidMapListKeysMapSet);
  // More than 8 selectable fields may stay where they already were and did not change.
  if (HasTooManySelectableFields(old.selectable_fields) && spec.selectable_fields != nullptr &&
      *spec.selectable_fields == *old.selectable_fields) {
    rules.allow_too_many_selectable_fields[""] = true;
  }
  // A version's schema, per version or folded to the top.
  auto schema_of = [](const InternalSpec& s, const InternalVersion& v) { return v.schema != nullptr ? v.schema : s.validation; };
  for (const auto& v : spec.versions) {
    for (const auto& ov : old.versions) {
      const Json* a = schema_of(spec, v);
      const Json* b = schema_of(old, ov);
      if (ov.name == v.name && ((a == nullptr && b == nullptr) || (a != nullptr && b != nullptr && *a == *b))) {
        rules.unchanged_schema_versions.insert(v.name);
      }
    }
  }
  for (const auto& v : spec.versions) {
    for (const auto& ov : old.versions) {
      if (ov.name == v.name && HasTooManySelectableFields(ov.selectable_fields) && v.selectable_fields != nullptr &&
          *v.selectable_fields == *ov.selectable_fields) {
        rules.allow_too_many_selectable_fields[v.name] = true;
      }
    }
  }

  FieldErrors errs = ValidateSpec(spec, rules, options);
  const auto immutable = [&](const FieldPath& path, const std::string& now, const std::string& before) {
    if (now != before) errs.push_back(InvalidRendered(path, GoJsonMarshal(Json(now)), "field is immutable"));
  };
  if (rules.require_immutable_names) {
    immutable(kSpec.Child("scope"), spec.scope, old.scope);
    immutable(kSpec.Child("names").Child("kind"), Str(spec.names, "kind"), Str(old.names, "kind"));
  }
  immutable(kSpec.Child("group"), spec.group, old.group);
  immutable(kSpec.Child("names").Child("plural"), Str(spec.names, "plural"), Str(old.names, "plural"));
  ValidateRest(crd, spec, &old_crd, &errs);
  return errs;
}

FieldErrors ValidateCustomResourceDefinitionStatusUpdate(const Json& crd, const Json& old_crd) {
  return ValidateStatus(crd);
}

}  // namespace kube::apiextensions
