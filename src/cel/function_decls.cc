// The typed declarations of the functions this CEL implementation provides, in the notation of
// FunctionDecls::Add. They follow cel-spec's standard definitions and the signatures cel-go and
// kube declare for the extension libraries; a function missing here is checked as dyn.
#include "cel/type_checker.h"

namespace kube::cel {

namespace {

struct Decl {
  const char* function;
  const char* signature;
};

constexpr Decl kStandard[] = {
    {"_?_:_", "(bool, A, A) -> A"},
    {"!_", "(bool) -> bool"},
    {"@not_strictly_false", "(bool) -> bool"},
    {"_==_", "(A, A) -> bool"},
    {"_!=_", "(A, A) -> bool"},
    {"_+_", "(bytes, bytes) -> bytes"},
    {"_+_", "(double, double) -> double"},
    {"_+_", "(duration, duration) -> duration"},
    {"_+_", "(duration, timestamp) -> timestamp"},
    {"_+_", "(timestamp, duration) -> timestamp"},
    {"_+_", "(int, int) -> int"},
    {"_+_", "(list(A), list(A)) -> list(A)"},
    {"_+_", "(string, string) -> string"},
    {"_+_", "(uint, uint) -> uint"},
    {"_-_", "(double, double) -> double"},
    {"_-_", "(duration, duration) -> duration"},
    {"_-_", "(int, int) -> int"},
    {"_-_", "(timestamp, duration) -> timestamp"},
    {"_-_", "(timestamp, timestamp) -> duration"},
    {"_-_", "(uint, uint) -> uint"},
    {"_*_", "(double, double) -> double"},
    {"_*_", "(int, int) -> int"},
    {"_*_", "(uint, uint) -> uint"},
    {"_/_", "(double, double) -> double"},
    {"_/_", "(int, int) -> int"},
    {"_/_", "(uint, uint) -> uint"},
    {"_%_", "(int, int) -> int"},
    {"_%_", "(uint, uint) -> uint"},
    {"-_", "(double) -> double"},
    {"-_", "(int) -> int"},
    {"_[_]", "(list(A), int) -> A"},
    {"_[_]", "(map(A, B), A) -> B"},
    {"@in", "(A, list(A)) -> bool"},
    {"@in", "(A, map(A, B)) -> bool"},
    {"size", "(bytes) -> int"},
    {"size", "bytes.() -> int"},
    {"size", "(list(A)) -> int"},
    {"size", "list(A).() -> int"},
    {"size", "(map(A, B)) -> int"},
    {"size", "map(A, B).() -> int"},
    {"size", "(string) -> int"},
    {"size", "string.() -> int"},
    {"type", "(A) -> type(A)"},
    {"bool", "(bool) -> bool"},
    {"bool", "(string) -> bool"},
    {"bytes", "(bytes) -> bytes"},
    {"bytes", "(string) -> bytes"},
    {"double", "(double) -> double"},
    {"double", "(int) -> double"},
    {"double", "(string) -> double"},
    {"double", "(uint) -> double"},
    {"duration", "(duration) -> duration"},
    {"duration", "(string) -> duration"},
    {"dyn", "(A) -> dyn"},
    {"int", "(int) -> int"},
    {"int", "(double) -> int"},
    {"int", "(duration) -> int"},
    {"int", "(string) -> int"},
    {"int", "(timestamp) -> int"},
    {"int", "(uint) -> int"},
    {"string", "(string) -> string"},
    {"string", "(bool) -> string"},
    {"string", "(bytes) -> string"},
    {"string", "(double) -> string"},
    {"string", "(duration) -> string"},
    {"string", "(int) -> string"},
    {"string", "(timestamp) -> string"},
    {"string", "(uint) -> string"},
    {"timestamp", "(timestamp) -> timestamp"},
    {"timestamp", "(int) -> timestamp"},
    {"timestamp", "(string) -> timestamp"},
    {"uint", "(uint) -> uint"},
    {"uint", "(double) -> uint"},
    {"uint", "(int) -> uint"},
    {"uint", "(string) -> uint"},
    {"contains", "string.(string) -> bool"},
    {"endsWith", "string.(string) -> bool"},
    {"startsWith", "string.(string) -> bool"},
    {"matches", "(string, string) -> bool"},
    {"matches", "string.(string) -> bool"},
    // What the two-variable transformMap/transformMapEntry macros expand into.
    {"cel.@mapInsert", "(map(A, B), A, B) -> map(A, B)"},
    {"cel.@mapInsert", "(map(A, B), map(A, B)) -> map(A, B)"},
    // Optional values (cel-go's OptionalTypes).
    {"optional.of", "(A) -> optional_type(A)"},
    {"optional.ofNonZeroValue", "(A) -> optional_type(A)"},
    {"optional.none", "() -> optional_type(A)"},
    {"hasValue", "optional_type(A).() -> bool"},
    {"value", "optional_type(A).() -> A"},
    {"or", "optional_type(A).(optional_type(A)) -> optional_type(A)"},
    {"orValue", "optional_type(A).(A) -> A"},
    {"_[_]", "(optional_type(list(A)), int) -> optional_type(A)"},
    {"_[_]", "(optional_type(map(A, B)), A) -> optional_type(B)"},
    // cel-go's extended strings (version 2, as kube loads it).
    {"charAt", "string.(int) -> string"},
    {"indexOf", "string.(string) -> int"},
    {"indexOf", "string.(string, int) -> int"},
    {"lastIndexOf", "string.(string) -> int"},
    {"lastIndexOf", "string.(string, int) -> int"},
    {"lowerAscii", "string.() -> string"},
    {"upperAscii", "string.() -> string"},
    {"replace", "string.(string, string) -> string"},
    {"replace", "string.(string, string, int) -> string"},
    {"split", "string.(string) -> list(string)"},
    {"split", "string.(string, int) -> list(string)"},
    {"substring", "string.(int) -> string"},
    {"substring", "string.(int, int) -> string"},
    {"trim", "string.() -> string"},
    {"join", "list(string).() -> string"},
    {"join", "list(string).(string) -> string"},
    {"strings.quote", "(string) -> string"},
    // kube's lists library.
    {"isSorted", "list(A).() -> bool"},
    {"sum", "list(int).() -> int"},
    {"sum", "list(uint).() -> uint"},
    {"sum", "list(double).() -> double"},
    {"sum", "list(duration).() -> duration"},
    {"min", "list(A).() -> A"},
    {"max", "list(A).() -> A"},
    {"indexOf", "list(A).(A) -> int"},
    {"lastIndexOf", "list(A).(A) -> int"},
    // cel-go's ext.Strings formatting, ext.Sets and ext.Lists (version 3).
    {"format", "string.(list(dyn)) -> string"},
    {"sets.contains", "(list(A), list(A)) -> bool"},
    {"sets.equivalent", "(list(A), list(A)) -> bool"},
    {"sets.intersects", "(list(A), list(A)) -> bool"},
    {"lists.range", "(int) -> list(int)"},
    {"slice", "list(A).(int, int) -> list(A)"},
    {"flatten", "list(dyn).() -> list(dyn)"},
    {"flatten", "list(dyn).(int) -> list(dyn)"},
    {"distinct", "list(A).() -> list(A)"},
    {"reverse", "list(A).() -> list(A)"},
    {"sort", "list(A).() -> list(A)"},
    // kube's regex library.
    {"find", "string.(string) -> string"},
    {"findAll", "string.(string) -> list(string)"},
    {"findAll", "string.(string, int) -> list(string)"},
    // kube's URL library.
    {"url", "(string) -> kubernetes.URL"},
    {"isURL", "(string) -> bool"},
    {"getScheme", "kubernetes.URL.() -> string"},
    {"getHost", "kubernetes.URL.() -> string"},
    {"getHostname", "kubernetes.URL.() -> string"},
    {"getPort", "kubernetes.URL.() -> string"},
    {"getEscapedPath", "kubernetes.URL.() -> string"},
    {"getQuery", "kubernetes.URL.() -> map(string, list(string))"},
    // kube's IP and CIDR libraries.
    {"ip", "(string) -> net.IP"},
    {"isIP", "(string) -> bool"},
    {"ip.isCanonical", "(string) -> bool"},
    {"family", "net.IP.() -> int"},
    {"isUnspecified", "net.IP.() -> bool"},
    {"isLoopback", "net.IP.() -> bool"},
    {"isLinkLocalMulticast", "net.IP.() -> bool"},
    {"isLinkLocalUnicast", "net.IP.() -> bool"},
    {"isGlobalUnicast", "net.IP.() -> bool"},
    {"string", "(net.IP) -> string"},
    {"cidr", "(string) -> net.CIDR"},
    {"isCIDR", "(string) -> bool"},
    {"containsIP", "net.CIDR.(string) -> bool"},
    {"containsIP", "net.CIDR.(net.IP) -> bool"},
    {"containsCIDR", "net.CIDR.(string) -> bool"},
    {"containsCIDR", "net.CIDR.(net.CIDR) -> bool"},
    {"ip", "net.CIDR.() -> net.IP"},
    {"masked", "net.CIDR.() -> net.CIDR"},
    {"prefixLength", "net.CIDR.() -> int"},
    {"string", "(net.CIDR) -> string"},
    // kube's quantity library.
    {"quantity", "(string) -> kubernetes.Quantity"},
    {"isQuantity", "(string) -> bool"},
    {"sign", "(kubernetes.Quantity) -> int"},
    {"isGreaterThan", "kubernetes.Quantity.(kubernetes.Quantity) -> bool"},
    {"isLessThan", "kubernetes.Quantity.(kubernetes.Quantity) -> bool"},
    {"compareTo", "kubernetes.Quantity.(kubernetes.Quantity) -> int"},
    {"add", "kubernetes.Quantity.(kubernetes.Quantity) -> kubernetes.Quantity"},
    {"add", "kubernetes.Quantity.(int) -> kubernetes.Quantity"},
    {"sub", "kubernetes.Quantity.(kubernetes.Quantity) -> kubernetes.Quantity"},
    {"sub", "kubernetes.Quantity.(int) -> kubernetes.Quantity"},
    {"asInteger", "kubernetes.Quantity.() -> int"},
    {"asApproximateFloat", "kubernetes.Quantity.() -> double"},
    {"isInteger", "kubernetes.Quantity.() -> bool"},
    // kube's semver library (version 1: normalize).
    {"semver", "(string) -> kubernetes.Semver"},
    {"semver", "(string, bool) -> kubernetes.Semver"},
    {"isSemver", "(string) -> bool"},
    {"isSemver", "(string, bool) -> bool"},
    {"major", "kubernetes.Semver.() -> int"},
    {"minor", "kubernetes.Semver.() -> int"},
    {"patch", "kubernetes.Semver.() -> int"},
    {"isGreaterThan", "kubernetes.Semver.(kubernetes.Semver) -> bool"},
    {"isLessThan", "kubernetes.Semver.(kubernetes.Semver) -> bool"},
    {"compareTo", "kubernetes.Semver.(kubernetes.Semver) -> int"},
    // kube's format library.
    {"format.named", "(string) -> optional_type(kubernetes.NamedFormat)"},
    {"validate", "kubernetes.NamedFormat.(string) -> optional_type(list(string))"},
};

// The named formats of kube's format library: format.<name>().
constexpr const char* kNamedFormats[] = {"dns1123Label",       "dns1123Subdomain",       "dns1035Label",
                                         "qualifiedName",      "dns1123LabelPrefix",     "dns1123SubdomainPrefix",
                                         "dns1035LabelPrefix", "labelValue",             "uri",
                                         "uuid",               "byte",                   "date",
                                         "datetime"};

// The comparison operators over every pair cel-go declares (cross-type numeric comparisons on).
constexpr const char* kOrdered[] = {
    "(bool, bool)",     "(int, int)",   "(int, double)", "(int, uint)",          "(uint, uint)",
    "(uint, double)",   "(uint, int)",  "(double, double)", "(double, int)",     "(double, uint)",
    "(string, string)", "(bytes, bytes)", "(timestamp, timestamp)", "(duration, duration)",
};

// The timestamp and duration accessors.
constexpr const char* kTimestampAccessors[] = {"getFullYear",  "getMonth", "getDayOfYear", "getDayOfMonth",
                                               "getDate",      "getDayOfWeek", "getHours", "getMinutes",
                                               "getSeconds",   "getMilliseconds"};
constexpr const char* kDurationAccessors[] = {"getHours", "getMinutes", "getSeconds", "getMilliseconds"};

FunctionDecls BuildStandard() {
  FunctionDecls d;
  for (const auto& decl : kStandard) d.Add(decl.function, decl.signature);
  for (const char* op : {"_<_", "_<=_", "_>_", "_>=_"}) {
    for (const char* args : kOrdered) d.Add(op, std::string(args) + " -> bool");
  }
  for (const char* f : kTimestampAccessors) {
    d.Add(f, "timestamp.() -> int");
    d.Add(f, "timestamp.(string) -> int");
  }
  for (const char* f : kDurationAccessors) d.Add(f, "duration.() -> int");
  for (const char* f : kNamedFormats) d.Add(std::string("format.") + f, "() -> kubernetes.NamedFormat");
  return d;
}

}  // namespace

bool FunctionDecls::Add(std::string_view function, std::string_view signature) {
  // "[receiver.](params) -> result"
  const size_t arrow = signature.rfind("->");
  const size_t open = signature.find(".(") != std::string_view::npos ? signature.find(".(") + 1 : signature.find('(');
  if (arrow == std::string_view::npos || open == std::string_view::npos || open > arrow) return false;
  const size_t close = signature.rfind(')', arrow);
  if (close == std::string_view::npos || close < open) return false;
  Overload o;
  o.receiver = open > 0;
  if (o.receiver) {
    TypeRef r = ParseTypeNotation(signature.substr(0, open - 1));
    if (!r) return false;
    o.params.push_back(std::move(r));
  }
  const std::string_view inner = signature.substr(open + 1, close - open - 1);
  if (inner.find_first_not_of(' ') != std::string_view::npos) {
    // The top-level commas separate the parameters.
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i <= inner.size(); ++i) {
      if (i < inner.size() && inner[i] == '(') ++depth;
      if (i < inner.size() && inner[i] == ')') --depth;
      if (i == inner.size() || (inner[i] == ',' && depth == 0)) {
        TypeRef p = ParseTypeNotation(inner.substr(start, i - start));
        if (!p) return false;
        o.params.push_back(std::move(p));
        start = i + 1;
      }
    }
  }
  o.result = ParseTypeNotation(signature.substr(arrow + 2));
  if (!o.result) return false;
  overloads_[std::string(function)].push_back(std::move(o));
  return true;
}

const std::vector<FunctionDecls::Overload>* FunctionDecls::Find(std::string_view function) const {
  auto it = overloads_.find(function);
  return it == overloads_.end() ? nullptr : &it->second;
}

const FunctionDecls& FunctionDecls::Standard() {
  static const FunctionDecls* decls = new FunctionDecls(BuildStandard());
  return *decls;
}

}  // namespace kube::cel
