// Two of the libraries the Kubernetes CEL environment adds to the standard one:
//  - cel-go's extended strings (ext.Strings, as kube 1.36 loads it): charAt, indexOf,
//    lastIndexOf, lowerAscii, upperAscii, replace, split, substring, trim, join and
//    strings.quote. Indexes count Unicode code points.
//  - kube's lists library (k8s.io/apiserver/pkg/cel/library/lists.go): isSorted, sum, min, max,
//    indexOf, lastIndexOf on lists.
#include <algorithm>

#include "cel/cel.h"
#include "cel/lib_internal.h"
#include "cel/stdlib_internal.h"
#include "util/go_format.h"

namespace kube::cel {

namespace {

constexpr Kind S = Kind::kString, I = Kind::kInt, L = Kind::kList;

// Code points of a UTF-8 string (an invalid byte is one code point of its own).
std::vector<std::string_view> CodePoints(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    size_t n = 1;
    while (i + n < s.size() && (static_cast<unsigned char>(s[i + n]) & 0xC0) == 0x80) ++n;
    out.push_back(s.substr(i, n));
    i += n;
  }
  return out;
}

std::string Join(const std::vector<std::string_view>& cps, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to; ++i) out += cps[i];
  return out;
}

Value IndexOf(const std::string& s, const std::string& sub, int64_t offset, bool last) {
  const auto cps = CodePoints(s), subs = CodePoints(sub);
  const int64_t n = static_cast<int64_t>(cps.size()), m = static_cast<int64_t>(subs.size());
  if (offset < 0 || offset > n) return Value::Error("index out of range: " + std::to_string(offset));
  auto matches_at = [&](int64_t i) {
    for (int64_t k = 0; k < m; ++k) {
      if (cps[i + k] != subs[k]) return false;
    }
    return true;
  };
  if (!last) {
    for (int64_t i = offset; i + m <= n; ++i) {
      if (matches_at(i)) return Value::Int(i);
    }
  } else {
    for (int64_t i = std::min(offset, n - m); i >= 0; --i) {
      if (matches_at(i)) return Value::Int(i);
    }
  }
  return Value::Int(-1);
}

Value Replace(const std::string& s, const std::string& from, const std::string& to, int64_t limit) {
  if (limit == 0) return Value::String(s);
  std::string out;
  size_t pos = 0;
  int64_t done = 0;
  if (from.empty()) {
    // Go's strings.Replace with an empty old string inserts `to` around every code point.
    const auto cps = CodePoints(s);
    for (size_t i = 0; i <= cps.size(); ++i) {
      if (limit < 0 || done < limit) {
        out += to;
        ++done;
      }
      if (i < cps.size()) out += cps[i];
    }
    return Value::String(out);
  }
  while (limit < 0 || done < limit) {
    const size_t at = s.find(from, pos);
    if (at == std::string::npos) break;
    out += s.substr(pos, at - pos) + to;
    pos = at + from.size();
    ++done;
  }
  return Value::String(out + s.substr(pos));
}

Value Split(const std::string& s, const std::string& sep, int64_t limit) {
  ValueList parts;
  if (limit == 0) return Value::List({});
  if (sep.empty()) {
    const auto cps = CodePoints(s);
    for (size_t i = 0; i < cps.size(); ++i) {
      if (limit > 0 && static_cast<int64_t>(parts.size()) == limit - 1) {
        parts.push_back(Value::String(Join(cps, i, cps.size())));
        break;
      }
      parts.push_back(Value::String(std::string(cps[i])));
    }
    return Value::List(std::move(parts));
  }
  // Counted first, so that the parts are placed once.
  int64_t count = 1;
  for (size_t at = s.find(sep); at != std::string::npos && (limit < 0 || count < limit); at = s.find(sep, at + sep.size())) {
    ++count;
  }
  parts.reserve(static_cast<size_t>(count));
  size_t pos = 0;
  while (limit < 0 || static_cast<int64_t>(parts.size()) < limit - 1) {
    const size_t at = s.find(sep, pos);
    if (at == std::string::npos) break;
    parts.push_back(Value::String(s.substr(pos, at - pos)));
    pos = at + sep.size();
  }
  parts.push_back(Value::String(s.substr(pos)));
  return Value::List(std::move(parts));
}

bool IsUnicodeSpace(std::string_view cp) {
  static const char* const kSpaces[] = {" ", "\t", "\n", "\v", "\f", "\r", "\xc2\x85", "\xc2\xa0", "\xe1\x9a\x80",
                                        "\xe2\x80\x80", "\xe2\x80\x81", "\xe2\x80\x82", "\xe2\x80\x83", "\xe2\x80\x84",
                                        "\xe2\x80\x85", "\xe2\x80\x86", "\xe2\x80\x87", "\xe2\x80\x88", "\xe2\x80\x89",
                                        "\xe2\x80\x8a", "\xe2\x80\xa8", "\xe2\x80\xa9", "\xe2\x80\xaf", "\xe2\x81\x9f",
                                        "\xe3\x80\x80"};
  for (const char* s : kSpaces) {
    if (cp == s) return true;
  }
  return false;
}

void RegisterStringsExt(FunctionRegistry& r) {
  auto rcv = [&](std::string_view name, std::vector<Param> params, FunctionImpl f) {
    r.Add(name, {.receiver = true, .params = std::move(params)}, std::move(f));
  };
  rcv("charAt", {S, I}, [](const Value* a, CallContext&) {
    const auto cps = CodePoints(a[0].AsString());
    const int64_t i = a[1].AsInt();
    if (i < 0 || i > static_cast<int64_t>(cps.size())) return Value::Error("index out of range: " + std::to_string(i));
    return Value::String(i == static_cast<int64_t>(cps.size()) ? "" : std::string(cps[i]));
  });
  rcv("indexOf", {S, S}, [](const Value* a, CallContext&) { return IndexOf(a[0].AsString(), a[1].AsString(), 0, false); });
  rcv("indexOf", {S, S, I}, [](const Value* a, CallContext&) { return IndexOf(a[0].AsString(), a[1].AsString(), a[2].AsInt(), false); });
  rcv("lastIndexOf", {S, S}, [](const Value* a, CallContext&) {
    return IndexOf(a[0].AsString(), a[1].AsString(), static_cast<int64_t>(CodePointCount(a[0].AsString())), true);
  });
  rcv("lastIndexOf", {S, S, I}, [](const Value* a, CallContext&) { return IndexOf(a[0].AsString(), a[1].AsString(), a[2].AsInt(), true); });
  // A string already in the wanted case is the result as it is: no copy (the common case of
  // rules like `self == self.lowerAscii()`).
  rcv("lowerAscii", {S}, [](const Value* a, CallContext&) {
    const std::string& in = a[0].AsString();
    if (std::none_of(in.begin(), in.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) return a[0];
    std::string s = in;
    for (char& c : s) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return Value::String(std::move(s));
  });
  rcv("upperAscii", {S}, [](const Value* a, CallContext&) {
    const std::string& in = a[0].AsString();
    if (std::none_of(in.begin(), in.end(), [](char c) { return c >= 'a' && c <= 'z'; })) return a[0];
    std::string s = in;
    for (char& c : s) {
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    return Value::String(std::move(s));
  });
  rcv("replace", {S, S, S}, [](const Value* a, CallContext&) { return Replace(a[0].AsString(), a[1].AsString(), a[2].AsString(), -1); });
  rcv("replace", {S, S, S, I}, [](const Value* a, CallContext&) {
    return Replace(a[0].AsString(), a[1].AsString(), a[2].AsString(), a[3].AsInt());
  });
  rcv("split", {S, S}, [](const Value* a, CallContext&) { return Split(a[0].AsString(), a[1].AsString(), -1); });
  rcv("split", {S, S, I}, [](const Value* a, CallContext&) { return Split(a[0].AsString(), a[1].AsString(), a[2].AsInt()); });
  auto substring = [](const std::string& s, int64_t from, std::optional<int64_t> to) {
    const auto cps = CodePoints(s);
    const int64_t n = static_cast<int64_t>(cps.size()), end = to.value_or(n);
    if (from < 0 || from > n) return Value::Error("index out of range: " + std::to_string(from));
    if (end < 0 || end > n) return Value::Error("index out of range: " + std::to_string(end));
    if (from > end) return Value::Error("invalid substring range. start: " + std::to_string(from) + ", end: " + std::to_string(end));
    return Value::String(Join(cps, from, end));
  };
  rcv("substring", {S, I}, [substring](const Value* a, CallContext&) { return substring(a[0].AsString(), a[1].AsInt(), std::nullopt); });
  rcv("substring", {S, I, I}, [substring](const Value* a, CallContext&) { return substring(a[0].AsString(), a[1].AsInt(), a[2].AsInt()); });
  rcv("trim", {S}, [](const Value* a, CallContext&) {
    const auto cps = CodePoints(a[0].AsString());
    size_t b = 0, e = cps.size();
    while (b < e && IsUnicodeSpace(cps[b])) ++b;
    while (e > b && IsUnicodeSpace(cps[e - 1])) --e;
    return Value::String(Join(cps, b, e));
  });
  auto join = [](const ValueList& items, const std::string& sep) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
      if (items[i].kind() != Kind::kString) return NoSuchOverload("join");
      out += (i ? sep : "") + items[i].AsString();
    }
    return Value::String(out);
  };
  rcv("join", {L}, [join](const Value* a, CallContext&) { return join(a[0].AsList(), ""); });
  rcv("join", {L, S}, [join](const Value* a, CallContext&) { return join(a[0].AsList(), a[1].AsString()); });
  r.Add("strings.quote", {.params = {S}}, [](const Value* a, CallContext&) { return Value::String(GoQuote(a[0].AsString())); });
}

// The list's elements, when they are all of one comparable kind (numbers count as one).
bool Comparable(const ValueList& items) {
  for (const auto& v : items) {
    const Kind k = v.kind();
    const bool number = k == Kind::kInt || k == Kind::kUint || k == Kind::kDouble;
    const Kind first = items.front().kind();
    const bool first_number = first == Kind::kInt || first == Kind::kUint || first == Kind::kDouble;
    if (number != first_number || (!number && k != first)) return false;
    if (!number && k != Kind::kString && k != Kind::kBool && k != Kind::kBytes && k != Kind::kTimestamp &&
        k != Kind::kDuration) {
      return false;
    }
  }
  return true;
}

// a < b for values Comparable() accepted.
bool Less(const Value& a, const Value& b) {
  switch (a.kind()) {
    case Kind::kString: return a.AsString() < b.AsString();
    case Kind::kBytes: return a.AsBytes() < b.AsBytes();
    case Kind::kBool: return !a.AsBool() && b.AsBool();
    case Kind::kTimestamp: return a.AsTimestamp() < b.AsTimestamp();
    case Kind::kDuration: return a.AsDuration() < b.AsDuration();
    default: return KeyLess(a, b);
  }
}

void RegisterLists(FunctionRegistry& r) {
  auto rcv = [&](std::string_view name, std::vector<Param> params, FunctionImpl f) {
    r.Add(name, {.receiver = true, .params = std::move(params)}, std::move(f));
  };
  rcv("isSorted", {L}, [](const Value* a, CallContext& ctx) {
    const auto& items = a[0].AsList();
    ctx.AddCost(items.size());
    if (items.empty()) return Value::Bool(true);
    if (!Comparable(items)) return NoSuchOverload("isSorted");
    for (size_t i = 1; i < items.size(); ++i) {
      if (Less(items[i], items[i - 1])) return Value::Bool(false);
    }
    return Value::Bool(true);
  });
  auto extreme = [](bool want_max) {
    return [want_max](const Value* a, CallContext& ctx) {
      const auto& items = a[0].AsList();
      ctx.AddCost(items.size());
      if (items.empty()) return Value::Error(std::string(want_max ? "max" : "min") + "(list) called on an empty list");
      if (!Comparable(items)) return NoSuchOverload(want_max ? "max" : "min");
      const Value* best = &items[0];
      for (const auto& v : items) {
        if (want_max ? Less(*best, v) : Less(v, *best)) best = &v;
      }
      return *best;
    };
  };
  rcv("min", {L}, extreme(false));
  rcv("max", {L}, extreme(true));
  rcv("sum", {L}, [](const Value* a, CallContext& ctx) {
    const auto& items = a[0].AsList();
    ctx.AddCost(items.size());
    if (items.empty()) return Value::Int(0);
    const Kind k = items[0].kind();
    Value total = items[0];
    for (size_t i = 1; i < items.size(); ++i) {
      if (items[i].kind() != k) return NoSuchOverload("sum");
      switch (k) {
        case Kind::kInt: {
          int64_t out;
          if (__builtin_add_overflow(total.AsInt(), items[i].AsInt(), &out)) return internal::Overflow();
          total = Value::Int(out);
          break;
        }
        case Kind::kUint: {
          uint64_t out;
          if (__builtin_add_overflow(total.AsUint(), items[i].AsUint(), &out)) return internal::UintOverflow();
          total = Value::Uint(out);
          break;
        }
        case Kind::kDouble: total = Value::Double(total.AsDouble() + items[i].AsDouble()); break;
        case Kind::kDuration: {
          int64_t out;
          if (__builtin_add_overflow(total.AsDuration().nanos, items[i].AsDuration().nanos, &out)) return internal::Overflow();
          total = Value::OfDuration({out});
          break;
        }
        default: return NoSuchOverload("sum");
      }
    }
    if (k != Kind::kInt && k != Kind::kUint && k != Kind::kDouble && k != Kind::kDuration) return NoSuchOverload("sum");
    return total;
  });
  auto find = [](bool last) {
    return [last](const Value* a, CallContext& ctx) {
      const auto& items = a[0].AsList();
      ctx.AddCost(items.size());
      for (size_t n = 0; n < items.size(); ++n) {
        const size_t i = last ? items.size() - 1 - n : n;
        if (Equal(items[i], a[1])) return Value::Int(static_cast<int64_t>(i));
      }
      return Value::Int(-1);
    };
  };
  rcv("indexOf", {L, Param()}, find(false));
  rcv("lastIndexOf", {L, Param()}, find(true));
}

}  // namespace

void RegisterKubernetesLibraries(FunctionRegistry& r) {
  RegisterStringsExt(r);
  RegisterLists(r);
  internal::RegisterRegexLibrary(r);
  internal::RegisterUrlLibrary(r);
  internal::RegisterIpLibrary(r);
  internal::RegisterCidrLibrary(r);
  internal::RegisterQuantityLibrary(r);
  internal::RegisterSemverLibrary(r);
  internal::RegisterFormatLibrary(r);
  internal::RegisterSetsLibrary(r);
  internal::RegisterListsExtLibrary(r);
  internal::RegisterStringFormat(r);
}

}  // namespace kube::cel
