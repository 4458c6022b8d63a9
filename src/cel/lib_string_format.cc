// cel-go's `<string>.format(<list>)` as ext.Strings version 2 has it (kube 1.36; the formatter
// cel-go keeps for versions below 4, with its en_US locale): %s %d %f %e %b %x %X %o, an
// optional precision (`%.3f`), %% for a percent sign. %f and %e go through the localized
// printer (en_US: grouped thousands, "∞", and "2.718280 × 10⁰⁰" with narrow no-break spaces);
// lists and maps under %s render their elements CEL-like (strings quoted, doubles as %.6f).
// Errors are worded as cel-go words them ("error during formatting: decimal clause can only be
// used on integers, was given double", "index 1 out of range").
//
// cel-go also checks constant format strings with literal argument lists when compiling; that
// is format_validator.h. The clause syntax both read is string_format_clause.h.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <variant>

#include "cel/lib_internal.h"
#include "cel/stdlib_internal.h"
#include "cel/string_format_clause.h"
#include "util/go_format.h"

namespace kube::cel::internal {

namespace {

constexpr Kind S = Kind::kString, L = Kind::kList;
constexpr int kDefaultPrecision = 6;
// The largest precision formatted (cel-go's version 2 has no limit; see Format).
constexpr int64_t kMaxPrecision = 1000;

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
    default: return TypeError(FormatVerbTypeError('s'), v);
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
      if (!s) return TypeError(FormatVerbTypeError('d'), v);
      return *s;
    }
    case 'f': {
      auto d = FloatArg(v);
      if (!d) return TypeError(FormatVerbTypeError('f'), v);
      return LocalizedFixed(*d, precision.value_or(kDefaultPrecision));
    }
    case 'e': {
      auto d = FloatArg(v);
      if (!d) return TypeError(FormatVerbTypeError('e'), v);
      return LocalizedScientific(*d, precision.value_or(kDefaultPrecision));
    }
    case 'b': {
      if (v.kind() == Kind::kBool) return std::string(v.AsBool() ? "1" : "0");
      auto s = Integer(v, 2);
      if (!s) return TypeError(FormatVerbTypeError('b'), v);
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
      if (!s) return TypeError(FormatVerbTypeError(verb), v);
      return *s;
    }
    case 'o': {
      auto s = Integer(v, 8);
      if (!s) return TypeError(FormatVerbTypeError('o'), v);
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
    FormatClause clause;
    std::string error;
    // Go would print any precision; beyond kMaxPrecision the output is only zeros, and memory is
    // not.
    if (!ParseFormatClause(fmt, i + 1, kMaxPrecision, &clause, &error)) return Value::Error(error);
    const std::optional<int> precision =
        clause.precision ? std::optional<int>(static_cast<int>(*clause.precision)) : std::nullopt;
    Formatted f = Clause(clause.verb, precision, args[arg]);
    if (auto* failure = std::get_if<Failure>(&f)) return Value::Error("error during formatting: " + failure->message);
    out += std::get<std::string>(f);
    ++arg;
    i = clause.end;
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
