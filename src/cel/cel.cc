#include "cel/cel.h"

#include <algorithm>

#include "cel/format_validator.h"
#include "cel/interpreter.h"

namespace kube::cel {

namespace {

// The calls the interpreter evaluates itself (not strict, or not functions at all), by name and
// arity; kFunction for every other call.
CallForm BuiltinForm(std::string_view name, size_t args) {
  if (args == 2 && name == "_&&_") return CallForm::kAnd;
  if (args == 2 && name == "_||_") return CallForm::kOr;
  if (args == 3 && name == "_?_:_") return CallForm::kConditional;
  if (args == 1 && name == "@not_strictly_false") return CallForm::kNotStrictlyFalse;
  if (args == 2 && name == "_[_]") return CallForm::kIndex;
  if (args == 2 && name == "_[?_]") return CallForm::kOptionalIndex;
  if (args == 2 && name == "_?._") return CallForm::kOptionalSelect;
  return CallForm::kFunction;
}

// The strict operators the interpreter computes itself when their operands allow (CallForm).
CallForm InlineForm(std::string_view name, size_t args, bool receiver) {
  if (name == "size") return args + (receiver ? 1 : 0) == 1 ? CallForm::kSize : CallForm::kFunction;
  if (receiver) return CallForm::kFunction;
  if (args == 1 && name == "!_") return CallForm::kNot;
  if (args != 2) return CallForm::kFunction;
  if (name == "_==_") return CallForm::kEqual;
  if (name == "_!=_") return CallForm::kNotEqual;
  if (name == "_<_") return CallForm::kLess;
  if (name == "_<=_") return CallForm::kLessEqual;
  if (name == "_>_") return CallForm::kGreater;
  if (name == "_>=_") return CallForm::kGreaterEqual;
  if (name == "_+_") return CallForm::kAdd;
  if (name == "_-_") return CallForm::kSubtract;
  return CallForm::kFunction;
}

// The calls the interpreter evaluates itself, whatever their arity (a wrong one never names a
// function either).
bool IsBuiltinForm(std::string_view name) {
  return name == "_&&_" || name == "_||_" || name == "_?_:_" || name == "@not_strictly_false" || name == "_[_]" ||
         name == "_[?_]" || name == "_?._";
}


// The deepest path of the tree, measured without recursion (a long `a + b + ...` chain is a deep
// left spine that recursive walks must not meet unchecked).
size_t TreeDepth(const Expr& root) {
  std::vector<std::pair<const Expr*, size_t>> todo{{&root, 1}};
  size_t deepest = 0;
  while (!todo.empty()) {
    auto [e, d] = todo.back();
    todo.pop_back();
    deepest = std::max(deepest, d);
    ForEachChild(*e, [&, d = d](const Expr& c) { todo.emplace_back(&c, d + 1); });
  }
  return deepest;
}

// A dotted name for a chain of selections on an identifier ("optional", "math"), or empty.
std::string QualifiedName(const Expr& e) {
  if (e.kind == ExprKind::kIdent) return e.name;
  if (e.kind == ExprKind::kSelect && !e.test_only && e.target) {
    std::string prefix = QualifiedName(*e.target);
    return prefix.empty() ? "" : prefix + "." + e.name;
  }
  return "";
}

class Checker {
 public:
  Checker(const FunctionRegistry& functions, const std::set<std::string, std::less<>>& variables,
          std::set<std::string, std::less<>>* referenced)
      : functions_(functions), variables_(variables), referenced_(referenced) {}

  void Check(Expr& e) {
    switch (e.kind) {
      case ExprKind::kConst: return;
      case ExprKind::kIdent: return CheckIdent(e);
      case ExprKind::kSelect: {
        // `google.protobuf.Timestamp`, `net.IP`: a qualified type name, unless its first part
        // is a variable.
        const std::string qualified = e.test_only ? "" : QualifiedName(e);
        const std::string root = qualified.substr(0, qualified.find('.'));
        if (!qualified.empty() && IsTypeName(qualified, /*with_dyn=*/true) && !InScope(root) && !variables_.contains(root)) {
          e.kind = ExprKind::kIdent;
          e.name = qualified;
          e.target.reset();
          return;
        }
        return Check(*e.target);
      }
      case ExprKind::kCall: return CheckCall(e);
      case ExprKind::kList:
        for (auto& a : e.args) Check(*a);
        return;
      case ExprKind::kMap:
        for (auto& en : e.entries) {
          Check(*en.key);
          Check(*en.value);
        }
        return;
      case ExprKind::kStruct:
        Undeclared(e, e.name);
        return;
      case ExprKind::kComprehension: {
        Check(*e.iter_range);
        Check(*e.accu_init);
        scopes_.push_back(e.accu_var);
        scopes_.push_back(e.iter_var);
        if (!e.iter_var2.empty()) scopes_.push_back(e.iter_var2);
        max_scopes = std::max(max_scopes, scopes_.size());
        Check(*e.loop_condition);
        Check(*e.loop_step);
        scopes_.resize(scopes_.size() - (e.iter_var2.empty() ? 1 : 2));
        Check(*e.result);
        scopes_.pop_back();
        return;
      }
    }
  }

  std::vector<SourceError> errors;
  // The most comprehension variables in scope at once.
  size_t max_scopes = 0;

 private:
  // The declared variables read, in the order of their first reading (Expr::variable).
  std::vector<std::string> variable_order_;

  bool InScope(std::string_view name) const {
    for (const auto& s : scopes_) {
      if (s == name) return true;
    }
    return false;
  }

  void Undeclared(const Expr& e, std::string_view name) {
    errors.push_back({e.offset, "undeclared reference to '" + std::string(name) + "' (in container '')"});
  }

  void CheckIdent(Expr& e) {
    // The innermost variable of the name wins, as at run time; the interpreter's stack of
    // comprehension variables grows and shrinks as scopes_ does here.
    for (size_t i = scopes_.size(); i-- > 0;) {
      if (scopes_[i] == e.name) {
        e.local = static_cast<int32_t>(i);
        return;
      }
    }
    if (variables_.contains(e.name)) {
      referenced_->insert(e.name);
      e.local = Expr::kDeclaredVariable;
      auto known = std::find(variable_order_.begin(), variable_order_.end(), e.name);
      e.variable = static_cast<int32_t>(known - variable_order_.begin());
      if (known == variable_order_.end()) variable_order_.push_back(e.name);
      return;
    }
    if (IsTypeName(e.name, /*with_dyn=*/true)) return;
    Undeclared(e, e.name);
  }

  void CheckCall(Expr& e) {
    if (e.target) {
      // `optional.of(x)`: a namespaced global function, unless the namespace is a variable.
      std::string ns = QualifiedName(*e.target);
      const std::string root = ns.substr(0, ns.find('.'));
      if (!ns.empty() && !InScope(root) && !variables_.contains(root)) {
        const int32_t id = functions_.Find(ns + "." + e.name);
        if (id >= 0 && functions_.Get(id).has_global) {
          e.name = ns + "." + e.name;
          e.target.reset();
          e.function = id;
          for (auto& a : e.args) Check(*a);
          return;
        }
      }
      Check(*e.target);
      for (auto& a : e.args) Check(*a);
      const int32_t id = functions_.Find(e.name);
      if (id < 0 || !functions_.Get(id).has_receiver) return Undeclared(e, e.name);
      e.function = id;
      e.form = InlineForm(e.name, e.args.size(), /*receiver=*/true);
      return;
    }
    for (auto& a : e.args) Check(*a);
    if (IsBuiltinForm(e.name)) {
      e.form = BuiltinForm(e.name, e.args.size());
      return;
    }
    const int32_t id = functions_.Find(e.name);
    if (id < 0 || !functions_.Get(id).has_global) return Undeclared(e, e.name);
    e.function = id;
    e.form = InlineForm(e.name, e.args.size(), /*receiver=*/false);
  }

  const FunctionRegistry& functions_;
  const std::set<std::string, std::less<>>& variables_;
  std::set<std::string, std::less<>>* referenced_;
  std::vector<std::string> scopes_;
};

// cel-go's duration, timestamp and regex literal validators: a call whose literal argument fails
// as it would at run time ("invalid duration argument").
std::vector<SourceError> ValidateLiterals(const Expr& root, const FunctionRegistry& functions) {
  std::vector<SourceError> errors;
  std::vector<const Expr*> todo{&root};
  while (!todo.empty()) {
    const Expr* e = todo.back();
    todo.pop_back();
    ForEachChild(*e, [&](const Expr& c) { todo.push_back(&c); });
    if (e->kind != ExprKind::kCall || e->function < 0 || e->args.size() != 1) continue;
    const Expr& literal = *e->args[0];
    if (literal.kind != ExprKind::kConst || literal.constant.kind() != Kind::kString) continue;
    const bool conversion = !e->target && (e->name == "duration" || e->name == "timestamp");
    const bool regex = e->target && e->name == "matches";
    if (!conversion && !regex) continue;
    CallContext ctx;
    Value args[2] = {literal.constant, literal.constant};
    if (regex) args[0] = Value::String("");
    const Value v = functions.Call(e->function, regex, args, regex ? 2 : 1, ctx);
    if (v.IsError()) errors.push_back({literal.offset, "invalid " + e->name + " argument"});
  }
  return errors;
}

// Folds the calls and list and map literals whose operands are all constant (Expr::folded), leaves
// first, by evaluating them once here.
class ConstantFolder {
 public:
  static constexpr uint64_t kMaxFoldCost = 100000;

  explicit ConstantFolder(const FunctionRegistry& functions) : functions_(functions) {}

  // Whether `e` is constant once its children are folded. Recursion depth is bounded by the
  // tree depth limit checked before.
  bool Fold(Expr& e) {
    if (e.kind == ExprKind::kConst) return !e.constant.IsError();
    bool constant = e.kind == ExprKind::kCall || e.kind == ExprKind::kList || e.kind == ExprKind::kMap;
    ForEachChild(e, [&](const Expr& c) { constant = Fold(const_cast<Expr&>(c)) && constant; });
    if (!constant || (e.kind == ExprKind::kCall && e.function < 0 && e.form == CallForm::kFunction)) return false;
    const Activation none;
    // Costlier constants stay as written: compiling must stay cheap.
    const EvalOptions options{.cost_limit = kMaxFoldCost};
    internal::Interpreter interpreter(functions_, none, options, 0);
    Value v = interpreter.Eval(e);
    if (v.IsError() || interpreter.cost() > kMaxFoldCost) return false;
    e.folded = std::make_shared<const Value>(std::move(v));
    e.folded_cost = interpreter.cost();
    return true;
  }

 private:
  const FunctionRegistry& functions_;
};

// Beyond this the tree is refused: evaluation recurses along it.
constexpr size_t kMaxTreeDepth = 1000;

}  // namespace

Environment::Environment(EnvironmentOptions options)
    : options_(std::move(options)), functions_(std::make_shared<FunctionRegistry>()) {
  RegisterStandardLibrary(*functions_);
}

FunctionRegistry& Environment::functions() { return *functions_; }

Result<std::shared_ptr<const Program>> Environment::Compile(std::string_view source) const {
  ParseResult parsed = Parse(source, options_.parse);
  if (!parsed.errors.empty()) return Status::BadRequest(FormatErrors(source, parsed.errors));
  if (TreeDepth(*parsed.expr) > kMaxTreeDepth) {
    return Status::BadRequest(FormatErrors(
        source, {{0, "expression recursion limit exceeded: " + std::to_string(options_.parse.max_depth)}}));
  }
  auto program = std::make_shared<Program>();
  Checker checker(*functions_, variables_, &program->referenced_);
  checker.Check(*parsed.expr);
  if (!checker.errors.empty()) return Status::BadRequest(FormatErrors(source, checker.errors));
  if (options_.check_types) {
    program->checked_ = CheckTypes(*parsed.expr, variable_types_, FunctionDecls::Standard(),
                                   options_.homogeneous_literals);
  } else {
    program->checked_.type = Type::Dyn();
  }
  if (program->checked_.errors.empty() && options_.check_types) {
    // cel-go's validators run on a tree that type-checked, and all report: kube's (duration,
    // timestamp and regex literals, homogeneous literals), then ext.Strings' string.format.
    std::vector<SourceError> errors;
    if (options_.validate_literals) errors = ValidateLiterals(*parsed.expr, *functions_);
    auto& homogeneity = program->checked_.homogeneity_errors;
    errors.insert(errors.end(), homogeneity.begin(), homogeneity.end());
    homogeneity.clear();
    if (options_.validate_literals) {
      std::vector<SourceError> format = internal::ValidateFormatCalls(*parsed.expr, program->checked_);
      errors.insert(errors.end(), format.begin(), format.end());
    }
    // cel-go lists its errors by position (line, then column: the offset's order).
    std::stable_sort(errors.begin(), errors.end(),
                     [](const SourceError& a, const SourceError& b) { return a.offset < b.offset; });
    program->checked_.errors = std::move(errors);
  }
  if (!program->checked_.errors.empty()) return Status::BadRequest(FormatErrors(source, program->checked_.errors));
  if (options_.fold_constants) ConstantFolder(*functions_).Fold(*parsed.expr);
  if (!options_.native_macros) {
    std::vector<Expr*> todo{parsed.expr.get()};
    while (!todo.empty()) {
      Expr* e = todo.back();
      todo.pop_back();
      e->macro = MacroForm::kNone;
      ForEachChild(*e, [&](const Expr& c) { todo.push_back(const_cast<Expr*>(&c)); });
    }
  }
  program->functions_ = functions_;
  program->max_locals_ = checker.max_scopes;
  program->expr_ = std::move(parsed.expr);
  return std::shared_ptr<const Program>(std::move(program));
}

EvalResult Program::Evaluate(const Activation& vars, const EvalOptions& options) const {
  internal::Interpreter interpreter(*functions_, vars, options, max_locals_);
  EvalResult result;
  result.value = interpreter.Eval(*expr_);
  result.cost = interpreter.cost();
  // A cancelled evaluation fails even where `||` or `&&` would have absorbed the error.
  if (result.cost > options.cost_limit) result.value = Value::Error(std::string(internal::kCostLimitError));
  return result;
}

}  // namespace kube::cel
