#include "util/strings.h"
#include "storage/label_selector.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <iterator>
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

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool IsAlnum(char c) { return IsLowerAlnum(c) || (c >= 'A' && c <= 'Z'); }

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool IsQualifiedNamePart(std::string_view s) {
  if (s.empty() || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return IsAlnum(c) || c == '-' || c == '_' || c == '.'; });
}

// [a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*, i.e. non-empty dot-separated
// labels that start and end with a lower-case alphanumeric.
bool IsDns1123Subdomain(std::string_view s) {
  if (s.empty() || !IsLowerAlnum(s.front()) || !IsLowerAlnum(s.back())) return false;
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    bool ok = s[i] == '.' ? IsLowerAlnum(s[i - 1]) && IsLowerAlnum(s[i + 1])
                          : IsLowerAlnum(s[i]) || s[i] == '-';
    if (!ok) return false;
  }
  return true;
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
      if (prefix.size() > kMaxSubdomainLength) {
        errs.push_back("prefix part " + MaxLen(kMaxSubdomainLength));
      }
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


// Length of the well-formed UTF-8 sequence at s[i] (a lead byte >= 0x80), or 0 if malformed.
size_t RuneLength(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  size_t n = byte(0) >= 0xF0 ? 4 : byte(0) >= 0xE0 ? 3 : byte(0) >= 0xC2 ? 2 : 0;
  if (byte(0) >= 0xF5 || n == 0 || i + n > s.size()) return 0;
  uint32_t r = byte(0) & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    if ((byte(k) & 0xC0) != 0x80) return 0;
    r = (r << 6) | (byte(k) & 0x3F);
  }
  bool bad = (n == 3 && (r < 0x800 || (r >= 0xD800 && r <= 0xDFFF))) || (n == 4 && r < 0x10000);
  return bad || r > 0x10FFFF ? 0 : n;
}

// Close to Go's %q, which upstream uses to show the offending key or value: malformed bytes and
// control characters (C1 ones included) are escaped, other UTF-8 is kept.
std::string GoQuote(std::string_view s) {
  static constexpr std::pair<char, char> kNamed[] = {{'"', '"'},  {'\\', '\\'}, {'\a', 'a'},
                                                     {'\b', 'b'}, {'\f', 'f'},  {'\n', 'n'},
                                                     {'\r', 'r'}, {'\t', 't'},  {'\v', 'v'}};
  std::string out = "\"";
  char buf[16];
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : RuneLength(s, i);
    auto named = std::find_if(std::begin(kNamed), std::end(kNamed),
                              [&](const auto& e) { return e.first == s[i]; });
    if (named != std::end(kNamed)) {
      out += {'\\', named->second};
    } else if (n == 0 || c < 0x20 || c == 0x7F) {
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else if (c == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0) {  // C1 control.
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(s[i + 1]));
      out += buf;
    } else {
      out.append(s.substr(i, n));
    }
    i += n == 0 ? 1 : n;
  }
  return out + "\"";
}

// strconv.ParseInt(s, 10, 64): an optional sign, then decimal digits only; out of range fails.
std::optional<int64_t> ParseInt64(std::string_view s) {
  if (s.size() > 1 && s[0] == '+' && s[1] != '-') s.remove_prefix(1);  // from_chars lacks '+'.
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

bool IsWhitespace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool IsSpecial(char c) { return std::string_view("=!(),<>").find(c) != std::string_view::npos; }

// A token is a word (a run of anything but whitespace and the special characters; this includes
// `in` and `notin`), an operator or punctuation spelt with special characters, or the end. Words
// and symbols never share a spelling, so the text alone tells them apart.
struct Item {
  std::string text;
  bool word = false;
  bool end = false;
};

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  Item Next() {
    char c = Read();
    while (IsWhitespace(c)) c = Read();
    if (c == '\0') return {"", false, true};
    --pos_;
    Item item{"", !IsSpecial(c), false};
    static constexpr std::string_view kSymbols[] = {"(", ")", ",", "!", "=", "==", "!=", ">", "<"};
    for (c = Read(); c != '\0'; c = Read()) {
      if (item.word ? IsSpecial(c) || IsWhitespace(c) : !IsSpecial(c)) {
        --pos_;
        break;
      }
      item.text += c;
      // Symbols take the longest run that still spells one ("!=" beats "!", "==" beats "=");
      // every special character is a symbol on its own, so a symbol token is never empty.
      if (!item.word &&
          std::find(std::begin(kSymbols), std::end(kSymbols), item.text) == std::end(kSymbols)) {
        item.text.pop_back();
        --pos_;
        break;
      }
    }
    return item;
  }

 private:
  // Upstream reads past-the-end as NUL and so treats a NUL byte in the input exactly like the
  // end of a token (or, between tokens, of the selector). Sharing that sentinel keeps our
  // tokenisation byte-for-byte identical to theirs.
  char Read() { return pos_ < s_.size() ? s_[pos_++] : '\0'; }

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
    } while (!items_.back().end);
  }

  Result<std::vector<Requirement>> ParseAll() {
    std::vector<Requirement> reqs;
    while (true) {
      const Item& head = Peek();
      if (head.end) return reqs;
      if (!StartsRequirement(head)) {
        return Error("found '" + head.text + "', expected: !, identifier, or 'end of string'");
      }
      Result<Requirement> req = ParseRequirement();
      if (!req.ok()) return Error("unable to parse requirement: " + req.status().message());
      reqs.push_back(std::move(*req));
      const Item& sep = Consume();
      if (sep.end) return reqs;
      if (sep.text != ",") {
        return Error("found '" + sep.text + "', expected: ',' or 'end of string'");
      }
      if (!StartsRequirement(Peek())) {
        return Error("found '" + Peek().text + "', expected: identifier after ','");
      }
    }
  }

 private:
  static Status Error(std::string msg) { return Status::BadRequest(std::move(msg)); }
  static bool StartsRequirement(const Item& item) { return item.word || item.text == "!"; }

  // The last item is always the end; never step past it.
  const Item& Peek() const { return items_[pos_]; }
  const Item& Consume() {
    const Item& item = items_[pos_];
    if (pos_ + 1 < items_.size()) ++pos_;
    return item;
  }

  Result<Requirement> ParseRequirement() {
    Requirement req;
    const Item* item = &Consume();
    bool negated = item->text == "!";
    if (negated) item = &Consume();
    if (!item->word) return Error("found '" + item->text + "', expected: identifier");
    req.key = item->text;
    if (auto errs = KeyErrors(req.key); !errs.empty()) {
      return Error("<nil>: Invalid value: " + GoQuote(req.key) + ": " + Join(errs, "; "));
    }
    if (negated || Peek().end || Peek().text == ",") {
      req.op = negated ? Operator::kDoesNotExist : Operator::kExists;
      return req;
    }
    // Only here are the words `in` and `notin` keywords; elsewhere they are plain identifiers.
    static constexpr std::pair<std::string_view, Operator> kBinary[] = {
        {"in", Operator::kIn},        {"notin", Operator::kNotIn},
        {"=", Operator::kEquals},     {"==", Operator::kDoubleEquals},
        {"!=", Operator::kNotEquals}, {">", Operator::kGreaterThan},
        {"<", Operator::kLessThan}};
    const Item& op = Consume();
    auto found = std::find_if(std::begin(kBinary), std::end(kBinary),
                              [&](const auto& e) { return e.first == op.text; });
    if (found == std::end(kBinary)) {
      return Error("found '" + op.text + "', expected: " + std::string(kBinaryOperators));
    }
    req.op = found->second;
    std::set<std::string> values;
    Status st = (req.op == Operator::kIn || req.op == Operator::kNotIn) ? ParseValueSet(&values)
                                                                        : ParseExactValue(&values);
    if (!st.ok()) return st;
    req.values.assign(values.begin(), values.end());
    return Validate(std::move(req));
  }

  // "(" values ")". Empty entries ("()", "(,a)", "(a,)", "(a,,b)") stand for the empty value;
  // the loop mirrors upstream's so that its oddities ("(a,,)" fails, "(a,,,)" does not) match.
  Status ParseValueSet(std::set<std::string>* values) {
    const Item& open = Consume();
    if (open.text != "(") return Error("found '" + open.text + "' expected: '('");
    if (Peek().text == ")") {
      Consume();
      values->insert("");
      return Status::OK();
    }
    if (!Peek().word && Peek().text != ",") {
      return Error("found '" + Peek().text + "', expected: ',', ')' or identifier");
    }
    while (true) {
      const Item& item = Consume();
      if (item.word) {
        values->insert(item.text);
        if (Peek().text == ")") break;
        if (Peek().text != ",") return Error("found '" + Peek().text + "', expected: ',' or ')'");
      } else if (item.text == ",") {
        if (values->empty()) values->insert("");
        if (Peek().text == ")") {
          values->insert("");
          break;
        }
        if (Peek().text == ",") {
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
    if (Peek().end || Peek().text == ",") {
      values->insert("");
      return Status::OK();
    }
    const Item& item = Consume();
    if (!item.word) return Error("found '" + item.text + "', expected: identifier");
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
    // Upstream aggregates field errors, bracketing the list when there are several (the messages
    // here are always distinct, so its de-duplication has nothing to do).
    if (errs.size() == 1) return Error(errs[0]);
    if (!errs.empty()) return Error("[" + Join(errs, ", ") + "]");
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
    bool exact =
        r.op == Operator::kEquals || r.op == Operator::kDoubleEquals || r.op == Operator::kIn;
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
  std::vector<std::string> parts;
  for (const Requirement& r : requirements_) parts.push_back(RequirementString(r));
  return Join(parts, ",");
}

}  // namespace kube::storage
