// The parsed form of a CEL expression (cel-spec's Expr): constants, identifiers, field
// selections, calls (operators are calls named as cel-go names them: "_+_", "_==_", "_[_]", "!_",
// "-_", "_?_:_", "_&&_", "_||_", "@in", "_?._", "_[?_]", "@not_strictly_false"), list, map and
// message literals, and comprehensions, which the macros (has, all, exists, exists_one, map,
// filter, the two-variable forms, optMap, cel.bind) expand into at parse time.
//
// Every node keeps the byte offset of its source position for error messages. Nodes are owned by
// their parent; a parsed tree is immutable once the program is built.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cel/value.h"

namespace kube::cel {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

// How the interpreter evaluates a kCall, decided when the program is built so that evaluation
// does not compare names: a strict function (arguments first, then the overload), or one of the
// forms the interpreter evaluates itself.
enum class CallForm : uint8_t {
  kFunction,          // strict: `function` names the overloads (or -1: none)
  kAnd,               // _&&_
  kOr,                // _||_
  kConditional,       // _?_:_
  kNotStrictlyFalse,  // @not_strictly_false
  kIndex,             // _[_]
  kOptionalIndex,     // _[?_]
  kOptionalSelect,    // _?._
  // Strict standard-library operators the interpreter computes itself for the common kinds
  // (numbers, strings, bools, lists and maps), reading the operands in place; other kinds go to
  // `function` as kFunction calls do. The standard library is registered before any other, so its
  // overloads are the ones a call would pick.
  kEqual,         // _==_
  kNotEqual,      // _!=_
  kLess,          // _<_
  kLessEqual,     // _<=_
  kGreater,       // _>_
  kGreaterEqual,  // _>=_
  kAdd,           // _+_
  kSubtract,      // _-_
  kNot,           // !_
  kSize,          // size(x), x.size()
};

// The macro a kComprehension was expanded from, when the interpreter runs that macro's loop itself
// (same results, errors and cost as evaluating the expansion, without the accumulator's
// per-element expressions): all, exists, exists_one/existsOne, map/transformList (with or without
// a predicate) and filter, with one or two variables. kNone: evaluate the expansion.
enum class MacroForm : uint8_t { kNone, kAll, kExists, kExistsOne, kMap, kFilter };

enum class ExprKind : uint8_t {
  kConst,          // constant
  kIdent,          // name (possibly dotted: "a.b.c" when it resolves as one name)
  kSelect,         // operand.name; test_only for has()
  kCall,           // name(args), or target.name(args) when target is set
  kList,           // [args...]; optional_indices mark `?elem` entries
  kMap,            // {entries}; Entry::optional marks `?key: value`
  kStruct,         // name{field: value}
  kComprehension,  // see the comprehension fields
};

struct Expr {
  int64_t id = 0;
  int32_t offset = 0;  // byte offset of the node in the source
  ExprKind kind = ExprKind::kConst;

  Value constant;  // kConst
  // kIdent: the name; kSelect: the field; kCall: the function; kStruct: the message name.
  std::string name;
  bool test_only = false;  // kSelect: has(operand.name)
  ExprPtr target;          // kSelect: the operand; kCall: the receiver, or null
  std::vector<ExprPtr> args;            // kCall arguments; kList elements
  std::vector<int32_t> optional_indices;  // kList: indexes of `?elem` elements

  struct Entry {
    ExprPtr key;        // kMap
    std::string field;  // kStruct
    ExprPtr value;
    bool optional = false;
  };
  std::vector<Entry> entries;  // kMap, kStruct

  // kComprehension: for each element (lists: index and value; maps: key and value) of
  // iter_range, while loop_condition holds, accu_var = loop_step; then the value is `result`.
  // With one iteration variable it binds list values / map keys; with two (iter_var2 set), the
  // first binds the index / key and the second the value.
  std::string iter_var, iter_var2, accu_var;
  ExprPtr iter_range, accu_init, loop_condition, loop_step, result;
  MacroForm macro = MacroForm::kNone;

  // Set when the program is built: the function id of a kCall (function_registry.h), -1 before.
  int32_t function = -1;
  // Set when the program is built: for a kIdent naming a comprehension variable, its place in
  // the evaluation's stack of comprehension variables (outermost first); kDeclaredVariable for
  // a variable of the environment (looked up in the activation only); else -1.
  int32_t local = -1;
  static constexpr int32_t kDeclaredVariable = -2;
  // Set when the program is built, for a kIdent of kDeclaredVariable: the variable's number
  // among the program's variables (0 for the first one read), so that an evaluation looks each
  // up in the activation once.
  int32_t variable = -1;
  // Set when the program is built: how a kCall evaluates.
  CallForm form = CallForm::kFunction;
  // Set when the program is built, for a call or a list or map literal whose operands are all
  // constants (or such folded nodes) and whose evaluation gives no error: its value, and the cost
  // evaluating it counted, charged again each time instead of evaluating it (quantity('1Gi'),
  // ['a', 'b']). Analyses read the node as written.
  std::shared_ptr<const Value> folded;
  uint64_t folded_cost = 0;
};

// Calls `f(child)` for every direct child of `e` (for walks that must not recurse: a long
// `a + b + ...` chain is a deep left spine).
template <class F>
void ForEachChild(const Expr& e, F&& f) {
  auto visit = [&](const ExprPtr& c) {
    if (c) f(*c);
  };
  visit(e.target);
  for (const auto& a : e.args) visit(a);
  for (const auto& en : e.entries) {
    visit(en.key);
    visit(en.value);
  }
  visit(e.iter_range);
  visit(e.accu_init);
  visit(e.loop_condition);
  visit(e.loop_step);
  visit(e.result);
}

}  // namespace kube::cel
