// kube's format library (k8s.io/apiserver/pkg/cel/library/format.go): named formats as values of
// the opaque type `kubernetes.NamedFormat` — format.dns1123Label(), format.dns1123Subdomain(),
// format.dns1035Label(), format.qualifiedName(), the three *Prefix variants (a trailing '-'
// allowed, as generateName needs), format.labelValue(), format.uri(), format.uuid(),
// format.byte(), format.date(), format.datetime(), and format.named(name) (an optional) — with
// `f.validate(s)`: optional.none() when `s` is valid, else optional.of(the list of kube's
// messages). Messages are apimachinery's validation messages, byte for byte.
#include <re2/re2.h>

#include <functional>
#include <vector>

#include "cel/go_url.h"
#include "cel/lib_internal.h"

namespace kube::cel::internal {

namespace {

constexpr Kind S = Kind::kString;
constexpr char kFormatType[] = "kubernetes.NamedFormat";

using Messages = std::vector<std::string>;

constexpr char kDns1123LabelFmt[] = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr char kDns1123SubdomainFmt[] = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr char kDns1035LabelFmt[] = "[a-z]([-a-z0-9]*[a-z0-9])?";
constexpr char kLabelKeyFmt[] = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr char kLabelValueFmt[] = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
constexpr char kDateFmt[] = "[0-9]{4}-[0-9]{2}-[0-9]{2}";
constexpr char kTimeFmt[] = "([0-9]{2}):([0-9]{2}):([0-9]{2})(?:.[0-9]+)?(?:z|[+-][0-9]{2}:[0-9]{2})";
constexpr char kUuidFmt[] = "(?i)[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}";
constexpr char kBase64Fmt[] = "(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})";

// Each pattern compiled once; RE2 matching is thread-safe.
template <const char* kPattern>
const re2::RE2& Re() {
  static const re2::RE2* re = new re2::RE2(kPattern);
  return *re;
}

template <const char* kPattern>
bool Full(std::string_view s) {
  return re2::RE2::FullMatch(re2::StringPiece(s.data(), s.size()), Re<kPattern>());
}

// util/validation's RegexError.
std::string RegexError(std::string msg, std::string_view fmt, std::vector<std::string_view> examples) {
  if (examples.empty()) return msg + " (regex used for validation is '" + std::string(fmt) + "')";
  msg += " (e.g. ";
  for (size_t i = 0; i < examples.size(); ++i) {
    if (i > 0) msg += " or ";
    msg += "'" + std::string(examples[i]) + "', ";
  }
  return msg + "regex used for validation is '" + std::string(fmt) + "')";
}

// validation.MaxLenError says "characters", content.MaxLenError "bytes": each caller keeps its own.
std::string MaxLen(int n, const char* unit) { return "must be no more than " + std::to_string(n) + " " + unit; }

Messages Dns1123Label(std::string_view v) {
  Messages errs;
  if (v.size() > 63) errs.push_back(MaxLen(63, "characters"));
  if (!Full<kDns1123LabelFmt>(v)) {
    if (Full<kDns1123SubdomainFmt>(v)) {
      errs.emplace_back("must not contain dots");
    } else {
      errs.push_back(RegexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
                                "and must start and end with an alphanumeric character",
                                kDns1123LabelFmt, {"my-name", "123-abc"}));
    }
  }
  return errs;
}

Messages Dns1123Subdomain(std::string_view v, const char* unit) {
  Messages errs;
  if (v.size() > 253) errs.push_back(MaxLen(253, unit));
  if (!Full<kDns1123SubdomainFmt>(v)) {
    errs.push_back(RegexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' "
                              "or '.', and must start and end with an alphanumeric character",
                              kDns1123SubdomainFmt, {"example.com"}));
  }
  return errs;
}

Messages Dns1035Label(std::string_view v) {
  Messages errs;
  if (v.size() > 63) errs.push_back(MaxLen(63, "characters"));
  if (!Full<kDns1035LabelFmt>(v)) {
    errs.push_back(RegexError("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with "
                              "an alphabetic character, and end with an alphanumeric character",
                              kDns1035LabelFmt, {"my-name", "abc-123"}));
  }
  return errs;
}

// content.IsLabelKey (IsQualifiedName).
Messages QualifiedName(std::string_view v) {
  Messages errs;
  const std::string key_error = RegexError(
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
      kLabelKeyFmt, {"MyName", "my.name", "123-abc"});
  std::string_view name = v;
  const size_t slash = v.find('/');
  if (slash != std::string_view::npos) {
    if (v.find('/', slash + 1) != std::string_view::npos) {
      return {"a valid label key " + key_error + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"};
    }
    const std::string_view prefix = v.substr(0, slash);
    name = v.substr(slash + 1);
    if (prefix.empty()) {
      errs.emplace_back("prefix part must be non-empty");
    } else {
      for (auto& m : Dns1123Subdomain(prefix, "bytes")) errs.push_back("prefix part " + m);
    }
  }
  if (name.empty()) {
    errs.emplace_back("name part must be non-empty");
  } else if (name.size() > 63) {
    errs.push_back("name part " + MaxLen(63, "bytes"));
  }
  if (!Full<kLabelKeyFmt>(name)) errs.push_back("name part " + key_error);
  return errs;
}

Messages LabelValue(std::string_view v) {
  Messages errs;
  if (v.size() > 63) errs.push_back(MaxLen(63, "bytes"));
  if (!Full<kLabelValueFmt>(v)) {
    errs.push_back(RegexError("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
                              "'.', and must start and end with an alphanumeric character",
                              kLabelValueFmt, {"MyValue", "my_value", "12345"}));
  }
  return errs;
}

// apimachinery's maskTrailingDash: drops the last two characters and appends "a" (so that a
// generateName prefix ending in '-' validates).
std::string MaskTrailingDash(std::string_view name) {
  if (name.size() > 1 && name.back() == '-') return std::string(name.substr(0, name.size() - 2)) + "a";
  return std::string(name);
}

// strfmt's IsDate: time.Parse("2006-01-02").
bool IsDate(std::string_view s) {
  if (!Full<kDateFmt>(s)) return false;
  const int year = std::stoi(std::string(s.substr(0, 4))), month = std::stoi(std::string(s.substr(5, 2)));
  const int day = std::stoi(std::string(s.substr(8, 2)));
  if (month < 1 || month > 12 || day < 1) return false;
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return day <= kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

// strfmt's IsDateTime: only the part between the first and second 't' is checked after the date.
bool IsDateTime(std::string_view str) {
  if (str.size() < 4) return false;
  std::string lower(str);
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  const size_t t = lower.find('t');
  if (t == std::string::npos || !IsDate(std::string_view(lower).substr(0, t))) return false;
  std::string_view rest = std::string_view(lower).substr(t + 1);
  rest = rest.substr(0, rest.find('t'));
  std::string h, m, sec;
  if (!re2::RE2::FullMatch(re2::StringPiece(rest.data(), rest.size()), Re<kTimeFmt>(), &h, &m, &sec)) {
    return false;
  }
  return h <= "23" && m <= "59" && sec <= "59";
}

struct NamedFormat {
  const char* cel_name;  // format.<cel_name>() and format.named("<cel_name>")
  const char* name;      // kube's Format.Name, what equality compares
  std::function<Messages(std::string_view)> validate;
};

const std::vector<NamedFormat>& Formats() {
  static const auto* formats = new std::vector<NamedFormat>{
      {"dns1123Label", "DNS1123Label", [](std::string_view s) { return Dns1123Label(s); }},
      {"dns1123Subdomain", "DNS1123Subdomain", [](std::string_view s) { return Dns1123Subdomain(s, "characters"); }},
      {"dns1035Label", "DNS1035Label", [](std::string_view s) { return Dns1035Label(s); }},
      {"qualifiedName", "QualifiedName", [](std::string_view s) { return QualifiedName(s); }},
      {"dns1123LabelPrefix", "DNS1123LabelPrefix", [](std::string_view s) { return Dns1123Label(MaskTrailingDash(s)); }},
      {"dns1123SubdomainPrefix", "DNS1123SubdomainPrefix",
       [](std::string_view s) { return Dns1123Subdomain(MaskTrailingDash(s), "characters"); }},
      {"dns1035LabelPrefix", "DNS1035LabelPrefix", [](std::string_view s) { return Dns1035Label(MaskTrailingDash(s)); }},
      {"labelValue", "LabelValue", [](std::string_view s) { return LabelValue(s); }},
      {"uri", "URI",
       [](std::string_view s) {
         std::string error;
         return ParseRequestUri(s, &error) ? Messages{} : Messages{error};
       }},
      {"uuid", "uuid",
       [](std::string_view s) {
         return Full<kUuidFmt>(s) ? Messages{}
                    : Messages{"does not match the UUID format"};
       }},
      {"byte", "byte",
       [](std::string_view s) {
         return Full<kBase64Fmt>(s) ? Messages{}
                    : Messages{"invalid base64"};
       }},
      {"date", "date", [](std::string_view s) { return IsDate(s) ? Messages{} : Messages{"invalid date"}; }},
      {"datetime", "datetime", [](std::string_view s) { return IsDateTime(s) ? Messages{} : Messages{"invalid datetime"}; }},
  };
  return *formats;
}

class FormatObject final : public OpaqueObject {
 public:
  explicit FormatObject(const NamedFormat* f) : f_(f) {}
  std::string_view TypeName() const override { return kFormatType; }
  bool Equals(const OpaqueObject& other) const override {
    return std::string_view(f_->name) == static_cast<const FormatObject&>(other).f_->name;
  }
  std::string DebugString() const override { return std::string("format.") + f_->cel_name + "()"; }
  const NamedFormat& format() const { return *f_; }

 private:
  const NamedFormat* f_;  // one of Formats(), never freed
};

Value FormatValue(const NamedFormat& f) { return Value::MakeOpaque<FormatObject>(&f); }

}  // namespace

void RegisterFormatLibrary(FunctionRegistry& r) {
  for (const NamedFormat& f : Formats()) {
    AddGlobal(r, std::string("format.") + f.cel_name, {}, [&f](const Value*, CallContext&) { return FormatValue(f); });
  }
  AddGlobal(r, "format.named", {S}, [](const Value* a, CallContext&) {
    for (const NamedFormat& f : Formats()) {
      if (a[0].AsString() == f.cel_name) return Value::OptionalOf(FormatValue(f));
    }
    return Value::OptionalNone();
  });
  AddMember(r, "validate", {Param::Opaque(kFormatType), S}, [](const Value* a, CallContext& ctx) {
    const std::string& s = a[1].AsString();
    ctx.AddCost(TraversalCost(s.size()));
    Messages errors = static_cast<const FormatObject&>(a[0].AsOpaque()).format().validate(s);
    if (errors.empty()) return Value::OptionalNone();
    ValueList items;
    for (auto& e : errors) items.push_back(Value::String(std::move(e)));
    return Value::OptionalOf(Value::List(std::move(items)));
  });
}

}  // namespace kube::cel::internal
