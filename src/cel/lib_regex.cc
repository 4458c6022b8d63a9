// kube's regex library (k8s.io/apiserver/pkg/cel/library/regex.go): `s.find(re)` is the leftmost
// match of RE2 pattern `re` in `s` ("" when none), `s.findAll(re)` and `s.findAll(re, n)` the
// successive non-overlapping matches (at most n when n >= 0), found as Go's regexp finds them: an
// empty match right after a previous match is skipped, and an empty match moves on by one code
// point. A pattern that does not compile is the error "Illegal regex: <reason>".
#include <re2/re2.h>

#include "cel/lib_internal.h"

namespace kube::cel::internal {

namespace {

constexpr Kind S = Kind::kString, I = Kind::kInt;

// The length of the UTF-8 sequence starting at s[i] (1 for an invalid byte, as Go steps).
size_t RuneWidth(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
  if (i + n > s.size()) return 1;
  for (size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 1;
  }
  return n;
}

void AddRegexCost(const Value* a, CallContext& ctx) {
  const uint64_t str_cost = TraversalCost(a[0].AsString().size() + 1);
  const uint64_t re_cost = TraversalCost(a[1].AsString().size(), kRegexStringLengthCostFactor);
  ctx.AddCost(str_cost * re_cost);
}

Value FindAll(const Value* a, int64_t limit, CallContext& ctx) {
  AddRegexCost(a, ctx);
  std::string error;
  const re2::RE2* re = ctx.Regex(a[1].AsString(), &error);
  if (re == nullptr) return Value::Error("Illegal regex: " + error);
  const std::string& s = a[0].AsString();
  ValueList out;
  size_t pos = 0;
  std::optional<size_t> prev_end;
  while ((limit < 0 || static_cast<int64_t>(out.size()) < limit) && pos <= s.size()) {
    re2::StringPiece m;
    if (!re->Match(s, pos, s.size(), re2::RE2::UNANCHORED, &m, 1)) break;
    const size_t begin = static_cast<size_t>(m.data() - s.data()), end = begin + m.size();
    bool accept = true;
    if (end == pos) {
      if (prev_end && begin == *prev_end) accept = false;
      pos += pos < s.size() ? RuneWidth(s, pos) : 1;
    } else {
      pos = end;
    }
    prev_end = end;
    if (accept) out.push_back(Value::String(s.substr(begin, end - begin)));
  }
  return Value::List(std::move(out));
}

}  // namespace

void RegisterRegexLibrary(FunctionRegistry& r) {
  AddMember(r, "find", {S, S}, [](const Value* a, CallContext& ctx) {
    AddRegexCost(a, ctx);
    std::string error;
    const re2::RE2* re = ctx.Regex(a[1].AsString(), &error);
    if (re == nullptr) return Value::Error("Illegal regex: " + error);
    re2::StringPiece m;
    const std::string& s = a[0].AsString();
    if (!re->Match(s, 0, s.size(), re2::RE2::UNANCHORED, &m, 1)) return Value::String("");
    return Value::String(std::string(m.data(), m.size()));
  });
  AddMember(r, "findAll", {S, S}, [](const Value* a, CallContext& ctx) { return FindAll(a, -1, ctx); });
  AddMember(r, "findAll", {S, S, I}, [](const Value* a, CallContext& ctx) { return FindAll(a, a[2].AsInt(), ctx); });
}

}  // namespace kube::cel::internal
