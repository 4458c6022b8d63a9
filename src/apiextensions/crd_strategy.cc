#include "apiextensions/crd_strategy.h"

#include <nlohmann/json.hpp>

#include "apiextensions/crd_conditions.h"
#include "apiextensions/crd_defaults.h"
#include "apiextensions/crd_validation.h"
#include "schema/default_validation.h"
#include "schema/graph.h"

namespace kube::apiextensions {

namespace {

// Defaults are checked by the schema model against the schema they sit in.
FieldErrors ValidateSchemaDefaults(const nlohmann::json& openapi, const FieldPath& path, bool require_pruned) {
  auto graph = schema::SchemaGraph::FromOpenAPIV3(openapi);
  if (!graph.ok()) {
    return {FieldError{FieldError::Type::kInvalid, path.str(), "", graph.status().message()}};
  }
  return schema::ValidateDefaults(*(*graph)->Root(), path.str(),
                                  schema::DefaultValidationOptions{.require_pruned = require_pruned});
}

// A stored CRD may keep defaults that pruning would change (kube's requirePrunedDefaults).
bool HasUnprunedDefaults(const nlohmann::json& openapi) {
  auto graph = schema::SchemaGraph::FromOpenAPIV3(openapi);
  return graph.ok() && schema::HasUnprunedDefaults(*(*graph)->Root());
}

CrdValidationOptions Options() {
  CrdValidationOptions options;
  options.validate_defaults = ValidateSchemaDefaults;
  options.has_unpruned_defaults = HasUnprunedDefaults;
  return options;
}

}  // namespace

void CrdStrategy::PrepareForCreate(storage::Object* obj) const {
  SetDefaults(obj);
  apiextensions::PrepareForCreate(obj);
}

void CrdStrategy::PrepareForUpdate(std::string_view subresource, storage::Object* next,
                                   const storage::Object& current) const {
  if (subresource == "status") {
    PrepareForStatusUpdate(next, current);
    return;
  }
  SetDefaults(next);
  apiextensions::PrepareForUpdate(next, current);
}

registry::FieldErrors CrdStrategy::Validate(const storage::Object& obj) const {
  return (ValidateCustomResourceDefinition(obj, Options()));
}

registry::FieldErrors CrdStrategy::ValidateUpdate(std::string_view subresource, const storage::Object& obj,
                                                  const storage::Object& old, std::vector<std::string>*) const {
  if (subresource == "status") return (ValidateCustomResourceDefinitionStatusUpdate(obj, old));
  return (ValidateCustomResourceDefinitionUpdate(obj, old, Options()));
}

std::vector<std::string> CrdStrategy::FinalizersOnDelete(const storage::Object& obj) const {
  return {std::string(kCleanupFinalizer)};
}

}  // namespace kube::apiextensions
