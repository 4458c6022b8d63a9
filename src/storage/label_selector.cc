#include "storage/label_selector.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <set>
#include <utility>

namespace kube::storage {
namespace {

// Upstream's message fragments, kept verbatim so clients that match on error text keep working.
constexpr std::string_view kQualifiedNameMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
constexpr std::string_view kSubdomainMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    R"(for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'))";
constexpr std::string_view kLabelValueMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
constexpr std::string_view kBinaryOperators = "in, notin, =, ==, !=, gt, lt";
constexpr size_t kMaxNameLength = 63;
constexpr size_t kMaxSubdomainLength = 253;

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool IsQualifiedNamePart(std::string_view s) {
  if (s.empty() || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return IsAlnum(c) || c == '-' || c == '_' || c == '.'; });
}

// Dot-separated labels, each [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool IsDns1123Subdomain(std::string_view s) {
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    std::string_view label = s.substr(start, dot == std::string_view::npos ? s.npos : dot - start);
    if (label.empty() || !IsLowerAlnum(label.front()) || !IsLowerAlnum(label.back())) return false;
    for (char c : label) {
      if (!IsLowerAlnum(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

std::string MaxLen(size_t n) { return "must be no more than " + std::to_string(n) + " characters"; }

// The messages of upstream's IsQualifiedName, in its order.
std::vector<std::string> KeyErrors(std::string_view key) {
  std::vector<std::string> errs;
  std::string_view name = key;
  size_t slash = key.find('/');
  if (slash != std::string_view::npos) {
    if (key.find('/', slash + 1) != std::string_view::npos) {
      return {"a qualified name " + std::string(kQualifiedNameMsg) +
              " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"};
    }
    std::string_view prefix = key.substr(0, slash);
    name = key.substr(slash + 1);
    if (prefix.empty()) {
      errs.push_back("prefix part must be non-empty");
    } else {
      if (prefix.size() > kMaxSubdomainLength) errs.push_back("prefix part " + MaxLen(kMaxSubdomainLength));
      if (!IsDns1123Subdomain(prefix)) errs.push_back("prefix part " + std::string(kSubdomainMsg));
    }
  }
  if (name.empty()) {
    errs.push_back("name part must be non-empty");
  } else if (name.size() > kMaxNameLength) {
    errs.push_back("name part " + MaxLen(kMaxNameLength));
  }
  if (!IsQualifiedNamePart(name)) errs.push_back("name part " + std::string(kQualifiedNameMsg));
  return errs;
}

std::vector<std::string> ValueErrors(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kMaxNameLength) errs.push_back(MaxLen(kMaxNameLength));
  if (!value.empty() && !IsQualifiedNamePart(value)) errs.emplace_back(kLabelValueMsg);
  return errs;
}

std::string Join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += sep;
    out += parts[i];
  }
  return out;
}

// Upstream reports a list of field errors with duplicates dropped, bracketing it when there are
// several.
std::string Aggregate(const std::vector<std::string>& errs) {
  std::vector<std::string> unique;
  for (const auto& e : errs) {
    if (std::find(unique.begin(), unique.end(), e) == unique.end()) unique.push_back(e);
  }
  return unique.size() == 1 ? unique[0] : "[" + Join(unique, ", ") + "]";
}

// Length of the well-formed UTF-8 sequence at s[i], or 0 when it is malformed.
size_t RuneLength(std::string_view s, size_t i, uint32_t* rune) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  unsigned char c = b(0);
  size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
  if (c >= 0xF5 || n == 0 || i + n > s.size()) return 0;
  uint32_t r = c & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    r = (r << 6) | (b(k) & 0x3F);
  }
  if ((n == 3 && (r < 0x800 || (r >= 0xD800 && r <= 0xDFFF))) || (n == 4 && (r < 0x10000 || r > 0x10FFFF))) {
    return 0;
  }
  *rune = r;
  return n;
}

// Close to Go's %q, which upstream uses to show the offending key or value.
std::string GoQuote(std::string_view s) {
  std::string out = "\"";
  char buf[16];
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      switch (c) {
        case '"': out += "\\\""; continue;
        case '\\': out += "\\\\"; continue;
        case '\a': out += "\\a"; continue;
        case '\b': out += "\\b"; continue;
        case '\f': out += "\\f"; continue;
        case '\n': out += "\\n"; continue;
        case '\r': out += "\\r"; continue;
        case '\t': out += "\\t"; continue;
        case '\v': out += "\\v"; continue;
      }
      if (c >= 0x20 && c < 0x7F) {
        out += static_cast<char>(c);
      } else {
        std::snprintf(buf, sizeof buf, "\\x%02x", c);
        out += buf;
      }
      continue;
    }
    uint32_t rune = 0;
    size_t n = RuneLength(s, i, &rune);
    if (n == 0) {
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
      ++i;
    } else if (rune < 0xA0) {  // C1 controls are not printable.
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(rune));
      out += buf;
      i += n;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out + "\"";
}

// strconv.ParseInt(s, 10, 64): optional sign, decimal digits, no surrounding space.
std::optional<int64_t> ParseInt64(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    unsigned d = static_cast<unsigned>(c - '0');
    if (v > (limit - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  if (negative) return v == (uint64_t{1} << 63) ? std::numeric_limits<int64_t>::min() : -static_cast<int64_t>(v);
  return static_cast<int64_t>(v);
}

enum class Tok : uint8_t {
  kError, kEnd, kOpenPar, kClosePar, kComma, kNot, kEquals, kDoubleEquals, kNotEquals,
  kGreater, kLess, kIn, kNotIn, kIdentifier,
};

struct Item {
  Tok tok;
  std::string text;
};

bool IsWhitespace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool IsSpecial(char c) {
  return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
}

std::optional<Tok> SymbolToken(std::string_view s) {
  static constexpr std::pair<std::string_view, Tok> kSymbols[] = {
      {"(", Tok::kOpenPar}, {")", Tok::kClosePar},     {",", Tok::kComma},
      {"!", Tok::kNot},     {"=", Tok::kEquals},       {"==", Tok::kDoubleEquals},
      {"!=", Tok::kNotEquals}, {">", Tok::kGreater},   {"<", Tok::kLess},
  };
  for (const auto& [text, tok] : kSymbols) {
    if (s == text) return tok;
  }
  return std::nullopt;
}

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  Item Next() {
    char c = Read();
    while (IsWhitespace(c)) c = Read();
    if (c == '\0') return {Tok::kEnd, ""};
    --pos_;
    return IsSpecial(c) ? ScanSymbol() : ScanWord();
  }

 private:
  // Upstream reads past-the-end as NUL and so treats a NUL byte in the input exactly like the
  // end of a token (or, between tokens, of the selector). Sharing that sentinel keeps our
  // tokenisation byte-for-byte identical to theirs.
  char Read() { return pos_ < s_.size() ? s_[pos_++] : '\0'; }

  Item ScanWord() {
    std::string word;
    for (char c = Read(); c != '\0'; c = Read()) {
      if (IsSpecial(c) || IsWhitespace(c)) {
        --pos_;
        break;
      }
      word += c;
    }
    if (word == "in") return {Tok::kIn, word};
    if (word == "notin") return {Tok::kNotIn, word};
    return {Tok::kIdentifier, std::move(word)};
  }

  // Longest run of symbol characters that still forms an operator: "!=" beats "!", "==" beats "=".
  Item ScanSymbol() {
    std::string run;
    std::optional<Item> best;
    for (char c = Read(); c != '\0'; c = Read()) {
      if (!IsSpecial(c)) {
        --pos_;
        break;
      }
      run += c;
      if (auto tok = SymbolToken(run)) {
        best = Item{*tok, run};
      } else if (best) {
        --pos_;
        break;
      }
    }
    if (!best) return {Tok::kError, "error expected: keyword found '" + run + "'"};
    return *std::move(best);
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

class LabelSelector::Parser {
 public:
  explicit Parser(std::string_view text) {
    Lexer lexer(text);
    do {
      items_.push_back(lexer.Next());
    } while (items_.back().tok != Tok::kEnd);
  }

  Result<std::vector<Requirement>> ParseAll() {
    std::vector<Requirement> reqs;
    while (true) {
      const Item& head = Peek();
      if (head.tok == Tok::kEnd) return reqs;
      if (Tok t = Kind(head); t != Tok::kIdentifier && t != Tok::kNot) {
        return Error("found '" + head.text + "', expected: !, identifier, or 'end of string'");
      }
      Result<Requirement> req = ParseRequirement();
      if (!req.ok()) return Error("unable to parse requirement: " + req.status().message());
      reqs.push_back(std::move(*req));
      const Item& sep = Consume();
      if (sep.tok == Tok::kEnd) return reqs;
      if (sep.tok != Tok::kComma) {
        return Error("found '" + sep.text + "', expected: ',' or 'end of string'");
      }
      if (Tok t = Kind(Peek()); t != Tok::kIdentifier && t != Tok::kNot) {
        return Error("found '" + Peek().text + "', expected: identifier after ','");
      }
    }
  }

 private:
  static Status Error(std::string msg) { return Status::BadRequest(std::move(msg)); }

  // Everywhere but the operator position, `in` and `notin` are plain identifiers, so keys and
  // values may be spelled that way (`in in (notin)` is valid).
  static Tok Kind(const Item& item) {
    return item.tok == Tok::kIn || item.tok == Tok::kNotIn ? Tok::kIdentifier : item.tok;
  }
  // The last item is always kEnd; never step past it.
  const Item& Peek() const { return items_[pos_]; }
  const Item& Consume() {
    const Item& item = items_[pos_];
    if (pos_ + 1 < items_.size()) ++pos_;
    return item;
  }

  Result<Requirement> ParseRequirement() {
    Requirement req;
    const Item* item = &Consume();
    bool negated = item->tok == Tok::kNot;
    if (negated) item = &Consume();
    if (Kind(*item) != Tok::kIdentifier) {
      return Error("found '" + item->text + "', expected: identifier");
    }
    req.key = item->text;
    if (auto errs = KeyErrors(req.key); !errs.empty()) {
      return Error("<nil>: Invalid value: " + GoQuote(req.key) + ": " + Join(errs, "; "));
    }
    Tok next = Peek().tok;
    if (negated || next == Tok::kEnd || next == Tok::kComma) {
      req.op = negated ? Operator::kDoesNotExist : Operator::kExists;
      return req;
    }
    const Item& op = Consume();
    switch (op.tok) {
      case Tok::kIn: req.op = Operator::kIn; break;
      case Tok::kNotIn: req.op = Operator::kNotIn; break;
      case Tok::kEquals: req.op = Operator::kEquals; break;
      case Tok::kDoubleEquals: req.op = Operator::kDoubleEquals; break;
      case Tok::kNotEquals: req.op = Operator::kNotEquals; break;
      case Tok::kGreater: req.op = Operator::kGreaterThan; break;
      case Tok::kLess: req.op = Operator::kLessThan; break;
      default:
        return Error("found '" + op.text + "', expected: " + std::string(kBinaryOperators));
    }
    std::set<std::string> values;
    Status st = (req.op == Operator::kIn || req.op == Operator::kNotIn) ? ParseValueSet(&values)
                                                                          : ParseExactValue(&values);
    if (!st.ok()) return st;
    req.values.assign(values.begin(), values.end());
    return Validate(std::move(req));
  }

  // "(" [values] ")", where empty entries ("(,a)", "(a,,b)", "()") stand for the empty value.
  Status ParseValueSet(std::set<std::string>* values) {
    const Item& open = Consume();
    if (open.tok != Tok::kOpenPar) return Error("found '" + open.text + "' expected: '('");
    Tok first = Kind(Peek());
    if (first == Tok::kClosePar) {
      Consume();
      values->insert("");
      return Status::OK();
    }
    if (first != Tok::kIdentifier && first != Tok::kComma) {
      return Error("found '" + Peek().text + "', expected: ',', ')' or identifier");
    }
    while (true) {
      const Item& item = Consume();
      Tok kind = Kind(item);
      if (kind == Tok::kIdentifier) {
        values->insert(item.text);
        Tok after = Peek().tok;
        if (after == Tok::kClosePar) break;
        if (after != Tok::kComma) {
          return Error("found '" + Peek().text + "', expected: ',' or ')'");
        }
      } else if (kind == Tok::kComma) {
        if (values->empty()) values->insert("");
        Tok after = Peek().tok;
        if (after == Tok::kClosePar) {
          values->insert("");
          break;
        }
        if (after == Tok::kComma) {
          Consume();
          values->insert("");
        }
      } else {
        return Error("found '" + item.text + "', expected: ',', or identifier");
      }
    }
    Consume();  // The ")" both loop exits saw.
    return Status::OK();
  }

  Status ParseExactValue(std::set<std::string>* values) {
    Tok next = Peek().tok;
    if (next == Tok::kEnd || next == Tok::kComma) {
      values->insert("");
      return Status::OK();
    }
    const Item& item = Consume();
    if (Kind(item) != Tok::kIdentifier) {
      return Error("found '" + item.text + "', expected: identifier");
    }
    values->insert(item.text);
    return Status::OK();
  }

  // Upstream's NewRequirement checks; the key was already checked, and the parser cannot
  // produce a wrong value count.
  static Result<Requirement> Validate(Requirement req) {
    std::vector<std::string> errs;
    if (req.op == Operator::kGreaterThan || req.op == Operator::kLessThan) {
      if (auto n = ParseInt64(req.values[0])) {
        req.bound = *n;
      } else {
        errs.push_back("values[0]: Invalid value: " + GoQuote(req.values[0]) +
                       ": for 'Gt', 'Lt' operators, the value must be an integer");
      }
    }
    for (size_t i = 0; i < req.values.size(); ++i) {
      if (auto v = ValueErrors(req.values[i]); !v.empty()) {
        errs.push_back("values[" + std::to_string(i) + "][" + req.key +
                       "]: Invalid value: " + GoQuote(req.values[i]) + ": " + Join(v, "; "));
      }
    }
    if (!errs.empty()) return Error(Aggregate(errs));
    return req;
  }

  std::vector<Item> items_;
  size_t pos_ = 0;
};

LabelSelector::LabelSelector() = default;

Result<LabelSelector> LabelSelector::Parse(std::string_view text) {
  Result<std::vector<Requirement>> reqs = Parser(text).ParseAll();
  if (!reqs.ok()) return reqs.status();
  LabelSelector sel;
  sel.requirements_ = std::move(*reqs);
  std::stable_sort(sel.requirements_.begin(), sel.requirements_.end(),
                   [](const Requirement& a, const Requirement& b) { return a.key < b.key; });
  return sel;
}

bool LabelSelector::Empty() const { return requirements_.empty(); }

bool LabelSelector::Matches(const Labels& labels) const {
  return std::all_of(requirements_.begin(), requirements_.end(),
                     [&](const Requirement& r) { return RequirementMatches(r, labels); });
}

bool LabelSelector::RequirementMatches(const Requirement& r, const Labels& labels) {
  auto it = labels.find(r.key);
  const bool has = it != labels.end();
  auto listed = [&] { return std::binary_search(r.values.begin(), r.values.end(), it->second); };
  switch (r.op) {
    case Operator::kEquals:
    case Operator::kDoubleEquals:
    case Operator::kIn: return has && listed();
    case Operator::kNotEquals:
    case Operator::kNotIn: return !has || !listed();
    case Operator::kExists: return has;
    case Operator::kDoesNotExist: return !has;
    case Operator::kGreaterThan:
    case Operator::kLessThan: {
      if (!has) return false;
      std::optional<int64_t> n = ParseInt64(it->second);
      if (!n) return false;
      return r.op == Operator::kGreaterThan ? *n > r.bound : *n < r.bound;
    }
  }
  return false;
}

std::optional<std::string> LabelSelector::RequiresExactMatch(std::string_view key) const {
  // Only the first requirement on the key counts, as upstream.
  for (const Requirement& r : requirements_) {
    if (r.key != key) continue;
    bool exact = r.op == Operator::kEquals || r.op == Operator::kDoubleEquals || r.op == Operator::kIn;
    if (exact && r.values.size() == 1) return r.values[0];
    return std::nullopt;
  }
  return std::nullopt;
}

std::string LabelSelector::RequirementString(const Requirement& r) {
  switch (r.op) {
    case Operator::kExists: return r.key;
    case Operator::kDoesNotExist: return "!" + r.key;
    case Operator::kEquals: return r.key + "=" + r.values[0];
    case Operator::kDoubleEquals: return r.key + "==" + r.values[0];
    case Operator::kNotEquals: return r.key + "!=" + r.values[0];
    case Operator::kGreaterThan: return r.key + ">" + r.values[0];
    case Operator::kLessThan: return r.key + "<" + r.values[0];
    case Operator::kIn: return r.key + " in (" + Join(r.values, ",") + ")";
    case Operator::kNotIn: return r.key + " notin (" + Join(r.values, ",") + ")";
  }
  return r.key;
}

std::string LabelSelector::ToString() const {
  std::string out;
  for (size_t i = 0; i < requirements_.size(); ++i) {
    if (i > 0) out += ',';
    out += RequirementString(requirements_[i]);
  }
  return out;
}

}  // namespace kube::storage
