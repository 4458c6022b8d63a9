#include "cel/lexer.h"

#include <array>

namespace kube::cel::internal {

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHex(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool IsIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || IsDigit(c); }
int HexValue(char c) { return IsDigit(c) ? c - '0' : (c | 0x20) - 'a' + 10; }

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    *out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out += static_cast<char>(0xC0 | (cp >> 6));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *out += static_cast<char>(0xE0 | (cp >> 12));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    *out += static_cast<char>(0xF0 | (cp >> 18));
    *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Longest first, so that "<=" wins over "<".
constexpr std::array<std::string_view, 24> kPunctuation = {
    "==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "+", "-", "*", "/", "%", "?", ":", ".",
    ",", "(", ")", "[", "]", "{", "}"};

}  // namespace

bool IsReserved(std::string_view name) {
  static constexpr std::array<std::string_view, 16> kReserved = {
      "as",   "break",     "const",   "continue", "else",   "for",  "function", "if",
      "import", "let", "loop", "package", "namespace", "return", "var", "void"};
  for (auto r : kReserved) {
    if (r == name) return true;
  }
  return name == "while";
}

Token Lexer::Error(size_t at, std::string message) {
  Token t;
  t.kind = TokenKind::kError;
  t.offset = static_cast<int32_t>(at);
  t.text = src_.substr(at, 1);
  t.value = std::move(message);
  pos_ = src_.size();  // one lexical error ends the token stream
  return t;
}

void Lexer::SkipSpaceAndComments() {
  while (pos_ < src_.size()) {
    const char c = src_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '/') {
      while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
    } else {
      return;
    }
  }
}

Token Lexer::Next() {
  SkipSpaceAndComments();
  Token t;
  t.offset = static_cast<int32_t>(pos_);
  if (pos_ >= src_.size()) {
    t.kind = TokenKind::kEof;
    t.text = "<EOF>";
    return t;
  }
  const size_t start = pos_;
  const char c = src_[pos_];
  if (IsDigit(c) || (c == '.' && pos_ + 1 < src_.size() && IsDigit(src_[pos_ + 1]))) return Number();
  if (c == '"' || c == '\'') return Quoted(start, false, false);
  if (IsIdentStart(c)) {
    // String and bytes prefixes: r, b, rb, br (either case) directly before a quote.
    size_t p = pos_;
    bool raw = false, bytes = false;
    for (int i = 0; i < 2 && p < src_.size(); ++i) {
      const char lc = static_cast<char>(src_[p] | 0x20);
      if (lc == 'r' && !raw) {
        raw = true;
      } else if (lc == 'b' && !bytes) {
        bytes = true;
      } else {
        break;
      }
      ++p;
      if (p < src_.size() && (src_[p] == '"' || src_[p] == '\'')) {
        pos_ = p;
        return Quoted(start, raw, bytes);
      }
    }
    while (pos_ < src_.size() && IsIdentChar(src_[pos_])) ++pos_;
    t.kind = TokenKind::kIdent;
    t.text = src_.substr(start, pos_ - start);
    return t;
  }
  if (c == '`') {
    // A quoted identifier in a field selection: `a.b-c` (cel-spec's escaped field names).
    const size_t end = src_.find('`', pos_ + 1);
    if (end == std::string_view::npos) return Error(start, "Syntax error: token recognition error at: '`'");
    t.kind = TokenKind::kIdent;
    t.text = src_.substr(start, end + 1 - start);
    t.value = std::string(src_.substr(start + 1, end - start - 1));
    pos_ = end + 1;
    return t;
  }
  for (auto p : kPunctuation) {
    if (src_.substr(pos_, p.size()) == p) {
      pos_ += p.size();
      t.kind = TokenKind::kPunct;
      t.text = src_.substr(start, p.size());
      return t;
    }
  }
  // ANTLR names the offending character (a whole UTF-8 sequence) in its message.
  size_t len = 1;
  while (start + len < src_.size() && (static_cast<unsigned char>(src_[start + len]) & 0xC0) == 0x80) ++len;
  return Error(start, "Syntax error: token recognition error at: '" + std::string(src_.substr(start, len)) + "'");
}

Token Lexer::Number() {
  Token t;
  const size_t start = pos_;
  t.offset = static_cast<int32_t>(start);
  if (src_[pos_] == '0' && pos_ + 1 < src_.size() && (src_[pos_ + 1] | 0x20) == 'x') {
    pos_ += 2;
    const size_t digits = pos_;
    while (pos_ < src_.size() && IsHex(src_[pos_])) ++pos_;
    if (pos_ == digits) return Error(start, "Syntax error: token recognition error at: '0x'");
    t.text = src_.substr(start, pos_ - start);
    t.kind = TokenKind::kInt;
    if (pos_ < src_.size() && (src_[pos_] | 0x20) == 'u') {
      ++pos_;
      t.kind = TokenKind::kUint;
    }
    return t;
  }
  bool is_double = false;
  while (pos_ < src_.size() && IsDigit(src_[pos_])) ++pos_;
  if (pos_ + 1 < src_.size() && src_[pos_] == '.' && IsDigit(src_[pos_ + 1])) {
    is_double = true;
    ++pos_;
    while (pos_ < src_.size() && IsDigit(src_[pos_])) ++pos_;
  }
  if (pos_ < src_.size() && (src_[pos_] | 0x20) == 'e') {
    size_t p = pos_ + 1;
    if (p < src_.size() && (src_[p] == '+' || src_[p] == '-')) ++p;
    if (p < src_.size() && IsDigit(src_[p])) {
      while (p < src_.size() && IsDigit(src_[p])) ++p;
      pos_ = p;
      is_double = true;
    }
  }
  t.text = src_.substr(start, pos_ - start);
  if (is_double) {
    t.kind = TokenKind::kDouble;
    return t;
  }
  t.kind = TokenKind::kInt;
  if (pos_ < src_.size() && (src_[pos_] | 0x20) == 'u') {
    ++pos_;
    t.kind = TokenKind::kUint;
  }
  return t;
}

Token Lexer::Quoted(size_t start, bool raw, bool bytes) {
  const char q = src_[pos_];
  const bool triple = src_.substr(pos_, 3) == std::string(3, q);
  pos_ += triple ? 3 : 1;
  Token t;
  t.offset = static_cast<int32_t>(start);
  t.kind = bytes ? TokenKind::kBytes : TokenKind::kString;
  std::string out;
  auto unterminated = [&] { return Error(start, "Syntax error: token recognition error at: '" + std::string(src_.substr(start, pos_ - start)) + "'"); };
  while (true) {
    if (pos_ >= src_.size()) return unterminated();
    const char c = src_[pos_];
    if (triple ? src_.substr(pos_, 3) == std::string(3, q) : c == q) {
      pos_ += triple ? 3 : 1;
      break;
    }
    if (!triple && (c == '\n' || c == '\r')) return unterminated();
    if (c != '\\' || raw) {
      out += c;
      ++pos_;
      continue;
    }
    // An escape sequence.
    const size_t esc = pos_;
    if (++pos_ >= src_.size()) return unterminated();
    const char e = src_[pos_++];
    auto bad = [&] { return Error(esc, "Syntax error: token recognition error at: '" + std::string(src_.substr(start, pos_ - start)) + "'"); };
    switch (e) {
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case '\\': case '?': case '"': case '\'': case '`': out += e; break;
      case 'x': case 'X': case 'u': case 'U': {
        const int n = (e == 'x' || e == 'X') ? 2 : (e == 'u' ? 4 : 8);
        if (bytes && n > 2) return bad();
        uint32_t cp = 0;
        for (int i = 0; i < n; ++i) {
          if (pos_ >= src_.size() || !IsHex(src_[pos_])) return bad();
          cp = cp * 16 + HexValue(src_[pos_++]);
        }
        if (bytes) {
          out += static_cast<char>(cp);
        } else {
          if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return bad();
          AppendUtf8(cp, &out);
        }
        break;
      }
      default:
        if (e >= '0' && e <= '3') {
          uint32_t v = e - '0';
          for (int i = 0; i < 2; ++i) {
            if (pos_ >= src_.size() || src_[pos_] < '0' || src_[pos_] > '7') return bad();
            v = v * 8 + (src_[pos_++] - '0');
          }
          if (bytes) {
            out += static_cast<char>(v);
          } else {
            AppendUtf8(v, &out);
          }
          break;
        }
        return bad();
    }
  }
  t.text = src_.substr(start, pos_ - start);
  t.value = std::move(out);
  return t;
}

}  // namespace kube::cel::internal
