// The results of kube-openapi's validator (validate.Result and its errors) and apiextensions'
// translation of them into field errors (kubeOpenAPIResultToFieldErrors). Internal to
// kube_schema's OpenAPI validation (openapi_validation.h).
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/field_error.h"

namespace kube::schema {

// kube-openapi's error codes, as far as apiextensions tells them apart.
enum class Code {
  kComposite,  // allOf/anyOf/oneOf/not: not a *Validation error
  kPlain,      // numeric range errors: plain Go errors
  kInvalidType,
  kRequired,
  kTooLong,
  kEnum,
  kMaxItems,
  kTooManyProperties,
  kOther,  // every other *Validation: reported as Invalid
};

struct Issue {
  Code code = Code::kOther;
  std::string name;  // the value's path as kube-openapi writes it
  std::string message;
  nlohmann::json value;        // null: Go's nil
  int64_t limit = -1;
  const nlohmann::json* values = nullptr;  // enum
};

// validate.Result: errors unique by message, and the match count anyOf/oneOf pick failures by.
struct Result {
  std::vector<Issue> errors;
  int match_count = 0;

  bool valid() const { return errors.empty(); }
  void Add(Issue e) {
    for (const auto& x : errors) {
      if (x.message == e.message) return;
    }
    errors.push_back(std::move(e));
  }
  Result& Merge(Result other) {
    for (auto& e : other.errors) Add(std::move(e));
    match_count += other.match_count;
    return *this;
  }
  void Inc() { ++match_count; }
};

inline Result Failed(Issue e) {
  Result r;
  r.errors.push_back(std::move(e));
  return r;
}

inline Issue Make(Code code, std::string name, std::string message, nlohmann::json value = nullptr, int64_t limit = -1) {
  return Issue{code, std::move(name), std::move(message), std::move(value), limit, nullptr};
}

// errors.InvalidType: the value is shown (quoted) only when it is a string.
Issue InvalidType(const std::string& path, std::string_view type_name, const nlohmann::json& value);

inline Issue Composite(std::string message) { return Make(Code::kComposite, "", std::move(message)); }

// One error as a field error: `root` is the path the validated value sits at (empty: "<nil>").
FieldError ToFieldError(const Issue& e, const std::string& root);

}  // namespace kube::schema
