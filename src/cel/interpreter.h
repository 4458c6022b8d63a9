// Tree-walking evaluation of a compiled expression (cel.h). Internal to the layer.
//
// Thread-safety: an Interpreter is one evaluation, used by one thread.
#pragma once

#include <cstdlib>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "cel/ast.h"
#include "cel/cel.h"
#include "cel/function_registry.h"

namespace kube::cel::internal {

class Interpreter {
 public:
  // `max_locals`: the most comprehension variables the expression has in scope at once (the
  // checker counts them). Their storage is reserved once and never moves, so that operands read
  // in place (Peek) stay valid while a later operand runs a comprehension.
  Interpreter(const FunctionRegistry& functions, const Activation& vars, const EvalOptions& options, size_t max_locals)
      : functions_(functions), vars_(vars), options_(options), locals_(max_locals) {}

  Value Eval(const Expr& e);
  uint64_t cost() const { return ctx_.cost(); }

 private:
  Value Ident(const Expr& e);
  // The variable `e` (a kIdent) names, or nullptr for a type name or an undeclared name.
  const Value* FindIdent(const Expr& e);
  // The value of `e` as Eval gives it (and charged as Eval charges), without copying a variable,
  // a constant or a field selected from one: a pointer into them, else into *scratch.
  const Value* Peek(const Expr& e, Value* scratch);
  Value Select(const Expr& e);
  // The selection of field e.name (or its has() test) on an evaluated operand.
  Value SelectOn(const Expr& e, const Value& operand);
  Value Call(const Expr& e);
  // A strict call's overload on evaluated arguments (the receiver first); the first error
  // argument is the result.
  Value CallFunction(const Expr& e, const Value* args, size_t n);
  // A call of an inline operator form (CallForm::kEqual ... kSize).
  Value InlineOperator(const Expr& e);
  Value Logical(const Expr& e, bool is_and);
  Value Conditional(const Expr& e);
  Value ListLiteral(const Expr& e);
  Value MapLiteral(const Expr& e);
  Value Comprehension(const Expr& e);
  // A comprehension expanded from a macro (Expr::macro), over its evaluated range (list or map).
  Value Macro(const Expr& e, const Value& range);
  Value OptionalSelect(const Value& operand, const Value& field);
  Value Index(const Value& operand, const Value& index, bool optional);
  static constexpr size_t kInlineArgs = 4;
  // Counts one unit; false (and the cost error set) once the limit is passed.
  bool Charge(uint64_t units = 1);

  const FunctionRegistry& functions_;
  const Activation& vars_;
  // The activation's values of the program's first variables (Expr::variable), found on first use.
  static constexpr int32_t kCachedVariables = 8;
  const Value* variables_[kCachedVariables];
  uint32_t variables_found_ = 0;
  const EvalOptions& options_;
  CallContext ctx_;
  bool cancelled_ = false;
  struct Local {
    std::string_view name;
    Value value;
    // When set, the variable is this element of a range that outlives the loop (macro loops
    // bind elements without copying them).
    const Value* ref = nullptr;
    const Value& get() const { return ref != nullptr ? *ref : value; }
  };
  // Storage for a fixed number of comprehension variables that never moves: in line for a few
  // (most rules), else allocated when the first is bound.
  class LocalStack {
   public:
    explicit LocalStack(size_t capacity) : capacity_(capacity) {}
    LocalStack(const LocalStack&) = delete;
    LocalStack& operator=(const LocalStack&) = delete;
    ~LocalStack() {
      resize(0);
      if (data_ != nullptr && data_ != InlineData()) std::allocator<Local>().deallocate(data_, capacity_);
    }
    // Aborts past the capacity: never reached for a program the checker counted.
    void push_back(Local local) {
      if (data_ == nullptr) data_ = capacity_ <= kInline ? InlineData() : std::allocator<Local>().allocate(capacity_);
      if (size_ == capacity_) std::abort();
      new (&data_[size_++]) Local(std::move(local));
    }
    // Only shrinks.
    void resize(size_t n) {
      while (size_ > n) data_[--size_].~Local();
    }
    size_t size() const { return size_; }
    Local& operator[](size_t i) { return data_[i]; }
    const Local& operator[](size_t i) const { return data_[i]; }

   private:
    static constexpr size_t kInline = 6;
    Local* InlineData() { return reinterpret_cast<Local*>(inline_); }
    alignas(Local) unsigned char inline_[kInline * sizeof(Local)];
    Local* data_ = nullptr;
    size_t size_ = 0;
    size_t capacity_;
  };
  // Comprehension variables, innermost last; room for the checker's count (max_locals).
  LocalStack locals_;
  // Binds the next comprehension variable.
  void PushLocal(std::string_view name, Value v);
};

// The error of an evaluation stopped by its cost limit.
inline constexpr std::string_view kCostLimitError = "operation cancelled: actual cost limit exceeded";

}  // namespace kube::cel::internal
