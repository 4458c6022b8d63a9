// Macro expansion (cel-spec "Macros", and the cel-go extensions the Kubernetes environment
// enables): a call that matches a macro's name, receiver style and argument count is replaced by
// the expression it stands for while parsing.
//
//   has(a.f)                      → a.f with test_only
//   r.all(x, p) / r.exists(x, p) / r.exists_one(x, p) / r.map(x, t) / r.map(x, p, t) /
//   r.filter(x, p)                → comprehensions over r
//   r.all(i, v, p) / r.exists(i, v, p) / r.existsOne(i, v, p) / r.transformList(i, v[, p], t) /
//   r.transformMap(k, v[, p], t) / r.transformMapEntry(k, v[, p], t)
//                                 → two-variable comprehensions (cel-go ext.TwoVarComprehensions)
//   o.optMap(x, t) / o.optFlatMap(x, t)   → optional chaining (cel-go optional library)
//   cel.bind(x, init, e)          → e with x bound to init (cel-go ext.Bindings)
//   r.sortBy(x, key)              → r sorted by key (cel-go ext.Lists)
//
// Internal to the parser. Thread-safety: an ExprFactory is used by one thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cel/ast.h"

namespace kube::cel::internal {

// Builds nodes with fresh ids.
class ExprFactory {
 public:
  ExprPtr New(ExprKind kind, int32_t offset);
  ExprPtr Const(Value v, int32_t offset);
  ExprPtr Ident(std::string name, int32_t offset);
  ExprPtr Call(std::string function, std::vector<ExprPtr> args, int32_t offset);
  ExprPtr ReceiverCall(std::string function, ExprPtr target, std::vector<ExprPtr> args, int32_t offset);
  ExprPtr List(std::vector<ExprPtr> items, int32_t offset);
  int64_t next_id() const { return next_id_; }

 private:
  int64_t next_id_ = 1;
};

// The name of the accumulator variable of macro comprehensions (not a valid identifier).
inline constexpr std::string_view kAccumulator = "@result";

// Expands a call if it is a macro. nullopt: not a macro (the caller builds the call). An
// expression with `*error` set: the macro matched but its arguments are malformed (the error
// message, e.g. "argument must be a simple name").
std::optional<ExprPtr> ExpandMacro(ExprFactory& f, std::string_view function, ExprPtr* target,
                                   std::vector<ExprPtr>* args, int32_t offset, std::string* error);

}  // namespace kube::cel::internal
