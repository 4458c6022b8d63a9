#include "schema/openapi_validation.h"

#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
#include <re2/re2.h>

#include "schema/formats.h"
#include "schema/go_values.h"
#include "schema/openapi_result.h"
#include "util/go_format.h"

namespace kube::schema {

namespace {

using json = nlohmann::json;

enum class Kind { kNull, kBool, kString, kInt, kFloat, kArray, kObject };

Kind KindOf(const json& v) {
  if (v.is_null()) return Kind::kNull;
  if (v.is_boolean()) return Kind::kBool;
  if (v.is_string()) return Kind::kString;
  if (v.is_number()) return IsGoInt(v) ? Kind::kInt : Kind::kFloat;
  if (v.is_array()) return Kind::kArray;
  return Kind::kObject;
}

// swag.IsFloat64AJSONInteger.
bool IsJsonInteger(double f) {
  constexpr double kMax = 9007199254740991.0;  // 1<<53 - 1
  if (std::isnan(f) || std::isinf(f) || f < -kMax || f > kMax) return false;
  const double t = std::trunc(f);
  if (f == t) return true;
  const double diff = std::fabs(f - t);
  if (t == 0) return diff < 1e-9 * DBL_TRUE_MIN;
  return diff / (std::fabs(f) + std::fabs(t)) < 1e-9;
}

// strconv.ParseInt(s, 10, bits) succeeds.
bool FitsInt(const std::string& s, int bits) {
  size_t i = s[0] == '-' || s[0] == '+' ? 1 : 0;
  if (i == s.size()) return false;
  for (size_t k = i; k < s.size(); ++k) {
    if (s[k] < '0' || s[k] > '9') return false;
  }
  if (s.size() - i > 19) return false;
  const long double v = std::strtold(s.c_str(), nullptr);
  const long double limit = bits == 32 ? 2147483648.0L : 9223372036854775808.0L;
  return s[0] == '-' ? -v <= limit : v < limit;
}

// validate.IsValueValidAgainstRange: a number (value or constraint) fits the node's numeric type
// and format. Empty when it does.
std::string RangeError(const json& v, std::string_view type_name, std::string_view format,
                       std::string_view prefix, const std::string& path) {
  const std::string rep = IsGoInt(v) ? std::to_string(GoInt(v)) : FormatFloatPlain(GoFloat(v));
  bool ok = true;
  if (type_name == "integer") {
    ok = FitsInt(rep, format == "int32" ? 32 : 64);
  } else if (format == "float") {
    ok = !std::isinf(std::strtof(rep.c_str(), nullptr));
  }
  if (ok) return {};
  std::string msg = std::string(prefix) + " value must be of type " + std::string(type_name);
  msg += format.empty() ? " (default format)" : " with format " + std::string(format);
  return msg + " in " + path;
}

std::string IntOrFloat(double f, bool as_int) {
  return as_int ? std::to_string(static_cast<int64_t>(f)) : GoFormatFloat(f);
}

// reflect's conversion of `data` to the enum value's Go type, then DeepEqual.
bool EnumMatches(const json& data, const json& ev) {
  if (data.is_null() || ev.is_null()) return false;
  if (GoDeepEqual(data, ev)) return true;
  if (data.is_number() && ev.is_number()) {
    if (IsGoInt(ev)) {
      if (IsGoInt(data)) return GoInt(data) == GoInt(ev);
      // Go converts the float to int64 (truncating); out of range there is nothing to match.
      const double f = GoFloat(data);
      return std::fabs(f) < 9.2e18 && static_cast<int64_t>(f) == GoInt(ev);
    }
    return GoFloat(data) == GoFloat(ev);
  }
  return false;
}

std::string EnumList(const json& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += " ";
    out += values[i].is_string() ? values[i].get<std::string>() : GoValue(values[i]);
  }
  return out + "]";
}

class Validator {
 public:
  explicit Validator(OpenAPISource source) : source_(source) {}

  // SchemaValidator.Validate. With `old` (an update) this is kube's ratcheting validator: when the
  // value equals the old one its errors are dropped. Junctor branches validate the same value
  // with the same `old` but do not ratchet on their own (`ratchets`).
  Result Validate(const Schema* s, const json& data, const std::string& path, const json* old = nullptr,
                  bool ratchets = true) {
    Result result = Check(s, data, path, old);
    if (!result.valid() && ratchets && old != nullptr && GoDeepEqual(*old, data)) result.errors.clear();
    return result;
  }

 private:
  Result Check(const Schema* s, const json& data, const std::string& path, const json* old) {
    Result result;
    if (s == nullptr) return result;
    const Node n = Describe(*s);
    if (data.is_null()) {
      result.Merge(TypeCheck(n, data, path));
      result.Merge(EnumCheck(n, data, path));
      return result;
    }
    const Kind kind = KindOf(data);
    auto run = [&](Result r) {
      result.Merge(std::move(r));
      result.Inc();
    };
    if (!n.types.empty() || !n.format.empty()) run(TypeCheck(n, data, path));
    run(Junctors(n, data, path, old));
    if (kind == Kind::kString) run(StringCheck(n, data, path));
    if (kind == Kind::kString && KnownFormat(n.format)) run(FormatCheck(n, data, path));
    if (kind == Kind::kInt || kind == Kind::kFloat) run(NumberCheck(n, data, path));
    if (kind == Kind::kArray) run(SliceCheck(n, data, path, old));
    run(EnumCheck(n, data, path));
    if (kind == Kind::kObject) run(ObjectCheck(n, data, path, old));
    result.Inc();
    return result;
  }

  // A node as kube's converted spec.Schema shows it.
  struct Node {
    const Schema* schema;
    const ValueValidation* vv;
    std::vector<std::string_view> types;
    std::string_view format;
  };

  Node Describe(const Schema& s) const {
    Node n{&s, s.Validation(), {}, {}};
    if (source_ == OpenAPISource::kCustomResource && s.type() == Schema::Type::kIntOrString) {
      n.types = {"integer", "string"};
    } else if (!s.OpenAPIType().empty()) {
      n.types = {s.OpenAPIType()};
    }
    if (n.vv != nullptr) {
      n.format = source_ == OpenAPISource::kCustomResource
                     ? EffectiveCrdFormat(n.vv->format, n.types.size() == 1 ? n.types[0] : "")
                     : std::string_view(n.vv->format);
    }
    return n;
  }

  static bool Has(const Node& n, std::string_view t) {
    for (auto x : n.types) {
      if (x == t) return true;
    }
    return false;
  }

  static std::string Joined(const Node& n) {
    std::string out;
    for (size_t i = 0; i < n.types.size(); ++i) out += (i ? "," : "") + std::string(n.types[i]);
    return out;
  }

  // typeValidator.
  Result TypeCheck(const Node& n, const json& data, const std::string& path) {
    Result r;
    r.Inc();
    if (data.is_null()) {
      if (!n.types.empty() && !Has(n, "null") && !n.schema->Nullable()) {
        return Failed(InvalidType(path, Joined(n), "null"));
      }
      return r;
    }
    const Kind kind = KindOf(data);
    std::string_view sch_type, format;
    switch (kind) {
      case Kind::kBool: sch_type = "boolean"; break;
      case Kind::kString: sch_type = "string"; break;
      case Kind::kInt: sch_type = "integer"; format = "int64"; break;
      case Kind::kFloat: sch_type = "number"; format = "float64"; break;
      case Kind::kArray: sch_type = "array"; break;
      default: sch_type = "object"; break;
    }
    const bool float_int = kind == Kind::kFloat && IsJsonInteger(GoFloat(data)) && Has(n, "integer");
    const bool int_float = kind == Kind::kInt && Has(n, "number");
    if (kind != Kind::kString && kind != Kind::kArray && !n.format.empty() &&
        !(Has(n, sch_type) || format == n.format || float_int || int_float)) {
      return Failed(InvalidType(path, n.format, std::string(format)));
    }
    if (!(Has(n, "number") || Has(n, "integer")) && !n.format.empty() &&
        (kind == Kind::kString || kind == Kind::kArray)) {
      return r;
    }
    if (!(Has(n, sch_type) || float_int || int_float)) {
      return Failed(InvalidType(path, Joined(n), std::string(sch_type)));
    }
    return r;
  }

  // schemaPropsValidator: allOf, anyOf, oneOf, not.
  Result Junctors(const Node& n, const json& data, const std::string& path, const json* old) {
    Result main;
    if (n.vv != nullptr) {
      const ValueValidation& vv = *n.vv;
      if (!vv.any_of.empty()) {
        std::optional<Result> best, first_success;
        bool succeeded = false;
        for (const Schema* sub : vv.any_of) {
          Result r = Validate(sub, data, path, old, false);
          if (r.valid()) {
            best.reset();
            succeeded = true;
            if (!first_success) first_success = std::move(r);
            break;
          }
          if (!best || r.match_count > best->match_count) best = std::move(r);
        }
        if (!succeeded) main.Add(Composite(GoQuote(path) + " must validate at least one schema (anyOf)"));
        if (best) {
          main.Merge(std::move(*best));
        } else if (first_success) {
          main.Merge(std::move(*first_success));
        }
      }
      if (!vv.one_of.empty()) {
        std::optional<Result> best, first_success;
        int validated = 0;
        for (const Schema* sub : vv.one_of) {
          Result r = Validate(sub, data, path, old, false);
          if (r.valid()) {
            ++validated;
            best.reset();
            if (!first_success) first_success = std::move(r);
            continue;
          }
          if (validated == 0 && (!best || r.match_count > best->match_count)) best = std::move(r);
        }
        if (validated != 1) {
          const std::string why = validated == 0 ? "Found none valid"
                                                 : "Found " + std::to_string(validated) + " valid alternatives";
          main.Add(Composite(GoQuote(path) + " must validate one and only one schema (oneOf). " + why));
          if (best) main.Merge(std::move(*best));
        } else if (first_success) {
          main.Merge(std::move(*first_success));
        }
      }
      if (!vv.all_of.empty()) {
        size_t validated = 0;
        for (const Schema* sub : vv.all_of) {
          Result r = Validate(sub, data, path, old, false);
          if (r.valid()) ++validated;
          main.Merge(std::move(r));
        }
        if (validated != vv.all_of.size()) {
          main.Add(Composite(GoQuote(path) + " must validate all the schemas (allOf)" +
                             (validated == 0 ? ". None validated" : "")));
        }
      }
      if (vv.negated != nullptr && Validate(vv.negated, data, path, old, false).valid()) {
        main.Add(Composite(GoQuote(path) + " must not validate the schema (not)"));
      }
    }
    main.Inc();
    return main;
  }

  // stringValidator: the first failing of maxLength, minLength, pattern.
  static Result StringCheck(const Node& n, const json& data, const std::string& path) {
    if (n.vv == nullptr) return {};
    const std::string& s = data.get_ref<const std::string&>();
    int64_t runes = 0;
    for (unsigned char c : s) runes += (c & 0xC0) != 0x80;
    if (n.vv->max_length && runes > *n.vv->max_length) {
      return Failed(Make(Code::kTooLong, path,
                         path + " in body should be at most " + std::to_string(*n.vv->max_length) + " chars long",
                         data, *n.vv->max_length));
    }
    if (n.vv->min_length && runes < *n.vv->min_length) {
      return Failed(Make(Code::kOther, path,
                         path + " in body should be at least " + std::to_string(*n.vv->min_length) + " chars long",
                         data));
    }
    if (!n.vv->pattern.empty()) {
      if (!n.vv->compiled_pattern) {
        return Failed(Make(Code::kOther, path,
                           path + " in body should match '" + n.vv->pattern + ", but pattern is invalid: " +
                               n.vv->pattern_error + "'",
                           data));
      }
      if (!RE2::PartialMatch(s, *n.vv->compiled_pattern)) {
        return Failed(Make(Code::kOther, path, path + " in body should match '" + n.vv->pattern + "'", data));
      }
    }
    return {};
  }

  // formatValidator.
  static Result FormatCheck(const Node& n, const json& data, const std::string& path) {
    if (ValidFormat(n.format, data.get_ref<const std::string&>())) return {};
    return Failed(InvalidType(path, n.format, data));
  }

  // numberValidator: range of the value and the constraints, then multipleOf, minimum, maximum.
  static Result NumberCheck(const Node& n, const json& data, const std::string& path) {
    std::string_view type_name, format;
    if (n.types.size() == 1 && n.types[0] == "integer") {
      type_name = "integer";
      if (n.vv && (n.vv->format == "int32" || n.vv->format == "int64")) format = n.vv->format;
    } else if (n.types.size() == 1 && n.types[0] == "number") {
      type_name = "number";
      if (n.vv && (n.vv->format == "float" || n.vv->format == "double")) format = n.vv->format;
    }
    Result res;
    if (auto e = RangeError(data, type_name, format, "Checked", path); !e.empty()) {
      res.Add(Make(Code::kPlain, "", e));
    }
    Result multiple, minimum, maximum;
    const bool is_int = IsGoInt(data);
    const double value = GoFloat(data);
    if (n.vv && n.vv->multiple_of) {
      const double factor = *n.vv->multiple_of;
      std::string e = RangeError(factor, type_name, format, "MultipleOf", path);
      if (!e.empty()) multiple.Add(Make(Code::kPlain, "", e));
      const bool native_int = e.empty() && is_int;
      bool fails;
      if (native_int ? static_cast<int64_t>(factor) <= 0 : factor <= 0) {
        multiple.Add(Make(Code::kOther, path,
                          "factor MultipleOf declared for " + path + " must be positive: " + IntOrFloat(factor, native_int),
                          native_int ? json(static_cast<int64_t>(factor)) : json(factor)));
      } else {
        if (native_int) {
          const int64_t f = static_cast<int64_t>(factor);
          fails = GoInt(data) / f * f != GoInt(data);
        } else {
          fails = !IsJsonInteger(factor < 1 ? 1 / factor * value : value / factor);
        }
        if (fails) {
          multiple.Add(Make(Code::kOther, path,
                            path + " in body should be a multiple of " + IntOrFloat(factor, native_int),
                            native_int ? data : json(value)));
        }
      }
    }
    if (n.vv && n.vv->maximum) {
      maximum = Bound(data, *n.vv->maximum, n.vv->exclusive_maximum, /*is_max=*/true, type_name, format, path);
    }
    if (n.vv && n.vv->minimum) {
      minimum = Bound(data, *n.vv->minimum, n.vv->exclusive_minimum, /*is_max=*/false, type_name, format, path);
    }
    res.Merge(std::move(multiple)).Merge(std::move(minimum)).Merge(std::move(maximum));
    res.Inc();
    return res;
  }

  // Maximum/MinimumNativeType: compared as integers when both the value and the bound are
  // integers of the node's type, else as floats.
  static Result Bound(const json& data, double bound, bool exclusive, bool is_max, std::string_view type_name,
                      std::string_view format, const std::string& path) {
    Result r;
    std::string e = RangeError(bound, type_name, format, is_max ? "Maximum boundary" : "Minimum boundary", path);
    if (!e.empty()) r.Add(Make(Code::kPlain, "", e));
    const bool native_int = e.empty() && IsGoInt(data);
    // Positive when the value is beyond the bound (above a maximum, below a minimum).
    const double value = GoFloat(data);
    const int cmp = native_int ? (GoInt(data) > static_cast<int64_t>(bound)) - (GoInt(data) < static_cast<int64_t>(bound))
                               : (value > bound) - (value < bound);
    const int beyond = is_max ? cmp : -cmp;
    if (beyond > 0 || (exclusive && beyond == 0)) {
      r.Add(Make(Code::kOther, path,
                 path + " in body should be " + (is_max ? "less than " : "greater than ") + (exclusive ? "" : "or equal to ") +
                     IntOrFloat(bound, native_int),
                 native_int ? data : json(value)));
    }
    return r;
  }

  // schemaSliceValidator: items, then minItems, maxItems, uniqueItems.
  Result SliceCheck(const Node& n, const json& data, const std::string& path, const json* old) {
    Result result;
    const Schema* items = n.schema->type() == Schema::Type::kArray ? n.schema->Items() : nullptr;
    if (items != nullptr) {
      for (size_t i = 0; i < data.size(); ++i) {
        result.Merge(Validate(items, data[i], path + "[" + std::to_string(i) + "]", OldItem(*n.schema, data[i], old)));
      }
    }
    const auto size = static_cast<int64_t>(data.size());
    if (n.vv && n.vv->min_items && size < *n.vv->min_items) {
      result.Add(Make(Code::kOther, path,
                      path + " in body should have at least " + std::to_string(*n.vv->min_items) + " items", size));
    }
    if (n.vv && n.vv->max_items && size > *n.vv->max_items) {
      result.Add(Make(Code::kMaxItems, path,
                      path + " in body should have at most " + std::to_string(*n.vv->max_items) + " items", size,
                      *n.vv->max_items));
    }
    if (n.vv && n.vv->unique_items) {
      bool duplicate = false;
      for (size_t i = 0; i < data.size() && !duplicate; ++i) {
        for (size_t j = 0; j < i && !duplicate; ++j) duplicate = GoDeepEqual(data[i], data[j]);
      }
      if (duplicate) result.Add(Make(Code::kOther, path, path + " in body shouldn't contain duplicates"));
    }
    result.Inc();
    return result;
  }

  // basicCommonValidator: enum.
  static Result EnumCheck(const Node& n, const json& data, const std::string& path) {
    if (n.vv == nullptr || n.vv->enum_values == nullptr || n.vv->enum_values->empty()) return {};
    for (const auto& ev : *n.vv->enum_values) {
      if (EnumMatches(data, ev)) return {};
    }
    Issue e = Make(Code::kEnum, path, path + " in body should be one of " + EnumList(*n.vv->enum_values), data);
    e.values = n.vv->enum_values;
    return Failed(std::move(e));
  }

  // objectValidator: property counts, additionalProperties values, properties, required.
  // The old value of an object's field or map entry (CorrelatedObject.Key); apiVersion and kind
  // of the root never ratchet.
  static const json* OldField(const json* old, const std::string& key, const std::string& path) {
    if (old == nullptr || !old->is_object() || (path.empty() && (key == "apiVersion" || key == "kind"))) return nullptr;
    auto it = old->find(key);
    return it != old->end() ? &*it : nullptr;
  }

  // The old item an item correlates with (CorrelatedObject.Index): only list-type map items do,
  // by their keys; atomic lists and sets do not correlate item by item.
  static const json* OldItem(const Schema& list, const json& item, const json* old) {
    if (old == nullptr || !old->is_array() || list.ListType() != "map" || !item.is_object()) return nullptr;
    for (const auto& candidate : *old) {
      if (!candidate.is_object()) continue;
      bool same = true;
      for (const auto& k : list.ListMapKeys()) {
        auto a = item.find(k), b = candidate.find(k);
        same = same && (a == item.end() ? b == candidate.end() : b != candidate.end() && GoDeepEqual(*a, *b));
      }
      if (same) return &candidate;
    }
    return nullptr;
  }

  Result ObjectCheck(const Node& n, const json& data, const std::string& path, const json* old) {
    Result res;
    const auto keys = static_cast<int64_t>(data.size());
    if (n.vv && n.vv->min_properties && keys < *n.vv->min_properties) {
      res.Add(Make(Code::kOther, path,
                   path + " in body should have at least " + std::to_string(*n.vv->min_properties) + " properties",
                   keys));
    }
    if (n.vv && n.vv->max_properties && keys > *n.vv->max_properties) {
      res.Add(Make(Code::kTooManyProperties, path,
                   path + " in body should have at most " + std::to_string(*n.vv->max_properties) + " properties",
                   keys, *n.vv->max_properties));
    }
    const Schema& s = *n.schema;
    if (s.type() == Schema::Type::kMap) {
      for (auto it = data.begin(); it != data.end(); ++it) {
        res.Merge(Validate(s.Items(), it.value(), path + "." + it.key(), OldField(old, it.key(), path)));
      }
    }
    if (s.type() == Schema::Type::kObject) {
      for (auto it = data.begin(); it != data.end(); ++it) {
        if (const Schema* field = s.Field(it.key())) {
          res.Merge(Validate(field, it.value(), path.empty() ? it.key() : path + "." + it.key(),
                             OldField(old, it.key(), path)));
        }
      }
    }
    for (const auto& k : s.Required()) {
      if (!data.contains(k)) res.Add(Make(Code::kRequired, path + "." + k, path + "." + k + " in body is required"));
    }
    return res;
  }

  OpenAPISource source_;
};

}  // namespace

FieldErrors ValidateOpenAPI(const Schema& schema, const json& value, const std::string& path,
                            OpenAPISource source, const json* old) {
  Result result = Validator(source).Validate(&schema, value, "", old);
  FieldErrors out;
  out.reserve(result.errors.size());
  for (const auto& e : result.errors) out.push_back(ToFieldError(e, path));
  return out;
}

}  // namespace kube::schema
