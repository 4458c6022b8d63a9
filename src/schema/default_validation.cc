#include "schema/default_validation.h"

#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "schema/field_path.h"
#include "schema/go_values.h"
#include "schema/openapi_validation.h"
#include "schema/prune.h"
#include "schema/validation.h"

namespace kube::schema {

namespace {

using json = nlohmann::json;

bool IsMetaField(std::string_view k) { return k == "apiVersion" || k == "kind" || k == "metadata"; }

// objectmeta.Coerce without dropping: the first apiVersion/kind that is not a string or metadata
// that is not an object, in an embedded resource.
std::optional<FieldError> CoerceError(const Schema* s, const json& x, const std::string& path, bool embedded) {
  if (s == nullptr) return std::nullopt;
  if (x.is_object()) {
    for (auto it = x.begin(); it != x.end(); ++it) {
      const json& v = it.value();
      if (embedded && (it.key() == "apiVersion" || it.key() == "kind") && !v.is_string()) {
        return InvalidValue(ChildPath(path, it.key()), v, "must be a string");
      }
      if (embedded && it.key() == "metadata" && !v.is_object() && !v.is_null()) {
        return InvalidValue(ChildPath(path, "metadata"), v, ObjectMetaDecodeError(v));
      }
      std::optional<FieldError> e;
      if (s->type() == Schema::Type::kObject) {
        if (const Schema* f = s->Field(it.key())) e = CoerceError(f, v, ChildPath(path, it.key()), f->EmbeddedResource());
      } else if (s->type() == Schema::Type::kMap) {
        e = CoerceError(s->Items(), v, KeyPath(path, it.key()), s->Items()->EmbeddedResource());
      }
      if (e) return e;
    }
  } else if (x.is_array() && s->type() == Schema::Type::kArray) {
    for (size_t i = 0; i < x.size(); ++i) {
      if (auto e = CoerceError(s->Items(), x[i], IndexPath(path, i), s->Items()->EmbeddedResource())) return e;
    }
  }
  return std::nullopt;
}

std::string Rendered(const FieldError& e) { return e.field + ": " + e.Body(); }

// errors.Aggregate's message: one error as is, several in brackets.
std::string Aggregate(const FieldErrors& errs) {
  if (errs.size() == 1) return Rendered(errs[0]);
  std::string out = "[";
  for (size_t i = 0; i < errs.size(); ++i) out += (i ? ", " : "") + Rendered(errs[i]);
  return out + "]";
}

class DefaultsChecker {
 public:
  explicit DefaultsChecker(const DefaultValidationOptions& options) : options_(options) {
    embedded_.embedded_metadata = options.embedded_metadata;
  }

  // One step of defaulting.validate. `wrap` leads from the innermost resource root to `s`
  // (property names; "" for an array item): metadata defaults are checked inside a surrounding
  // object built along it.
  void Check(const Schema& s, const std::string& path, const Schema* resource, std::vector<std::string> wrap,
             bool inside_meta, bool is_root, FieldErrors* out) {
    const bool embedded = is_root || s.EmbeddedResource();
    if (embedded) {
      inside_meta = false;
      resource = &s;
      wrap.clear();
    }
    if (const json* def = s.Default()) {
      const std::string at = path + ".default";
      if (inside_meta) {
        CheckMetadataDefault(s, *def, at, *resource, wrap, out);
      } else {
        CheckDefault(s, *def, at, embedded, out);
      }
    }
    if (s.type() == Schema::Type::kArray && s.Items() != nullptr) {
      std::vector<std::string> w = wrap;
      w.push_back("");
      Check(*s.Items(), path + ".items", resource, std::move(w), inside_meta, false, out);
    }
    if (s.type() == Schema::Type::kObject) {
      for (const auto& name : s.FieldNames()) {
        std::vector<std::string> w = wrap;
        w.push_back(name);
        Check(*s.Field(name), path + ".properties[" + name + "]", resource, std::move(w),
              inside_meta || (embedded && IsMetaField(name)), false, out);
      }
    }
  }

 private:
  void CheckDefault(const Schema& s, const json& def, const std::string& at, bool embedded, FieldErrors* out) {
    if (options_.require_pruned) {
      json pruned = def;
      PruneOptions po;
      po.resource_root = embedded;
      Prune(&s, &pruned, po);
      if (!GoDeepEqual(pruned, def)) out->push_back(InvalidValue(at, def, "must not have unknown fields"));
    }
    if (auto e = CoerceError(&s, def, at, embedded)) {
      out->push_back(std::move(*e));
      return;
    }
    if (auto errs = ValidateEmbeddedResources(s, def, at, embedded, embedded_); !errs.empty()) {
      out->insert(out->end(), errs.begin(), errs.end());
      return;
    }
    auto errs = ValidateOpenAPI(s, def, at, OpenAPISource::kStructural);
    out->insert(out->end(), errs.begin(), errs.end());
  }

  void CheckMetadataDefault(const Schema& s, const json& def, const std::string& at, const Schema& resource,
                            const std::vector<std::string>& wrap, FieldErrors* out) {
    // The default where it would land in an object of the resource's kind.
    json obj = def;
    for (auto it = wrap.rbegin(); it != wrap.rend(); ++it) {
      obj = it->empty() ? json::array({std::move(obj)}) : json{{*it, std::move(obj)}};
    }
    if (!obj.is_object()) {
      out->push_back(InvalidValue(at, def, "must result in valid metadata: object root default value must be of object type"));
      return;
    }
    if (!obj.contains("kind")) obj["kind"] = "Validation";
    if (!obj.contains("apiVersion")) obj["apiVersion"] = "validation/v1";
    if (auto e = CoerceError(&resource, obj, "", true)) {
      out->push_back(InvalidValue(at, def, "must result in valid metadata: " + Rendered(*e)));
    } else if (auto errs = ValidateEmbeddedResources(resource, obj, "", true, embedded_); !errs.empty()) {
      out->push_back(InvalidValue(at, def, "must result in valid metadata: " + Aggregate(errs)));
    } else {
      auto verrs = ValidateOpenAPI(s, def, at, OpenAPISource::kStructural);
      out->insert(out->end(), verrs.begin(), verrs.end());
    }
  }

  const DefaultValidationOptions& options_;
  ValidateOptions embedded_;
};

}  // namespace

bool HasUnprunedDefaults(const Schema& root) {
  // Nodes repeat in shared subgraphs only for built-in definitions; CRD schemas are trees.
  std::vector<std::pair<const Schema*, bool>> todo = {{&root, true}};
  while (!todo.empty()) {
    auto [s, is_root] = todo.back();
    todo.pop_back();
    if (const json* def = s->Default()) {
      json pruned = *def;
      PruneOptions options;
      options.resource_root = is_root || s->EmbeddedResource();
      Prune(s, &pruned, options);
      if (!GoDeepEqual(pruned, *def)) return true;
    }
    if (s->type() == Schema::Type::kArray || s->type() == Schema::Type::kMap) {
      if (s->Items() != nullptr) todo.emplace_back(s->Items(), false);
    } else if (s->type() == Schema::Type::kObject) {
      for (const auto& name : s->FieldNames()) todo.emplace_back(s->Field(name), false);
    }
  }
  return false;
}

FieldErrors ValidateDefaults(const Schema& root, const std::string& path, const DefaultValidationOptions& options) {
  FieldErrors out;
  DefaultsChecker(options).Check(root, path, &root, {}, false, true, &out);
  return out;
}

}  // namespace kube::schema
