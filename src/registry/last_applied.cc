#include "registry/last_applied.h"

#include <nlohmann/json.hpp>

#include "util/go_format.h"

namespace kube::registry {

using nlohmann::json;
using storage::Object;

namespace {

// kube's total size limit of an object's annotations (keys and values).
constexpr size_t kTotalAnnotationSizeLimit = 256 * 1024;

const json* Annotations(const Object& obj) {
  auto meta = obj.find("metadata");
  if (meta == obj.end() || !meta->is_object()) return nullptr;
  auto annotations = meta->find("annotations");
  return annotations != meta->end() && annotations->is_object() ? &*annotations : nullptr;
}

std::string LastApplied(const Object& obj) {
  const json* annotations = Annotations(obj);
  if (annotations == nullptr) return "";
  auto it = annotations->find(kLastAppliedAnnotation);
  return it != annotations->end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

bool HasLastApplied(const Object& obj) { return !LastApplied(obj).empty(); }

std::optional<FieldSet> AllowedByLastApplied(const Object& live, std::string_view api_version, const MergeCore& core) {
  const std::string text = LastApplied(live);
  if (text.empty()) return std::nullopt;
  json last_applied = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!last_applied.is_object()) return std::nullopt;
  auto version = last_applied.find("apiVersion");
  if (version == last_applied.end() || !version->is_string() || *version != api_version) return std::nullopt;
  auto fields = core.FieldsOf(last_applied);
  if (!fields.ok()) return std::nullopt;
  auto comparison = core.Compare(last_applied, live);
  if (!comparison.ok()) return std::nullopt;
  // What differs between the annotation and the object is no longer kubectl's.
  return fields->Difference(comparison->modified).Difference(comparison->added).Difference(comparison->removed);
}

void UpdateLastApplied(const Object& config, Object* object) {
  if (!HasLastApplied(*object)) return;
  Object applied = config;
  if (auto meta = applied.find("metadata"); meta != applied.end() && meta->is_object()) {
    if (auto annotations = meta->find("annotations"); annotations != meta->end() && annotations->is_object()) {
      annotations->erase(std::string(kLastAppliedAnnotation));
    }
  }
  json& annotations = (*object)["metadata"]["annotations"];
  annotations[std::string(kLastAppliedAnnotation)] = GoJsonMarshal(applied) + "\n";
  size_t total = 0;
  for (const auto& [key, value] : annotations.items()) {
    total += key.size() + (value.is_string() ? value.get_ref<const std::string&>().size() : 0);
  }
  if (total > kTotalAnnotationSizeLimit) annotations.erase(std::string(kLastAppliedAnnotation));
}

}  // namespace kube::registry
