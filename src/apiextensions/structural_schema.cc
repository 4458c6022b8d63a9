#include "apiextensions/structural_schema.h"

#include <algorithm>
#include <set>

#include "apiextensions/crd_internal.h"
#include "util/go_format.h"

namespace kube::apiextensions {

using namespace json_access;

namespace {

enum class Level { kRoot, kItem, kField };

// A member that is non-empty: a non-empty string, array or object, or any other non-null value.
bool NonEmpty(const Json* n, std::string_view key) {
  const Json* v = Get(n, key);
  if (v == nullptr) return false;
  if (v->is_string() || v->is_array() || v->is_object()) return !v->empty() && !(v->is_string() && v->get_ref<const std::string&>().empty());
  return true;
}

// Structural.Properties: nil for an absent or empty map.
const Json* Properties(const Json* n) {
  const Json* p = Obj(n, "properties");
  return p != nullptr && !p->empty() ? p : nullptr;
}

const Json* Property(const Json* n, const std::string& key) {
  const Json* p = Properties(n);
  return p != nullptr ? Get(p, key) : nullptr;
}

const Json* Items(const Json* n) { return Obj(n, "items"); }

// The schema of additionalProperties when it is one (not a boolean).
const Json* AdditionalPropertiesSchema(const Json* n) { return Obj(n, "additionalProperties"); }

const Json* List(const Json* n, std::string_view key) {
  const Json* a = Arr(n, key);
  return a != nullptr && !a->empty() ? a : nullptr;
}

std::string UnsupportedField(const Json& s) {
  if (NonEmpty(&s, "id")) return "OpenAPIV3Schema 'id' is not supported";
  if (NonEmpty(&s, "$schema")) return "OpenAPIV3Schema 'schema' is not supported";
  if (NonEmpty(&s, "$ref")) return "OpenAPIV3Schema '$ref' is not supported";
  if (NonEmpty(&s, "patternProperties")) return "OpenAPIV3Schema 'patternProperties' is not supported";
  if (NonEmpty(&s, "dependencies")) return "OpenAPIV3Schema 'dependencies' is not supported";
  if (Get(&s, "additionalItems") != nullptr) return "OpenAPIV3Schema 'additionalItems' is not supported";
  if (NonEmpty(&s, "definitions")) return "OpenAPIV3Schema 'definitions' is not supported";
  return "";
}

std::string ConversionError(const Json& s) {
  if (!s.is_object()) return "";
  if (auto e = UnsupportedField(s); !e.empty()) return e;
  if (const Json* n = Obj(&s, "not")) {
    if (auto e = ConversionError(*n); !e.empty()) return e;
  }
  for (const char* junctor : {"allOf", "anyOf", "oneOf"}) {
    if (const Json* list = Arr(&s, junctor)) {
      for (const auto& clause : *list) {
        if (auto e = ConversionError(clause); !e.empty()) return e;
      }
    }
  }
  if (const Json* p = Get(&s, "x-kubernetes-preserve-unknown-fields"); p && p->is_boolean() && !p->get<bool>()) {
    return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  }
  if (const Json* items = Get(&s, "items")) {
    if (items->is_array() && !items->empty()) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
    if (items->is_object()) {
      if (auto e = ConversionError(*items); !e.empty()) return e;
    }
  }
  if (const Json* props = Obj(&s, "properties")) {
    for (const auto& [k, v] : props->items()) {
      if (auto e = ConversionError(v); !e.empty()) return e;
    }
  }
  if (const Json* ap = AdditionalPropertiesSchema(&s)) return ConversionError(*ap);
  return "";
}

// A value-validation clause that is exactly {type: <type>} (every other member zero), as in the
// two int-or-string patterns kube accepts.
bool IsBareType(const Json& n, std::string_view type) {
  if (!n.is_object() || Str(&n, "type") != type) return false;
  for (const auto& [k, v] : n.items()) {
    if (k == "type" || v.is_null()) continue;
    if (v.is_boolean() && !v.get<bool>()) continue;
    if (v.is_string() && v.get_ref<const std::string&>().empty()) continue;
    if (v.is_array() && v.empty() && (k == "enum" || k == "allOf" || k == "anyOf" || k == "oneOf")) continue;
    return false;
  }
  return true;
}

bool IsIntOrStringAnyOf(const Json* n) {
  const Json* any = Arr(n, "anyOf");
  return any != nullptr && any->size() == 2 && IsBareType((*any)[0], "integer") && IsBareType((*any)[1], "string");
}

bool IsIntOrStringAllOf(const Json* n) {
  const Json* all = Arr(n, "allOf");
  return all != nullptr && !all->empty() && IsIntOrStringAnyOf(&(*all)[0]);
}

class Validator {
 public:
  Validator(const PatternChecker& check_pattern, FieldErrors* errs) : check_pattern_(check_pattern), errs_(errs) {}

  void Invariants(const Json& s, Level lvl, const FieldPath& p) {
    if (Str(&s, "type") == "array" && Items(&s) == nullptr) errs_->push_back(Required(p.Child("items"), "must be specified"));
    if (const Json* items = Items(&s)) Invariants(*items, Level::kItem, p.Child("items"));
    if (const Json* props = Properties(&s)) {
      for (const auto& [k, v] : props->items()) Invariants(v, Level::kField, p.Child("properties").Key(k));
    }
    const bool has_additional = Get(&s, "additionalProperties") != nullptr;
    if (has_additional) {
      if (lvl == Level::kRoot) errs_->push_back(Forbidden(p.Child("additionalProperties"), "must not be used at the root"));
      if (const Json* ap = AdditionalPropertiesSchema(&s)) Invariants(*ap, Level::kField, p.Child("additionalProperties"));
    }

    const bool int_or_string = Bool(&s, "x-kubernetes-int-or-string");
    const bool preserve = Bool(&s, "x-kubernetes-preserve-unknown-fields");
    const bool embedded = Bool(&s, "x-kubernetes-embedded-resource");
    if (int_or_string && preserve) {
      errs_->push_back(InvalidRendered(p.Child("x-kubernetes-preserve-unknown-fields"), "true",
                                       "must be false if x-kubernetes-int-or-string is true"));
    }
    if (int_or_string && embedded) {
      errs_->push_back(InvalidRendered(p.Child("x-kubernetes-embedded-resource"), "true",
                                       "must be false if x-kubernetes-int-or-string is true"));
    }

    ValueValidation(s, IsIntOrStringAnyOf(&s), IsIntOrStringAllOf(&s), lvl, p);

    const bool check_metadata = lvl == Level::kRoot || embedded;
    const std::string type = Str(&s, "type");
    if (embedded && type != "object") {
      if (type.empty()) {
        errs_->push_back(Required(p.Child("type"), "must be object if x-kubernetes-embedded-resource is true"));
      } else {
        errs_->push_back(Invalid(p.Child("type"), type, "must be object if x-kubernetes-embedded-resource is true"));
      }
    } else if (type.empty() && !int_or_string && !preserve) {
      switch (lvl) {
        case Level::kRoot: errs_->push_back(Required(p.Child("type"), "must not be empty at the root")); break;
        case Level::kItem: errs_->push_back(Required(p.Child("type"), "must not be empty for specified array items")); break;
        case Level::kField: errs_->push_back(Required(p.Child("type"), "must not be empty for specified object fields")); break;
      }
    }
    if (embedded && has_additional) {
      errs_->push_back(Forbidden(p.Child("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"));
    }
    if (lvl == Level::kRoot && !type.empty() && type != "object") {
      errs_->push_back(Invalid(p.Child("type"), type, "must be object at the root"));
    }
    for (const char* key : {"kind", "apiVersion"}) {
      const Json* prop = Property(&s, key);
      if (prop != nullptr && check_metadata && Str(prop, "type") != "string") {
        errs_->push_back(Invalid(p.Child("properties").Key(key).Child("type"), Str(prop, "type"), "must be string"));
      }
    }
    if (const Json* metadata = Property(&s, "metadata")) {
      MetadataInvariants(*metadata, check_metadata, lvl, p.Child("properties").Key("metadata"));
    }
    if (embedded && !preserve && Properties(&s) == nullptr) {
      errs_->push_back(Required(p.Child("properties"),
                                "must not be empty if x-kubernetes-embedded-resource is true without "
                                "x-kubernetes-preserve-unknown-fields"));
    }
  }

  void Completeness(const Json& root, const FieldPath& p) { ValueValidationComplete(root, &root, p, p); }

 private:
  void MetadataInvariants(const Json& m, bool check_metadata, Level lvl, const FieldPath& p) {
    if (check_metadata && Str(&m, "type") != "object") errs_->push_back(Invalid(p.Child("type"), Str(&m, "type"), "must be object"));
    if (lvl != Level::kRoot) return;
    if (RestrictsMoreThanNames(m)) {
      errs_->push_back(Forbidden(p, "must not specify anything other than name and generateName, but metadata is implicitly specified"));
    }
  }

  // Whether the root metadata schema says anything besides its type, a default and restrictions
  // of name and generateName (kube compares it with the empty structural schema).
  static bool RestrictsMoreThanNames(const Json& m) {
    if (const Json* props = Properties(&m)) {
      std::set<std::string> keys;
      for (const auto& [k, v] : props->items()) keys.insert(k);
      const bool only_names = keys == std::set<std::string>{"name"} || keys == std::set<std::string>{"generateName"} ||
                              keys == std::set<std::string>{"name", "generateName"};
      if (!only_names) return true;
    }
    for (const char* key : {"items", "additionalProperties", "externalDocs", "example", "maximum", "minimum",
                            "maxLength", "minLength", "maxItems", "minItems", "multipleOf", "maxProperties",
                            "minProperties", "required", "not", "x-kubernetes-list-map-keys", "x-kubernetes-list-type",
                            "x-kubernetes-map-type", "x-kubernetes-validations"}) {
      if (Get(&m, key) != nullptr) return true;
    }
    for (const char* key : {"description", "title", "format", "pattern", "enum", "allOf", "anyOf", "oneOf"}) {
      if (NonEmpty(&m, key)) return true;
    }
    for (const char* key : {"nullable", "exclusiveMaximum", "exclusiveMinimum", "uniqueItems",
                            "x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource",
                            "x-kubernetes-int-or-string"}) {
      if (Bool(&m, key)) return true;
    }
    return false;
  }

  void ValueValidation(const Json& v, bool skip_any_of, bool skip_first_all_of_any_of, Level lvl, const FieldPath& p) {
    if (!skip_any_of) {
      if (const Json* any = Arr(&v, "anyOf")) {
        for (size_t i = 0; i < any->size(); ++i) Nested(&(*any)[i], false, lvl, p.Child("anyOf").Index(i));
      }
    }
    if (const Json* all = Arr(&v, "allOf")) {
      for (size_t i = 0; i < all->size(); ++i) Nested(&(*all)[i], skip_first_all_of_any_of && i == 0, lvl, p.Child("allOf").Index(i));
    }
    if (const Json* one = Arr(&v, "oneOf")) {
      for (size_t i = 0; i < one->size(); ++i) Nested(&(*one)[i], false, lvl, p.Child("oneOf").Index(i));
    }
    Nested(Obj(&v, "not"), false, lvl, p.Child("not"));
    const std::string pattern = Str(&v, "pattern");
    if (!pattern.empty() && check_pattern_) {
      if (std::string err = check_pattern_(pattern); !err.empty()) {
        errs_->push_back(Invalid(p.Child("pattern"), pattern, "must be a valid regular expression, but isn't: " + err));
      }
    }
  }

  void Nested(const Json* v, bool skip_any_of, Level lvl, const FieldPath& p) {
    if (v == nullptr || !v->is_object()) return;
    ValueValidation(*v, skip_any_of, false, lvl, p);
    Nested(Items(v), false, lvl, p.Child("items"));
    if (const Json* props = Obj(v, "properties")) {
      for (const auto& [k, prop] : props->items()) Nested(&prop, false, Level::kField, p.Child("properties").Key(k));
    }
    if (NonEmpty(v, "type")) errs_->push_back(Forbidden(p.Child("type"), "must be empty to be structural"));
    const Json* ap = Get(v, "additionalProperties");
    if (ap != nullptr && !(ap->is_boolean() && !ap->get<bool>())) {
      errs_->push_back(Forbidden(p.Child("additionalProperties"), "must be undefined to be structural"));
    }
    // Keywords a value validation may not carry, and how kube words each refusal.
    struct Forbid {
      const char* key;
      bool (*set)(const Json*, std::string_view);
      const char* detail;
    };
    static const Forbid kForbidden[] = {
        {"default", [](const Json* n, std::string_view k) { return Get(n, k) != nullptr; }, "must be undefined to be structural"},
        {"title", NonEmpty, "must be empty to be structural"},
        {"description", NonEmpty, "must be empty to be structural"},
        {"nullable", Bool, "must be false to be structural"},
        {"x-kubernetes-preserve-unknown-fields", Bool, "must be false to be structural"},
        {"x-kubernetes-embedded-resource", Bool, "must be false to be structural"},
        {"x-kubernetes-int-or-string", Bool, "must be false to be structural"},
        {"x-kubernetes-list-map-keys", [](const Json* n, std::string_view k) { return List(n, k) != nullptr; }, "must be empty to be structural"},
        {"x-kubernetes-list-type", [](const Json* n, std::string_view k) { return OptStr(n, k).has_value(); }, "must be undefined to be structural"},
        {"x-kubernetes-map-type", [](const Json* n, std::string_view k) { return OptStr(n, k).has_value(); }, "must be undefined to be structural"},
        {"x-kubernetes-validations", [](const Json* n, std::string_view k) { return List(n, k) != nullptr; }, "must be empty to be structural"},
    };
    for (const Forbid& f : kForbidden) {
      if (f.set(v, f.key)) errs_->push_back(Forbidden(p.Child(f.key), f.detail));
    }
    if (const Json* props = Obj(v, "properties"); props != nullptr && Get(props, "metadata") != nullptr) {
      errs_->push_back(Forbidden(p.Child("properties").Key("metadata"), "must not be specified in a nested context"));
    }
  }

  void MissingStructure(const FieldPath& s_path, const FieldPath& v_path) {
    errs_->push_back(Required(s_path, "because it is defined in " + v_path.str()));
  }

  void ValueValidationComplete(const Json& v, const Json* s, const FieldPath& s_path, const FieldPath& v_path) {
    if (s == nullptr) return MissingStructure(s_path, v_path);
    NestedComplete(Obj(&v, "not"), s, s_path, v_path.Child("not"));
    for (const char* junctor : {"allOf", "anyOf", "oneOf"}) {
      if (const Json* list = Arr(&v, junctor)) {
        for (size_t i = 0; i < list->size(); ++i) {
          NestedComplete(&(*list)[i], s, s_path, v_path.Child(junctor).Index(i));
        }
      }
    }
  }

  void NestedComplete(const Json* v, const Json* s, const FieldPath& s_path, const FieldPath& v_path) {
    if (v == nullptr || !v->is_object()) return;
    if (s == nullptr) return MissingStructure(s_path, v_path);
    ValueValidationComplete(*v, s, s_path, v_path);
    NestedComplete(Items(v), Items(s), s_path.Child("items"), v_path.Child("items"));
    if (const Json* props = Obj(v, "properties")) {
      for (const auto& [k, prop] : props->items()) {
        const Json* s_prop = Property(s, k);
        if (s_prop == nullptr) {
          MissingStructure(s_path.Child("properties").Key(k), v_path.Child("properties").Key(k));
        } else {
          NestedComplete(&prop, s_prop, s_path.Child("properties").Key(k), v_path.Child("properties").Key(k));
        }
      }
    }
  }

  const PatternChecker& check_pattern_;
  FieldErrors* errs_;
};

}  // namespace

std::string StructuralConversionError(const Json& schema) { return ConversionError(schema); }

FieldErrors ValidateStructural(const Json& schema, const FieldPath& path, const PatternChecker& check_pattern) {
  FieldErrors errs;
  Validator v(check_pattern, &errs);
  v.Invariants(schema, Level::kRoot, path);
  v.Completeness(schema, path);
  std::stable_sort(errs.begin(), errs.end(), [](const FieldError& a, const FieldError& b) {
    return FormatFieldError(a) < FormatFieldError(b);
  });
  return errs;
}

}  // namespace kube::apiextensions
