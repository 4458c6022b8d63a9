// Builds schema nodes (schema.h) from OpenAPI JSON: the one builder for both sources of schema.
//
//  - FromDefinitions: the "definitions" object of an OpenAPI v2 document (the built-in catalogue):
//    named definitions, "$ref": "#/definitions/<name>" between them, cycles allowed. Every
//    definition gets its node before any is filled in, so refs resolve to stable pointers. A field
//    that is a plain $ref shares the definition's node (pointer identity = same type); a $ref with
//    field-level list/patch annotations gets an alias node with the annotations of its own.
//    Free-form nodes (no structure known) preserve unknown fields. date-time strings are kTime.
//  - FromOpenAPIV3: one CRD version's openAPIV3Schema (apiextensions JSONSchemaProps: inline, no
//    $ref). Structure follows the structural-schema rules: properties make an object,
//    additionalProperties a map (true: values of unknown structure that are not preserved),
//    x-kubernetes-int-or-string an int-or-string, a node without structure that sets
//    x-kubernetes-preserve-unknown-fields is kAny. Unknown fields are preserved only where
//    x-kubernetes-preserve-unknown-fields says so.
//
// Both read type, format, properties, required, items, additionalProperties, nullable, default,
// enum, the numeric/length/count keywords, pattern, uniqueItems, allOf/anyOf/oneOf/not and the
// x-kubernetes-* extensions. Unknown keywords (description, example, ...) are ignored: validating
// the schema itself is the CRD validation's job, not this builder's.
//
// Thread-safety: a built graph is immutable; share it freely. Building is single-threaded.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "schema/schema.h"
#include "util/status.h"

namespace kube::schema {

class SchemaGraph {
 public:
  // `definitions`: {name: schema}; `special`: {name: "int-or-string" | "quantity" | "time" |
  // "any"} overrides the type of named definitions; `omit_empty` ({name: [property names]}, or
  // null for none) names the fields Schema::OmitsEmpty reports. The graph points into `definitions`, which
  // must outlive it. Errors (400 BadRequest) name a dangling $ref, an unknown special type or a
  // malformed keyword.
  static Result<std::unique_ptr<SchemaGraph>> FromDefinitions(const nlohmann::json& definitions,
                                                              const nlohmann::json& special,
                                                              const nlohmann::json* omit_empty = nullptr);
  // A CRD version's openAPIV3Schema. The graph keeps its own copy of the JSON (defaults and enums
  // point into it), so it can be freed with the CRD. Errors (400 BadRequest) name a malformed
  // keyword or a $ref.
  static Result<std::unique_ptr<SchemaGraph>> FromOpenAPIV3(const nlohmann::json& schema);

  SchemaGraph(const SchemaGraph&) = delete;
  SchemaGraph& operator=(const SchemaGraph&) = delete;
  ~SchemaGraph();

  // FromOpenAPIV3: the schema's root node. FromDefinitions: nullptr.
  const Schema* Root() const;
  // FromDefinitions: the node of a definition by name, or nullptr.
  const Schema* Definition(std::string_view name) const;
  // The JSON the graph was built from (FromOpenAPIV3: the graph's own copy), e.g. for publishing
  // the schema in OpenAPI documents without keeping a second copy.
  const nlohmann::json& Source() const;
  // FromDefinitions: every definition by name.
  const std::map<std::string, const Schema*, std::less<>>& Definitions() const;

 private:
  struct Impl;
  explicit SchemaGraph(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace kube::schema
