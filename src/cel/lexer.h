// The tokens of CEL source (cel-spec "Lexical structure"). Internal to the parser.
//
// Thread-safety: a Lexer is used by one thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kube::cel::internal {

enum class TokenKind : uint8_t {
  kEof,
  kIdent,
  kInt,     // decimal or hex; `text` holds the digits as written (no sign)
  kUint,    // with its `u` suffix removed from `text`
  kDouble,
  kString,  // `value` holds the decoded text
  kBytes,   // `value` holds the decoded bytes
  kPunct,   // `text` is the operator or punctuation: "==", "?", "(" ...
  kError,   // `value` holds the message
};

struct Token {
  TokenKind kind = TokenKind::kEof;
  int32_t offset = 0;
  std::string_view text;  // the token as written
  std::string value;      // decoded literal, or the error message
};

class Lexer {
 public:
  explicit Lexer(std::string_view source) : src_(source) {}
  Token Next();

 private:
  void SkipSpaceAndComments();
  Token Number();
  Token Quoted(size_t start, bool raw, bool bytes);
  Token Error(size_t at, std::string message);

  std::string_view src_;
  size_t pos_ = 0;
};

// Whether `name` is a CEL reserved word that may not be used as an identifier.
bool IsReserved(std::string_view name);

}  // namespace kube::cel::internal
