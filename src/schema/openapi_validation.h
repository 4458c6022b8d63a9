// kube-openapi's schema validator (k8s.io/kube-openapi/pkg/validation/validate) over Schema
// nodes, with apiextensions' translation of its results into field errors: the type, value,
// string, format, number, array, enum and object checks and allOf/anyOf/oneOf/not, in kube's
// order, with kube's messages. Internal to kube_schema: validation.h and default_validation.h
// are the public entry points.
//
// Thread-safety: pure function.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "schema/schema.h"
#include "util/field_error.h"

namespace kube::schema {

// How the schema reaches kube's validator.
enum class OpenAPISource {
  // A custom resource's schema as kube converts it for validating objects: int-or-string nodes
  // are typed "integer,string" and formats a CRD may not use are dropped.
  kCustomResource,
  // The structural schema converted back (as for validating defaults): no type on int-or-string
  // nodes, formats as written.
  kStructural,
};

// Errors of `value` against `schema`. `path` is the field path the value sits at; empty means
// the object itself, whose own errors kube reports at "<nil>". `old` (an update): errors of
// values that equal their correlated old value are dropped (kube's validation ratcheting).
FieldErrors ValidateOpenAPI(const Schema& schema, const nlohmann::json& value, const std::string& path,
                            OpenAPISource source, const nlohmann::json* old = nullptr);

}  // namespace kube::schema
