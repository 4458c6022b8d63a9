// The interpreter's own loops for the comprehension macros (ast.h MacroForm): the results, errors
// and cost of evaluating the macros' expansions (macros.cc), without evaluating the accumulator's
// per-element expressions. native_macros_test checks them against the expansions.
#include "cel/interpreter.h"


namespace kube::cel::internal {

namespace {

// The parts of a macro's expansion (macros.cc) its loop evaluates: the predicate and the mapped
// item (either may be null).
struct MacroParts {
  const Expr* predicate = nullptr;
  const Expr* item = nullptr;
};

MacroParts PartsOf(const Expr& e) {
  const Expr& step = *e.loop_step;
  switch (e.macro) {
    case MacroForm::kAll:
    case MacroForm::kExists: return {step.args[1].get(), nullptr};      // accu && p, accu || p
    case MacroForm::kExistsOne: return {step.args[0].get(), nullptr};  // p ? accu + 1 : accu
    case MacroForm::kFilter: return {step.args[0].get(), nullptr};     // p ? accu + [x] : accu
    case MacroForm::kMap:
      // accu + [f], or p ? accu + [f] : accu
      if (step.form == CallForm::kConditional) return {step.args[0].get(), step.args[1]->args[1]->args[0].get()};
      return {nullptr, step.args[1]->args[0].get()};
    case MacroForm::kNone: break;
  }
  return {};
}

}  // namespace

Value Interpreter::Macro(const Expr& e, const Value& range) {
  const MacroParts parts = PartsOf(e);
  const bool two = !e.iter_var2.empty();
  // The variables sit where the expansion's would (the checker numbered them so): the
  // accumulator, unused here, then the iteration variables.
  const size_t base = locals_.size();
  PushLocal(e.accu_var, Value());
  PushLocal(e.iter_var, Value());
  if (two) PushLocal(e.iter_var2, Value());
  Charge();  // the accumulator's initial value
  const bool is_list = range.kind() == Kind::kList;
  const size_t count = is_list ? range.AsList().size() : range.AsMap().size();

  // all/exists: the value that decides on its own; errors are kept until the end, where they
  // are the result unless a deciding value came.
  const bool decisive = e.macro == MacroForm::kExists;
  Value error;  // the first error met (kNull: none)
  int64_t matches = 0;
  ValueList items;
  // map gives an item per element, filter at most that.
  if (e.macro == MacroForm::kMap || e.macro == MacroForm::kFilter) items.reserve(count);
  bool decided = false;
  // Per element, the expansion's loop condition and the accumulator's step are charged as they
  // would be evaluated (all: `@not_strictly_false(a)` and `a && p`; exists: with `!a` and `||`;
  // the others: the constant `true` and `p ? ... : a` or `a + [f]`).
  uint64_t per_element = e.macro == MacroForm::kAll ? 4 : e.macro == MacroForm::kExists ? 5 : 2;
  if (e.macro == MacroForm::kMap && parts.predicate == nullptr) per_element = 1;
  for (size_t i = 0; i < count && !cancelled_; ++i) {
    if (is_list) {
      // Elements are bound in place: `range` outlives the loop.
      if (two) {
        locals_[base + 1].value = Value::Int(static_cast<int64_t>(i));
        locals_[base + 2].ref = &range.AsList()[i];
      } else {
        locals_[base + 1].ref = &range.AsList()[i];
      }
    } else {
      const auto& [k, v] = range.AsMap()[i];
      locals_[base + 1].ref = &k;
      if (two) locals_[base + 2].ref = &v;
    }
    if (!Charge(per_element)) break;
    if (e.macro == MacroForm::kAll || e.macro == MacroForm::kExists) {
      Value p = Eval(*parts.predicate);
      if (p.kind() == Kind::kBool) {
        if (p.AsBool() == decisive) {
          decided = true;
          // The next element's loop condition sees the decision and stops the loop.
          if (i + 1 < count) Charge(e.macro == MacroForm::kAll ? 2 : 3);
          break;
        }
      } else if (error.kind() != Kind::kError) {
        error = p.IsError() ? std::move(p) : NoSuchOverload(decisive ? "_||_" : "_&&_");
      }
      continue;
    }
    // exists_one, filter and map with a predicate: `p ? step : accu`, step charged if taken. A
    // predicate that is not a bool becomes the accumulator, replacing an earlier error; a step on
    // an error accumulator keeps it.
    bool take = true;
    if (parts.predicate != nullptr) {
      Value p = Eval(*parts.predicate);
      if (p.kind() != Kind::kBool) {
        error = p.IsError() ? std::move(p) : NoSuchOverload("_?_:_");
        continue;
      }
      take = p.AsBool();
      if (!take) {
        Charge();  // the accumulator, unchanged
        continue;
      }
    }
    if (e.macro == MacroForm::kExistsOne) {
      Charge(3);  // accu + 1
      ++matches;
      continue;
    }
    // filter and map: accu + [item]; the list concatenation costs as the library charges it.
    Charge(3);
    Value item = parts.item != nullptr ? Eval(*parts.item) : locals_[base + 1].get();
    if (parts.item == nullptr) Charge();  // the filtered variable
    if (error.kind() == Kind::kError) continue;
    if (item.IsError()) {
      error = std::move(item);
      continue;
    }
    ctx_.AddCost((items.size() + 1) / 10);
    if (ctx_.cost() > options_.cost_limit) cancelled_ = true;
    items.push_back(std::move(item));
  }
  locals_.resize(base);
  Charge(e.macro == MacroForm::kExistsOne ? 3 : 1);  // the result expression
  if (cancelled_) return Value::Error(std::string(kCostLimitError));
  switch (e.macro) {
    case MacroForm::kAll:
    case MacroForm::kExists:
      if (decided) return Value::Bool(decisive);
      if (error.kind() == Kind::kError) return error;
      return Value::Bool(!decisive);
    case MacroForm::kExistsOne:
      if (error.kind() == Kind::kError) return error;
      return Value::Bool(matches == 1);
    default:
      if (error.kind() == Kind::kError) return error;
      return Value::List(std::move(items));
  }
}

}  // namespace kube::cel::internal
