// A schema-less reader of the protobuf text format (what cel-spec's *.textproto test files are
// written in): the document becomes a tree of fields, each either a scalar token or a nested
// message, without knowing the .proto. The caller interprets names and scalars against the
// message it expects (conformance_value.h, runner.cc).
//
// Accepted syntax (protobuf's text format as `protoc --decode` writes and reads it):
//   - `name: scalar`, `name { ... }`, `name: { ... }`, `name < ... >`, and list values
//     `name: [a, b]` / `name [{...}, {...}]` (each element becomes one repeated field);
//   - extension and Any names in brackets: `[type.googleapis.com/google.protobuf.Duration] {...}`;
//   - fields optionally separated by `,` or `;`; `#` comments to the end of the line;
//   - strings in single or double quotes, adjacent literals concatenated, with the escapes
//     \a \b \f \n \r \t \v \\ \' \" \?, octal \ooo, hex \xhh, and \uXXXX / \UXXXXXXXX (written
//     as UTF-8): a string's value is its raw bytes, so it serves both string and bytes fields;
//   - numbers (decimal, hex, octal, floats with exponents, `inf`, `nan`, a leading `-`) and
//     identifiers (enum values, true/false) are kept as their token text.
//
// Thread-safety: pure functions over immutable trees.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace kube::textproto {

struct Message;

struct Field {
  enum class Kind { kString, kNumber, kIdentifier, kMessage };
  std::string name;  // as written; bracketed names keep their brackets stripped: "type.googleapis.com/..."
  bool bracketed = false;
  Kind kind = Kind::kNumber;
  std::string scalar;                // kString: the decoded bytes; kNumber/kIdentifier: the token
  std::shared_ptr<Message> message;  // kMessage
  int line = 0;                      // 1-based line of the field name, for messages
};

struct Message {
  std::vector<Field> fields;  // in document order

  // The last field called `name` (text format lets a later singular field override), or nullptr.
  const Field* Find(std::string_view name) const;
  // Every field called `name`, in order (a repeated field).
  std::vector<const Field*> FindAll(std::string_view name) const;
  // The message of field `name`, or nullptr when absent or not a message.
  const Message* FindMessage(std::string_view name) const;
  // The scalar of field `name`, or `fallback` when absent.
  std::string Scalar(std::string_view name, std::string_view fallback = "") const;
};

// Parses a whole document. Errors: 400 BadRequest "line N: ...".
Result<Message> Parse(std::string_view text);

// Numeric scalars: whether `token` is a valid integer / floating token of the text format, and
// its value.
bool ParseInt64(std::string_view token, int64_t* out);
bool ParseUint64(std::string_view token, uint64_t* out);
bool ParseDouble(std::string_view token, double* out);

}  // namespace kube::textproto
