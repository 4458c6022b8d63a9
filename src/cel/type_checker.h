// Static type checking of a resolved CEL expression (cel-spec's checker, as cel-go implements
// it with kube's options: homogeneous aggregate literals, cross-type numeric comparisons):
// infers the type of every node from the declared variable types and the typed declarations of
// the functions, and reports what cel-go reports — "undefined field 'x'", "found no matching
// overload for '_+_' applied to '(int, string)'", "expected type 'bool' but found 'int'",
// "type 'int' does not support field selection", a comprehension over a non-range.
//
// The checker is gradual where this implementation knows less than cel-go: a function without
// typed declarations (FunctionDecls) yields dyn and is never an error. Undeclared names are the
// resolver's business (cel.cc), which runs first.
//
// Thread-safety: FunctionDecls is built once and read-only afterwards; CheckTypes is a pure
// function of its arguments.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cel/ast.h"
#include "cel/parser.h"
#include "cel/types.h"

namespace kube::cel {

// The typed overloads of functions, written in a small notation:
//   Add("_+_", "(int, int) -> int");
//   Add("startsWith", "string.(string) -> bool");    // receiver-style: receiver, '.', arguments
//   Add("size", "(list(A)) -> int");                  // capital letters are type parameters
class FunctionDecls {
 public:
  struct Overload {
    bool receiver = false;
    std::vector<TypeRef> params;  // the receiver first
    TypeRef result;
  };

  // Adds an overload; false when the signature is malformed.
  bool Add(std::string_view function, std::string_view signature);
  // The overloads of `function`, or nullptr when it has no typed declarations.
  const std::vector<Overload>* Find(std::string_view function) const;

  // The declarations of the standard library and of the Kubernetes libraries this project
  // implements.
  static const FunctionDecls& Standard();

 private:
  std::map<std::string, std::vector<Overload>, std::less<>> overloads_;
};

struct TypeCheckResult {
  TypeRef type;  // the expression's type (type parameters left free become dyn)
  std::vector<SourceError> errors;
  // Mixed list and map literals (`homogeneous_literals`), checked only when `errors` is empty:
  // cel-go reports them with its other post-check validators' errors (cel.cc).
  std::vector<SourceError> homogeneity_errors;
  // The inferred type of every node, and the declared overloads each call may resolve to
  // (what the cost estimator reads).
  std::unordered_map<const Expr*, TypeRef> node_types;
  std::unordered_map<const Expr*, std::vector<const FunctionDecls::Overload*>> call_overloads;
};

// Checks `root`. `variables` types the free identifiers; an identifier not in it is dyn.
// `homogeneous_literals`: mixed list and map literals are errors (outside calls named format),
// in homogeneity_errors.
TypeCheckResult CheckTypes(const Expr& root, const std::map<std::string, TypeRef, std::less<>>& variables,
                           const FunctionDecls& decls, bool homogeneous_literals = true);

}  // namespace kube::cel
