// The static cost estimate of a checked CEL expression: the least and the most cost units its
// evaluation can take, as cel-go's checker estimates them (and kube's CostEstimator for its
// libraries), so that an API server can refuse expressions whose worst case is too expensive
// before any object is seen.
//
// Sizes come from literals, from what calls and comprehensions compute, and — as kube's
// estimator does — from the bounds of the `self` type (types.h: how many elements a list, map,
// string or bytes value can have; kube derives them from maxItems, maxLength, maxProperties and
// the request size limit) at the path an expression reads (`self.spec.items` and the variables
// iterating over it); a size nothing bounds is unbounded, which makes comprehensions over it cost
// the most. Each
// comprehension costs its range's size times its loop body; string functions cost a tenth of a
// unit per character; regular expressions a quarter per pattern character.
//
// Thread-safety: a pure function of the program.
#pragma once

#include <cstdint>

#include "cel/ast.h"
#include "cel/type_checker.h"

namespace kube::cel {

struct CostEstimate {
  uint64_t min = 0;
  uint64_t max = 0;
};

// The estimate for `root`, checked as `checked` says (Program::checked()), with the sizes that
// `self` (the type paths start from; null: none) bounds.
CostEstimate EstimateCost(const Expr& root, const TypeCheckResult& checked, const TypeRef& self);

}  // namespace kube::cel
