// One field-level validation error as kube reports it (k8s.io/apimachinery's field.Error): the
// cause type, the field path, the offending value and a detail, rendered exactly as kube renders
// them in a 422 Invalid status ("spec.size: Invalid value: 5: must be at most 3").
//
// Thread-safety: plain values and pure functions.
#pragma once

#include "util/go_format.h"  // GoQuote, for rendering field error values

#include <string>
#include <string_view>
#include <vector>

namespace kube {

struct FieldError {
  enum class Type {
    kNotFound,      // FieldValueNotFound     "Not found"
    kRequired,      // FieldValueRequired     "Required value" (value never shown)
    kDuplicate,     // FieldValueDuplicate    "Duplicate value"
    kInvalid,       // FieldValueInvalid      "Invalid value"
    kNotSupported,  // FieldValueNotSupported "Unsupported value"
    kForbidden,     // FieldValueForbidden    "Forbidden" (value never shown)
    kTooLong,       // FieldValueTooLong      "Too long" (value never shown)
    kTooMany,       // FieldValueTooMany      "Too many"
    kTooFew,        // FieldValueTooFew       "Too few"
    kTooShort,      // FieldValueTooShort     "Too short"
    kInternal,      // InternalError          "Internal error" (value never shown)
    kTypeInvalid,   // FieldValueTypeInvalid  "Invalid value"
  };
  Type type = Type::kInvalid;
  // "metadata.name"; kube writes "<nil>" for an error without a path, callers that want that
  // rendering put it here.
  std::string field;
  // Rendered already, as kube prints field.Error.BadValue (Go-quoted strings, JSON for objects);
  // empty when not shown.
  std::string value;
  std::string detail;

  // field.Error.ErrorBody(): "Invalid value: 5: must be at most 3".
  std::string Body() const;
  // The StatusCause reason: "FieldValueInvalid".
  std::string_view CauseType() const;
};
using FieldErrors = std::vector<FieldError>;


}  // namespace kube
