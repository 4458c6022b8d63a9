// The JSONPath template parser: client-go's parser.go, iterative instead of one recursive call
// per token so that long templates cannot exhaust the stack.

#include <cstdio>
#include <cstdlib>

#include "printers/jsonpath_internal.h"
#include "util/go_format.h"

namespace kube::printers::jsonpath_internal {

namespace {

constexpr int32_t kEof = -1;

NodePtr MakeNode(Node::Type type) {
  auto n = std::make_shared<Node>();
  n->type = type;
  return n;
}

bool IsSpace(int32_t r) { return r == ' ' || r == '\t'; }
bool IsEndOfLine(int32_t r) { return r == '\r' || r == '\n'; }
bool IsDigit(int32_t r) { return r >= '0' && r <= '9'; }
// unicode.IsLetter, with every non-ASCII rune above Latin-1 controls taken as a letter.
bool IsLetter(int32_t r) { return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || r >= 0xAA; }
bool IsAlphaNumeric(int32_t r) { return r == '_' || IsLetter(r) || IsDigit(r); }

bool IsTerminator(int32_t r) {
  if (IsSpace(r) || IsEndOfLine(r)) return true;
  switch (r) {
    case kEof: case '.': case ',': case '[': case ']': case '$': case '@': case '{': case '}': return true;
  }
  return false;
}

// Go's %#U.
std::string FormatRune(int32_t r, std::string_view utf8) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(r));
  std::string out = buf;
  const bool printable = r >= 0x20 && r != 0x7f && !(r >= 0x80 && r < 0xa0);
  if (printable) out += " '" + std::string(utf8) + "'";
  return out;
}

Status Error(std::string message) { return Status::BadRequest(std::move(message)); }

// strconv.ParseInt(s, 10, 0) as Atoi: optional sign, decimal digits, int64 range.
bool Atoi(std::string_view s, int64_t* out) {
  size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  if (i >= s.size()) return false;
  unsigned __int128 v = 0;
  for (; i < s.size(); ++i) {
    if (!IsDigit(static_cast<unsigned char>(s[i]))) return false;
    v = v * 10 + static_cast<unsigned>(s[i] - '0');
    if (v > static_cast<unsigned __int128>(INT64_MAX) + 1) return false;
  }
  if (!neg && v > static_cast<unsigned __int128>(INT64_MAX)) return false;
  *out = neg ? static_cast<int64_t>(-static_cast<__int128>(v)) : static_cast<int64_t>(v);
  return true;
}

// strconv.ParseFloat for what parseNumber collects (sign, digits and dots).
bool ParseFloat(std::string_view s, double* out) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  size_t digits = 0, dots = 0;
  for (; i < s.size(); ++i) {
    if (s[i] == '.') ++dots;
    else if (IsDigit(static_cast<unsigned char>(s[i]))) ++digits;
    else return false;
  }
  if (digits == 0 || dots > 1) return false;
  *out = std::strtod(std::string(s).c_str(), nullptr);
  return true;
}

void AppendUtf8(std::string* out, uint32_t r) {
  if (r < 0x80) {
    out->push_back(static_cast<char>(r));
  } else if (r < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (r >> 6)));
    out->push_back(static_cast<char>(0x80 | (r & 0x3F)));
  } else if (r < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (r >> 12)));
    out->push_back(static_cast<char>(0x80 | ((r >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (r & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (r >> 18)));
    out->push_back(static_cast<char>(0x80 | ((r >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((r >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (r & 0x3F)));
  }
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// UnquoteExtend: strconv.Unquote that also takes single-quoted strings of any length.
bool UnquoteExtend(std::string_view s, std::string* out) {
  if (s.size() < 2 || s.front() != s.back() || (s.front() != '"' && s.front() != '\'')) return false;
  const char quote = s.front();
  s = s.substr(1, s.size() - 2);
  for (size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (c == quote) return false;
    if (c != '\\') {
      out->push_back(c);
      ++i;
      continue;
    }
    if (i + 1 >= s.size()) return false;
    const char e = s[i + 1];
    i += 2;
    if (char control = GoControlEscape(e); control != '\0') {
      out->push_back(control);
      continue;
    }
    switch (e) {
      case '\\': out->push_back('\\'); break;
      case '\'':
      case '"':
        if (e != quote) return false;
        out->push_back(e);
        break;
      case 'x':
      case 'u':
      case 'U': {
        const size_t n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        if (i + n > s.size()) return false;
        uint32_t v = 0;
        for (size_t k = 0; k < n; ++k) {
          const int h = HexValue(s[i + k]);
          if (h < 0) return false;
          v = v * 16 + static_cast<uint32_t>(h);
        }
        i += n;
        if (e == 'x') {
          out->push_back(static_cast<char>(v));
        } else {
          if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return false;
          AppendUtf8(out, v);
        }
        break;
      }
      default: {
        if (e < '0' || e > '7' || i + 2 > s.size()) return false;
        uint32_t v = static_cast<uint32_t>(e - '0');
        for (size_t k = 0; k < 2; ++k) {
          if (s[i + k] < '0' || s[i + k] > '7') return false;
          v = v * 8 + static_cast<uint32_t>(s[i + k] - '0');
        }
        if (v > 255) return false;
        i += 2;
        out->push_back(static_cast<char>(v));
      }
    }
  }
  return true;
}

class Parser {
 public:
  explicit Parser(std::string_view input) : input_(input) {}

  Result<NodePtr> Parse() {
    root_ = MakeNode(Node::Type::kList);
    // parseText / parseLeftDelim / parseInsideAction / parseRightDelim, as a loop.
    while (true) {
      const size_t brace = input_.find('{', pos_);
      if (brace == std::string_view::npos) {
        pos_ = input_.size();
        if (pos_ > start_) root_->nodes.push_back(Text(ConsumeText()));
        return root_;
      }
      pos_ = brace;
      if (pos_ > start_) root_->nodes.push_back(Text(ConsumeText()));
      pos_ += 1;
      ConsumeText();
      NodePtr action = MakeNode(Node::Type::kList);
      root_->nodes.push_back(action);
      if (Status s = InsideAction(action.get()); !s.ok()) return s;
    }
  }

 private:
  static NodePtr Text(std::string text) {
    NodePtr n = MakeNode(Node::Type::kText);
    n->text = std::move(text);
    return n;
  }

  std::string ConsumeText() {
    std::string v(input_.substr(start_, pos_ - start_));
    start_ = pos_;
    return v;
  }

  int32_t Next() {
    if (pos_ >= input_.size()) {
      width_ = 0;
      return kEof;
    }
    const unsigned char c = static_cast<unsigned char>(input_[pos_]);
    int32_t r = c;
    size_t n = 1;
    if (c >= 0x80) {
      n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 1;
      if (n == 1 || pos_ + n > input_.size()) {
        r = 0xFFFD, n = 1;
      } else {
        r = c & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
        for (size_t k = 1; k < n; ++k) r = (r << 6) | (static_cast<unsigned char>(input_[pos_ + k]) & 0x3F);
      }
    }
    width_ = n;
    pos_ += n;
    return r;
  }
  int32_t Peek() {
    const int32_t r = Next();
    Backup();
    return r;
  }
  void Backup() { pos_ -= width_; }
  bool HasPrefix(std::string_view prefix) const { return input_.substr(pos_).starts_with(prefix); }

  // parseInsideAction up to and including the closing '}'.
  Status InsideAction(Node* cur) {
    while (true) {
      if (HasPrefix("}")) {
        pos_ += 1;
        ConsumeText();
        return Status::OK();
      }
      if (HasPrefix("[?(")) {
        KUBE_RETURN_IF_ERROR(ParseFilter(cur));
        continue;
      }
      if (HasPrefix("..")) {
        KUBE_RETURN_IF_ERROR(ParseRecursive(cur));
        continue;
      }
      const size_t at = pos_;
      const int32_t r = Next();
      if (r == kEof || IsEndOfLine(r)) return Error("unclosed action");
      if (r == ' ' || r == '@' || r == '$') {
        ConsumeText();
      } else if (r == '[') {
        KUBE_RETURN_IF_ERROR(ParseArray(cur));
      } else if (r == '"' || r == '\'') {
        KUBE_RETURN_IF_ERROR(ParseQuote(cur, r));
      } else if (r == '.') {
        ParseField(cur);
      } else if (r == '+' || r == '-' || IsDigit(r)) {
        Backup();
        KUBE_RETURN_IF_ERROR(ParseNumber(cur));
      } else if (IsAlphaNumeric(r)) {
        Backup();
        ParseIdentifier(cur);
      } else {
        return Error("unrecognized character in action: " + FormatRune(r, input_.substr(at, pos_ - at)));
      }
    }
  }

  void ParseIdentifier(Node* cur) {
    while (!IsTerminator(Next())) {
    }
    Backup();
    const std::string value = ConsumeText();
    if (value == "true" || value == "false") {
      NodePtr n = MakeNode(Node::Type::kBool);
      n->bool_value = value == "true";
      cur->nodes.push_back(n);
    } else {
      NodePtr n = MakeNode(Node::Type::kIdentifier);
      n->text = value;
      cur->nodes.push_back(n);
    }
  }

  Status ParseRecursive(Node* cur) {
    if (!cur->nodes.empty() && cur->nodes.back()->type == Node::Type::kRecursive) {
      return Error("invalid multiple recursive descent");
    }
    pos_ += 2;
    ConsumeText();
    cur->nodes.push_back(MakeNode(Node::Type::kRecursive));
    if (IsAlphaNumeric(Peek())) ParseField(cur);
    return Status::OK();
  }

  Status ParseNumber(Node* cur) {
    const int32_t r = Peek();
    if (r == '+' || r == '-') Next();
    while (true) {
      const int32_t c = Next();
      if (c != '.' && !IsDigit(c)) {
        Backup();
        break;
      }
    }
    const std::string value = ConsumeText();
    int64_t i = 0;
    double d = 0;
    if (Atoi(value, &i)) {
      NodePtr n = MakeNode(Node::Type::kInt);
      n->int_value = i;
      cur->nodes.push_back(n);
    } else if (ParseFloat(value, &d)) {
      NodePtr n = MakeNode(Node::Type::kFloat);
      n->float_value = d;
      cur->nodes.push_back(n);
    } else {
      return Error("cannot parse number " + value);
    }
    return Status::OK();
  }

  Status ParseArray(Node* cur) {
    while (true) {
      const int32_t r = Next();
      if (r == kEof || r == '\n') return Error("unterminated array");
      if (r == ']') break;
    }
    std::string text = ConsumeText();
    text = text.substr(1, text.size() - 2);
    if (text == "*") text = ":";

    std::vector<std::string> parts;
    for (size_t start = 0;;) {
      const size_t comma = text.find(',', start);
      parts.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (parts.size() > 1) {
      NodePtr u = MakeNode(Node::Type::kUnion);
      for (std::string& part : parts) {
        const size_t b = part.find_first_not_of(' ');
        part = b == std::string::npos ? "" : part.substr(b, part.find_last_not_of(' ') - b + 1);
        Result<NodePtr> alt = ParseAction("[" + part + "]");
        if (!alt.ok()) return alt.status();
        u->nodes.push_back(*alt);
      }
      cur->nodes.push_back(u);
      return Status::OK();
    }

    // ^'([^']*)'$: a quoted key, re-parsed as a field path.
    if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'' &&
        text.find('\'', 1) == text.size() - 1) {
      Result<NodePtr> key = ParseAction("." + text.substr(1, text.size() - 2));
      if (!key.ok()) return key.status();
      for (const NodePtr& n : (*key)->nodes) cur->nodes.push_back(n);
      return Status::OK();
    }

    // ^(-?[0-9]*)(:-?[0-9]*)?(:-?[0-9]*)?$: up to three bounds; a bound's group exists when its
    // colon does.
    std::vector<std::string> bounds;
    for (size_t start = 0;;) {
      const size_t colon = text.find(':', start);
      bounds.push_back(text.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
    const auto is_bound = [](const std::string& b) {
      size_t i = !b.empty() && b[0] == '-' ? 1 : 0;
      for (; i < b.size(); ++i) {
        if (!IsDigit(static_cast<unsigned char>(b[i]))) return false;
      }
      return true;
    };
    bool slice_ok = bounds.size() <= 3;
    for (const std::string& b : bounds) slice_ok = slice_ok && is_bound(b);
    if (!slice_ok) return Error("invalid array index " + text);
    NodePtr a = MakeNode(Node::Type::kArray);
    for (size_t i = 0; i < 3; ++i) {
      // Go's submatch: the bound with its leading colon, "" when the group did not match.
      std::string v = i < bounds.size() ? (i > 0 ? ":" : "") + bounds[i] : "";
      if (!v.empty()) {
        if (i > 0) v = v.substr(1);
        if (i > 0 && v.empty()) {
          a->params[i].known = false;
        } else {
          int64_t n = 0;
          if (!Atoi(v, &n)) return Error("array index " + v + " is not a number");
          a->params[i].known = true;
          a->params[i].value = n;
        }
      } else if (i == 1) {
        a->params[i].known = true;
        a->params[i].value = a->params[0].value + 1;
        a->params[i].derived = true;
      } else {
        a->params[i].known = false;
        a->params[i].value = 0;
      }
    }
    cur->nodes.push_back(a);
    return Status::OK();
  }

  Status ParseFilter(Node* cur) {
    pos_ += 3;
    ConsumeText();
    bool begin = false, end = false;
    int32_t pair = 0;
    while (true) {
      const int32_t r = Next();
      if (r == kEof || r == '\n') return Error("unterminated filter");
      if (r == '"' || r == '\'') {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (input_[pos_ - 2] != '\\' && r == pair) end = true;
      } else if (r == ')') {
        if (begin == end) break;
      }
    }
    if (Next() != ']') return Error("unclosed array expect ]");
    std::string text = ConsumeText();
    text = text.substr(0, text.size() - 2);
    // ^([^!<>=]+)([!<>=]+)(.+?)$: left operand, operator run, non-empty right operand (the
    // operator gives back its last character when nothing follows it).
    constexpr std::string_view kOperatorChars = "!<>=";
    const size_t op_begin = text.find_first_of(kOperatorChars);
    size_t op_end = op_begin == std::string::npos ? op_begin : text.find_first_not_of(kOperatorChars, op_begin);
    if (op_end == std::string::npos && op_begin != std::string::npos) op_end = text.size();
    if (op_begin != std::string::npos && op_end == text.size() && op_end - op_begin >= 2) --op_end;
    const bool comparison = op_begin != std::string::npos && op_begin > 0 && op_end < text.size();
    NodePtr f = MakeNode(Node::Type::kFilter);
    if (!comparison) {
      Result<NodePtr> left = ParseAction(text);
      if (!left.ok()) return left.status();
      f->left = *left;
      f->right = MakeNode(Node::Type::kList);
      f->text = "exists";
    } else {
      Result<NodePtr> left = ParseAction(text.substr(0, op_begin));
      if (!left.ok()) return left.status();
      Result<NodePtr> right = ParseAction(text.substr(op_end));
      if (!right.ok()) return right.status();
      f->left = *left;
      f->right = *right;
      f->text = text.substr(op_begin, op_end - op_begin);
    }
    cur->nodes.push_back(f);
    return Status::OK();
  }

  Status ParseQuote(Node* cur, int32_t end) {
    while (true) {
      const int32_t r = Next();
      if (r == kEof || r == '\n') return Error("unterminated quoted string");
      if (r == end && input_[pos_ - 2] != '\\') break;
    }
    const std::string value = ConsumeText();
    std::string s;
    if (!UnquoteExtend(value, &s)) return Error("unquote string " + value + " error invalid syntax");
    cur->nodes.push_back(Text(std::move(s)));
    return Status::OK();
  }

  void ParseField(Node* cur) {
    ConsumeText();
    while (true) {
      const int32_t r = Next();
      if (r == '\\') {
        Next();
      } else if (IsTerminator(r)) {
        Backup();
        break;
      }
    }
    std::string value = ConsumeText();
    if (value == "*") {
      cur->nodes.push_back(MakeNode(Node::Type::kWildcard));
      return;
    }
    std::string name;
    for (char c : value) {
      if (c != '\\') name.push_back(c);
    }
    NodePtr n = MakeNode(Node::Type::kField);
    n->text = std::move(name);
    cur->nodes.push_back(n);
  }

  // parseAction: parses "{text}" and returns its single action list.
  static Result<NodePtr> ParseAction(const std::string& text) {
    const std::string wrapped = "{" + text + "}";
    Parser p(wrapped);
    Result<NodePtr> root = p.Parse();
    if (!root.ok()) return root;
    return (*root)->nodes[0];
  }

  std::string_view input_;
  size_t pos_ = 0, start_ = 0, width_ = 0;
  NodePtr root_;
};

}  // namespace

Result<NodePtr> ParseTemplate(std::string_view text) { return Parser(text).Parse(); }

}  // namespace kube::printers::jsonpath_internal
