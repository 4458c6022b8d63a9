#include "cel/type_checker.h"

namespace kube::cel {

namespace {

bool IsDynOrError(const Type& t) { return t.kind() == TypeKind::kDyn || t.kind() == TypeKind::kError; }

// Types a value of which may be null (cel-go's legacy nullability; optional_type is one of its
// opaque types).
bool IsNullable(const Type& t) {
  switch (t.kind()) {
    case TypeKind::kObject:
    case TypeKind::kOpaque:
    case TypeKind::kOptional:
    case TypeKind::kTimestamp:
    case TypeKind::kDuration:
    case TypeKind::kNull: return true;
    default: return false;
  }
}

// cel-go's isEqualOrLessSpecific: whether `a` is as general as `b` or more (dyn and type
// parameters are the most general; otherwise the kinds agree and so do the parameters). A type
// and null are not comparable: joined, null wins, as in cel-go.
bool EqualOrLessSpecific(const Type& a, const Type& b) {
  if (a.kind() == TypeKind::kDyn || a.kind() == TypeKind::kParam) return true;
  if (b.kind() == TypeKind::kDyn || b.kind() == TypeKind::kParam) return false;
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case TypeKind::kOpaque:
    case TypeKind::kOptional:
    case TypeKind::kList:
    case TypeKind::kMap:
      if (a.name() != b.name() || a.params().size() != b.params().size()) return false;
      for (size_t i = 0; i < a.params().size(); ++i) {
        if (!EqualOrLessSpecific(*a.params()[i], *b.params()[i])) return false;
      }
      return true;
    case TypeKind::kType: return true;
    case TypeKind::kObject: return a.name() == b.name();
    default: return true;  // the same primitive
  }
}

TypeRef ConstantType(const Value& v) {
  switch (v.kind()) {
    case Kind::kNull: return Type::Null();
    case Kind::kBool: return Type::Bool();
    case Kind::kInt: return Type::Int();
    case Kind::kUint: return Type::Uint();
    case Kind::kDouble: return Type::Double();
    case Kind::kString: return Type::String();
    case Kind::kBytes: return Type::Bytes();
    case Kind::kTimestamp: return Type::Timestamp();
    case Kind::kDuration: return Type::Duration();
    default: return Type::Dyn();
  }
}

// The type a type-denoting identifier (`int`, `list`, `google.protobuf.Timestamp`) has.
TypeRef TypeIdentType(std::string_view name) {
  if (name == "list") return Type::TypeOf(Type::List(Type::Dyn()));
  if (name == "map") return Type::TypeOf(Type::Map(Type::Dyn(), Type::Dyn()));
  if (name == "type") return Type::TypeOf(Type::TypeOf(nullptr));
  if (name == "optional_type") return Type::TypeOf(Type::Optional(Type::Dyn()));
  if (name == "null_type") return Type::TypeOf(Type::Null());
  if (!IsTypeName(name, /*with_dyn=*/true)) return nullptr;
  if (TypeRef t = ParseTypeNotation(name); t && t->kind() != TypeKind::kParam) return Type::TypeOf(t);
  return nullptr;
}

class Checker {
 public:
  Checker(const std::map<std::string, TypeRef, std::less<>>& variables, const FunctionDecls& decls,
          TypeCheckResult* out)
      : variables_(variables), decls_(decls), out_(out) {}

  TypeRef Check(const Expr& e) {
    TypeRef t = Infer(e);
    out_->node_types[&e] = t;
    return t;
  }

  // `t` with every bound type parameter replaced; free ones become dyn when `free_to_dyn`.
  TypeRef Substitute(const TypeRef& t, bool free_to_dyn) const {
    switch (t->kind()) {
      case TypeKind::kParam: {
        auto it = subs_.find(t->name());
        if (it != subs_.end()) return Substitute(it->second, free_to_dyn);
        return free_to_dyn ? Type::Dyn() : t;
      }
      case TypeKind::kList:
      case TypeKind::kMap:
      case TypeKind::kOptional:
      case TypeKind::kType:
      case TypeKind::kOpaque: {
        std::vector<TypeRef> params;
        bool changed = false;
        for (const auto& p : t->params()) {
          params.push_back(Substitute(p, free_to_dyn));
          changed |= params.back() != p;
        }
        if (!changed) return t;
        switch (t->kind()) {
          case TypeKind::kList: return Type::List(params[0]);
          case TypeKind::kMap: return Type::Map(params[0], params[1]);
          case TypeKind::kOptional: return Type::Optional(params[0]);
          case TypeKind::kType: return Type::TypeOf(params[0]);
          default: return Type::Opaque(t->name(), std::move(params));
        }
      }
      default: return t;
    }
  }

 private:
  using Subs = std::map<std::string, TypeRef, std::less<>>;

  void Error(const Expr& e, std::string message) { out_->errors.push_back({e.offset, std::move(message)}); }

  TypeRef Lookup(std::string_view name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      if (it->first == name) return it->second;
    }
    return nullptr;
  }

  bool OccursIn(const std::string& param, const TypeRef& t) const {
    if (t->kind() == TypeKind::kParam) {
      if (t->name() == param) return true;
      auto it = subs_.find(t->name());
      return it != subs_.end() && OccursIn(param, it->second);
    }
    for (const auto& p : t->params()) {
      if (OccursIn(param, p)) return true;
    }
    return false;
  }

  // Whether a value of type `b` may be used where `a` is expected (and vice versa: unification
  // is symmetric here as in cel-go), binding type parameters in subs_ as it goes.
  bool Unify(const TypeRef& a, const TypeRef& b) {
    if (a->kind() == TypeKind::kParam || b->kind() == TypeKind::kParam) {
      const TypeRef& param = a->kind() == TypeKind::kParam ? a : b;
      const TypeRef& other = a->kind() == TypeKind::kParam ? b : a;
      if (other->kind() == TypeKind::kParam && other->name() == param->name()) return true;
      if (auto it = subs_.find(param->name()); it != subs_.end()) {
        const TypeRef bound = it->second;
        if (!Unify(bound, other)) return false;
        // Widen to the more general of the two, as cel-go does.
        if (IsDynOrError(*Substitute(other, false)) && !IsDynOrError(*Substitute(bound, false))) {
          subs_[param->name()] = Type::Dyn();
        }
        return true;
      }
      if (OccursIn(param->name(), other)) return false;
      subs_[param->name()] = other;
      return true;
    }
    if (IsDynOrError(*a) || IsDynOrError(*b)) return true;
    if (a->kind() == TypeKind::kNull) return IsNullable(*b);
    if (b->kind() == TypeKind::kNull) return IsNullable(*a);
    if (a->kind() != b->kind()) return false;
    switch (a->kind()) {
      case TypeKind::kType:
        return true;
      case TypeKind::kObject:
        return a->name() == b->name();
      case TypeKind::kOpaque:
        if (a->name() != b->name()) return false;
        [[fallthrough]];
      case TypeKind::kList:
      case TypeKind::kMap:
      case TypeKind::kOptional:
        if (a->params().size() != b->params().size()) return false;
        for (size_t i = 0; i < a->params().size(); ++i) {
          if (!Unify(a->params()[i], b->params()[i])) return false;
        }
        return true;
      default: return true;
    }
  }

  // Unify that leaves subs_ untouched when it fails.
  bool TryUnify(const TypeRef& a, const TypeRef& b) {
    Subs saved = subs_;
    if (Unify(a, b)) return true;
    subs_ = std::move(saved);
    return false;
  }

  TypeRef FreshParam() { return Type::Param("_var" + std::to_string(next_param_++)); }

  // The common type of aggregate literal elements: the more general when they unify (cel-go's
  // mostGeneral: `[optional.of(1), optional.of(dyn(1))]` is a list(optional_type(dyn))), dyn when
  // they differ (mixed literals are refused afterwards by the homogeneity check, outside
  // string.format arguments).
  TypeRef Join(const TypeRef& previous, const TypeRef& current) {
    if (!previous) return current;
    if (TryUnify(previous, current)) return EqualOrLessSpecific(*previous, *current) ? previous : current;
    return Type::Dyn();
  }

  TypeRef Infer(const Expr& e) {
    switch (e.kind) {
      case ExprKind::kConst: return ConstantType(e.constant);
      case ExprKind::kIdent: {
        if (TypeRef t = Lookup(e.name)) return t;
        if (auto it = variables_.find(e.name); it != variables_.end()) return it->second;
        if (TypeRef t = TypeIdentType(e.name)) return t;
        return Type::Dyn();
      }
      case ExprKind::kSelect: return InferSelect(e);
      case ExprKind::kCall: return InferCall(e);
      case ExprKind::kList: {
        if (format_args_ == 0) literals_.push_back(&e);
        TypeRef elem;
        for (size_t i = 0; i < e.args.size(); ++i) {
          TypeRef t = Check(*e.args[i]);
          if (IsOptionalIndex(e, i)) t = UnwrapOptional(*e.args[i], t);
          elem = Join(elem, t);
        }
        return Type::List(elem ? elem : FreshParam());
      }
      case ExprKind::kMap: {
        if (format_args_ == 0) literals_.push_back(&e);
        TypeRef key, value;
        for (const auto& en : e.entries) {
          key = Join(key, Check(*en.key));
          TypeRef v = Check(*en.value);
          if (en.optional) v = UnwrapOptional(*en.value, v);
          value = Join(value, v);
        }
        if (!key) return Type::Map(FreshParam(), FreshParam());
        return Type::Map(key, value);
      }
      case ExprKind::kStruct:
        for (const auto& en : e.entries) Check(*en.value);
        return Type::Error();
      case ExprKind::kComprehension: return InferComprehension(e);
    }
    return Type::Dyn();
  }

  static bool IsOptionalIndex(const Expr& list, size_t i) {
    for (int32_t k : list.optional_indices) {
      if (static_cast<size_t>(k) == i) return true;
    }
    return false;
  }

  TypeRef UnwrapOptional(const Expr& at, const TypeRef& t) {
    const TypeRef s = Substitute(t, false);
    if (s->kind() == TypeKind::kOptional) return s->params()[0];
    if (!IsDynOrError(*s) && s->kind() != TypeKind::kParam) {
      Error(at, "expected type '" + FormatType(*Type::Optional(s)) + "' but found '" + FormatType(*s) + "'");
    }
    return s;
  }

  // The type of selecting `field` from a value of `operand` type (cel-go's checkSelectField).
  TypeRef SelectField(const Expr& e, const TypeRef& operand, std::string_view field, bool optional) {
    TypeRef target = Substitute(operand, false);
    bool was_optional = false;
    if (target->kind() == TypeKind::kOptional) {
      target = target->params()[0];
      was_optional = true;
    }
    TypeRef result = Type::Dyn();
    switch (target->kind()) {
      case TypeKind::kMap: result = target->params()[1]; break;
      case TypeKind::kObject:
        if (auto it = target->fields().find(field); it != target->fields().end()) {
          result = it->second;
        } else {
          Error(e, "undefined field '" + std::string(field) + "'");
          result = Type::Error();
        }
        break;
      case TypeKind::kParam: Unify(Type::Dyn(), target); break;
      default:
        if (!IsDynOrError(*target)) Error(e, "type '" + FormatType(*target) + "' does not support field selection");
        break;
    }
    return was_optional || optional ? Type::Optional(result) : result;
  }

  TypeRef InferSelect(const Expr& e) {
    const TypeRef operand = Check(*e.target);
    const TypeRef field = SelectField(e, operand, e.name, false);
    if (e.test_only) return Type::Bool();
    return field;
  }

  TypeRef InferCall(const Expr& e) {
    if (e.name == "_?._" && !e.target && e.args.size() == 2 && e.args[1]->kind == ExprKind::kConst &&
        e.args[1]->constant.kind() == Kind::kString) {
      const TypeRef operand = Check(*e.args[0]);
      Check(*e.args[1]);
      return SelectField(e, operand, e.args[1]->constant.AsString(), true);
    }
    std::vector<TypeRef> args;
    // string.format takes a list of mixed values: cel-go exempts every literal below a call
    // named format (its receiver's too) from homogeneity.
    const bool format = e.name == "format";
    format_args_ += format;
    if (e.target) args.push_back(Check(*e.target));
    for (const auto& a : e.args) args.push_back(Check(*a));
    format_args_ -= format;
    if (e.name == "_&&_" || e.name == "_||_") {
      for (size_t i = 0; i < args.size(); ++i) {
        if (!TryUnify(Type::Bool(), args[i])) {
          Error(*e.args[i], "expected type 'bool' but found '" + FormatType(*Substitute(args[i], true)) + "'");
        }
      }
      return Type::Bool();
    }
    if (e.name == "_[?_]" && args.size() == 2) {
      TypeRef target = Substitute(args[0], false);
      if (target->kind() == TypeKind::kOptional) target = target->params()[0];
      if (target->kind() == TypeKind::kList) return Type::Optional(target->params()[0]);
      if (target->kind() == TypeKind::kMap) return Type::Optional(target->params()[1]);
      return Type::Optional(Type::Dyn());
    }
    const std::vector<FunctionDecls::Overload>* overloads = decls_.Find(e.name);
    if (overloads == nullptr) return Type::Dyn();
    return Resolve(e, *overloads, args);
  }

  // cel-go's resolveOverload: every overload whose parameters unify with the arguments; the
  // first one's result type, or dyn when those that match disagree.
  TypeRef Resolve(const Expr& e, const std::vector<FunctionDecls::Overload>& overloads,
                  const std::vector<TypeRef>& args) {
    const bool receiver = e.target != nullptr;
    TypeRef result;
    for (const auto& o : overloads) {
      if (o.receiver != receiver || o.params.size() != args.size()) continue;
      // Fresh type parameters for this use of the overload.
      Subs fresh;
      auto instantiate = [&](const TypeRef& t) { return Rename(t, fresh); };
      for (const auto& p : o.params) CollectParams(p, &fresh);
      CollectParams(o.result, &fresh);
      Subs saved = subs_;
      bool ok = true;
      for (size_t i = 0; i < args.size() && ok; ++i) ok = Unify(instantiate(o.params[i]), args[i]);
      if (!ok) {
        subs_ = std::move(saved);
        continue;
      }
      TypeRef r = Substitute(instantiate(o.result), false);
      out_->call_overloads[&e].push_back(&o);
      if (!result) {
        result = r;
      } else if (!IsDynOrError(*result) && FormatType(*Substitute(result, true)) != FormatType(*Substitute(r, true))) {
        result = Type::Dyn();
      }
    }
    if (result) return result;
    std::string signature = receiver ? FormatType(*Substitute(args[0], true)) + "." : "";
    signature += "(";
    for (size_t i = receiver ? 1 : 0; i < args.size(); ++i) {
      signature += (i > (receiver ? 1u : 0u) ? ", " : "") + FormatType(*Substitute(args[i], true));
    }
    signature += ")";
    Error(e, "found no matching overload for '" + e.name + "' applied to '" + signature + "'");
    return Type::Error();
  }

  // `t` with its declared type parameters replaced by the fresh ones in `fresh`.
  static TypeRef Rename(const TypeRef& t, const Subs& fresh) {
    if (t->kind() == TypeKind::kParam) {
      auto it = fresh.find(t->name());
      return it == fresh.end() ? t : it->second;
    }
    if (t->params().empty()) return t;
    std::vector<TypeRef> params;
    for (const auto& p : t->params()) params.push_back(Rename(p, fresh));
    switch (t->kind()) {
      case TypeKind::kList: return Type::List(params[0]);
      case TypeKind::kMap: return Type::Map(params[0], params[1]);
      case TypeKind::kOptional: return Type::Optional(params[0]);
      case TypeKind::kType: return Type::TypeOf(params[0]);
      default: return Type::Opaque(t->name(), std::move(params));
    }
  }

  void CollectParams(const TypeRef& t, Subs* fresh) {
    if (t->kind() == TypeKind::kParam) {
      if (!fresh->contains(t->name())) (*fresh)[t->name()] = FreshParam();
      return;
    }
    for (const auto& p : t->params()) CollectParams(p, fresh);
  }

  TypeRef InferComprehension(const Expr& e) {
    const TypeRef range = Substitute(Check(*e.iter_range), false);
    const TypeRef accu = Check(*e.accu_init);
    TypeRef var = Type::Dyn(), var2 = Type::Dyn();
    switch (range->kind()) {
      case TypeKind::kList:
        var = range->params()[0];
        if (!e.iter_var2.empty()) {
          var2 = var;
          var = Type::Int();
        }
        break;
      case TypeKind::kMap:
        var = range->params()[0];
        var2 = range->params()[1];
        break;
      case TypeKind::kDyn:
      case TypeKind::kError: break;
      case TypeKind::kParam: Unify(Type::Dyn(), range); break;
      default:
        Error(*e.iter_range, "expression of type '" + FormatType(*range) +
                                 "' cannot be range of a comprehension (must be list, map, or dynamic)");
        var = var2 = Type::Error();
    }
    scopes_.emplace_back(e.accu_var, accu);
    scopes_.emplace_back(e.iter_var, var);
    if (!e.iter_var2.empty()) scopes_.emplace_back(e.iter_var2, var2);
    const TypeRef cond = Check(*e.loop_condition);
    if (!TryUnify(Type::Bool(), cond)) {
      Error(*e.loop_condition, "expected type 'bool' but found '" + FormatType(*Substitute(cond, true)) + "'");
    }
    const TypeRef step = Check(*e.loop_step);
    if (!TryUnify(accu, step)) {
      Error(*e.loop_step, "expected type '" + FormatType(*Substitute(accu, true)) + "' but found '" +
                              FormatType(*Substitute(step, true)) + "'");
    }
    scopes_.resize(scopes_.size() - (e.iter_var2.empty() ? 1 : 2));
    const TypeRef result = Check(*e.result);
    scopes_.pop_back();
    return Substitute(result, false);
  }

  const std::map<std::string, TypeRef, std::less<>>& variables_;
  const FunctionDecls& decls_;
  TypeCheckResult* out_;

 public:
  // List and map literals outside calls named format, for CheckHomogeneous.
  std::vector<const Expr*> literals_;

 private:
  int format_args_ = 0;
  std::vector<std::pair<std::string, TypeRef>> scopes_;
  Subs subs_;
  int next_param_ = 0;
};

// kube's HomogeneousAggregateLiterals (cel-go's validator): the elements of a list literal, and
// the keys and the values of a map literal, have one type.
void CheckHomogeneous(const std::vector<const Expr*>& literals, TypeCheckResult* result) {
  auto type_of = [&](const Expr& e, bool optional) {
    TypeRef t = result->node_types[&e];
    if (optional && t->kind() == TypeKind::kOptional && !t->params().empty()) t = t->params()[0];
    return FormatType(*t);
  };
  auto mismatch = [&](const Expr& at, const std::string& expected, const std::string& actual) {
    result->homogeneity_errors.push_back({at.offset, "expected type '" + expected + "' but found '" + actual + "'"});
  };
  for (const Expr* literal : literals) {
    if (literal->kind == ExprKind::kList) {
      std::string first;
      for (size_t i = 0; i < literal->args.size(); ++i) {
        bool optional = false;
        for (int32_t k : literal->optional_indices) optional |= static_cast<size_t>(k) == i;
        const std::string t = type_of(*literal->args[i], optional);
        if (i == 0) {
          first = t;
        } else if (t != first) {
          mismatch(*literal->args[i], first, t);
          break;
        }
      }
      continue;
    }
    std::string key, value;
    for (size_t i = 0; i < literal->entries.size(); ++i) {
      const auto& en = literal->entries[i];
      const std::string k = type_of(*en.key, false), v = type_of(*en.value, en.optional);
      if (i == 0) {
        key = k;
        value = v;
        continue;
      }
      if (k != key) mismatch(*en.key, key, k);
      if (v != value) mismatch(*en.value, value, v);
    }
  }
}

}  // namespace

TypeCheckResult CheckTypes(const Expr& root, const std::map<std::string, TypeRef, std::less<>>& variables,
                           const FunctionDecls& decls, bool homogeneous_literals) {
  TypeCheckResult result;
  Checker checker(variables, decls, &result);
  const TypeRef t = checker.Check(root);
  result.type = checker.Substitute(t, true);
  for (auto& [node, type] : result.node_types) type = checker.Substitute(type, true);
  if (result.errors.empty() && homogeneous_literals) CheckHomogeneous(checker.literals_, &result);
  return result;
}

}  // namespace kube::cel
