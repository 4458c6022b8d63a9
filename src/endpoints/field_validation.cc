#include "endpoints/field_validation.h"

#include <nlohmann/json.hpp>

namespace kube::endpoints {

namespace {

using catalogue::Schema;

void Prune(const Schema* schema, nlohmann::json* value, const std::string& path,
           std::vector<std::string>* unknown) {
  if (schema == nullptr || value->is_null()) return;
  switch (schema->type()) {
    case Schema::Type::kObject: {
      if (!value->is_object()) return;
      std::vector<std::string> drop;
      for (auto it = value->begin(); it != value->end(); ++it) {
        const std::string field_path = path.empty() ? it.key() : path + "." + it.key();
        const Schema* field = schema->Field(it.key());
        if (field == nullptr) {
          drop.push_back(it.key());
          unknown->push_back(field_path);
        } else {
          Prune(field, &it.value(), field_path, unknown);
        }
      }
      for (const auto& key : drop) value->erase(key);
      return;
    }
    case Schema::Type::kMap:
      if (!value->is_object()) return;
      for (auto it = value->begin(); it != value->end(); ++it) {
        Prune(schema->Items(), &it.value(), path + "[" + it.key() + "]", unknown);
      }
      return;
    case Schema::Type::kArray:
      if (!value->is_array()) return;
      for (size_t i = 0; i < value->size(); ++i) {
        Prune(schema->Items(), &(*value)[i], path + "[" + std::to_string(i) + "]", unknown);
      }
      return;
    default:
      return;  // scalars and free-form values have no fields to check
  }
}

}  // namespace

std::vector<std::string> PruneUnknownFields(const catalogue::Schema* schema, nlohmann::json* obj) {
  std::vector<std::string> unknown;
  Prune(schema, obj, "", &unknown);
  return unknown;
}

}  // namespace kube::endpoints
