#include "apiextensions/field_errors.h"

#include "util/go_format.h"

namespace kube::apiextensions {

std::string FormatFieldError(const FieldError& e) { return e.field + ": " + e.Body(); }

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
