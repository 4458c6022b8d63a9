// cel-go's `<string>.format(<list>)` as ext.Strings version 2 has it (kube 1.36; the formatter
// cel-go keeps for versions below 4, with its en_US locale): %s %d %f %e %b %x %X %o, an
// optional precision (`%.3f`), %% for a percent sign. %f and %e go through the localized
// printer (en_US: grouped thousands, "∞", and "2.718280 × 10⁰⁰" with narrow no-break spaces);
// lists and maps under %s render their elements CEL-like (strings quoted, doubles as %.6f).
// Errors are worded as cel-go words them ("error during formatting: decimal clause can only be
// used on integers, was given double", "index 1 out of range").
//
// cel-go also checks constant format strings with literal argument lists when compiling; that
// is the type checker's part, not this runtime's.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <variant>

#include "cel/lib_internal.h"
#include "cel/stdlib_internal.h"
#include "util/go_format.h"

namespace kube::cel::internal {

namespace {

constexpr Kind S = Kind::kString, L = Kind::kList;
constexpr int kDefaultPrecision = 6;

struct Failure {
  std::string message;
};
using Formatted = std::variant<std::string, Failure>;

std::string Printf(const char* fmt, int precision, double v) {
  char buf[512];
  const int n = std::snprintf(buf, sizeof buf, fmt, precision, v);
  if (n >= 0 && static_cast<size_t>(n) < sizeof buf) return std::string(buf, static_cast<size_t>(n));
  std::string big(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(big.data(), big.size(), fmt, precision, v);
  big.resize(static_cast<size_t>(n));
  return big;
}

// Go's fmt %.<p>f (not localized): "+Inf", "-Inf", "NaN" for the specials.
std::string GoFixed(double v, int precision) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  return Printf("%.*f", precision, v);
}

// x/text's en_US rendering of %.<p>f: the integer part grouped by thousands.
std::string LocalizedFixed(double v, int precision) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "∞" : "-∞";
  std::string s = Printf("%.*f", precision, v);
  const bool negative = s[0] == '-';
  const size_t start = negative ? 1 : 0;
  const size_t dot = s.find('.') == std::string::npos ? s.size() : s.find('.');
  std::string grouped;
  for (size_t i = start; i < dot; ++i) {
    if (i > start && (dot - i) % 3 == 0) grouped += ',';
    grouped += s[i];
  }
  return (negative ? "-" : "") + grouped + s.substr(dot);
}

// x/text's en_US rendering of %.<p>e: "1.052033 × 10⁰³" (U+202F around the sign).
std::string LocalizedScientific(double v, int precision) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "∞" : "-∞";
  const std::string s = Printf("%.*e", precision, v);
  const size_t e = s.find('e');
  static const char* const kSuperscript[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string out = s.substr(0, e) + "\u202f\u00d7\u202f10";
  if (s[e + 1] == '-') out += "⁻";
  for (size_t i = e + 2; i < s.size(); ++i) out += kSuperscript[s[i] - '0'];
  return out;
}

std::string Radix(uint64_t magnitude, bool negative, int base, bool upper) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string out;
  do {
    out.insert(out.begin(), digits[magnitude % static_cast<uint64_t>(base)]);
    magnitude /= static_cast<uint64_t>(base);
  } while (magnitude > 0);
  return negative ? "-" + out : out;
}

// An int or uint in `base`; nullopt for other kinds.
std::optional<std::string> Integer(const Value& v, int base, bool upper = false) {
  if (v.kind() == Kind::kInt) {
    const int64_t i = v.AsInt();
    const uint64_t m = i < 0 ? ~static_cast<uint64_t>(i) + 1 : static_cast<uint64_t>(i);
    return Radix(m, i < 0, base, upper);
  }
  if (v.kind() == Kind::kUint) return Radix(v.AsUint(), false, base, upper);
  return std::nullopt;
}

Failure TypeError(std::string_view what, const Value& v) {
  return Failure{std::string(what) + ", was given " + std::string(v.TypeName())};
}

constexpr std::string_view kStringClause =
    "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and "
    "timestamps";

Formatted FormatString(const Value& v);

// cel-go's clauseForType followed by quoteForCEL: an element of a list or map under %s.
Formatted FormatElement(const Value& v) {
  switch (v.kind()) {
    case Kind::kInt:
    case Kind::kUint: return *Integer(v, 10);
    case Kind::kString: return GoQuote(v.AsString());
    case Kind::kBytes: {
      Formatted s = FormatString(v);
      if (auto* f = std::get_if<Failure>(&s)) return *f;
      return "b" + GoQuote(std::get<std::string>(s));
    }
    case Kind::kBool:
    case Kind::kNull:
    case Kind::kType:
    case Kind::kList:
    case Kind::kMap: return FormatString(v);
    case Kind::kTimestamp: return "timestamp(" + GoQuote(FormatRfc3339(v.AsTimestamp())) + ")";
    case Kind::kDuration: return "duration(" + GoQuote(FormatDurationSeconds(v.AsDuration())) + ")";
    case Kind::kDouble: {
      const double d = v.AsDouble();
      const std::string s = GoFixed(d, kDefaultPrecision);
      return std::isnan(d) || std::isinf(d) ? GoQuote(s) : s;
    }
    default: return Failure{"no formatting function for " + std::string(v.TypeName())};
  }
}

// cel-go's FormatString: the %s clause.
Formatted FormatString(const Value& v) {
  switch (v.kind()) {
    case Kind::kList: {
      std::string out = "[";
      const auto& items = v.AsList();
      for (size_t i = 0; i < items.size(); ++i) {
        Formatted e = FormatElement(items[i]);
        if (auto* f = std::get_if<Failure>(&e)) return *f;
        out += (i ? ", " : "") + std::get<std::string>(e);
      }
      return out + "]";
    }
    case Kind::kMap: {
      std::vector<std::pair<std::string, std::string>> pairs;
      for (const auto& [key, value] : v.AsMap()) {
        Formatted k = key.kind() == Kind::kString || key.kind() == Kind::kBool ? FormatString(key) : FormatElement(key);
        Formatted val = FormatElement(value);
        if (auto* f = std::get_if<Failure>(&k)) return *f;
        if (auto* f = std::get_if<Failure>(&val)) return *f;
        std::string key_text = std::get<std::string>(k);
        if (key.kind() == Kind::kString) key_text = GoQuote(key_text);
        pairs.emplace_back(std::move(key_text), std::get<std::string>(val));
      }
      std::stable_sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      std::string out = "{";
      for (size_t i = 0; i < pairs.size(); ++i) out += (i ? ", " : "") + pairs[i].first + ":" + pairs[i].second;
      return out + "}";
    }
    case Kind::kInt:
    case Kind::kUint: return *Integer(v, 10);
    case Kind::kDouble: return GoFormatFloat(v.AsDouble());
    case Kind::kBool: return std::string(v.AsBool() ? "true" : "false");
    case Kind::kString: return v.AsString();
    case Kind::kTimestamp: return FormatRfc3339(v.AsTimestamp());
    case Kind::kDuration: return FormatDurationSeconds(v.AsDuration());
    case Kind::kType: return std::string(v.AsTypeName());
    case Kind::kNull: return std::string("null");
    case Kind::kBytes: {
      const std::string& b = v.AsBytes();
      for (size_t i = 0; i < b.size();) {
        auto [r, n] = GoDecodeRune(b, i);
        if (r == 0xFFFD && n == 1) {
          return Failure{"could not convert argument \"invalid UTF-8 in bytes, cannot convert to string\" to string"};
        }
        i += n;
      }
      return b;
    }
    default: return TypeError(kStringClause, v);
  }
}

// A double for %f / %e: doubles, and the strings "NaN", "Infinity" and "-Infinity".
std::optional<double> FloatArg(const Value& v) {
  if (v.kind() == Kind::kDouble) return v.AsDouble();
  if (v.kind() == Kind::kString) {
    const std::string& s = v.AsString();
    if (s == "NaN") return NAN;
    if (s == "Infinity") return HUGE_VAL;
    if (s == "-Infinity") return -HUGE_VAL;
  }
  return std::nullopt;
}

Formatted Clause(char verb, std::optional<int> precision, const Value& v) {
  switch (verb) {
    case 's': return FormatString(v);
    case 'd': {
      auto s = Integer(v, 10);
      if (!s) return TypeError("decimal clause can only be used on integers", v);
      return *s;
    }
    case 'f': {
      auto d = FloatArg(v);
      if (!d) return TypeError("fixed-point clause can only be used on doubles", v);
      return LocalizedFixed(*d, precision.value_or(kDefaultPrecision));
    }
    case 'e': {
      auto d = FloatArg(v);
      if (!d) return TypeError("scientific clause can only be used on doubles", v);
      return LocalizedScientific(*d, precision.value_or(kDefaultPrecision));
    }
    case 'b': {
      if (v.kind() == Kind::kBool) return std::string(v.AsBool() ? "1" : "0");
      auto s = Integer(v, 2);
      if (!s) return TypeError("only integers and bools can be formatted as binary", v);
      return *s;
    }
    case 'x':
    case 'X': {
      const bool upper = verb == 'X';
      if (v.kind() == Kind::kString || v.kind() == Kind::kBytes) {
        const std::string& s = v.kind() == Kind::kString ? v.AsString() : v.AsBytes();
        std::string out;
        for (unsigned char c : s) out += Radix(c, false, 16, upper).insert(0, c < 16 ? "0" : "");
        return out;
      }
      auto s = Integer(v, 16, upper);
      if (!s) return TypeError("only integers, byte buffers, and strings can be formatted as hex", v);
      return *s;
    }
    case 'o': {
      auto s = Integer(v, 8);
      if (!s) return TypeError("octal clause can only be used on integers", v);
      return *s;
    }
    default: return Failure{};  // not reached: the caller checks the verb
  }
}

Value Format(const std::string& fmt, const ValueList& args) {
  std::string out;
  size_t arg = 0;
  for (size_t i = 0; i < fmt.size();) {
    if (fmt[i] != '%') {
      out += fmt[i++];
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
      out += '%';
      i += 2;
      continue;
    }
    if (arg >= args.size()) return Value::Error("index " + std::to_string(arg) + " out of range");
    if (i + 1 >= fmt.size()) return Value::Error("unexpected end of string");
    size_t j = i + 1;
    std::optional<int> precision;
    const std::string clause_error = "could not parse formatting clause: ";
    if (fmt[j] == '.') {
      ++j;
      const size_t digits_start = j;
      while (j < fmt.size() && fmt[j] >= '0' && fmt[j] <= '9') ++j;
      if (j >= fmt.size()) {
        return Value::Error(clause_error + "error while parsing precision: could not find end of precision specifier");
      }
      const std::string digits = fmt.substr(digits_start, j - digits_start);
      if (digits.empty() || digits.size() > 18) {
        return Value::Error(clause_error + "error while parsing precision: error while converting precision to integer: " +
                            "strconv.Atoi: parsing " + GoQuote(digits) + (digits.empty() ? ": invalid syntax" : ": value out of range"));
      }
      const long long p = std::stoll(digits);
      // Go would print any precision; beyond this the output is only zeros, and memory is not.
      if (p > 1000) return Value::Error(clause_error + "error while parsing precision: precision " + digits + " exceeds maximum allowed precision 1000");
      precision = static_cast<int>(p);
    }
    const char verb = fmt[j];
    if (std::string_view("sdfebxXo").find(verb) == std::string_view::npos) {
      // %c of one byte, as cel-go reads the verb.
      std::string shown = static_cast<unsigned char>(verb) < 0x80 ? std::string(1, verb)
                                                                  : std::string{static_cast<char>(0xC0 | (static_cast<unsigned char>(verb) >> 6)),
                                                                                static_cast<char>(0x80 | (static_cast<unsigned char>(verb) & 0x3F))};
      return Value::Error(clause_error + "unrecognized formatting clause \"" + shown + "\"");
    }
    Formatted f = Clause(verb, precision, args[arg]);
    if (auto* failure = std::get_if<Failure>(&f)) return Value::Error("error during formatting: " + failure->message);
    out += std::get<std::string>(f);
    ++arg;
    i = j + 1;
  }
  return Value::String(std::move(out));
}

}  // namespace

void RegisterStringFormat(FunctionRegistry& r) {
  AddMember(r, "format", {S, L}, [](const Value* a, CallContext& ctx) {
    Value out = Format(a[0].AsString(), a[1].AsList());
    ctx.AddCost(TraversalCost(a[0].AsString().size() + (out.kind() == Kind::kString ? out.AsString().size() : 0)));
    return out;
  });
}

}  // namespace kube::cel::internal
