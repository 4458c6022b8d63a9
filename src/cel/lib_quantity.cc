// kube's quantity library (k8s.io/apiserver/pkg/cel/library/quantity.go): the opaque type
// `kubernetes.Quantity` (quantity.h) with quantity(), isQuantity(), sign() (a global function in
// kube), and the members isGreaterThan, isLessThan, compareTo, add, sub (quantities or ints),
// asInteger, isInteger and asApproximateFloat. Equality is numeric: quantity("200M") ==
// quantity("0.2G").
#include "cel/lib_internal.h"
#include "cel/quantity.h"
#include "util/go_format.h"

namespace kube::cel::internal {

namespace {

constexpr Kind S = Kind::kString, I = Kind::kInt;
constexpr char kQuantityType[] = "kubernetes.Quantity";

class QuantityObject final : public OpaqueObject {
 public:
  explicit QuantityObject(Quantity q) : q_(std::move(q)) {}
  std::string_view TypeName() const override { return kQuantityType; }
  bool Equals(const OpaqueObject& other) const override {
    return q_.Compare(static_cast<const QuantityObject&>(other).q_) == 0;
  }
  std::string DebugString() const override { return "quantity(" + GoQuote(q_.DebugString()) + ")"; }
  const Quantity& quantity() const { return q_; }

 private:
  Quantity q_;
};

const Quantity& Q(const Value& v) { return static_cast<const QuantityObject&>(v.AsOpaque()).quantity(); }
Value Wrap(Quantity q) { return Value::MakeOpaque<QuantityObject>(std::move(q)); }

// quantity(s) of string `s`; isQuantity(s) tells whether it succeeds.
Value StringToQuantity(const Value& s, CallContext& ctx) {
  return ConvertOnce(ctx, "quantity", s, [&] {
    std::string error;
    std::optional<Quantity> parsed = Quantity::Parse(s.AsString(), &error);
    return parsed ? Wrap(std::move(*parsed)) : Value::Error(error);
  });
}

Value Arithmetic(const Quantity& a, const Quantity& b, bool subtract) {
  Quantity out = a;
  if (!(subtract ? out.Sub(b) : out.Add(b))) {
    return Value::Error("quantity arithmetic result exceeds " + std::to_string(Quantity::kMaxDigits) + " digits");
  }
  return Wrap(std::move(out));
}

}  // namespace

void RegisterQuantityLibrary(FunctionRegistry& r) {
  const Param q = Param::Opaque(kQuantityType);
  AddGlobal(r, "quantity", {S}, [](const Value* a, CallContext& ctx) {
    ctx.AddCost(TraversalCost(a[0].AsString().size()));
    return StringToQuantity(a[0], ctx);
  });
  AddGlobal(r, "isQuantity", {S}, [](const Value* a, CallContext& ctx) {
    ctx.AddCost(TraversalCost(a[0].AsString().size()));
    return Value::Bool(!StringToQuantity(a[0], ctx).IsError());
  });
  AddGlobal(r, "sign", {q}, [](const Value* a, CallContext&) { return Value::Int(Q(a[0]).Sign()); });
  AddMember(r, "isGreaterThan", {q, q}, [](const Value* a, CallContext&) { return Value::Bool(Q(a[0]).Compare(Q(a[1])) == 1); });
  AddMember(r, "isLessThan", {q, q}, [](const Value* a, CallContext&) { return Value::Bool(Q(a[0]).Compare(Q(a[1])) == -1); });
  AddMember(r, "compareTo", {q, q}, [](const Value* a, CallContext&) { return Value::Int(Q(a[0]).Compare(Q(a[1]))); });
  AddMember(r, "add", {q, q}, [](const Value* a, CallContext&) { return Arithmetic(Q(a[0]), Q(a[1]), false); });
  AddMember(r, "add", {q, I}, [](const Value* a, CallContext&) {
    return Arithmetic(Q(a[0]), Quantity::FromInt(a[1].AsInt()), false);
  });
  AddMember(r, "sub", {q, q}, [](const Value* a, CallContext&) { return Arithmetic(Q(a[0]), Q(a[1]), true); });
  AddMember(r, "sub", {q, I}, [](const Value* a, CallContext&) {
    return Arithmetic(Q(a[0]), Quantity::FromInt(a[1].AsInt()), true);
  });
  AddMember(r, "asInteger", {q}, [](const Value* a, CallContext&) {
    std::optional<int64_t> v = Q(a[0]).AsInt64();
    return v ? Value::Int(*v) : Value::Error("cannot convert value to integer");
  });
  AddMember(r, "isInteger", {q}, [](const Value* a, CallContext&) { return Value::Bool(Q(a[0]).AsInt64().has_value()); });
  AddMember(r, "asApproximateFloat", {q}, [](const Value* a, CallContext&) {
    return Value::Double(Q(a[0]).AsApproximateFloat64());
  });
}

}  // namespace kube::cel::internal
