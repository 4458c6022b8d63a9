#include "storage/selection_predicate.h"

#include <nlohmann/json.hpp>

namespace kube::storage {

Attrs DefaultAttrs(const nlohmann::json& object) {
  Attrs attrs;
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return attrs;
  auto labels = meta->find("labels");
  if (labels != meta->end() && labels->is_object()) {
    for (const auto& [k, v] : labels->items()) {
      if (v.is_string()) attrs.labels.emplace(k, v.get<std::string>());
    }
  }
  for (const char* field : {"name", "namespace"}) {
    auto it = meta->find(field);
    attrs.fields.emplace(std::string("metadata.") + field,
                         it != meta->end() && it->is_string() ? it->get<std::string>() : "");
  }
  return attrs;
}

Attrs SelectionPredicate::GetAttrs(const nlohmann::json& object) const {
  return get_attrs ? get_attrs(object) : DefaultAttrs(object);
}

bool SelectionPredicate::MatchesAttrs(const Attrs& attrs) const {
  return label.Matches(attrs.labels) && field.Matches(attrs.fields);
}

bool SelectionPredicate::Matches(const nlohmann::json& object) const {
  return Empty() || MatchesAttrs(GetAttrs(object));
}

std::optional<std::string> SelectionPredicate::MatchesSingleName() const {
  return field.RequiresExactMatch("metadata.name");
}

}  // namespace kube::storage
