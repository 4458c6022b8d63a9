// The x-kubernetes-validations rules of one CRD version's structural schema, compiled once with
// the CEL layer and evaluated on every write of a custom resource, as kube's apiextensions CEL
// validator does (kube 1.36):
//  - each rule runs at its schema node with `self` bound to the node's value (never for null
//    values); a rule that reads `oldSelf` is a transition rule, run on update only where an old
//    value correlates (object fields and map entries by key, list-type map items by their keys,
//    nothing else), unless optionalOldSelf makes `oldSelf` an optional;
//  - values are typed from the schema: integers as int, numbers as double, date-time strings as
//    timestamps, byte strings as bytes, int-or-string as either; a resource root (and an
//    embedded resource) shows apiVersion, kind and only metadata.name / generateName;
//  - a false result is a 422 cause at the node's path (joined with the rule's fieldPath): its
//    message, else the messageExpression's, else "failed rule: <rule>"; the cause type follows
//    the rule's reason (FieldValueInvalid by default); evaluation errors are worded as kube words
//    them; a request's cost budget (10,000,000) and a per-rule limit (1,000,000) bound the work;
//  - ratcheting: on update, a rule without oldSelf that fails on a value equal to its correlated
//    old value is not reported.
// CRD validation uses CompileRule to refuse rules that do not compile.
//
// Not done yet (issue 9 keeps them open): static type checking against the schema (type errors,
// "must evaluate to a bool"), the static cost estimate, list-type set/map equality semantics,
// kube's extended libraries (lists, regex, URLs, IPs, quantities, strings ext ...).
//
// Thread-safety: immutable once compiled; evaluation is safe from many threads.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cel/cel.h"
#include "schema/schema.h"
#include "util/field_error.h"

namespace kube::apiextensions {

// The per-request cost budget of rule evaluation and the limit of one rule (kube's
// RuntimeCELCostBudget and PerCallLimit).
inline constexpr uint64_t kRuntimeCelCostBudget = 10000000;
inline constexpr uint64_t kPerCallCostLimit = 1000000;

struct CompiledRule {
  std::string rule, message, message_expression, reason, field_path;
  bool optional_old_self = false;
  std::shared_ptr<const cel::Program> program;          // null: the rule did not compile
  std::shared_ptr<const cel::Program> message_program;  // null: none, or it did not compile
  std::string compile_error;                            // cel-go's rendering, when program is null
  bool uses_old_self = false;
};

// Compiles one rule (as written in the CRD: rule, message, messageExpression, reason, fieldPath,
// optionalOldSelf) against an environment with `self` and `oldSelf` declared. Compile errors are
// in compile_error ("compilation failed: ERROR: <input>...") and, for messageExpression, in
// *message_error ("messageExpression compilation failed: ...").
CompiledRule CompileRule(const nlohmann::json& rule, std::string* message_error = nullptr);

class ValidationRules {
 public:
  // Compiles every rule below `root` (nullptr when there are none).
  static std::shared_ptr<const ValidationRules> Compile(const schema::Schema* root);

  // Appends the causes of failing rules for `obj` (and, on update, `old`) to `errs`.
  void Validate(const nlohmann::json& obj, const nlohmann::json* old, FieldErrors* errs) const;

 private:
  const schema::Schema* root_ = nullptr;
  std::map<const schema::Schema*, std::vector<CompiledRule>> rules_;
  // Nodes below which some rule sits: the walk skips subtrees without rules.
  std::map<const schema::Schema*, bool> has_rules_below_;
  friend class RuleWalker;
};

}  // namespace kube::apiextensions
