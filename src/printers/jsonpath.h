// client-go's JSONPath templates (k8s.io/client-go/util/jsonpath), as kubectl's `-o jsonpath`
// and kube's CRD additionalPrinterColumns use them: parsing with client-go's error messages, and
// evaluation against a JSON document.
//
// Supported as client-go does: text around `{...}` actions; `$` and `@`; fields `.a`, escaped
// `.a\.b`, quoted keys `['a']` (which client-go re-parses as `.a`, so `['a.b']` means `.a.b`);
// `*` wildcards; `..` recursive descent; indexes and slices `[0]`, `[-1]`, `[1:3]`, `[::2]`,
// `[*]`; unions `[0,2]` / `['a','b']`; filters `[?(@.x)]`, `[?(@.x == "y")]` with
// == != < > <= >=; int, float, bool and quoted-string literals; `range` ... `end` blocks.
//
// Evaluation follows Go's reflection over decoded JSON: a null value is skipped by field, index,
// wildcard and descent steps; iterating a string (wildcard, descent) yields its bytes as
// unsigned integers; comparisons need both sides of the same basic kind (integers with
// integers, floats with floats, strings with strings, bools for == and != only). Go iterates
// maps in random order; here object members come in key order.
//
// Thread-safety: a parsed JsonPath is immutable and may be evaluated from several threads.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace kube::printers {

namespace jsonpath_internal {
struct Node;
}

// One result of a JSONPath step.
class JsonPathValue {
 public:
  JsonPathValue() = default;  // "no value" (Go's invalid reflect.Value)
  static JsonPathValue Of(const nlohmann::json* node) { return JsonPathValue(node, nullptr, false); }
  static JsonPathValue Literal(nlohmann::json v, bool is_byte = false) {
    return JsonPathValue(nullptr, std::make_shared<const nlohmann::json>(std::move(v)), is_byte);
  }
  bool valid() const { return node_ != nullptr || literal_ != nullptr; }
  // REQUIRES: valid().
  const nlohmann::json& get() const { return node_ != nullptr ? *node_ : *literal_; }
  // A byte of a string (Go uint8): compares as unsigned, prints as a number.
  bool is_byte() const { return is_byte_; }

 private:
  JsonPathValue(const nlohmann::json* node, std::shared_ptr<const nlohmann::json> literal, bool is_byte)
      : node_(node), literal_(std::move(literal)), is_byte_(is_byte) {}
  const nlohmann::json* node_ = nullptr;
  std::shared_ptr<const nlohmann::json> literal_;
  bool is_byte_ = false;
};

class JsonPath {
 public:
  // Parses a template. Errors are 400 BadRequest with client-go's message ("unclosed action",
  // "invalid array index x", "unrecognized character in action: U+0023 '#'", ...).
  static Result<JsonPath> Parse(std::string_view text);

  // client-go's FindResults: one list of values per top-level node of the template (a text
  // segment, an action, or each iteration's nodes inside range...end). With
  // `allow_missing_keys` false, a field found nowhere is the error "<name> is not found".
  // Results point into `data`, which must outlive them.
  Result<std::vector<std::vector<JsonPathValue>>> FindResults(const nlohmann::json& data,
                                                              bool allow_missing_keys) const;

  // kubectl -o jsonpath: every result printed (PrintResults) and concatenated.
  Result<std::string> Execute(const nlohmann::json& data, bool allow_missing_keys) const;

  // PrintResults for one value: objects and arrays as Go's json.Marshal, strings as they are,
  // numbers as fmt's %v, null as "null", an invalid value as "<no value>".
  static std::string PrintValue(const JsonPathValue& value);

 private:
  explicit JsonPath(std::shared_ptr<const jsonpath_internal::Node> root) : root_(std::move(root)) {}
  std::shared_ptr<const jsonpath_internal::Node> root_;
};

}  // namespace kube::printers
