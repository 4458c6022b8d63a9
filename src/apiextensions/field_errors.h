// Field errors (k8s.io/apimachinery field.Error) as the CRD validation reports them, and the
// field.Path rendering kube uses for their `field`.
//
// The struct mirrors registry::FieldError field for field (type, field, value rendered already,
// detail) so that it can become an alias of the shared field error type once that lives in
// util; this layer must not depend on the registry. `value` is empty when the error shows no
// value (Required, Forbidden, TooLong always omit it, as field.Error.ErrorBody does).
//
// Thread-safety: value types and pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kube::apiextensions {

struct FieldError {
  enum class Type {
    kRequired,
    kInvalid,
    kNotSupported,
    kForbidden,
    kTooLong,
    kTooMany,
    kDuplicate,
    kNotFound,
  };
  Type type = Type::kInvalid;
  std::string field;   // "spec.versions[0].name"
  std::string value;   // rendered as kube renders BadValue ("\"v1\"", "true", "[\"a\"]")
  std::string detail;
};
using FieldErrors = std::vector<FieldError>;

// "<field>: <Type string>[: <value>][: <detail>]", i.e. field.Error.Error().
std::string FormatFieldError(const FieldError& e);

// field.Path: Child appends ".name" (just "name" at the root), Index "[i]", Key "[key]".
class FieldPath {
 public:
  FieldPath() = default;
  explicit FieldPath(std::string path) : path_(std::move(path)) {}
  FieldPath Child(std::string_view name) const;
  FieldPath Index(size_t i) const;
  FieldPath Key(std::string_view key) const;
  const std::string& str() const { return path_; }

 private:
  std::string path_;
};

// Constructors named after field.Required, field.Invalid, ... `value` arguments are rendered
// values (see util/go_format.h); the string overloads of Invalid/NotSupported/Duplicate quote.
FieldError Required(const FieldPath& path, std::string_view detail);
FieldError Forbidden(const FieldPath& path, std::string_view detail);
FieldError InvalidRendered(const FieldPath& path, std::string rendered_value, std::string_view detail);
FieldError Invalid(const FieldPath& path, std::string_view string_value, std::string_view detail);
FieldError NotSupported(const FieldPath& path, std::string_view string_value,
                        const std::vector<std::string>& supported);
FieldError Duplicate(const FieldPath& path, std::string_view string_value);
FieldError TooMany(const FieldPath& path, int actual, int max);

inline void Append(FieldErrors* to, FieldErrors from) {
  to->insert(to->end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

}  // namespace kube::apiextensions
