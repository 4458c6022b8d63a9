#include "patch/patch_internal.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

#include "util/json_depth.h"

namespace kube::patch::internal {
namespace {

// Integers beyond int64 decode as float64 in Go, even when nlohmann holds them as uint64.
bool FitsInt64(const Json& v) {
  return v.is_number_integer() &&
         (!v.is_number_unsigned() ||
          v.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()));
}

double AsDouble(const Json& v) {
  if (v.is_number_unsigned()) return static_cast<double>(v.get<uint64_t>());
  if (v.is_number_integer()) return static_cast<double>(v.get<int64_t>());
  return v.get<double>();
}

// strconv's shortest 'g' as fmt's %v uses it: exponent form below 1e-4 and from 1e6 (Go switches
// at precision 6 when printing the shortest representation).
std::string GoFloat(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  char buf[64];
  auto sci = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string s(buf, sci.ptr);
  size_t e = s.find('e');
  int exp = 0;
  if (e != std::string::npos) std::from_chars(s.data() + e + 1 + (s[e + 1] == '+'), s.data() + s.size(), exp);
  if (exp < -4 || exp >= 6) return s;
  auto fixed = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::fixed);
  return std::string(buf, fixed.ptr);
}

}  // namespace

std::optional<Json> ParseBody(std::string_view body) {
  if (FindJsonDepthExcess(body, kMaxNestingDepth) != std::string_view::npos) return std::nullopt;
  try {
    Json parsed = Json::parse(body.begin(), body.end(), /*cb=*/nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) return std::nullopt;
    return parsed;
  } catch (...) {
    // allow_exceptions=false covers syntax errors; this is for allocation failures.
    return std::nullopt;
  }
}

Status Unprocessable() { return Status(StatusCode::kInvalid, std::string(kUnprocessableMessage)); }

GoKind KindOf(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null: return GoKind::kNil;
    case Json::value_t::boolean: return GoKind::kBool;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return FitsInt64(v) ? GoKind::kInt64 : GoKind::kFloat64;
    case Json::value_t::number_float: return GoKind::kFloat64;
    case Json::value_t::string: return GoKind::kString;
    case Json::value_t::object: return GoKind::kMap;
    case Json::value_t::array: return GoKind::kSlice;
    default: return GoKind::kNil;  // binary / discarded never come out of ParseBody
  }
}

std::string_view GoTypeName(const Json& v) {
  switch (KindOf(v)) {
    case GoKind::kNil: return "<nil>";
    case GoKind::kBool: return "bool";
    case GoKind::kInt64: return "int64";
    case GoKind::kFloat64: return "float64";
    case GoKind::kString: return "string";
    case GoKind::kMap: return "map[string]interface {}";
    case GoKind::kSlice: return "[]interface {}";
  }
  return "<nil>";
}

std::string_view JsonTypeWord(const Json& v) {
  if (v.is_object()) return "object";
  if (v.is_array()) return "array";
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "bool";
  if (v.is_number()) return "number";
  return "null";
}

std::optional<bool> GoCompare(const Json& a, const Json& b) {
  GoKind ka = KindOf(a);
  if (ka != KindOf(b)) return false;
  switch (ka) {
    case GoKind::kNil: return true;
    case GoKind::kBool: return a.get<bool>() == b.get<bool>();
    case GoKind::kInt64: return a.get<int64_t>() == b.get<int64_t>();
    case GoKind::kFloat64: return AsDouble(a) == AsDouble(b);
    case GoKind::kString: return a.get_ref<const std::string&>() == b.get_ref<const std::string&>();
    case GoKind::kMap:
    case GoKind::kSlice: return std::nullopt;
  }
  return false;
}

Status UncomparablePanic(const Json& v) {
  return Status::Internal("runtime error: comparing uncomparable type " +
                          std::string(GoTypeName(v)));
}

std::optional<std::string> ScalarKey(const Json& v) {
  switch (KindOf(v)) {
    case GoKind::kNil: return std::string("n");
    case GoKind::kBool: return std::string(v.get<bool>() ? "b1" : "b0");
    case GoKind::kInt64: return "i" + std::to_string(v.get<int64_t>());
    case GoKind::kFloat64: {
      double d = AsDouble(v);
      if (d == 0) return std::string("f0");  // 0.0 == -0.0 in Go
      char buf[64];
      auto r = std::to_chars(buf, buf + sizeof buf, d);
      return "f" + std::string(buf, r.ptr);
    }
    case GoKind::kString: return "s" + v.get<std::string>();
    case GoKind::kMap:
    case GoKind::kSlice: return std::nullopt;
  }
  return std::nullopt;
}

std::string GoFormat(const Json& v) {
  switch (KindOf(v)) {
    case GoKind::kNil: return "<nil>";
    case GoKind::kBool: return v.get<bool>() ? "true" : "false";
    case GoKind::kInt64: return std::to_string(v.get<int64_t>());
    case GoKind::kFloat64: return GoFloat(AsDouble(v));
    case GoKind::kString: return v.get<std::string>();
    case GoKind::kMap: {
      // nlohmann objects iterate in key order, which is also how fmt prints maps.
      std::string out = "map[";
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (!first) out += ' ';
        first = false;
        out += it.key();
        out += ':';
        out += GoFormat(*it);
      }
      return out + "]";
    }
    case GoKind::kSlice: {
      std::string out = "[";
      for (size_t i = 0; i < v.size(); ++i) {
        if (i > 0) out += ' ';
        out += GoFormat(v[i]);
      }
      return out + "]";
    }
  }
  return "";
}

std::string GoFormatS(const Json& v, bool nested) {
  switch (KindOf(v)) {
    case GoKind::kString: return v.get<std::string>();
    case GoKind::kNil: return nested ? "<nil>" : "%!s(<nil>)";
    case GoKind::kMap: {
      std::string out = "map[";
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (!first) out += ' ';
        first = false;
        out += it.key() + ":" + GoFormatS(*it, /*nested=*/true);
      }
      return out + "]";
    }
    case GoKind::kSlice: {
      std::string out = "[";
      for (size_t i = 0; i < v.size(); ++i) out += (i ? " " : "") + GoFormatS(v[i], /*nested=*/true);
      return out + "]";
    }
    default: return "%!s(" + std::string(GoTypeName(v)) + "=" + GoFormat(v) + ")";
  }
}

std::string Dump(const Json& v) { return v.dump(-1, ' ', false, Json::error_handler_t::replace); }

}  // namespace kube::patch::internal
