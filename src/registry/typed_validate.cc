// smd's validation of a value against its type (typed_value.h ValidateTyped), with its messages.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>

#include "registry/typed_nodes.h"
#include "registry/typed_value.h"
#include "util/go_format.h"

namespace kube::registry {

using nlohmann::json;
using catalogue::Schema;
using namespace typed;

namespace {

// --- Go's renderings of a decoded value, for smd's messages.

std::string GoV(const json& v) {
  if (v.is_null()) return "<nil>";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number()) return GoFormatFloat(v.get<double>());
  std::string out;
  if (v.is_array()) {
    for (const auto& item : v) out += (out.empty() ? "" : " ") + GoV(item);
    return "[" + out + "]";
  }
  for (const auto& [k, item] : v.items()) out += (out.empty() ? "" : " ") + k + ":" + GoV(item);
  return "map[" + out + "]";
}

std::string GoSharpV(const json& v) {
  if (v.is_null()) return "interface {}(nil)";
  if (v.is_string()) return GoQuote(v.get<std::string>());
  if (v.is_boolean() || v.is_number()) return GoV(v);
  std::string out;
  if (v.is_array()) {
    for (const auto& item : v) out += (out.empty() ? "" : ", ") + GoSharpV(item);
    return "[]interface {}{" + out + "}";
  }
  for (const auto& [k, item] : v.items()) out += (out.empty() ? "" : ", ") + GoQuote(k) + ":" + GoSharpV(item);
  return "map[string]interface {}{" + out + "}";
}

std::string GoType(const json& v) {
  if (v.is_null()) return "<nil>";
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "bool";
  if (v.is_number()) return "float64";
  return v.is_array() ? "[]interface {}" : "map[string]interface {}";
}

// --- validation

struct Validator {
  bool allow_duplicates = false;
  std::vector<std::string> errors;
  // The path to the current node, rendered only for an error.
  struct Step {
    const std::string* field = nullptr;
    const PathElement* entry = nullptr;
    size_t index = 0;
  };
  std::vector<Step> path;

  void Error(const std::string& message) {
    std::string where;
    for (const Step& step : path) {
      if (step.field != nullptr) {
        where += "." + *step.field;
      } else if (step.entry != nullptr) {
        where += step.entry->String();
      } else {
        where += "[" + std::to_string(step.index) + "]";
      }
    }
    errors.push_back(where.empty() ? message : where + ": " + message);
  }

  void Scalar(const Schema* s, const json& v) {
    switch (s->type()) {
      case Schema::Type::kString:
      case Schema::Type::kTime:
        if (!v.is_string()) Error("expected string, got &value.valueUnstructured{Value:" + GoSharpV(v) + "}");
        break;
      case Schema::Type::kInteger:
      case Schema::Type::kNumber:
        if (!v.is_number()) Error("expected numeric (int or float), got " + GoType(v));
        break;
      case Schema::Type::kBoolean:
        if (!v.is_boolean()) Error("expected boolean, got &{" + GoV(v) + "}");
        break;
      default:
        if (v.is_object() || v.is_array()) Error("expected any scalar, got &{" + GoV(v) + "}");
    }
  }

  void Walk(const Schema* s, const json& v, At at) {
    if (v.is_null() || s == nullptr || s->type() == Schema::Type::kAny) return;  // deduced: anything goes
    const Schema::Type type = s->type();
    if (type == Schema::Type::kObject || type == Schema::Type::kMap) {
      if (!v.is_object()) return Error("expected map, got &{" + GoV(v) + "}");
      for (const auto& [k, item] : v.items()) {
        if (Skipped(at, k)) continue;
        const Schema* child = type == Schema::Type::kObject ? s->Field(k) : s->Items();
        path.push_back({.field = &k});
        if (child == nullptr && type == Schema::Type::kObject && !s->PreserveUnknownFields()) {
          // smd stops at the first field a struct does not declare.
          Error("field not declared in schema");
          path.pop_back();
          return;
        }
        Walk(child, item, Below(at, k));
        path.pop_back();
      }
      return;
    }
    if (type == Schema::Type::kArray) {
      if (!v.is_array()) return Error("expected list, got &{" + GoV(v) + "}");
      const Shape shape = ShapeOf(s, v);
      std::vector<PathElement> seen;
      for (size_t i = 0; i < v.size(); ++i) {
        std::optional<PathElement> e;
        if (IsList(shape)) {
          auto element = EntryElement(s, shape, v[i]);
          if (!element.ok()) return Error("element " + std::to_string(i) + ": " + element.status().message());
          e = std::move(*element);
          if (!allow_duplicates && std::find(seen.begin(), seen.end(), *e) != seen.end()) {
            Error("duplicate entries for key " + e->String());
          }
          seen.push_back(*e);
        }
        path.push_back(e ? Step{.entry = &*e} : Step{.index = i});
        Walk(s->Items(), v[i], At::kInner);
        path.pop_back();
      }
      return;
    }
    Scalar(s, v);
  }
};

}  // namespace

Status ValidateTyped(const Schema* schema, const json& value, bool allow_duplicates) {
  Validator v{.allow_duplicates = allow_duplicates};
  v.Walk(schema, value, At::kRoot);
  if (v.errors.empty()) return Status::OK();
  if (v.errors.size() == 1) return Status::BadRequest(v.errors[0]);
  std::string message = "errors:";
  for (const auto& e : v.errors) message += "\n  " + e;
  return Status::BadRequest(message);
}

}  // namespace kube::registry
