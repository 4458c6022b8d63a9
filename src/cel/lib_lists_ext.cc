// cel-go's list extensions (ext.Lists at version 3, as kube 1.36 enables them): slice, flatten,
// distinct, reverse, sort, sortBy (a macro in macros.cc over @sortByAssociatedKeys) and
// lists.range; and its sets extensions (ext.Sets): sets.contains, sets.equivalent and
// sets.intersects, with CEL's heterogeneous equality. Errors are worded as cel-go words them.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "cel/lib_internal.h"

namespace kube::cel::internal {

namespace {

constexpr Kind L = Kind::kList, I = Kind::kInt;

// Beyond this lists.range refuses (cel-go would try to allocate it before its cost is counted).
constexpr int64_t kMaxRange = int64_t{1} << 24;

bool IsComparable(Kind k) {
  switch (k) {
    case Kind::kInt: case Kind::kUint: case Kind::kDouble: case Kind::kBool: case Kind::kDuration:
    case Kind::kTimestamp: case Kind::kString: case Kind::kBytes:
      return true;
    default:
      return false;
  }
}

// a < b for two values of one comparable kind; NaN sorts last so that the order stays strict.
bool Less(const Value& a, const Value& b) {
  switch (a.kind()) {
    case Kind::kInt: return a.AsInt() < b.AsInt();
    case Kind::kUint: return a.AsUint() < b.AsUint();
    case Kind::kDouble: {
      const double x = a.AsDouble(), y = b.AsDouble();
      if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);
      return x < y;
    }
    case Kind::kBool: return !a.AsBool() && b.AsBool();
    case Kind::kDuration: return a.AsDuration() < b.AsDuration();
    case Kind::kTimestamp: return a.AsTimestamp() < b.AsTimestamp();
    case Kind::kString: return a.AsString() < b.AsString();
    case Kind::kBytes: return a.AsBytes() < b.AsBytes();
    default: return false;
  }
}

// cel-go's sortListByAssociatedKeys: `list` ordered by `keys` (stable for equal keys).
Value SortByKeys(const ValueList& list, const ValueList& keys, CallContext& ctx) {
  if (list.size() != keys.size()) {
    return Value::Error("@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got " +
                        std::to_string(list.size()) + " and " + std::to_string(keys.size()) + " elements respectively");
  }
  if (list.empty()) return Value::List({});
  const Kind k = keys[0].kind();
  if (!IsComparable(k)) return Value::Error("list elements must be comparable");
  for (const auto& key : keys) {
    if (key.kind() != k) return Value::Error("list elements must have the same type");
  }
  ctx.AddCost(static_cast<uint64_t>(list.size() * std::max(1.0, std::log2(static_cast<double>(list.size())))));
  std::vector<size_t> order(list.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t i, size_t j) { return Less(keys[i], keys[j]); });
  ValueList out;
  out.reserve(list.size());
  for (size_t i : order) out.push_back(list[i]);
  return Value::List(std::move(out));
}

void Flatten(const ValueList& list, int64_t depth, ValueList* out) {
  for (const auto& v : list) {
    if (v.kind() == Kind::kList && depth > 0) {
      Flatten(v.AsList(), depth - 1, out);
    } else {
      out->push_back(v);
    }
  }
}

bool Contains(const ValueList& list, const Value& v) {
  for (const auto& item : list) {
    if (Equal(item, v)) return true;
  }
  return false;
}

bool ContainsAll(const ValueList& list, const ValueList& sub) {
  for (const auto& v : sub) {
    if (!Contains(list, v)) return false;
  }
  return true;
}

}  // namespace

void RegisterListsExtLibrary(FunctionRegistry& r) {
  AddMember(r, "slice", {L, I, I}, [](const Value* a, CallContext& ctx) {
    const auto& list = a[0].AsList();
    const int64_t start = a[1].AsInt(), end = a[2].AsInt();
    const std::string call = "cannot slice(" + std::to_string(start) + ", " + std::to_string(end) + "), ";
    if (start < 0 || end < 0) return Value::Error(call + "negative indexes not supported");
    if (start > end) return Value::Error(call + "start index must be less than or equal to end index");
    if (static_cast<int64_t>(list.size()) < end) return Value::Error(call + "list is length " + std::to_string(list.size()));
    ctx.AddCost(static_cast<uint64_t>(end - start));
    return Value::List(ValueList(list.begin() + start, list.begin() + end));
  });
  auto flatten = [](const ValueList& list, int64_t depth, CallContext& ctx) {
    if (depth < 0) return Value::Error("level must be non-negative");
    ValueList out;
    Flatten(list, depth, &out);
    ctx.AddCost(out.size());
    return Value::List(std::move(out));
  };
  AddMember(r, "flatten", {L}, [flatten](const Value* a, CallContext& ctx) { return flatten(a[0].AsList(), 1, ctx); });
  AddMember(r, "flatten", {L, I}, [flatten](const Value* a, CallContext& ctx) {
    return flatten(a[0].AsList(), a[1].AsInt(), ctx);
  });
  AddMember(r, "distinct", {L}, [](const Value* a, CallContext& ctx) {
    const auto& list = a[0].AsList();
    ctx.AddCost(list.size() * list.size());
    ValueList out;
    for (const auto& v : list) {
      if (!Contains(out, v)) out.push_back(v);
    }
    return Value::List(std::move(out));
  });
  AddMember(r, "reverse", {L}, [](const Value* a, CallContext& ctx) {
    const auto& list = a[0].AsList();
    ctx.AddCost(list.size());
    return Value::List(ValueList(list.rbegin(), list.rend()));
  });
  AddMember(r, "sort", {L}, [](const Value* a, CallContext& ctx) { return SortByKeys(a[0].AsList(), a[0].AsList(), ctx); });
  AddMember(r, "@sortByAssociatedKeys", {L, L}, [](const Value* a, CallContext& ctx) {
    return SortByKeys(a[0].AsList(), a[1].AsList(), ctx);
  });
  AddGlobal(r, "lists.range", {I}, [](const Value* a, CallContext& ctx) {
    const int64_t n = a[0].AsInt();
    if (n > kMaxRange) return Value::Error("lists.range(" + std::to_string(n) + ") exceeds " + std::to_string(kMaxRange) + " elements");
    ValueList out;
    for (int64_t i = 0; i < n; ++i) out.push_back(Value::Int(i));
    ctx.AddCost(out.size());
    return Value::List(std::move(out));
  });
}

void RegisterSetsLibrary(FunctionRegistry& r) {
  AddGlobal(r, "sets.contains", {L, L}, [](const Value* a, CallContext& ctx) {
    ctx.AddCost(a[0].AsList().size() * a[1].AsList().size());
    return Value::Bool(ContainsAll(a[0].AsList(), a[1].AsList()));
  });
  AddGlobal(r, "sets.equivalent", {L, L}, [](const Value* a, CallContext& ctx) {
    ctx.AddCost(2 * a[0].AsList().size() * a[1].AsList().size());
    return Value::Bool(ContainsAll(a[0].AsList(), a[1].AsList()) && ContainsAll(a[1].AsList(), a[0].AsList()));
  });
  AddGlobal(r, "sets.intersects", {L, L}, [](const Value* a, CallContext& ctx) {
    ctx.AddCost(a[0].AsList().size() * a[1].AsList().size());
    for (const auto& v : a[0].AsList()) {
      if (Contains(a[1].AsList(), v)) return Value::Bool(true);
    }
    return Value::Bool(false);
  });
}

}  // namespace kube::cel::internal
