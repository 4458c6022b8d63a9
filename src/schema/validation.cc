#include "schema/validation.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "schema/field_path.h"
#include "schema/go_values.h"
#include "schema/openapi_validation.h"

namespace kube::schema {

namespace {

using json = nlohmann::json;

// validation.IsDNS1035Label's messages.
std::vector<std::string> Dns1035LabelErrors(const std::string& v) {
  std::vector<std::string> errs;
  if (v.size() > 63) errs.push_back("must be no more than 63 characters");
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  const bool ok = !v.empty() && v[0] >= 'a' && v[0] <= 'z' && alnum(v.back()) &&
                  std::all_of(v.begin(), v.end(), [&](char c) { return alnum(c) || c == '-'; });
  if (!ok) {
    errs.push_back(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
        "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
        "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
  }
  return errs;
}

// objectmeta.validateEmbeddedResource.
void CheckEmbedded(const json& x, const std::string& path, const ValidateOptions& options, FieldErrors* out) {
  if (!x.contains("apiVersion")) out->push_back({FieldError::Type::kRequired, ChildPath(path, "apiVersion"), "\"\"", ""});
  if (!x.contains("kind")) out->push_back({FieldError::Type::kRequired, ChildPath(path, "kind"), "\"\"", ""});
  for (auto it = x.begin(); it != x.end(); ++it) {
    const json& v = it.value();
    if (it.key() == "apiVersion") {
      const std::string field = ChildPath(path, "apiVersion");
      if (!v.is_string()) {
        out->push_back(InvalidValue(field, v, "must be a string"));
      } else if (v.get_ref<const std::string&>().empty()) {
        out->push_back(InvalidValue(field, v, "must not be empty"));
      } else if (const auto& gv = v.get_ref<const std::string&>();
                 gv != "/" && std::count(gv.begin(), gv.end(), '/') > 1) {
        out->push_back(InvalidValue(field, v, "unexpected GroupVersion string: " + gv));
      }
    } else if (it.key() == "kind") {
      const std::string field = ChildPath(path, "kind");
      if (!v.is_string()) {
        out->push_back(InvalidValue(field, v, "must be a string"));
      } else if (v.get_ref<const std::string&>().empty()) {
        out->push_back(InvalidValue(field, v, "must not be empty"));
      } else {
        std::string lower = v.get<std::string>();
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
        if (auto errs = Dns1035LabelErrors(lower); !errs.empty()) {
          std::string joined;
          for (const auto& e : errs) joined += (joined.empty() ? "" : ",") + e;
          out->push_back(InvalidValue(field, v, "may have mixed case, but should otherwise match: " + joined));
        }
      }
    } else if (it.key() == "metadata") {
      const std::string field = ChildPath(path, "metadata");
      if (!v.is_object() && !v.is_null()) {
        out->push_back(InvalidValue(field, v, ObjectMetaDecodeError(v)));
      } else if (options.embedded_metadata) {
        for (auto& e : options.embedded_metadata(v.is_null() ? json::object() : v, field)) out->push_back(std::move(e));
      }
    }
  }
}

// objectmeta.validate: every embedded resource reachable through the schema.
void WalkEmbedded(const Schema* s, const json& x, const std::string& path, bool embedded,
                  const ValidateOptions& options, FieldErrors* out) {
  if (s == nullptr) return;
  if (x.is_object()) {
    if (embedded) CheckEmbedded(x, path, options, out);
    for (auto it = x.begin(); it != x.end(); ++it) {
      if (s->type() == Schema::Type::kObject) {
        if (const Schema* f = s->Field(it.key())) {
          WalkEmbedded(f, it.value(), ChildPath(path, it.key()), f->EmbeddedResource(), options, out);
        }
      } else if (s->type() == Schema::Type::kMap) {
        WalkEmbedded(s->Items(), it.value(), KeyPath(path, it.key()), s->Items()->EmbeddedResource(), options, out);
      }
    }
  } else if (x.is_array() && s->type() == Schema::Type::kArray) {
    for (size_t i = 0; i < x.size(); ++i) {
      WalkEmbedded(s->Items(), x[i], IndexPath(path, i), s->Items()->EmbeddedResource(), options, out);
    }
  }
}

// The identity of a list item for uniqueness, as Go compares them: scalars by type and value,
// objects and arrays by their JSON.
std::string ItemKey(const json& x) {
  if (x.is_object() || x.is_array()) return "c" + GoJson(x);
  if (x.is_number()) return (IsGoInt(x) ? "i" : "f") + GoJson(x);
  return "s" + GoJson(x);  // strings, booleans, null: their JSON is distinct per type
}

// listtype.validateListSet: the index of the second occurrence of every repeated key.
std::vector<size_t> NonUnique(const std::vector<std::string>& keys) {
  std::vector<size_t> out;
  if (keys.size() <= 1) return out;
  std::map<std::string, int> seen;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (++seen[keys[i]] == 2) out.push_back(i);
  }
  return out;
}

void WalkListTypes(const Schema* s, const json& x, const std::string& path, FieldErrors* out);

void CheckListMap(const Schema& s, const json& arr, const std::string& path, FieldErrors* out) {
  for (size_t i = 0; i < arr.size(); ++i) {
    if (!arr[i].is_null() && !arr[i].is_object()) {
      out->push_back(InvalidValue(IndexPath(path, i), arr[i], "must be an object for an array of list-type map"));
      return;
    }
  }
  if (arr.size() <= 1) return;
  const auto& key_fields = s.ListMapKeys();
  std::vector<json> keys;
  std::vector<std::string> ids;
  for (const auto& x : arr) {
    json key = json::object();
    for (const auto& k : key_fields) {
      if (x.is_object() && x.contains(k)) key[k] = x[k];
    }
    // One key field: a missing key is a value of its own, distinct from every present one.
    ids.push_back(key_fields.size() == 1 && key.empty() ? std::string("unspecified") : ItemKey(key));
    keys.push_back(std::move(key));
  }
  for (size_t i : NonUnique(ids)) {
    out->push_back({FieldError::Type::kDuplicate, IndexPath(path, i), GoValue(keys[i]), ""});
  }
}

// listtype.ValidateListSetsAndMaps.
void WalkListTypes(const Schema* s, const json& x, const std::string& path, FieldErrors* out) {
  if (s == nullptr) return;
  if (x.is_object()) {
    for (auto it = x.begin(); it != x.end(); ++it) {
      if (s->type() == Schema::Type::kMap) {
        WalkListTypes(s->Items(), it.value(), KeyPath(path, it.key()), out);
      } else if (s->type() == Schema::Type::kObject) {
        if (const Schema* f = s->Field(it.key())) WalkListTypes(f, it.value(), ChildPath(path, it.key()), out);
      }
    }
    return;
  }
  if (!x.is_array() || s->type() != Schema::Type::kArray) return;
  if (s->ListType() == "set") {
    std::vector<std::string> ids;
    for (const auto& item : x) ids.push_back(ItemKey(item));
    for (size_t i : NonUnique(ids)) out->push_back({FieldError::Type::kDuplicate, IndexPath(path, i), GoValue(x[i]), ""});
  } else if (s->ListType() == "map") {
    CheckListMap(*s, x, path, out);
  }
  for (size_t i = 0; i < x.size(); ++i) WalkListTypes(s->Items(), x[i], IndexPath(path, i), out);
}

}  // namespace

FieldErrors ValidateEmbeddedResources(const Schema& schema, const json& value, const std::string& path,
                                      bool resource_root, const ValidateOptions& options) {
  FieldErrors out;
  WalkEmbedded(&schema, value, path, resource_root || schema.EmbeddedResource(), options, &out);
  return out;
}

FieldErrors Validate(const Schema& schema, const json& value, const ValidateOptions& options) {
  FieldErrors out = ValidateOpenAPI(schema, value, options.path, OpenAPISource::kCustomResource, options.old);
  // The root of a custom resource is an embedded resource in kube's eyes, but its own metadata and
  // type are the registry's to check: only nested ones are checked here.
  for (auto& e : ValidateEmbeddedResources(schema, value, options.path, false, options)) out.push_back(std::move(e));
  FieldErrors old_list_errors;
  if (options.old != nullptr) WalkListTypes(&schema, *options.old, options.path, &old_list_errors);
  if (old_list_errors.empty()) WalkListTypes(&schema, value, options.path, &out);
  return out;
}

}  // namespace kube::schema
