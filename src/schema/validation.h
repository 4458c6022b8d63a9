// Validation of a value against its schema, as kube validates custom resources on create and
// update (apiextensions-apiserver's customResourceStrategy, schema part):
//  1. the OpenAPI checks (kube-openapi): type, nullable, enum, format, pattern, lengths, bounds,
//     multipleOf, item and property counts, uniqueItems, required, allOf/anyOf/oneOf/not;
//  2. embedded resources (x-kubernetes-embedded-resource): apiVersion and kind required and
//     well-formed, metadata an object (and, through a hook, valid ObjectMeta);
//  3. x-kubernetes-list-type set / map: items / map keys unique (Duplicate value).
// Errors come in that order with kube's cause types, field paths and messages, e.g.
//   spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"
//   spec.x: Required value
//   spec.x: Unsupported value: "a": supported values: "b", "c"
// The root's own metadata and apiVersion/kind are the caller's (registry) to validate, as in
// kube. x-kubernetes-validations (CEL) are not evaluated here.
//
// Run it after Prune and Default (prune.h, defaulting.h).
//
// Thread-safety: pure function; the hook is called on the calling thread.
#pragma once

#include <functional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "schema/schema.h"
#include "util/field_error.h"

namespace kube::schema {

struct ValidateOptions {
  // Where the value sits: every error path starts with it ("status" when a status is validated
  // alone). Empty (the default): the value is the object itself, and errors about it as a whole
  // get kube's "<nil>" path.
  std::string path;
  // Validates the metadata of an embedded resource as kube validates ObjectMeta on create, given
  // the metadata object and its path ("spec.template.metadata"); an empty name must pass (kube
  // checks embedded metadata with a placeholder name). Unset (the default): only the metadata's
  // shape is checked.
  std::function<FieldErrors(const nlohmann::json& metadata, const std::string& path)> embedded_metadata;
  // The stored object, on update (kube's validation ratcheting, on in 1.36): OpenAPI errors in
  // values equal to their counterpart in `old` are dropped (fields and map entries correlate by
  // key, list-type map items by their keys, other list items not at all), and list-type
  // uniqueness is checked only when `old` satisfied it. nullptr (the default): a create.
  const nlohmann::json* old = nullptr;
};

FieldErrors Validate(const Schema& schema, const nlohmann::json& value, const ValidateOptions& options = {});

// Part 2 alone: the embedded resources below `value`; with `resource_root` the value itself is
// one too (as kube checks defaults of an embedded-resource node). Used by default_validation.
FieldErrors ValidateEmbeddedResources(const Schema& schema, const nlohmann::json& value, const std::string& path,
                                      bool resource_root, const ValidateOptions& options);

}  // namespace kube::schema
