#include "cel/macros.h"

namespace kube::cel::internal {

ExprPtr ExprFactory::New(ExprKind kind, int32_t offset) {
  auto e = std::make_unique<Expr>();
  e->id = next_id_++;
  e->kind = kind;
  e->offset = offset;
  return e;
}

ExprPtr ExprFactory::Const(Value v, int32_t offset) {
  auto e = New(ExprKind::kConst, offset);
  e->constant = std::move(v);
  return e;
}

ExprPtr ExprFactory::Ident(std::string name, int32_t offset) {
  auto e = New(ExprKind::kIdent, offset);
  e->name = std::move(name);
  return e;
}

ExprPtr ExprFactory::Call(std::string function, std::vector<ExprPtr> args, int32_t offset) {
  auto e = New(ExprKind::kCall, offset);
  e->name = std::move(function);
  e->args = std::move(args);
  return e;
}

ExprPtr ExprFactory::ReceiverCall(std::string function, ExprPtr target, std::vector<ExprPtr> args, int32_t offset) {
  auto e = Call(std::move(function), std::move(args), offset);
  e->target = std::move(target);
  return e;
}

ExprPtr ExprFactory::List(std::vector<ExprPtr> items, int32_t offset) {
  auto e = New(ExprKind::kList, offset);
  e->args = std::move(items);
  return e;
}

namespace {

std::vector<ExprPtr> Args(ExprPtr a) {
  std::vector<ExprPtr> v;
  v.push_back(std::move(a));
  return v;
}
std::vector<ExprPtr> Args(ExprPtr a, ExprPtr b) {
  auto v = Args(std::move(a));
  v.push_back(std::move(b));
  return v;
}
std::vector<ExprPtr> Args(ExprPtr a, ExprPtr b, ExprPtr c) {
  auto v = Args(std::move(a), std::move(b));
  v.push_back(std::move(c));
  return v;
}

// A deep copy with fresh ids, for macros that use an operand twice.
ExprPtr Clone(ExprFactory& f, const Expr& e) {
  auto c = f.New(e.kind, e.offset);
  c->constant = e.constant;
  c->name = e.name;
  c->test_only = e.test_only;
  c->optional_indices = e.optional_indices;
  c->iter_var = e.iter_var;
  c->iter_var2 = e.iter_var2;
  c->accu_var = e.accu_var;
  c->macro = e.macro;
  auto clone = [&](const ExprPtr& p) { return p ? Clone(f, *p) : nullptr; };
  c->target = clone(e.target);
  for (const auto& a : e.args) c->args.push_back(clone(a));
  for (const auto& en : e.entries) c->entries.push_back({clone(en.key), en.field, clone(en.value), en.optional});
  c->iter_range = clone(e.iter_range);
  c->accu_init = clone(e.accu_init);
  c->loop_condition = clone(e.loop_condition);
  c->loop_step = clone(e.loop_step);
  c->result = clone(e.result);
  return c;
}

struct Comprehension {
  ExprPtr range;
  std::string var, var2;
  ExprPtr init, condition, step, result;
  MacroForm macro = MacroForm::kNone;
};

ExprPtr Build(ExprFactory& f, Comprehension c, int32_t offset) {
  auto e = f.New(ExprKind::kComprehension, offset);
  e->iter_range = std::move(c.range);
  e->iter_var = std::move(c.var);
  e->iter_var2 = std::move(c.var2);
  e->accu_var = std::string(kAccumulator);
  e->accu_init = std::move(c.init);
  e->loop_condition = std::move(c.condition);
  e->loop_step = std::move(c.step);
  e->result = std::move(c.result);
  e->macro = c.macro;
  return e;
}

// A comprehension that only binds `var` to `init` while evaluating `result`.
ExprPtr Bind(ExprFactory& f, std::string var, ExprPtr init, ExprPtr result, int32_t offset) {
  auto e = f.New(ExprKind::kComprehension, offset);
  e->iter_range = f.List({}, offset);
  e->iter_var = "#unused";
  e->accu_var = std::move(var);
  e->accu_init = std::move(init);
  e->loop_condition = f.Const(Value::Bool(false), offset);
  e->loop_step = f.Ident(e->accu_var, offset);
  e->result = std::move(result);
  return e;
}

ExprPtr Accu(ExprFactory& f, int32_t offset) { return f.Ident(std::string(kAccumulator), offset); }

// The `[x]` a map/filter step appends.
ExprPtr Append(ExprFactory& f, ExprPtr item, int32_t offset) {
  std::vector<ExprPtr> items;
  items.push_back(std::move(item));
  return f.Call("_+_", Args(Accu(f, offset), f.List(std::move(items), offset)), offset);
}

ExprPtr Filtered(ExprFactory& f, ExprPtr predicate, ExprPtr step, int32_t offset) {
  return f.Call("_?_:_", Args(std::move(predicate), std::move(step), Accu(f, offset)), offset);
}

// cel-go's sortBy (ext.Lists): `r.sortBy(x, key)` binds r once, then sorts it by the keys
// `r.map(x, key)`: cel.bind(@__sortBy_input__, r, @__sortBy_input__.@sortByAssociatedKeys(...)).
ExprPtr SortBy(ExprFactory& f, ExprPtr* target, std::vector<ExprPtr>* args, int32_t offset, std::string* error) {
  auto& a = *args;
  const ExprKind k = (*target)->kind;
  if (k != ExprKind::kList && k != ExprKind::kSelect && k != ExprKind::kIdent && k != ExprKind::kComprehension &&
      k != ExprKind::kCall) {
    *error = "sortBy can only be applied to a list, identifier, comprehension, call or select expression";
    return nullptr;
  }
  if (a[0]->kind != ExprKind::kIdent) {
    *error = "argument is not an identifier";
    return nullptr;
  }
  const std::string input = "@__sortBy_input__";
  Comprehension keys;
  keys.range = f.Ident(input, offset);
  keys.var = a[0]->name;
  keys.init = f.List({}, offset);
  keys.condition = f.Const(Value::Bool(true), offset);
  keys.step = Append(f, std::move(a[1]), offset);
  keys.result = Accu(f, offset);
  ExprPtr sorted =
      f.ReceiverCall("@sortByAssociatedKeys", f.Ident(input, offset), Args(Build(f, std::move(keys), offset)), offset);
  return Bind(f, input, std::move(*target), std::move(sorted), offset);
}

}  // namespace

std::optional<ExprPtr> ExpandMacro(ExprFactory& f, std::string_view function, ExprPtr* target,
                                   std::vector<ExprPtr>* args, int32_t offset, std::string* error) {
  const size_t n = args->size();
  auto& a = *args;
  if (*target == nullptr) {
    if (function == "has" && n == 1) {
      if (a[0]->kind != ExprKind::kSelect || a[0]->test_only) {
        *error = "invalid argument to has() macro";
        return nullptr;
      }
      a[0]->test_only = true;
      return std::move(a[0]);
    }
    return std::nullopt;
  }
  if ((*target)->kind == ExprKind::kIdent && (*target)->name == "cel" && function == "bind" && n == 3) {
    if (a[0]->kind != ExprKind::kIdent) {
      *error = "cel.bind() variable names must be simple identifiers";
      return nullptr;
    }
    return Bind(f, a[0]->name, std::move(a[1]), std::move(a[2]), offset);
  }

  if (function == "sortBy" && n == 2) return SortBy(f, target, args, offset, error);

  // The comprehension macros: receiver, then one or two variable names, then expressions.
  const bool one_var = function == "all" || function == "exists" || function == "exists_one" ||
                       function == "map" || function == "filter";
  const bool two_var = function == "all" || function == "exists" || function == "existsOne" ||
                       function == "transformList" || function == "transformMap" || function == "transformMapEntry";
  const bool optional_map = function == "optMap" || function == "optFlatMap";
  size_t vars = 0;
  if (optional_map && n == 2) {
    vars = 1;
  } else if (one_var && (n == 2 || (function == "map" && n == 3)) &&
             !(two_var && n == 3 && function != "map")) {
    vars = 1;
  } else if (two_var && (n == 3 || (n == 4 && function.starts_with("transform")))) {
    vars = 2;
  } else {
    return std::nullopt;
  }
  for (size_t i = 0; i < vars; ++i) {
    if (a[i]->kind != ExprKind::kIdent) {
      *error = "argument must be a simple name";
      return nullptr;
    }
    if (a[i]->name == kAccumulator) {
      *error = "iteration variable overwrites accumulator variable";
      return nullptr;
    }
  }
  if (vars == 2 && a[0]->name == a[1]->name) {
    *error = "duplicate variable name: " + a[0]->name;
    return nullptr;
  }

  if (optional_map) {
    // o.hasValue() ? optional.of(t with x = o.value()) : optional.none()   (optFlatMap: no wrap)
    std::string var = a[0]->name;
    ExprPtr value = f.ReceiverCall("value", Clone(f, **target), {}, offset);
    ExprPtr mapped = Bind(f, std::move(var), std::move(value), std::move(a[1]), offset);
    if (function == "optMap") mapped = f.ReceiverCall("of", f.Ident("optional", offset), Args(std::move(mapped)), offset);
    ExprPtr none = f.ReceiverCall("none", f.Ident("optional", offset), {}, offset);
    ExprPtr has = f.ReceiverCall("hasValue", std::move(*target), {}, offset);
    return f.Call("_?_:_", Args(std::move(has), std::move(mapped), std::move(none)), offset);
  }

  Comprehension c;
  c.range = std::move(*target);
  c.var = a[0]->name;
  if (vars == 2) c.var2 = a[1]->name;
  ExprPtr* rest = &a[vars];
  const size_t rest_n = n - vars;
  const bool all = function == "all", exists = function == "exists";
  if (all || exists) {
    c.init = f.Const(Value::Bool(all), offset);
    ExprPtr accu = Accu(f, offset);
    if (exists) accu = f.Call("!_", Args(std::move(accu)), offset);
    c.condition = f.Call("@not_strictly_false", Args(std::move(accu)), offset);
    c.step = f.Call(all ? "_&&_" : "_||_", Args(Accu(f, offset), std::move(rest[0])), offset);
    c.result = Accu(f, offset);
    c.macro = all ? MacroForm::kAll : MacroForm::kExists;
  } else if (function == "exists_one" || function == "existsOne") {
    c.init = f.Const(Value::Int(0), offset);
    c.condition = f.Const(Value::Bool(true), offset);
    c.step = Filtered(f, std::move(rest[0]), f.Call("_+_", Args(Accu(f, offset), f.Const(Value::Int(1), offset)), offset),
                      offset);
    c.result = f.Call("_==_", Args(Accu(f, offset), f.Const(Value::Int(1), offset)), offset);
    c.macro = MacroForm::kExistsOne;
  } else if (function == "map" || function == "filter" || function == "transformList") {
    c.init = f.List({}, offset);
    c.condition = f.Const(Value::Bool(true), offset);
    ExprPtr item = function == "filter" ? f.Ident(c.var, offset) : std::move(rest[rest_n - 1]);
    c.step = Append(f, std::move(item), offset);
    const bool filtered = function == "filter" || rest_n == 2;
    if (filtered) c.step = Filtered(f, std::move(rest[0]), std::move(c.step), offset);
    c.result = Accu(f, offset);
    c.macro = function == "filter" ? MacroForm::kFilter : MacroForm::kMap;
  } else {  // transformMap, transformMapEntry
    c.init = f.New(ExprKind::kMap, offset);
    c.condition = f.Const(Value::Bool(true), offset);
    if (function == "transformMap") {
      c.step = f.Call("cel.@mapInsert", Args(Accu(f, offset), f.Ident(c.var, offset), std::move(rest[rest_n - 1])), offset);
    } else {
      c.step = f.Call("cel.@mapInsert", Args(Accu(f, offset), std::move(rest[rest_n - 1])), offset);
    }
    if (rest_n == 2) c.step = Filtered(f, std::move(rest[0]), std::move(c.step), offset);
    c.result = Accu(f, offset);
  }
  return Build(f, std::move(c), offset);
}

}  // namespace kube::cel::internal
