#include "util/field_error.h"

#include <cstdio>

namespace kube {

namespace {

std::string_view TypeString(FieldError::Type t) {
  switch (t) {
    case FieldError::Type::kNotFound: return "Not found";
    case FieldError::Type::kRequired: return "Required value";
    case FieldError::Type::kDuplicate: return "Duplicate value";
    case FieldError::Type::kInvalid: return "Invalid value";
    case FieldError::Type::kNotSupported: return "Unsupported value";
    case FieldError::Type::kForbidden: return "Forbidden";
    case FieldError::Type::kTooLong: return "Too long";
    case FieldError::Type::kTooMany: return "Too many";
    case FieldError::Type::kTooFew: return "Too few";
    case FieldError::Type::kTooShort: return "Too short";
    case FieldError::Type::kInternal: return "Internal error";
    case FieldError::Type::kTypeInvalid: return "Invalid value";
  }
  return "Invalid value";
}

}  // namespace

std::string_view FieldError::CauseType() const {
  switch (type) {
    case Type::kNotFound: return "FieldValueNotFound";
    case Type::kRequired: return "FieldValueRequired";
    case Type::kDuplicate: return "FieldValueDuplicate";
    case Type::kInvalid: return "FieldValueInvalid";
    case Type::kNotSupported: return "FieldValueNotSupported";
    case Type::kForbidden: return "FieldValueForbidden";
    case Type::kTooLong: return "FieldValueTooLong";
    case Type::kTooMany: return "FieldValueTooMany";
    case Type::kTooFew: return "FieldValueTooFew";
    case Type::kTooShort: return "FieldValueTooShort";
    case Type::kInternal: return "InternalError";
    case Type::kTypeInvalid: return "FieldValueTypeInvalid";
  }
  return "FieldValueInvalid";
}

std::string FieldError::Body() const {
  std::string body(TypeString(type));
  // Kube leaves the value out for the types whose message never shows one.
  const bool shows_value = type != Type::kRequired && type != Type::kForbidden &&
                           type != Type::kTooLong && type != Type::kInternal;
  if (shows_value && !value.empty()) body += ": " + value;
  if (!detail.empty()) body += ": " + detail;
  return body;
}

}  // namespace kube
