#include "cel/interpreter.h"

#include "cel/types.h"

#include <cmath>

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

bool Interpreter::Charge(uint64_t units) {
  ctx_.AddCost(units);
  if (ctx_.cost() > options_.cost_limit) cancelled_ = true;
  return !cancelled_;
}

Value Interpreter::Eval(const Expr& e) {
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

const Value* Interpreter::FindIdent(const Expr& e) const {
  if (e.local >= 0 && static_cast<size_t>(e.local) < locals_.size()) return &locals_[e.local].second;
  for (auto it = locals_.rbegin(); it != locals_.rend(); ++it) {
    if (it->first == e.name) return &it->second;
  }
  return vars_.Find(e.name);
}

Value Interpreter::Ident(const Expr& e) {
  if (const Value* v = FindIdent(e)) return *v;
  if (IsTypeName(e.name)) return Value::Type(e.name);
  return Value::Error("no such attribute: " + e.name);
}

const Value* Interpreter::Peek(const Expr& e, Value* scratch) {
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
      Value operand = Eval(*e.args[0]);
      return Index(operand, Eval(*e.args[1]), e.form == CallForm::kOptionalIndex);
    }
    case CallForm::kOptionalSelect: {
      Value operand = Eval(*e.args[0]);
      return OptionalSelect(operand, e.args[1]->constant);
    }
  }

  // Strict functions: arguments first, the first error is the result.
  Value inline_args[4];
  std::vector<Value> heap_args;
  const size_t n = e.args.size() + (e.target ? 1 : 0);
  Value* args = inline_args;
  if (n > 4) {
    heap_args.resize(n);
    args = heap_args.data();
  }
  size_t i = 0;
  if (e.target) args[i++] = Eval(*e.target);
  for (const auto& a : e.args) args[i++] = Eval(*a);
  for (size_t k = 0; k < n; ++k) {
    if (args[k].IsError()) return args[k];
  }
  if (e.function < 0) return NoSuchOverload(e.name);
  Value result = functions_.Call(e.function, e.target != nullptr, args, n, ctx_);
  if (ctx_.cost() > options_.cost_limit) cancelled_ = true;
  return result;
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
  const size_t base = locals_.size();
  locals_.emplace_back(e.accu_var, Eval(*e.accu_init));
  const size_t accu = base;
  const bool two = !e.iter_var2.empty();
  locals_.emplace_back(e.iter_var, Value());
  if (two) locals_.emplace_back(e.iter_var2, Value());
  auto step = [&](Value first, const Value* second) {
    locals_[accu + 1].second = std::move(first);
    if (two) locals_[accu + 2].second = *second;
    Value cond = Eval(*e.loop_condition);
    if (cond.kind() == Kind::kBool && !cond.AsBool()) return false;
    locals_[accu].second = Eval(*e.loop_step);
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
