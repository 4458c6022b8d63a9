// kube's semver library (k8s.io/apiserver/pkg/cel/library/semverlib.go, version 1 as kube 1.36
// enables it): the opaque type `kubernetes.Semver` read as github.com/blang/semver/v4 reads
// versions (errors worded as it words them), semver(s) and isSemver(s) with the optional
// `normalize` flag (a leading "v" dropped, leading zeros trimmed, a missing minor or patch added
// as 0), and the members major, minor, patch, compareTo, isGreaterThan and isLessThan. Build
// metadata takes no part in comparison or equality.
#include <vector>

#include "cel/lib_internal.h"
#include "util/go_format.h"

namespace kube::cel::internal {

namespace {

constexpr Kind S = Kind::kString, BOOL = Kind::kBool;
constexpr char kSemverType[] = "kubernetes.Semver";
constexpr std::string_view kNumbers = "0123456789";
constexpr std::string_view kAlphanum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-";

struct PreRelease {
  bool is_num = false;
  uint64_t num = 0;
  std::string str;
};

struct Version {
  uint64_t major = 0, minor = 0, patch = 0;
  std::vector<PreRelease> pre;
  std::vector<std::string> build;
};

bool ContainsOnly(std::string_view s, std::string_view set) { return s.find_first_not_of(set) == std::string_view::npos; }
bool HasLeadingZeroes(std::string_view s) { return s.size() > 1 && s[0] == '0'; }

std::vector<std::string_view> SplitN(std::string_view s, char sep, size_t n) {
  std::vector<std::string_view> out;
  while (out.size() + 1 < n) {
    const size_t at = s.find(sep);
    if (at == std::string_view::npos) break;
    out.push_back(s.substr(0, at));
    s.remove_prefix(at + 1);
  }
  out.push_back(s);
  return out;
}

// strconv.ParseUint(s, 10, 64), with its error text.
bool ParseUint(std::string_view s, uint64_t* out, std::string* error) {
  uint64_t v = 0;
  bool ok = !s.empty();
  bool range = false;
  for (char c : s) {
    if (c < '0' || c > '9') {
      ok = false;
      break;
    }
    if (__builtin_mul_overflow(v, uint64_t{10}, &v) || __builtin_add_overflow(v, static_cast<uint64_t>(c - '0'), &v)) {
      range = true;
    }
  }
  if (!ok || range) {
    *error = "strconv.ParseUint: parsing " + GoQuote(s) + (ok ? ": value out of range" : ": invalid syntax");
    return false;
  }
  *out = v;
  return true;
}

bool ParseNumber(std::string_view s, std::string_view what, uint64_t* out, std::string* error) {
  if (!ContainsOnly(s, kNumbers)) {
    *error = "Invalid character(s) found in " + std::string(what) + " number " + GoQuote(s);
    return false;
  }
  if (HasLeadingZeroes(s)) {
    std::string name(what);
    name[0] = static_cast<char>(name[0] - 'a' + 'A');
    *error = name + " number must not contain leading zeroes " + GoQuote(s);
    return false;
  }
  return ParseUint(s, out, error);
}

std::optional<Version> Parse(std::string_view s, std::string* error) {
  if (s.empty()) {
    *error = "Version string empty";
    return std::nullopt;
  }
  const auto parts = SplitN(s, '.', 3);
  if (parts.size() != 3) {
    *error = "No Major.Minor.Patch elements found";
    return std::nullopt;
  }
  Version v;
  if (!ParseNumber(parts[0], "major", &v.major, error) || !ParseNumber(parts[1], "minor", &v.minor, error)) {
    return std::nullopt;
  }
  std::string_view patch = parts[2];
  std::vector<std::string_view> build, pre;
  if (size_t plus = patch.find('+'); plus != std::string_view::npos) {
    build = SplitN(patch.substr(plus + 1), '.', SIZE_MAX);
    patch = patch.substr(0, plus);
  }
  if (size_t dash = patch.find('-'); dash != std::string_view::npos) {
    pre = SplitN(patch.substr(dash + 1), '.', SIZE_MAX);
    patch = patch.substr(0, dash);
  }
  if (!ParseNumber(patch, "patch", &v.patch, error)) return std::nullopt;
  for (std::string_view p : pre) {
    if (p.empty()) {
      *error = "Prerelease is empty";
      return std::nullopt;
    }
    PreRelease pr;
    if (ContainsOnly(p, kNumbers)) {
      if (HasLeadingZeroes(p)) {
        *error = "Numeric PreRelease version must not contain leading zeroes " + GoQuote(p);
        return std::nullopt;
      }
      if (!ParseUint(p, &pr.num, error)) return std::nullopt;
      pr.is_num = true;
    } else if (ContainsOnly(p, kAlphanum)) {
      pr.str = std::string(p);
    } else {
      *error = "Invalid character(s) found in prerelease " + GoQuote(p);
      return std::nullopt;
    }
    v.pre.push_back(std::move(pr));
  }
  for (std::string_view b : build) {
    if (b.empty()) {
      *error = "Build meta data is empty";
      return std::nullopt;
    }
    if (!ContainsOnly(b, kAlphanum)) {
      *error = "Invalid character(s) found in build meta data " + GoQuote(b);
      return std::nullopt;
    }
    v.build.emplace_back(b);
  }
  return v;
}

// kube's normalizeAndParse.
std::optional<Version> NormalizeAndParse(std::string_view s, std::string* error) {
  if (!s.empty() && s[0] == 'v') s.remove_prefix(1);
  std::vector<std::string> parts;
  for (std::string_view p : SplitN(s, '.', 3)) {
    std::string part(p);
    if (part.size() > 1) {
      part.erase(0, part.find_first_not_of('0') == std::string::npos ? part.size() : part.find_first_not_of('0'));
      if (part.empty() || part[0] < '0' || part[0] > '9') part.insert(0, "0");
    }
    parts.push_back(std::move(part));
  }
  if (parts.size() < 3) {
    if (parts.back().find_first_of("+-") != std::string::npos) {
      *error = "short version cannot contain PreRelease/Build meta data";
      return std::nullopt;
    }
    while (parts.size() < 3) parts.emplace_back("0");
  }
  return Parse(parts[0] + "." + parts[1] + "." + parts[2], error);
}

int Sign(uint64_t a, uint64_t b) { return a == b ? 0 : (a > b ? 1 : -1); }

int Compare(const Version& v, const Version& o) {
  if (int c = Sign(v.major, o.major)) return c;
  if (int c = Sign(v.minor, o.minor)) return c;
  if (int c = Sign(v.patch, o.patch)) return c;
  if (v.pre.empty() || o.pre.empty()) return v.pre.empty() == o.pre.empty() ? 0 : (v.pre.empty() ? 1 : -1);
  for (size_t i = 0; i < v.pre.size() && i < o.pre.size(); ++i) {
    const PreRelease &a = v.pre[i], &b = o.pre[i];
    int c;
    if (a.is_num != b.is_num) {
      c = a.is_num ? -1 : 1;
    } else if (a.is_num) {
      c = Sign(a.num, b.num);
    } else {
      c = a.str == b.str ? 0 : (a.str > b.str ? 1 : -1);
    }
    if (c != 0) return c;
  }
  return v.pre.size() == o.pre.size() ? 0 : (v.pre.size() < o.pre.size() ? -1 : 1);
}

std::string ToString(const Version& v) {
  std::string out = std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
  for (size_t i = 0; i < v.pre.size(); ++i) {
    out += (i ? "." : "-") + (v.pre[i].is_num ? std::to_string(v.pre[i].num) : v.pre[i].str);
  }
  for (size_t i = 0; i < v.build.size(); ++i) out += (i ? "." : "+") + v.build[i];
  return out;
}

class SemverObject final : public OpaqueObject {
 public:
  explicit SemverObject(Version v) : v_(std::move(v)) {}
  std::string_view TypeName() const override { return kSemverType; }
  bool Equals(const OpaqueObject& other) const override {
    return Compare(v_, static_cast<const SemverObject&>(other).v_) == 0;
  }
  std::string DebugString() const override { return "semver(" + GoQuote(ToString(v_)) + ")"; }
  const Version& version() const { return v_; }

 private:
  Version v_;
};

const Version& V(const Value& v) { return static_cast<const SemverObject&>(v.AsOpaque()).version(); }

Value ToSemver(const std::string& s, bool normalize, CallContext& ctx) {
  ctx.AddCost(TraversalCost(s.size()));
  std::string error;
  std::optional<Version> v = normalize ? NormalizeAndParse(s, &error) : Parse(s, &error);
  if (!v) return Value::Error(error);
  return Value::MakeOpaque<SemverObject>(std::move(*v));
}

}  // namespace

void RegisterSemverLibrary(FunctionRegistry& r) {
  const Param sv = Param::Opaque(kSemverType);
  AddGlobal(r, "semver", {S}, [](const Value* a, CallContext& ctx) { return ToSemver(a[0].AsString(), false, ctx); });
  AddGlobal(r, "semver", {S, BOOL}, [](const Value* a, CallContext& ctx) {
    return ToSemver(a[0].AsString(), a[1].AsBool(), ctx);
  });
  AddGlobal(r, "isSemver", {S}, [](const Value* a, CallContext& ctx) {
    return Value::Bool(!ToSemver(a[0].AsString(), false, ctx).IsError());
  });
  AddGlobal(r, "isSemver", {S, BOOL}, [](const Value* a, CallContext& ctx) {
    return Value::Bool(!ToSemver(a[0].AsString(), a[1].AsBool(), ctx).IsError());
  });
  AddMember(r, "major", {sv}, [](const Value* a, CallContext&) { return Value::Int(static_cast<int64_t>(V(a[0]).major)); });
  AddMember(r, "minor", {sv}, [](const Value* a, CallContext&) { return Value::Int(static_cast<int64_t>(V(a[0]).minor)); });
  AddMember(r, "patch", {sv}, [](const Value* a, CallContext&) { return Value::Int(static_cast<int64_t>(V(a[0]).patch)); });
  AddMember(r, "compareTo", {sv, sv}, [](const Value* a, CallContext&) { return Value::Int(Compare(V(a[0]), V(a[1]))); });
  AddMember(r, "isGreaterThan", {sv, sv}, [](const Value* a, CallContext&) {
    return Value::Bool(Compare(V(a[0]), V(a[1])) == 1);
  });
  AddMember(r, "isLessThan", {sv, sv}, [](const Value* a, CallContext&) {
    return Value::Bool(Compare(V(a[0]), V(a[1])) == -1);
  });
}

}  // namespace kube::cel::internal
