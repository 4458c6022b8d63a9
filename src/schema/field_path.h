// Internal helpers of kube_schema for field error paths and values, rendered as apimachinery's
// field.Path does: Child joins with ".", Key and Index append "[...]".
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "schema/go_values.h"
#include "util/field_error.h"

namespace kube::schema {

inline std::string ChildPath(const std::string& base, std::string_view name) {
  return base.empty() ? std::string(name) : base + "." + std::string(name);
}
inline std::string IndexPath(const std::string& base, size_t i) { return base + "[" + std::to_string(i) + "]"; }
inline std::string KeyPath(const std::string& base, std::string_view k) { return base + "[" + std::string(k) + "]"; }

inline FieldError InvalidValue(std::string field, const nlohmann::json& value, std::string detail) {
  return FieldError{FieldError::Type::kInvalid, std::move(field), GoValue(value), std::move(detail)};
}

// The error Go's JSON decoder gives for a non-object where ObjectMeta goes.
inline std::string ObjectMetaDecodeError(const nlohmann::json& v) {
  const char* type = v.is_string() ? "string" : v.is_boolean() ? "bool" : v.is_number() ? "number" : "array";
  return std::string("json: cannot unmarshal ") + type + " into Go value of type v1.ObjectMeta";
}

}  // namespace kube::schema
