// Which parts of a variable an expression can observe, found from its parsed tree: the fields it
// selects along chains such as `self.spec.replicas`, `has(self.spec.paused)`, `self.?status.x` or
// `self['key']`, and the values it uses whole (passed to a function, iterated, compared, returned).
// A caller that builds the variable's value from a larger document can then build only those
// parts: a map that holds just the selected fields answers every selection the expression makes
// exactly as the full map would, and the expression never looks at the map any other way.
//
// Thread-safety: pure functions; a FieldUse is a plain value.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "cel/ast.h"

namespace kube::cel {

// The use of one value: whole, or only through the fields listed (each with its own use). A value
// that is not used at all has whole == false and no fields.
struct FieldUse {
  bool whole = false;
  std::map<std::string, FieldUse, std::less<>> fields;

  bool used() const { return whole || !fields.empty(); }
  // Adds `other`'s uses to these.
  void Merge(const FieldUse& other);
};

// The use `root` makes of the variable `variable` (a declared variable: comprehension variables
// of the same name shadow it and are not counted). REQUIRES: `root` was built by
// Environment::Compile (comprehension variables resolved).
FieldUse VariableFieldUse(const Expr& root, std::string_view variable);

}  // namespace kube::cel
