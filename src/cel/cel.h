// The Common Expression Language (cel-spec), as the Kubernetes API server uses it: an
// Environment declares variables and functions; Compile parses an expression once, checks its
// identifiers and function names, resolves its calls and infers its type (type_checker.h); the Program it returns is evaluated
// many times against different variable bindings.
//
//   cel::Environment env;                 // the standard library
//   env.DeclareVariable("self");
//   auto program = env.Compile("self.replicas <= self.maxReplicas");
//   cel::Activation vars;
//   vars.Bind("self", cel::FromJson(spec));
//   cel::EvalResult r = program->Evaluate(vars);   // r.value: bool true/false, or an error
//
// Evaluation follows the spec's semantics: errors are values; `&&`, `||` and `?:` absorb them
// commutatively; int and uint arithmetic overflows are errors; division and modulus by zero,
// out-of-range indexes and missing keys are errors. A cost is counted while evaluating (one unit
// per operation, plus sizes for string and list work) and evaluation stops with an error once it
// passes EvalOptions::cost_limit.
//
// Compile errors are worded and laid out as cel-go does ("ERROR: <input>:1:6: undeclared
// reference to 'foo' (in container '')" with the source line and a caret), since kube quotes them
// verbatim.
//
// Thread-safety: an Environment is built by one thread, then read-only; a Program is immutable
// and may be evaluated from many threads at once (each evaluation has its own state).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cel/ast.h"
#include "cel/function_registry.h"
#include "cel/parser.h"
#include "cel/type_checker.h"
#include "cel/types.h"
#include "cel/value.h"
#include "util/status.h"

namespace kube::cel {

// Variable bindings for one evaluation. Lookups compare names; activations hold a few variables,
// kept inline (binding allocates nothing for the first kInline names, which fit short-string storage).
// A variable is bound to a copy of a value (Bind) or to a value the caller keeps (BindRef), which
// can be rebound from evaluation to evaluation without building the name again.
class Activation {
 public:
  void Bind(std::string name, Value value) { Entry(name).Set(std::move(value)); }
  // Binds `name` to *value without copying it; nullptr unbinds it. REQUIRES: *value outlives
  // every evaluation against this activation until `name` is bound again.
  void BindRef(std::string_view name, const Value* value) { Entry(name).SetRef(value); }
  // The place of `name`, added unbound when it is not bound: rebinding by place compares no
  // names. Places stay valid for the activation's lifetime.
  size_t Place(std::string_view name) {
    Binding* b = &Entry(name);
    for (size_t i = 0; i < size_; ++i) {
      if (b == &inline_[i]) return i;
    }
    return kInline + static_cast<size_t>(b - more_.data());
  }
  // REQUIRES: `place` from Place().
  void BindRef(size_t place, const Value* value) {
    (place < kInline ? inline_[place] : more_[place - kInline]).SetRef(value);
  }
  const Value* Find(std::string_view name) const {
    for (size_t i = 0; i < size_; ++i) {
      if (SameName(inline_[i].name, name)) return inline_[i].get();
    }
    for (const auto& b : more_) {
      if (SameName(b.name, name)) return b.get();
    }
    return nullptr;
  }

 private:
  struct Binding {
    std::string name;
    Value value;
    const Value* ref = nullptr;  // when set, the variable's value (not `value`)
    bool bound = false;
    const Value* get() const { return !bound ? nullptr : ref != nullptr ? ref : &value; }
    void Set(Value v) {
      value = std::move(v);
      ref = nullptr;
      bound = true;
    }
    void SetRef(const Value* v) {
      if (value.kind() != Kind::kNull) value = Value();
      ref = v;
      bound = v != nullptr;
    }
  };
  // Names are short: compared in line, without a call to memcmp.
  static bool SameName(const std::string& a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < b.size(); ++i) {
      if (a[i] != b[i]) return false;
    }
    return true;
  }
  // The binding of `name`, added unbound when there is none.
  Binding& Entry(std::string_view name) {
    for (size_t i = 0; i < size_; ++i) {
      if (SameName(inline_[i].name, name)) return inline_[i];
    }
    for (auto& b : more_) {
      if (SameName(b.name, name)) return b;
    }
    if (size_ < kInline) {
      inline_[size_].name = name;
      return inline_[size_++];
    }
    more_.push_back(Binding{std::string(name)});
    return more_.back();
  }
  static constexpr size_t kInline = 2;  // self and oldSelf
  Binding inline_[kInline];
  size_t size_ = 0;
  std::vector<Binding> more_;
};

struct EvalOptions {
  // Evaluation stops with an error once its cost passes this. Default: no limit.
  uint64_t cost_limit = UINT64_MAX;
};

struct EvalResult {
  Value value;        // the result; an error value when evaluation failed
  uint64_t cost = 0;  // the cost counted
};

class Program {
 public:
  EvalResult Evaluate(const Activation& vars, const EvalOptions& options = {}) const;
  const Expr& expr() const { return *expr_; }
  // Whether the expression reads variable `name` (e.g. "oldSelf" makes a transition rule).
  bool References(std::string_view name) const { return referenced_.contains(std::string(name)); }
  // The type the checker inferred (dyn where it could not tell).
  const TypeRef& output_type() const { return checked_.type; }
  // The checker's types of every node (the cost estimator reads them).
  const TypeCheckResult& checked() const { return checked_; }

 private:
  friend class Environment;
  std::shared_ptr<const FunctionRegistry> functions_;
  std::unique_ptr<Expr> expr_;
  size_t max_locals_ = 0;  // the interpreter's comprehension variables at most (Interpreter)
  std::set<std::string, std::less<>> referenced_;
  TypeCheckResult checked_;
};

struct EnvironmentOptions {
  ParseOptions parse;
  // Type-check expressions when compiling (type_checker.h). Off, only names are resolved and
  // every mistake of types shows at evaluation, as with cel-spec's `disable_check`. Default: on.
  bool check_types = true;
  // Mixed-type list and map literals are compile errors (cel-go's HomogeneousAggregateLiterals,
  // which kube enables; string.format's arguments are exempt). Default: on.
  bool homogeneous_literals = true;
  // Literal arguments that can never work are compile errors: `duration('x')`,
  // `timestamp('x')`, `s.matches('(')` (cel-go's literal validators, which kube enables), and
  // `'%d'.format(['x'])` (ext.Strings' string.format validator, format_validator.h). Needs
  // check_types. Default: on.
  bool validate_literals = true;
  // The loops of the comprehension macros (all, exists, exists_one, map, filter, transformList)
  // run in the interpreter (ast.h MacroForm). Off, their expansions are evaluated instead: same
  // results and cost, slower; tests compare the two. Default: on.
  bool native_macros = true;
  // Calls and list and map literals of constants (`quantity('1Gi')`, `['a', 'b']`) are evaluated
  // once when compiling; each evaluation then counts their cost without redoing them. Default: on.
  bool fold_constants = true;
};

class Environment {
 public:
  // The standard library (operators, conversions, strings, timestamps, durations, optionals).
  explicit Environment(EnvironmentOptions options = {});

  // Declares a variable; its type is dyn unless given.
  void DeclareVariable(std::string name, TypeRef type = Type::Dyn()) {
    variables_.insert(name);
    variable_types_[std::move(name)] = std::move(type);
  }
  // The functions, to register more libraries before the first Compile.
  FunctionRegistry& functions();

  // Parses, resolves and type-checks `source`. Errors: 400 BadRequest whose message is cel-go's
  // rendering of the syntax, reference or type errors.
  Result<std::shared_ptr<const Program>> Compile(std::string_view source) const;

 private:
  EnvironmentOptions options_;
  std::shared_ptr<FunctionRegistry> functions_;
  std::set<std::string, std::less<>> variables_;
  std::map<std::string, TypeRef, std::less<>> variable_types_;
};

// Registers the standard library (stdlib_*.cc) into `r`.
void RegisterStandardLibrary(FunctionRegistry& r);

// The libraries kube-apiserver 1.36's base environment adds (lib_*.cc), as versioned there:
// cel-go's extended strings (version 2, with string.format), lists (version 3) and sets; kube's
// lists, regex, URL, IP, CIDR, quantity, semver (version 1) and format libraries. Library values
// are opaque (Kind::kOpaque) with kube's type names: net.IP, net.CIDR, kubernetes.URL,
// kubernetes.Quantity, kubernetes.Semver, kubernetes.NamedFormat. Not here: kube's authz
// libraries (no authorizer in CRD rules).
void RegisterKubernetesLibraries(FunctionRegistry& r);

// An RFC 3339 timestamp as CEL's timestamp() reads it; false when malformed or out of range.
bool ParseTimestamp(std::string_view rfc3339, Timestamp* out);

}  // namespace kube::cel
