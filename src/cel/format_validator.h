// cel-go's compile-time check of string.format calls (the AST validator ext.Strings adds from
// version 1; kube 1.36 loads version 2, so CRD rules get it). It looks at every call
// `"<literal>".format([<list literal>])` of a type-checked expression and refuses, as the
// formatter would at run time:
//   - a malformed clause: "could not parse formatting clause: unrecognized formatting clause \"j\"",
//     "unexpected end of string", a bad precision;
//   - too few arguments: "index 1 out of range";
//   - too many: "too many arguments supplied to string.format (expected 2, got 3)";
//   - an argument whose checked type the clause cannot format: "error during formatting: decimal
//     clause can only be used on integers, was given string" (dyn passes; %s looks inside list
//     and map literals).
// One error per call, placed as cel-go places it: on the offending list element for a type, on
// the call otherwise. Calls whose format string or argument list is not a literal are left to
// the run time.
//
// Thread-safety: a pure function of its arguments.
#pragma once

#include <vector>

#include "cel/ast.h"
#include "cel/parser.h"
#include "cel/type_checker.h"

namespace kube::cel::internal {

// The errors of the string.format calls in `root`, whose types `checked` holds (CheckTypes).
std::vector<SourceError> ValidateFormatCalls(const Expr& root, const TypeCheckResult& checked);

}  // namespace kube::cel::internal
