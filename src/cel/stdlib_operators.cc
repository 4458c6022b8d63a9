// The operators of the standard library: arithmetic with overflow errors, comparisons across
// numeric kinds, equality, `!`, `in`, `size`, and the map insertion the two-variable
// comprehension macros use.
#include <cmath>

#include "cel/cel.h"
#include "cel/stdlib_internal.h"

namespace kube::cel {

namespace internal {

namespace {

constexpr Kind I = Kind::kInt, U = Kind::kUint, D = Kind::kDouble, S = Kind::kString, B = Kind::kBytes,
               L = Kind::kList, M = Kind::kMap, BOOL = Kind::kBool, TS = Kind::kTimestamp, DUR = Kind::kDuration;

void Arithmetic(FunctionRegistry& r) {
  auto add = [&](std::string_view op, Kind a, Kind b, FunctionImpl f) { r.Add(op, {.params = {a, b}}, std::move(f)); };
  add("_+_", I, I, [](const Value* a, CallContext&) {
    int64_t out;
    return __builtin_add_overflow(a[0].AsInt(), a[1].AsInt(), &out) ? Overflow() : Value::Int(out);
  });
  add("_-_", I, I, [](const Value* a, CallContext&) {
    int64_t out;
    return __builtin_sub_overflow(a[0].AsInt(), a[1].AsInt(), &out) ? Overflow() : Value::Int(out);
  });
  add("_*_", I, I, [](const Value* a, CallContext&) {
    int64_t out;
    return __builtin_mul_overflow(a[0].AsInt(), a[1].AsInt(), &out) ? Overflow() : Value::Int(out);
  });
  add("_/_", I, I, [](const Value* a, CallContext&) {
    const int64_t x = a[0].AsInt(), y = a[1].AsInt();
    if (y == 0) return Value::Error("division by zero");
    if (x == INT64_MIN && y == -1) return Overflow();
    return Value::Int(x / y);
  });
  add("_%_", I, I, [](const Value* a, CallContext&) {
    const int64_t x = a[0].AsInt(), y = a[1].AsInt();
    if (y == 0) return Value::Error("modulus by zero");
    if (x == INT64_MIN && y == -1) return Overflow();
    return Value::Int(x % y);
  });
  add("_+_", U, U, [](const Value* a, CallContext&) {
    uint64_t out;
    return __builtin_add_overflow(a[0].AsUint(), a[1].AsUint(), &out) ? UintOverflow() : Value::Uint(out);
  });
  add("_-_", U, U, [](const Value* a, CallContext&) {
    uint64_t out;
    return __builtin_sub_overflow(a[0].AsUint(), a[1].AsUint(), &out) ? UintOverflow() : Value::Uint(out);
  });
  add("_*_", U, U, [](const Value* a, CallContext&) {
    uint64_t out;
    return __builtin_mul_overflow(a[0].AsUint(), a[1].AsUint(), &out) ? UintOverflow() : Value::Uint(out);
  });
  add("_/_", U, U, [](const Value* a, CallContext&) {
    if (a[1].AsUint() == 0) return Value::Error("division by zero");
    return Value::Uint(a[0].AsUint() / a[1].AsUint());
  });
  add("_%_", U, U, [](const Value* a, CallContext&) {
    if (a[1].AsUint() == 0) return Value::Error("modulus by zero");
    return Value::Uint(a[0].AsUint() % a[1].AsUint());
  });
  add("_+_", D, D, [](const Value* a, CallContext&) { return Value::Double(a[0].AsDouble() + a[1].AsDouble()); });
  add("_-_", D, D, [](const Value* a, CallContext&) { return Value::Double(a[0].AsDouble() - a[1].AsDouble()); });
  add("_*_", D, D, [](const Value* a, CallContext&) { return Value::Double(a[0].AsDouble() * a[1].AsDouble()); });
  add("_/_", D, D, [](const Value* a, CallContext&) { return Value::Double(a[0].AsDouble() / a[1].AsDouble()); });
  add("_+_", S, S, [](const Value* a, CallContext& ctx) {
    ctx.AddCost((a[0].AsString().size() + a[1].AsString().size()) / 10);
    return Value::String(a[0].AsString() + a[1].AsString());
  });
  add("_+_", B, B, [](const Value* a, CallContext& ctx) {
    ctx.AddCost((a[0].AsBytes().size() + a[1].AsBytes().size()) / 10);
    return Value::Bytes(a[0].AsBytes() + a[1].AsBytes());
  });
  add("_+_", L, L, [](const Value* a, CallContext& ctx) {
    const auto &x = a[0].AsList(), &y = a[1].AsList();
    ctx.AddCost((x.size() + y.size()) / 10);
    return ConcatLists(a[0], a[1]);
  });
  r.Add("-_", {.params = {I}}, [](const Value* a, CallContext&) {
    return a[0].AsInt() == INT64_MIN ? Overflow() : Value::Int(-a[0].AsInt());
  });
  r.Add("-_", {.params = {D}}, [](const Value* a, CallContext&) { return Value::Double(-a[0].AsDouble()); });
  r.Add("!_", {.params = {BOOL}}, [](const Value* a, CallContext&) { return Value::Bool(!a[0].AsBool()); });
}

// -1, 0, 1 for ordered values; 2 when unordered (NaN).
int Order(const Value& a, const Value& b) {
  auto sign = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  switch (a.kind()) {
    case Kind::kBool: return sign(a.AsBool(), b.AsBool());
    case Kind::kString: return sign(a.AsString(), b.AsString());
    case Kind::kBytes: return sign(a.AsBytes(), b.AsBytes());
    case Kind::kTimestamp: return sign(a.AsTimestamp(), b.AsTimestamp());
    case Kind::kDuration: return sign(a.AsDuration(), b.AsDuration());
    default: break;
  }
  // Numbers, possibly of different kinds.
  if (Equal(a, b)) return 0;
  if (KeyLess(a, b)) return -1;
  if (KeyLess(b, a)) return 1;
  return 2;
}

void Comparisons(FunctionRegistry& r) {
  struct Op {
    std::string_view name;
    bool (*test)(int);
  };
  const Op ops[] = {{"_<_", [](int c) { return c == -1; }},
                    {"_<=_", [](int c) { return c == -1 || c == 0; }},
                    {"_>_", [](int c) { return c == 1; }},
                    {"_>=_", [](int c) { return c == 1 || c == 0; }}};
  const std::pair<Kind, Kind> same[] = {{BOOL, BOOL}, {S, S}, {B, B}, {TS, TS}, {DUR, DUR}};
  const Kind numbers[] = {I, U, D};
  for (const auto& op : ops) {
    auto impl = [test = op.test](const Value* a, CallContext&) { return Value::Bool(test(Order(a[0], a[1]))); };
    for (auto [x, y] : same) r.Add(op.name, {.params = {x, y}}, impl);
    for (Kind x : numbers) {
      for (Kind y : numbers) r.Add(op.name, {.params = {x, y}}, impl);
    }
  }
  r.Add("_==_", {.params = {Param(), Param()}}, [](const Value* a, CallContext&) { return Value::Bool(Equal(a[0], a[1])); });
  r.Add("_!=_", {.params = {Param(), Param()}}, [](const Value* a, CallContext&) { return Value::Bool(!Equal(a[0], a[1])); });
}

void Containers(FunctionRegistry& r) {
  r.Add("@in", {.params = {Param(), L}}, [](const Value* a, CallContext& ctx) {
    const auto& items = a[1].AsList();
    ctx.AddCost(items.size());
    for (const auto& item : items) {
      if (Equal(item, a[0])) return Value::Bool(true);
    }
    return Value::Bool(false);
  });
  r.Add("@in", {.params = {Param(), M}}, [](const Value* a, CallContext&) {
    return Value::Bool(a[1].Find(a[0]) != nullptr);
  });
  AddBoth(r, "size", {S}, [](const Value* a, CallContext&) { return Value::Int(static_cast<int64_t>(CodePointCount(a[0].AsString()))); });
  AddBoth(r, "size", {B}, [](const Value* a, CallContext&) { return Value::Int(static_cast<int64_t>(a[0].AsBytes().size())); });
  AddBoth(r, "size", {L}, [](const Value* a, CallContext&) { return Value::Int(static_cast<int64_t>(a[0].AsList().size())); });
  AddBoth(r, "size", {M}, [](const Value* a, CallContext&) { return Value::Int(static_cast<int64_t>(a[0].AsMap().size())); });
  // The map insertion behind transformMap and transformMapEntry.
  r.Add("cel.@mapInsert", {.params = {M, Param(), Param()}}, [](const Value* a, CallContext&) {
    if (!IsKeyKind(a[1].kind())) return Value::Error("unsupported key type: " + std::string(a[1].TypeName()));
    if (a[0].Find(a[1]) != nullptr) return Value::Error("insert failed: key " + DebugString(a[1]) + " already exists");
    MapEntries entries = a[0].AsMap();
    entries.emplace_back(a[1], a[2]);
    return Value::Map(std::move(entries));
  });
  r.Add("cel.@mapInsert", {.params = {M, M}}, [](const Value* a, CallContext&) {
    MapEntries entries = a[0].AsMap();
    for (const auto& [k, v] : a[1].AsMap()) {
      if (a[0].Find(k) != nullptr) return Value::Error("insert failed: key " + DebugString(k) + " already exists");
      entries.emplace_back(k, v);
    }
    return Value::Map(std::move(entries));
  });
}

}  // namespace

void RegisterOperators(FunctionRegistry& r) {
  Arithmetic(r);
  Comparisons(r);
  Containers(r);
}

}  // namespace internal

void RegisterStandardLibrary(FunctionRegistry& r) {
  internal::RegisterOperators(r);
  internal::RegisterConversions(r);
  internal::RegisterStrings(r);
  internal::RegisterTime(r);
  internal::RegisterOptionals(r);
}

}  // namespace kube::cel
