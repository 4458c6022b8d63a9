#include "textproto.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace kube::textproto {

const Field* Message::Find(std::string_view name) const {
  const Field* found = nullptr;
  for (const auto& f : fields) {
    if (f.name == name) found = &f;
  }
  return found;
}

std::vector<const Field*> Message::FindAll(std::string_view name) const {
  std::vector<const Field*> out;
  for (const auto& f : fields) {
    if (f.name == name) out.push_back(&f);
  }
  return out;
}

const Message* Message::FindMessage(std::string_view name) const {
  const Field* f = Find(name);
  return f && f->kind == Field::Kind::kMessage ? f->message.get() : nullptr;
}

std::string Message::Scalar(std::string_view name, std::string_view fallback) const {
  const Field* f = Find(name);
  return f && f->kind != Field::Kind::kMessage ? f->scalar : std::string(fallback);
}

namespace {

bool IsIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || (c >= '0' && c <= '9'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  Result<Message> Document() {
    Message m;
    KUBE_RETURN_IF_ERROR(Fields(&m, '\0'));
    return m;
  }

 private:
  Status Error(std::string what) const { return Status::BadRequest("line " + std::to_string(line_) + ": " + what); }

  void SkipSpace() {
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++pos_;
      } else if (c == '#') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
      } else {
        return;
      }
    }
  }

  bool Consume(char c) {
    SkipSpace();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  char Peek() {
    SkipSpace();
    return pos_ < s_.size() ? s_[pos_] : '\0';
  }

  // Fields up to `close` ('}' or '>'), or the end of input when close is '\0'.
  Status Fields(Message* m, char close) {
    if (++depth_ > kMaxDepth) return Error("messages nested too deeply");
    while (true) {
      const char c = Peek();
      if (c == '\0') {
        if (close != '\0') return Error(std::string("missing '") + close + "'");
        break;
      }
      if (c == close) {
        ++pos_;
        break;
      }
      KUBE_RETURN_IF_ERROR(OneField(m));
      if (!Consume(',')) Consume(';');
    }
    --depth_;
    return Status::OK();
  }

  Status OneField(Message* m) {
    Field f;
    f.line = line_;
    if (Consume('[')) {
      // An extension or an Any's type URL: everything up to ']' without spaces.
      const size_t start = pos_;
      while (pos_ < s_.size() && s_[pos_] != ']' && s_[pos_] != '\n') ++pos_;
      if (pos_ >= s_.size() || s_[pos_] != ']') return Error("unterminated '['");
      f.name = std::string(s_.substr(start, pos_ - start));
      f.bracketed = true;
      ++pos_;
    } else {
      if (!IsIdentStart(Peek())) return Error("expected a field name");
      f.name = Identifier();
    }
    const bool colon = Consume(':');
    const char c = Peek();
    if (c == '[') {
      // A list of values, each a repeated field of the same name.
      ++pos_;
      if (Consume(']')) return Status::OK();
      do {
        Field item;
        item.name = f.name;
        item.bracketed = f.bracketed;
        item.line = line_;
        KUBE_RETURN_IF_ERROR(Value(&item, colon));
        m->fields.push_back(std::move(item));
      } while (Consume(','));
      if (!Consume(']')) return Error("expected ']' after a list of values of " + f.name);
      return Status::OK();
    }
    KUBE_RETURN_IF_ERROR(Value(&f, colon));
    m->fields.push_back(std::move(f));
    return Status::OK();
  }

  // A field's value: a nested message or (only after a ':') a scalar.
  Status Value(Field* f, bool colon) {
    const char c = Peek();
    if (c == '{' || c == '<') {
      ++pos_;
      f->kind = Field::Kind::kMessage;
      f->message = std::make_shared<Message>();
      return Fields(f->message.get(), c == '{' ? '}' : '>');
    }
    if (!colon) return Error("expected ':' or '{' after " + f->name);
    if (c == '"' || c == '\'') {
      f->kind = Field::Kind::kString;
      // Adjacent literals concatenate, as in C.
      while (Peek() == '"' || Peek() == '\'') KUBE_RETURN_IF_ERROR(StringLiteral(&f->scalar));
      return Status::OK();
    }
    if (c == '-' || c == '+' || c == '.' || IsDigit(c)) {
      f->kind = Field::Kind::kNumber;
      const size_t start = pos_++;
      while (pos_ < s_.size() && (IsIdentChar(s_[pos_]) || s_[pos_] == '.' || s_[pos_] == '-' || s_[pos_] == '+')) {
        // A sign only right after an exponent marker.
        if ((s_[pos_] == '-' || s_[pos_] == '+') && !(s_[pos_ - 1] == 'e' || s_[pos_ - 1] == 'E')) break;
        ++pos_;
      }
      // "- inf" and "-inf": a sign may precede an identifier-like float.
      if (pos_ - start == 1 && (s_[start] == '-' || s_[start] == '+')) {
        SkipSpace();
        if (!IsIdentStart(Peek())) return Error("expected a number after a sign");
        f->scalar = std::string(1, s_[start]) + Identifier();
      } else {
        f->scalar = std::string(s_.substr(start, pos_ - start));
      }
      return Status::OK();
    }
    if (IsIdentStart(c)) {
      f->kind = Field::Kind::kIdentifier;
      f->scalar = Identifier();
      return Status::OK();
    }
    return Error("unexpected character '" + std::string(1, c) + "' in the value of " + f->name);
  }

  std::string Identifier() {
    const size_t start = pos_;
    while (pos_ < s_.size() && (IsIdentChar(s_[pos_]) || s_[pos_] == '.')) ++pos_;
    return std::string(s_.substr(start, pos_ - start));
  }

  Status StringLiteral(std::string* out) {
    const char quote = s_[pos_++];
    while (true) {
      if (pos_ >= s_.size() || s_[pos_] == '\n') return Error("unterminated string");
      const char c = s_[pos_++];
      if (c == quote) return Status::OK();
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (pos_ >= s_.size()) return Error("unterminated string");
      const char e = s_[pos_++];
      switch (e) {
        case 'a': out->push_back('\a'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'n': out->push_back('\n'); break;
        case 'r': out->push_back('\r'); break;
        case 't': out->push_back('\t'); break;
        case 'v': out->push_back('\v'); break;
        case '\\':
        case '\'':
        case '"':
        case '?': out->push_back(e); break;
        case 'x':
        case 'X': {
          int value = 0, digits = 0;
          while (digits < 2 && pos_ < s_.size() && HexDigit(s_[pos_]) >= 0) value = value * 16 + HexDigit(s_[pos_++]), ++digits;
          if (digits == 0) return Error("\\x without hex digits");
          out->push_back(static_cast<char>(value));
          break;
        }
        case 'u':
        case 'U': {
          const int want = e == 'u' ? 4 : 8;
          uint32_t cp = 0;
          for (int i = 0; i < want; ++i) {
            if (pos_ >= s_.size() || HexDigit(s_[pos_]) < 0) return Error("\\" + std::string(1, e) + " needs hex digits");
            cp = cp * 16 + static_cast<uint32_t>(HexDigit(s_[pos_++]));
          }
          if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return Error("invalid code point in \\u escape");
          AppendUtf8(cp, out);
          break;
        }
        default: {
          if (e < '0' || e > '7') return Error("invalid escape \\" + std::string(1, e));
          int value = e - '0', digits = 1;
          while (digits < 3 && pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '7') value = value * 8 + (s_[pos_++] - '0'), ++digits;
          if (value > 0xFF) return Error("octal escape above \\377");
          out->push_back(static_cast<char>(value));
        }
      }
    }
  }

  static constexpr int kMaxDepth = 200;
  std::string_view s_;
  size_t pos_ = 0;
  int line_ = 1;
  int depth_ = 0;
};

}  // namespace

Result<Message> Parse(std::string_view text) { return Parser(text).Document(); }

bool ParseInt64(std::string_view token, int64_t* out) {
  const std::string t(token);
  if (t.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(t.c_str(), &end, 0);  // base 0: decimal, 0x hex, 0 octal
  if (errno != 0 || end != t.c_str() + t.size()) return false;
  *out = v;
  return true;
}

bool ParseUint64(std::string_view token, uint64_t* out) {
  const std::string t(token);
  if (t.empty() || t[0] == '-') return false;
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(t.c_str(), &end, 0);
  if (errno != 0 || end != t.c_str() + t.size()) return false;
  *out = v;
  return true;
}

bool ParseDouble(std::string_view token, double* out) {
  std::string t(token);
  if (t.empty()) return false;
  std::string lower;
  for (char c : t) lower.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
  const bool negative = lower[0] == '-';
  const std::string_view body = std::string_view(lower).substr(negative || lower[0] == '+' ? 1 : 0);
  if (body == "inf" || body == "infinity") {
    *out = negative ? -INFINITY : INFINITY;
    return true;
  }
  if (body == "nan") {
    *out = NAN;
    return true;
  }
  // A float literal may carry an `f` suffix (1.5f).
  if (!t.empty() && (t.back() == 'f' || t.back() == 'F') && t.find_first_of("xX") == std::string::npos) t.pop_back();
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size() || t.empty()) return false;
  *out = v;
  return true;
}

}  // namespace kube::textproto
