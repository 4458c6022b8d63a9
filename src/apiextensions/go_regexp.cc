#include "apiextensions/go_regexp.h"

#include <algorithm>
#include <optional>
#include <set>
#include <vector>

namespace kube::apiextensions {

namespace {

constexpr size_t kNpos = std::string_view::npos;
constexpr int kMaxRepeat = 1000;
constexpr size_t kMaxNesting = 1000;

struct Failure {
  std::string code;
  std::string expr;
};

bool IsAlnum(uint32_t c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

int Unhex(uint32_t c) {
  if (c >= '0' && c <= '9') return static_cast<int>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<int>(c - 'a' + 10);
  if (c >= 'A' && c <= 'F') return static_cast<int>(c - 'A' + 10);
  return -1;
}

// One parenthesised group being parsed (the whole expression is the outermost): what it holds
// so far, as the largest product of repetition counts along any path (Go's repeatIsValid).
struct Frame {
  double done = -1;        // max weight of finished items, -1 when none
  bool has_last = false;   // an item that a repetition operator may apply to
  double last = 0;
};

class Checker {
 public:
  explicit Checker(std::string_view re) : re_(re), n_(re.size()) {}

  std::string Run() {
    if (auto f = Check(); f) return "error parsing regexp: " + f->code + ": `" + f->expr + "`";
    return "";
  }

 private:
  // Decodes the rune at `i`; size 0 at the end of input; nullopt for invalid UTF-8.
  bool Rune(size_t i, uint32_t* r, size_t* size) const {
    if (i >= n_) {
      *r = 0xFFFD;
      *size = 0;
      return true;
    }
    const unsigned char c = static_cast<unsigned char>(re_[i]);
    if (c < 0x80) {
      *r = c;
      *size = 1;
      return true;
    }
    const size_t len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || i + len > n_) return false;
    uint32_t v = c & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
    for (size_t k = 1; k < len; ++k) {
      const unsigned char cc = static_cast<unsigned char>(re_[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      v = (v << 6) | (cc & 0x3F);
    }
    const uint32_t min = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return false;
    *r = v;
    *size = len;
    return true;
  }

  std::string Sub(size_t from, size_t to) const { return std::string(re_.substr(from, to - from)); }
  static std::optional<Failure> Fail(std::string code, std::string expr) { return Failure{std::move(code), std::move(expr)}; }

  void PushItem(double weight) {
    Frame& f = frames_.back();
    if (f.has_last) f.done = std::max(f.done, f.last);
    f.has_last = true;
    f.last = weight;
  }

  static double Weight(const Frame& f) {
    double w = f.done;
    if (f.has_last) w = std::max(w, f.last);
    return w < 0 ? 1 : w;
  }

  std::optional<Failure> Check() {
    for (size_t i = 0; i < n_;) {
      uint32_t r;
      size_t size;
      if (!Rune(i, &r, &size)) return Fail("invalid UTF-8", std::string(re_));
      i += size;
    }
    frames_.push_back(Frame{});
    size_t last_repeat = kNpos;
    for (size_t i = 0; i < n_;) {
      size_t repeat = kNpos;
      const char c = re_[i];
      if (c == '(') {
        if (i + 1 < n_ && re_[i + 1] == '?') {
          auto f = PerlFlags(&i);
          if (f) return f;
        } else {
          frames_.push_back(Frame{});
          ++i;
        }
        if (frames_.size() > kMaxNesting) return Fail("expression nests too deeply", std::string(re_));
      } else if (c == '|') {
        Frame& f = frames_.back();
        if (f.has_last) f.done = std::max(f.done, f.last);
        f.has_last = false;
        ++i;
      } else if (c == ')') {
        if (frames_.size() < 2) return Fail("unexpected )", std::string(re_));
        const double w = Weight(frames_.back());
        frames_.pop_back();
        PushItem(w);
        ++i;
      } else if (c == '^' || c == '$' || c == '.') {
        PushItem(1);
        ++i;
      } else if (c == '[') {
        auto f = Class(&i);
        if (f) return f;
        PushItem(1);
      } else if (c == '*' || c == '+' || c == '?') {
        const size_t before = i;
        size_t after = i + 1;
        auto f = Repeat(before, &after, last_repeat, 1, false);
        if (f) return f;
        repeat = before;
        i = after;
      } else if (c == '{') {
        int min = 0, max = 0;
        size_t after = i;
        if (!ParseRepeat(i, &min, &max, &after)) {
          PushItem(1);  // not a repetition: a literal '{'
          ++i;
        } else {
          if (min < 0 || min > kMaxRepeat || max > kMaxRepeat || (max >= 0 && min > max)) {
            return Fail("invalid repeat count", Sub(i, after));
          }
          // Go's repeatIsValid: {0} and {0,0} end the check, {n,} counts n ({0,} counts as 1).
          const int m = max == 0 ? 0 : max < 0 ? std::max(min, 1) : max;
          auto f = Repeat(i, &after, last_repeat, m, min >= 2 || max >= 2);
          if (f) return f;
          repeat = i;
          i = after;
        }
      } else if (c == '\\') {
        auto f = Backslash(&i);
        if (f) return f;
      } else {
        uint32_t rr;
        size_t size;
        Rune(i, &rr, &size);
        PushItem(1);
        i += size;
      }
      last_repeat = repeat;
    }
    if (frames_.size() != 1) return Fail("missing closing )", std::string(re_));
    return std::nullopt;
  }

  // p.repeat: `*after` is just past the operator; a following '?' makes it non-greedy.
  std::optional<Failure> Repeat(size_t before, size_t* after, size_t last_repeat, int factor, bool check_size) {
    if (*after < n_ && re_[*after] == '?') ++*after;
    if (last_repeat != kNpos) return Fail("invalid nested repetition operator", Sub(last_repeat, *after));
    Frame& f = frames_.back();
    if (!f.has_last) return Fail("missing argument to repetition operator", Sub(before, *after));
    f.last = factor == 0 ? 0 : f.last * factor;
    if (check_size && f.last > kMaxRepeat) return Fail("invalid repeat count", Sub(before, *after));
    return std::nullopt;
  }

  // p.parseRepeat: {n}, {n,}, {n,m}; false when the text is not a repetition.
  bool ParseRepeat(size_t i, int* min, int* max, size_t* after) const {
    size_t t = i + 1;
    if (!ParseInt(&t, min) || t >= n_) return false;
    if (re_[t] != ',') {
      *max = *min;
    } else {
      ++t;
      if (t >= n_) return false;
      if (re_[t] == '}') {
        *max = -1;
      } else if (!ParseInt(&t, max)) {
        return false;
      } else if (*max < 0) {
        *min = -1;
      }
    }
    if (t >= n_ || re_[t] != '}') return false;
    *after = t + 1;
    return true;
  }

  // p.parseInt: decimal digits without leading zeros; -1 when too large.
  bool ParseInt(size_t* t, int* out) const {
    const size_t start = *t;
    if (start >= n_ || re_[start] < '0' || re_[start] > '9') return false;
    if (n_ - start >= 2 && re_[start] == '0' && re_[start + 1] >= '0' && re_[start + 1] <= '9') return false;
    while (*t < n_ && re_[*t] >= '0' && re_[*t] <= '9') ++*t;
    const std::string_view digits = re_.substr(start, *t - start);
    if (digits.size() > 8) {
      *out = -1;
    } else {
      *out = std::stoi(std::string(digits));
    }
    return true;
  }

  std::optional<Failure> PerlFlags(size_t* i) {
    const size_t s = *i;
    const bool starts_with_p = n_ - s > 4 && re_[s + 2] == 'P' && re_[s + 3] == '<';
    const bool starts_with_name = n_ - s > 3 && re_[s + 2] == '<';
    if (starts_with_p || starts_with_name) {
      const size_t expr_start = starts_with_p ? 4 : 3;
      const size_t end = re_.find('>', s);
      if (end == kNpos) return Fail("invalid named capture", Sub(s, n_));
      const std::string_view name = re_.substr(s + expr_start, end - s - expr_start);
      bool valid = !name.empty();
      for (unsigned char ch : name) valid = valid && (ch == '_' || IsAlnum(ch) || ch >= 0x80);
      if (!valid) return Fail("invalid named capture", Sub(s, end + 1));
      frames_.push_back(Frame{});
      *i = end + 1;
      return std::nullopt;
    }
    size_t t = s + 2;
    int sign = 1;
    bool saw_flag = false;
    while (t < n_) {
      uint32_t c;
      size_t size;
      Rune(t, &c, &size);
      t += size;
      if (c == 'i' || c == 'm' || c == 's' || c == 'U') {
        saw_flag = true;
      } else if (c == '-') {
        if (sign < 0) break;
        sign = -1;
        saw_flag = false;
      } else if (c == ':' || c == ')') {
        if (sign < 0 && !saw_flag) break;
        if (c == ':') frames_.push_back(Frame{});
        *i = t;
        return std::nullopt;
      } else {
        break;
      }
    }
    return Fail("invalid or unsupported Perl syntax", Sub(s, t));
  }

  std::optional<Failure> Backslash(size_t* i) {
    const size_t s = *i;
    if (s + 1 < n_) {
      switch (re_[s + 1]) {
        case 'A': case 'b': case 'B': case 'z':
          PushItem(1);
          *i = s + 2;
          return std::nullopt;
        case 'C':
          return Fail("invalid escape sequence", "\\C");
        case 'Q': {
          const size_t lit = s + 2;
          const size_t end = re_.find("\\E", lit);
          const size_t lit_end = end == kNpos ? n_ : end;
          for (size_t k = lit; k < lit_end;) {
            uint32_t r;
            size_t size;
            Rune(k, &r, &size);
            PushItem(1);
            k += size;
          }
          *i = end == kNpos ? n_ : end + 2;
          return std::nullopt;
        }
        case 'd': case 'D': case 's': case 'S': case 'w': case 'W':
          PushItem(1);
          *i = s + 2;
          return std::nullopt;
        case 'p': case 'P': {
          auto f = UnicodeClass(i);
          if (f) return f;
          PushItem(1);
          return std::nullopt;
        }
      }
    }
    uint32_t value;
    auto f = Escape(i, &value);
    if (f) return f;
    PushItem(1);
    return std::nullopt;
  }

  // p.parseEscape at *i ('\\').
  std::optional<Failure> Escape(size_t* i, uint32_t* value) {
    const size_t s = *i;
    size_t t = s + 1;
    if (t >= n_) return Fail("trailing backslash at end of expression", "");
    uint32_t c;
    size_t size;
    Rune(t, &c, &size);
    t += size;
    const auto bad = [&] { return Fail("invalid escape sequence", Sub(s, t)); };
    if (c >= '1' && c <= '7' && (t >= n_ || re_[t] < '0' || re_[t] > '7')) return bad();
    if (c >= '0' && c <= '7') {
      uint32_t r = c - '0';
      for (int k = 1; k < 3 && t < n_ && re_[t] >= '0' && re_[t] <= '7'; ++k) r = r * 8 + static_cast<uint32_t>(re_[t++] - '0');
      *value = r;
      *i = t;
      return std::nullopt;
    }
    if (c == 'x') {
      if (t >= n_) return bad();
      Rune(t, &c, &size);
      t += size;
      if (c == '{') {
        int nhex = 0;
        uint32_t r = 0;
        while (true) {
          if (t >= n_) return bad();
          Rune(t, &c, &size);
          t += size;
          if (c == '}') break;
          const int v = Unhex(c);
          if (v < 0) return bad();
          r = r * 16 + static_cast<uint32_t>(v);
          if (r > 0x10FFFF) return bad();
          ++nhex;
        }
        if (nhex == 0) return bad();
        *value = r;
        *i = t;
        return std::nullopt;
      }
      const int x = Unhex(c);
      if (t >= n_) return bad();
      Rune(t, &c, &size);
      t += size;
      const int y = Unhex(c);
      if (x < 0 || y < 0) return bad();
      *value = static_cast<uint32_t>(x * 16 + y);
      *i = t;
      return std::nullopt;
    }
    switch (c) {
      case 'a': *value = '\a'; break;
      case 'f': *value = '\f'; break;
      case 'n': *value = '\n'; break;
      case 'r': *value = '\r'; break;
      case 't': *value = '\t'; break;
      case 'v': *value = '\v'; break;
      default:
        if (c < 0x80 && !IsAlnum(c)) {
          *value = c;
          break;
        }
        return bad();
    }
    *i = t;
    return std::nullopt;
  }

  static bool IsUnicodeClassName(std::string_view name) {
    static const std::set<std::string_view> kCategories = {
        "Any", "C", "Cc", "Cf", "Cn", "Co", "Cs", "L", "LC", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn",
        "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm", "So", "Z",
        "Zl", "Zp", "Zs"};
    if (kCategories.count(name)) return true;
    // A script name: Latin, Greek, Old_Italic, ... (letters and underscores, capitalised).
    if (name.size() < 3 || !(name[0] >= 'A' && name[0] <= 'Z')) return false;
    return std::all_of(name.begin(), name.end(), [](char ch) {
      return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
    });
  }

  // p.parseUnicodeClass at *i ("\p" or "\P").
  std::optional<Failure> UnicodeClass(size_t* i) {
    const size_t s = *i;
    size_t t = s + 2;
    uint32_t c;
    size_t size;
    Rune(t, &c, &size);
    t += size;
    std::string seq, name;
    if (c != '{') {
      seq = Sub(s, t);
      name = seq.substr(std::min<size_t>(2, seq.size()));
    } else {
      const size_t end = re_.find('}', s);
      if (end == kNpos) return Fail("invalid character class range", Sub(s, n_));
      seq = Sub(s, end + 1);
      name = Sub(s + 3, end);
      t = end + 1;
    }
    if (!name.empty() && name[0] == '^') name = name.substr(1);
    if (!IsUnicodeClassName(name)) return Fail("invalid character class range", seq);
    *i = t;
    return std::nullopt;
  }

  // p.parseClass at *i ('[').
  std::optional<Failure> Class(size_t* i) {
    static const std::set<std::string_view> kPosix = {"alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph",
                                                      "lower", "print", "punct", "space", "upper", "word", "xdigit"};
    const size_t s = *i;
    const std::string whole = Sub(s, n_);
    size_t t = s + 1;
    if (t < n_ && re_[t] == '^') ++t;
    bool first = true;
    while (t >= n_ || re_[t] != ']' || first) {
      first = false;
      if (n_ - std::min(t, n_) > 2 && re_[t] == '[' && re_[t + 1] == ':') {
        const size_t close = re_.find(":]", t + 2);
        if (close != kNpos) {
          const std::string name = Sub(t, close + 2);
          std::string_view inner = std::string_view(name).substr(2, name.size() - 4);
          if (!inner.empty() && inner[0] == '^') inner.remove_prefix(1);
          if (!kPosix.count(inner)) return Fail("invalid character class range", name);
          t = close + 2;
          continue;
        }
      }
      if (t + 1 < n_ && re_[t] == '\\' && (re_[t + 1] == 'p' || re_[t + 1] == 'P')) {
        auto f = UnicodeClass(&t);
        if (f) return f;
        continue;
      }
      if (t + 1 < n_ && re_[t] == '\\' && std::string_view("dDsSwW").find(re_[t + 1]) != kNpos) {
        t += 2;
        continue;
      }
      const size_t range_start = t;
      uint32_t lo;
      auto f = ClassChar(&t, whole, &lo);
      if (f) return f;
      if (n_ - t >= 2 && re_[t] == '-' && re_[t + 1] != ']') {
        ++t;
        uint32_t hi;
        f = ClassChar(&t, whole, &hi);
        if (f) return f;
        if (hi < lo) return Fail("invalid character class range", Sub(range_start, t));
      }
    }
    *i = t + 1;
    return std::nullopt;
  }

  std::optional<Failure> ClassChar(size_t* t, const std::string& whole, uint32_t* value) {
    if (*t >= n_) return Fail("missing closing ]", whole);
    if (re_[*t] == '\\') return Escape(t, value);
    size_t size;
    Rune(*t, value, &size);
    *t += size;
    return std::nullopt;
  }

  std::string_view re_;
  size_t n_;
  std::vector<Frame> frames_;
};

}  // namespace

std::string CheckGoRegexpSyntax(std::string_view pattern) { return Checker(pattern).Run(); }

}  // namespace kube::apiextensions
