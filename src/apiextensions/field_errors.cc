#include "apiextensions/field_errors.h"

#include "util/go_format.h"

namespace kube::apiextensions {

namespace {

std::string_view TypeString(FieldError::Type t) {
  switch (t) {
    case FieldError::Type::kRequired: return "Required value";
    case FieldError::Type::kInvalid: return "Invalid value";
    case FieldError::Type::kNotSupported: return "Unsupported value";
    case FieldError::Type::kForbidden: return "Forbidden";
    case FieldError::Type::kTooLong: return "Too long";
    case FieldError::Type::kTooMany: return "Too many";
    case FieldError::Type::kDuplicate: return "Duplicate value";
    case FieldError::Type::kNotFound: return "Not found";
  }
  return "Invalid value";
}

}  // namespace

std::string FormatFieldError(const FieldError& e) {
  std::string out = e.field + ": " + std::string(TypeString(e.type));
  const bool shows_value = e.type != FieldError::Type::kRequired &&
                           e.type != FieldError::Type::kForbidden &&
                           e.type != FieldError::Type::kTooLong;
  if (shows_value && !e.value.empty()) out += ": " + e.value;
  if (!e.detail.empty()) out += ": " + e.detail;
  return out;
}

FieldPath FieldPath::Child(std::string_view name) const {
  return FieldPath(path_.empty() ? std::string(name) : path_ + "." + std::string(name));
}

FieldPath FieldPath::Index(size_t i) const { return FieldPath(path_ + "[" + std::to_string(i) + "]"); }

FieldPath FieldPath::Key(std::string_view key) const {
  return FieldPath(path_ + "[" + std::string(key) + "]");
}

FieldError Required(const FieldPath& path, std::string_view detail) {
  return {FieldError::Type::kRequired, path.str(), "", std::string(detail)};
}

FieldError Forbidden(const FieldPath& path, std::string_view detail) {
  return {FieldError::Type::kForbidden, path.str(), "", std::string(detail)};
}

FieldError InvalidRendered(const FieldPath& path, std::string rendered_value, std::string_view detail) {
  return {FieldError::Type::kInvalid, path.str(), std::move(rendered_value), std::string(detail)};
}

FieldError Invalid(const FieldPath& path, std::string_view string_value, std::string_view detail) {
  return InvalidRendered(path, GoQuote(string_value), detail);
}

FieldError NotSupported(const FieldPath& path, std::string_view string_value,
                        const std::vector<std::string>& supported) {
  std::string detail;
  if (!supported.empty()) {
    detail = "supported values: ";
    for (size_t i = 0; i < supported.size(); ++i) {
      if (i > 0) detail += ", ";
      detail += GoQuote(supported[i]);
    }
  }
  return {FieldError::Type::kNotSupported, path.str(), GoQuote(string_value), std::move(detail)};
}

FieldError Duplicate(const FieldPath& path, std::string_view string_value) {
  return {FieldError::Type::kDuplicate, path.str(), GoQuote(string_value), ""};
}

FieldError TooMany(const FieldPath& path, int actual, int max) {
  return {FieldError::Type::kTooMany, path.str(), std::to_string(actual),
          "must have at most " + std::to_string(max) + (max == 1 ? " item" : " items")};
}

}  // namespace kube::apiextensions
