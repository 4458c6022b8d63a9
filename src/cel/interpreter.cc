#include "cel/interpreter.h"

#include "cel/stdlib_internal.h"
#include "cel/types.h"

#include <cmath>
#include <cstdlib>

namespace kube::cel::internal {

namespace {


Value NoSuchKey(const Value& key) {
  return Value::Error("no such key: " + (key.kind() == Kind::kString ? key.AsString() : DebugString(key)));
}

// An index value as a list position: int, uint, or a double with an integral value.
bool ListPosition(const Value& v, int64_t* out) {
  switch (v.kind()) {
    case Kind::kInt: *out = v.AsInt(); return true;
    case Kind::kUint:
      if (v.AsUint() > static_cast<uint64_t>(INT64_MAX)) {
        *out = INT64_MAX;
      } else {
        *out = static_cast<int64_t>(v.AsUint());
      }
      return true;
    case Kind::kDouble: {
      const double d = v.AsDouble();
      if (std::trunc(d) != d || !(d > -9.2e18 && d < 9.2e18)) return false;
      *out = static_cast<int64_t>(d);
      return true;
    }
    default: return false;
  }
}

}  // namespace

void Interpreter::PushLocal(std::string_view name, Value v) {
  locals_.push_back(Local{name, std::move(v)});
}

bool Interpreter::Charge(uint64_t units) {
  ctx_.AddCost(units);
  if (ctx_.cost() > options_.cost_limit) cancelled_ = true;
  return !cancelled_;
}

Value Interpreter::Eval(const Expr& e) {
  if (e.folded) {
    if (!Charge(e.folded_cost)) return Value::Error(std::string(kCostLimitError));
    return *e.folded;
  }
  if (!Charge()) return Value::Error(std::string(kCostLimitError));
  switch (e.kind) {
    case ExprKind::kConst: return e.constant;
    case ExprKind::kIdent: return Ident(e);
    case ExprKind::kSelect: return Select(e);
    case ExprKind::kCall: return Call(e);
    case ExprKind::kList: return ListLiteral(e);
    case ExprKind::kMap: return MapLiteral(e);
    case ExprKind::kStruct: return Value::Error("unknown type: " + e.name);
    case ExprKind::kComprehension: return Comprehension(e);
  }
  return Value::Error("unexpected expression");
}

const Value* Interpreter::FindIdent(const Expr& e) {
  if (e.local >= 0 && static_cast<size_t>(e.local) < locals_.size()) return &locals_[e.local].get();
  // No comprehension variable of the name is in scope: the checker found none.
  if (e.local == Expr::kDeclaredVariable) {
    // The activation does not change during the evaluation: each variable is looked up once.
    if (e.variable < 0 || e.variable >= kCachedVariables) return vars_.Find(e.name);
    const uint32_t bit = 1u << e.variable;
    if ((variables_found_ & bit) == 0) {
      variables_[e.variable] = vars_.Find(e.name);
      variables_found_ |= bit;
    }
    return variables_[e.variable];
  }
  for (size_t i = locals_.size(); i-- > 0;) {
    if (locals_[i].name == e.name) return &locals_[i].get();
  }
  return vars_.Find(e.name);
}

Value Interpreter::Ident(const Expr& e) {
  if (const Value* v = FindIdent(e)) return *v;
  if (IsTypeName(e.name)) return Value::Type(e.name);
  return Value::Error("no such attribute: " + e.name);
}

const Value* Interpreter::Peek(const Expr& e, Value* scratch) {
  if (e.folded) {
    if (Charge(e.folded_cost)) return e.folded.get();
    *scratch = Value::Error(std::string(kCostLimitError));
    return scratch;
  }
  if (e.kind != ExprKind::kConst && e.kind != ExprKind::kIdent && (e.kind != ExprKind::kSelect || e.test_only)) {
    *scratch = Eval(e);
    return scratch;
  }
  // Charged as Eval charges the node.
  if (!Charge()) {
    *scratch = Value::Error(std::string(kCostLimitError));
    return scratch;
  }
  if (e.kind == ExprKind::kConst) return &e.constant;
  if (e.kind == ExprKind::kIdent) {
    if (const Value* v = FindIdent(e)) return v;
    *scratch = Ident(e);
    return scratch;
  }
  const Value* operand = Peek(*e.target, scratch);
  if (operand->kind() == Kind::kMap) {
    if (const Value* v = operand->FindField(e.name)) return v;
  }
  // Through a temporary: `operand` may point into *scratch.
  Value result = SelectOn(e, *operand);
  *scratch = std::move(result);
  return scratch;
}

Value Interpreter::OptionalSelect(const Value& operand, const Value& field) {
  if (operand.kind() == Kind::kOptional) {
    if (operand.OptionalValue() == nullptr) return operand;
    return OptionalSelect(*operand.OptionalValue(), field);
  }
  if (operand.IsError()) return operand;
  if (operand.kind() != Kind::kMap) return NoSuchOverload("_?._");
  const Value* v = operand.FindField(field.AsString());
  return v ? Value::OptionalOf(*v) : Value::OptionalNone();
}

Value Interpreter::Select(const Expr& e) {
  // The operand is not copied: only the selected field is.
  Value scratch;
  return SelectOn(e, *Peek(*e.target, &scratch));
}

Value Interpreter::SelectOn(const Expr& e, const Value& operand) {
  if (operand.IsError()) return operand;
  if (e.test_only) {
    // On an optional (a chain such as `has(m.?a.b)`), presence is tested on its value, and an
    // empty optional has no fields.
    const Value* target = &operand;
    if (operand.kind() == Kind::kOptional) {
      target = operand.OptionalValue();
      if (target == nullptr) return Value::Bool(false);
    }
    if (target->kind() != Kind::kMap) return NoSuchOverload("has");
    return Value::Bool(target->FindField(e.name) != nullptr);
  }
  if (operand.kind() == Kind::kOptional) return OptionalSelect(operand, Value::String(e.name));
  if (operand.kind() != Kind::kMap) {
    return Value::Error("type '" + std::string(operand.TypeName()) + "' does not support field selection");
  }
  if (const Value* v = operand.FindField(e.name)) return *v;
  return Value::Error("no such key: " + e.name);
}

Value Interpreter::Index(const Value& operand, const Value& index, bool optional) {
  if (operand.IsError()) return operand;
  if (index.IsError()) return index;
  if (operand.kind() == Kind::kOptional) {
    if (operand.OptionalValue() == nullptr) return operand;
    return Index(*operand.OptionalValue(), index, /*optional=*/true);
  }
  if (operand.kind() == Kind::kList) {
    int64_t i;
    if (!ListPosition(index, &i)) return NoSuchOverload("_[_]");
    const auto& items = operand.AsList();
    if (i < 0 || static_cast<uint64_t>(i) >= items.size()) {
      if (optional) return Value::OptionalNone();
      return Value::Error("index out of bounds: " + std::to_string(i));
    }
    return optional ? Value::OptionalOf(items[i]) : items[i];
  }
  if (operand.kind() == Kind::kMap) {
    if (!IsKeyKind(index.kind()) && index.kind() != Kind::kDouble) return NoSuchOverload("_[_]");
    if (const Value* v = operand.Find(index)) return optional ? Value::OptionalOf(*v) : *v;
    return optional ? Value::OptionalNone() : NoSuchKey(index);
  }
  return NoSuchOverload(optional ? "_[?_]" : "_[_]");
}

Value Interpreter::Logical(const Expr& e, bool is_and) {
  // The value that decides the result on its own: false for &&, true for ||.
  const bool decisive = !is_and;
  Value l = Eval(*e.args[0]);
  if (l.kind() == Kind::kBool && l.AsBool() == decisive) return l;
  Value r = Eval(*e.args[1]);
  if (r.kind() == Kind::kBool && r.AsBool() == decisive) return r;
  if (l.kind() == Kind::kBool && r.kind() == Kind::kBool) return l;
  if (l.IsError()) return l;
  if (r.IsError()) return r;
  return NoSuchOverload(is_and ? "_&&_" : "_||_");
}

Value Interpreter::Conditional(const Expr& e) {
  Value c = Eval(*e.args[0]);
  if (c.kind() == Kind::kBool) return Eval(*e.args[c.AsBool() ? 1 : 2]);
  if (c.IsError()) return c;
  return NoSuchOverload("_?_:_");
}

Value Interpreter::Call(const Expr& e) {
  switch (e.form) {
    case CallForm::kFunction: break;
    case CallForm::kAnd: return Logical(e, /*is_and=*/true);
    case CallForm::kOr: return Logical(e, /*is_and=*/false);
    case CallForm::kConditional: return Conditional(e);
    case CallForm::kNotStrictlyFalse: {
      Value v = Eval(*e.args[0]);
      return Value::Bool(v.kind() != Kind::kBool || v.AsBool());
    }
    case CallForm::kIndex:
    case CallForm::kOptionalIndex: {
      // The operand is read in place: only the selected element is copied.
      Value scratch0, scratch1;
      const Value* operand = Peek(*e.args[0], &scratch0);
      return Index(*operand, *Peek(*e.args[1], &scratch1), e.form == CallForm::kOptionalIndex);
    }
    case CallForm::kOptionalSelect: {
      Value operand = Eval(*e.args[0]);
      return OptionalSelect(operand, e.args[1]->constant);
    }
    default: return InlineOperator(e);
  }

  // Strict functions: arguments first, the first error is the result. The argument values live
  // in place, constructed only for the arguments there are.
  const size_t n = e.args.size() + (e.target ? 1 : 0);
  if (n > kInlineArgs) {
    std::vector<Value> args;
    args.reserve(n);
    if (e.target) args.push_back(Eval(*e.target));
    for (const auto& a : e.args) args.push_back(Eval(*a));
    return CallFunction(e, args.data(), n);
  }
  // Storage for exactly the arguments there are (no default-constructed spares).
  union Storage {
    Storage() {}
    ~Storage() {}
    Value values[kInlineArgs];
  } storage;
  size_t built = 0;
  if (e.target) new (&storage.values[built++]) Value(Eval(*e.target));
  for (const auto& a : e.args) new (&storage.values[built++]) Value(Eval(*a));
  // GCC cannot see that only the `built` constructed values are read.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
  Value result = CallFunction(e, storage.values, built);
#pragma GCC diagnostic pop
  for (size_t k = 0; k < built; ++k) storage.values[k].~Value();
  return result;
}

Value Interpreter::CallFunction(const Expr& e, const Value* args, size_t n) {
  for (size_t k = 0; k < n; ++k) {
    if (args[k].IsError()) return args[k];
  }
  if (e.function < 0) return NoSuchOverload(e.name);
  Value result = functions_.Call(e.function, e.target != nullptr, args, n, ctx_);
  if (ctx_.cost() > options_.cost_limit) cancelled_ = true;
  return result;
}

namespace {

// The result of comparison `form` for same-kind operands that compare directly, else nullopt.
template <class T>
Value Compare(CallForm form, const T& a, const T& b) {
  switch (form) {
    case CallForm::kLess: return Value::Bool(a < b);
    case CallForm::kLessEqual: return Value::Bool(a <= b);
    case CallForm::kGreater: return Value::Bool(a > b);
    default: return Value::Bool(a >= b);
  }
}

}  // namespace

Value Interpreter::InlineOperator(const Expr& e) {
  // The operands in order (the receiver first), read in place; strict: the first error wins.
  Value s0, s1;
  const Expr& first = e.target ? *e.target : *e.args[0];
  const Value* a = Peek(first, &s0);
  const Value* b = nullptr;
  if (e.form != CallForm::kNot && e.form != CallForm::kSize) b = Peek(*e.args[e.target ? 0 : 1], &s1);
  if (a->IsError()) return *a;
  if (b != nullptr && b->IsError()) return *b;
  const Kind ka = a->kind();
  switch (e.form) {
    case CallForm::kEqual: return Value::Bool(Equal(*a, *b));
    case CallForm::kNotEqual: return Value::Bool(!Equal(*a, *b));
    case CallForm::kLess:
    case CallForm::kLessEqual:
    case CallForm::kGreater:
    case CallForm::kGreaterEqual:
      if (ka != b->kind()) break;
      // NaN compares false every way, as the library's unordered result does.
      if (ka == Kind::kInt) return Compare(e.form, a->AsInt(), b->AsInt());
      if (ka == Kind::kUint) return Compare(e.form, a->AsUint(), b->AsUint());
      if (ka == Kind::kDouble) return Compare(e.form, a->AsDouble(), b->AsDouble());
      if (ka == Kind::kString) return Compare(e.form, std::string_view(a->AsString()), std::string_view(b->AsString()));
      break;
    case CallForm::kAdd:
    case CallForm::kSubtract:
      if (ka == Kind::kInt && b->kind() == Kind::kInt) {
        int64_t out;
        const bool overflow = e.form == CallForm::kAdd ? __builtin_add_overflow(a->AsInt(), b->AsInt(), &out)
                                                       : __builtin_sub_overflow(a->AsInt(), b->AsInt(), &out);
        return overflow ? Overflow() : Value::Int(out);
      }
      break;
    case CallForm::kNot:
      if (ka == Kind::kBool) return Value::Bool(!a->AsBool());
      break;
    case CallForm::kSize:
      if (ka == Kind::kString) return Value::Int(static_cast<int64_t>(CodePointCount(a->AsString())));
      if (ka == Kind::kList) return Value::Int(static_cast<int64_t>(a->AsList().size()));
      if (ka == Kind::kMap) return Value::Int(static_cast<int64_t>(a->AsMap().size()));
      break;
    default: break;
  }
  // Other kinds: the library's overloads, with the operands copied as a call passes them.
  Value args[2] = {*a, b != nullptr ? *b : Value()};
  return CallFunction(e, args, b != nullptr ? 2 : 1);
}

Value Interpreter::ListLiteral(const Expr& e) {
  ValueList items;
  items.reserve(e.args.size());
  size_t next_optional = 0;
  for (size_t i = 0; i < e.args.size(); ++i) {
    Value v = Eval(*e.args[i]);
    if (v.IsError()) return v;
    const bool optional = next_optional < e.optional_indices.size() &&
                          e.optional_indices[next_optional] == static_cast<int32_t>(i);
    if (optional) {
      ++next_optional;
      if (v.kind() != Kind::kOptional) return NoSuchOverload("optional list element");
      if (v.OptionalValue() != nullptr) items.push_back(*v.OptionalValue());
      continue;
    }
    items.push_back(std::move(v));
  }
  return Value::List(std::move(items));
}

Value Interpreter::MapLiteral(const Expr& e) {
  MapEntries entries;
  entries.reserve(e.entries.size());
  for (const auto& entry : e.entries) {
    Value k = Eval(*entry.key);
    if (k.IsError()) return k;
    if (!IsKeyKind(k.kind())) return Value::Error("unsupported key type: " + std::string(k.TypeName()));
    Value v = Eval(*entry.value);
    if (v.IsError()) return v;
    if (entry.optional) {
      if (v.kind() != Kind::kOptional) return NoSuchOverload("optional map entry");
      if (v.OptionalValue() == nullptr) continue;
      // Through a copy: assigning v from its own payload would free the payload mid-copy.
      Value inner = *v.OptionalValue();
      v = std::move(inner);
    }
    entries.emplace_back(std::move(k), std::move(v));
  }
  if (MapHasDuplicateKeys(entries)) return Value::Error("Failed with repeated key");
  return Value::Map(std::move(entries));
}

Value Interpreter::Comprehension(const Expr& e) {
  Value range = Eval(*e.iter_range);
  if (range.IsError()) return range;
  if (range.kind() != Kind::kList && range.kind() != Kind::kMap) {
    return Value::Error("expression of type '" + std::string(range.TypeName()) +
                        "' cannot be range of a comprehension (must be list, map, or dynamic)");
  }
  if (e.macro != MacroForm::kNone) return Macro(e, range);
  const size_t base = locals_.size();
  PushLocal(e.accu_var, Eval(*e.accu_init));
  const size_t accu = base;
  const bool two = !e.iter_var2.empty();
  PushLocal(e.iter_var, Value());
  if (two) PushLocal(e.iter_var2, Value());
  auto step = [&](Value first, const Value* second) {
    locals_[accu + 1].value = std::move(first);
    if (two) locals_[accu + 2].value = *second;
    Value cond = Eval(*e.loop_condition);
    if (cond.kind() == Kind::kBool && !cond.AsBool()) return false;
    locals_[accu].value = Eval(*e.loop_step);
    return !cancelled_;
  };
  if (range.kind() == Kind::kList) {
    const auto& items = range.AsList();
    for (size_t i = 0; i < items.size(); ++i) {
      if (!(two ? step(Value::Int(static_cast<int64_t>(i)), &items[i]) : step(items[i], nullptr))) break;
    }
  } else {
    for (const auto& [k, v] : range.AsMap()) {
      if (!step(k, &v)) break;
    }
  }
  locals_.resize(accu + 1);  // the iteration variables are out of scope in the result
  Value result = Eval(*e.result);
  locals_.resize(base);
  return result;
}

}  // namespace kube::cel::internal
