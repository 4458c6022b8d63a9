// Optional values (cel-go's optional library, which the Kubernetes environment enables):
// optional.of / none / ofNonZeroValue, and hasValue, value, or, orValue on an optional.
#include "cel/stdlib_internal.h"

namespace kube::cel::internal {

namespace {

constexpr Kind OPT = Kind::kOptional;

bool IsZeroValue(const Value& v) {
  switch (v.kind()) {
    case Kind::kNull: return true;
    case Kind::kBool: return !v.AsBool();
    case Kind::kInt: return v.AsInt() == 0;
    case Kind::kUint: return v.AsUint() == 0;
    case Kind::kDouble: return v.AsDouble() == 0;
    case Kind::kString: return v.AsString().empty();
    case Kind::kBytes: return v.AsBytes().empty();
    case Kind::kList: return v.AsList().empty();
    case Kind::kMap: return v.AsMap().empty();
    case Kind::kTimestamp: return v.AsTimestamp() == Timestamp{};
    case Kind::kDuration: return v.AsDuration().nanos == 0;
    case Kind::kOptional: return v.OptionalValue() == nullptr;
    default: return false;
  }
}

}  // namespace

void RegisterOptionals(FunctionRegistry& r) {
  r.Add("optional.of", {.params = {Param()}}, [](const Value* a, CallContext&) { return Value::OptionalOf(a[0]); });
  r.Add("optional.none", {}, [](const Value*, CallContext&) { return Value::OptionalNone(); });
  r.Add("optional.ofNonZeroValue", {.params = {Param()}}, [](const Value* a, CallContext&) {
    return IsZeroValue(a[0]) ? Value::OptionalNone() : Value::OptionalOf(a[0]);
  });
  r.Add("hasValue", {.receiver = true, .params = {OPT}}, [](const Value* a, CallContext&) {
    return Value::Bool(a[0].OptionalValue() != nullptr);
  });
  r.Add("value", {.receiver = true, .params = {OPT}}, [](const Value* a, CallContext&) {
    return a[0].OptionalValue() ? *a[0].OptionalValue() : Value::Error("optional.none() dereference");
  });
  r.Add("or", {.receiver = true, .params = {OPT, OPT}}, [](const Value* a, CallContext&) {
    return a[0].OptionalValue() ? a[0] : a[1];
  });
  r.Add("orValue", {.receiver = true, .params = {OPT, Param()}}, [](const Value* a, CallContext&) {
    return a[0].OptionalValue() ? *a[0].OptionalValue() : a[1];
  });
}

}  // namespace kube::cel::internal
