// cel.ValidFieldPath: resolves a JSON path made of field accessors (`.spec.replicas`,
// `.spec['dotted.key']`) against a structural schema, as kube checks selectableFields and the
// fieldPath of x-kubernetes-validations rules.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace kube::apiextensions {

struct SchemaFieldPath {
  std::string error;                   // kube's error text ("does not refer to a valid field"); "" when valid
  std::string path;                    // field.Path rendering ("spec.replicas", "spec[a.b]")
  std::string root;                    // its first element ("spec")
  const nlohmann::json* schema = nullptr;  // the schema the path ends at
};

// `schema` is an openAPIV3Schema node. `allow_array_notation` false rejects `[...]` accessors.
SchemaFieldPath ResolveSchemaFieldPath(std::string_view json_path, const nlohmann::json& schema,
                                       bool allow_array_notation);

}  // namespace kube::apiextensions
