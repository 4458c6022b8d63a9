// Type conversions (int, uint, double, string, bytes, bool, dyn, type) and the string functions
// of the standard library (contains, startsWith, endsWith, matches).
#include <re2/re2.h>

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "cel/stdlib_internal.h"
#include "util/go_format.h"

namespace kube::cel::internal {

namespace {

constexpr Kind I = Kind::kInt, U = Kind::kUint, D = Kind::kDouble, S = Kind::kString, B = Kind::kBytes,
               BOOL = Kind::kBool, TS = Kind::kTimestamp, DUR = Kind::kDuration;

bool ValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    int n;
    uint32_t cp;
    if ((c >> 5) == 6) {
      n = 1, cp = c & 0x1F;
    } else if ((c >> 4) == 14) {
      n = 2, cp = c & 0x0F;
    } else if ((c >> 3) == 30) {
      n = 3, cp = c & 0x07;
    } else {
      return false;
    }
    if (i + n >= s.size()) return false;
    for (int k = 1; k <= n; ++k) {
      const unsigned char cc = s[i + k];
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    i += n + 1;
  }
  return true;
}

template <class T>
bool ParseInteger(std::string_view s, T* out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && !s.empty();
}

bool ParseDouble(const std::string& s, double* out) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return false;
  std::string lower;
  for (char c : s) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // Go's ParseFloat accepts inf/infinity/nan in any case, with a sign.
  const std::string_view body = lower[0] == '+' || lower[0] == '-' ? std::string_view(lower).substr(1) : lower;
  if (body == "inf" || body == "infinity") {
    *out = lower[0] == '-' ? -INFINITY : INFINITY;
    return true;
  }
  if (body == "nan") {
    *out = NAN;
    return true;
  }
  if (body.find_first_not_of("0123456789.e+-_") != std::string_view::npos) return false;
  char* end = nullptr;
  *out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

void Conversions(FunctionRegistry& r) {
  auto add = [&](std::string_view name, Param from, FunctionImpl f) { r.Add(name, {.params = {from}}, std::move(f)); };
  auto identity = [](const Value* a, CallContext&) { return a[0]; };
  add("int", I, identity);
  add("int", U, [](const Value* a, CallContext&) {
    return a[0].AsUint() > static_cast<uint64_t>(INT64_MAX) ? RangeError("uint to int") : Value::Int(static_cast<int64_t>(a[0].AsUint()));
  });
  add("int", D, [](const Value* a, CallContext&) {
    const double d = a[0].AsDouble();
    // The open interval (-2^63, 2^63), as cel-spec's conformance tests and cel-go have it: -2^63
    // itself, though an int64, is out of range (conversions/int/double_int_min_range).
    if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0)) return RangeError("double to int");
    return Value::Int(static_cast<int64_t>(d));
  });
  add("int", S, [](const Value* a, CallContext&) {
    int64_t i;
    return ParseInteger(a[0].AsString(), &i) ? Value::Int(i) : Value::Error("cannot convert string to int: " + a[0].AsString());
  });
  add("int", TS, [](const Value* a, CallContext&) { return Value::Int(a[0].AsTimestamp().seconds); });
  add("int", DUR, [](const Value* a, CallContext&) { return Value::Int(a[0].AsDuration().nanos); });

  add("uint", U, identity);
  add("uint", I, [](const Value* a, CallContext&) {
    return a[0].AsInt() < 0 ? RangeError("int to uint") : Value::Uint(static_cast<uint64_t>(a[0].AsInt()));
  });
  add("uint", D, [](const Value* a, CallContext&) {
    const double d = a[0].AsDouble();
    if (!(d > -1.0 && d < 18446744073709551616.0)) return RangeError("double to uint");
    return Value::Uint(static_cast<uint64_t>(d));
  });
  add("uint", S, [](const Value* a, CallContext&) {
    uint64_t u;
    return ParseInteger(a[0].AsString(), &u) ? Value::Uint(u) : Value::Error("cannot convert string to uint: " + a[0].AsString());
  });

  add("double", D, identity);
  add("double", I, [](const Value* a, CallContext&) { return Value::Double(static_cast<double>(a[0].AsInt())); });
  add("double", U, [](const Value* a, CallContext&) { return Value::Double(static_cast<double>(a[0].AsUint())); });
  add("double", S, [](const Value* a, CallContext&) {
    double d;
    return ParseDouble(a[0].AsString(), &d) ? Value::Double(d) : Value::Error("cannot convert string to double: " + a[0].AsString());
  });

  add("string", S, identity);
  add("string", I, [](const Value* a, CallContext&) { return Value::String(std::to_string(a[0].AsInt())); });
  add("string", U, [](const Value* a, CallContext&) { return Value::String(std::to_string(a[0].AsUint())); });
  add("string", D, [](const Value* a, CallContext&) { return Value::String(GoFormatFloat(a[0].AsDouble())); });
  add("string", BOOL, [](const Value* a, CallContext&) { return Value::String(a[0].AsBool() ? "true" : "false"); });
  add("string", B, [](const Value* a, CallContext&) {
    if (!ValidUtf8(a[0].AsBytes())) return Value::Error("invalid UTF-8 in bytes, cannot convert to string");
    return Value::String(a[0].AsBytes());
  });
  add("string", TS, [](const Value* a, CallContext&) { return Value::String(FormatRfc3339(a[0].AsTimestamp())); });
  add("string", DUR, [](const Value* a, CallContext&) { return Value::String(FormatDurationSeconds(a[0].AsDuration())); });

  add("bytes", B, identity);
  add("bytes", S, [](const Value* a, CallContext&) { return Value::Bytes(a[0].AsString()); });

  add("bool", BOOL, identity);
  add("bool", S, [](const Value* a, CallContext&) {
    const std::string& s = a[0].AsString();
    if (s == "1" || s == "t" || s == "T" || s == "TRUE" || s == "true" || s == "True") return Value::Bool(true);
    if (s == "0" || s == "f" || s == "F" || s == "FALSE" || s == "false" || s == "False") return Value::Bool(false);
    return Value::Error("type conversion error from 'string' to 'bool'");
  });

  add("dyn", Param(), identity);
  add("type", Param(), [](const Value* a, CallContext&) { return Value::Type(a[0].TypeName()); });
}

void Strings(FunctionRegistry& r) {
  auto receiver = [&](std::string_view name, FunctionImpl f) { r.Add(name, {.receiver = true, .params = {S, S}}, std::move(f)); };
  receiver("contains", [](const Value* a, CallContext& ctx) {
    ctx.AddCost(a[0].AsString().size() / 10);
    return Value::Bool(a[0].AsString().find(a[1].AsString()) != std::string::npos);
  });
  receiver("startsWith", [](const Value* a, CallContext&) { return Value::Bool(a[0].AsString().starts_with(a[1].AsString())); });
  receiver("endsWith", [](const Value* a, CallContext&) { return Value::Bool(a[0].AsString().ends_with(a[1].AsString())); });
  AddBoth(r, "matches", {S, S}, [](const Value* a, CallContext& ctx) {
    std::string error;
    const re2::RE2* re = ctx.Regex(a[1].AsString(), &error);
    if (re == nullptr) return Value::Error(error);
    ctx.AddCost(a[0].AsString().size() / 10 + 1);
    return Value::Bool(re2::RE2::PartialMatch(a[0].AsString(), *re));
  });
}

}  // namespace

void RegisterConversions(FunctionRegistry& r) { Conversions(r); }
void RegisterStrings(FunctionRegistry& r) { Strings(r); }

}  // namespace kube::cel::internal
