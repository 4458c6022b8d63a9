// The Swagger 2.0 document of /openapi/v2 in gnostic's protobuf form (message openapi.v2.Document
// of github.com/google/gnostic-models/openapiv2), which kube-openapi serves for
// Accept: application/com.github.proto-openapi.spec.v2[@.]v1.0+protobuf and client-go's
// discovery OpenAPISchema() parses.
//
// The mapping follows gnostic's compiler over the JSON document: fields are written in
// field-number order, object members (definitions, properties, paths, responses, ...) as repeated
// Named* messages in the JSON's member order, proto3 zero scalars omitted, sub-messages written
// whenever their JSON key is present. Every `x-` key becomes a NamedAny whose Any.yaml is the
// value written as YAML the way gnostic does (yaml.v3 with styles cleared: block style, indent
// 4, strings quoted only where plain YAML would change their meaning): the
// x-kubernetes-group-version-kind of a definition is "- group: apps\n  kind: Deployment\n  ...".
// default, enum and example values are Any messages the same way. Keys gnostic has no field
// for (OpenAPI v3 keywords left in a CRD schema) are skipped.
//
// Thread-safety: a pure function.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "util/status.h"

namespace kube::protobuf {

// The gnostic content types kube-openapi answers /openapi/v2 with (the second, deprecated one is
// an accepted request alias; answers always carry the first).
inline constexpr std::string_view kOpenApiV2ProtoType = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";
inline constexpr std::string_view kOpenApiV2ProtoTypeAlias =
    "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";

// Encodes a Swagger 2.0 document (a JSON object) as an openapi.v2.Document message.
// BadRequest when `swagger` is not an object.
Result<std::string> EncodeOpenApiV2(const nlohmann::json& swagger);

// The YAML gnostic stores in an Any for a JSON value (exposed for tests).
std::string OpenApiV2Yaml(const nlohmann::json& value);

}  // namespace kube::protobuf
