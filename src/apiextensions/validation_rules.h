// The x-kubernetes-validations rules of one CRD version's structural schema, compiled once with
// the CEL layer and evaluated on every write of a custom resource, as kube's apiextensions CEL
// validator does (kube 1.36):
//  - each rule runs at its schema node with `self` bound to the node's value (never for null
//    values); a rule that reads `oldSelf` is a transition rule, run on update only where an old
//    value correlates (object fields and map entries by key, list-type map items by their keys,
//    nothing else), unless optionalOldSelf makes `oldSelf` an optional;
//  - values are typed from the schema: integers as int, numbers as double, date and date-time
//    strings as timestamps, duration strings as durations, byte strings as bytes, int-or-string
//    as either; object properties under their escaped names (`__dash__` …); a resource root (and an
//    embedded resource) shows apiVersion, kind and only metadata.name / generateName;
//  - a false result is a 422 cause at the node's path (joined with the rule's fieldPath): its
//    message, else the messageExpression's, else "failed rule: <rule>"; the cause type follows
//    the rule's reason (FieldValueInvalid by default); evaluation errors are worded as kube words
//    them; a request's cost budget (10,000,000) and a per-rule limit (1,000,000) bound the work;
//  - ratcheting: on update, a failure of a rule without oldSelf is not an error when the value
//    equals its correlated old value, or (for a value that does not correlate: an item of a
//    list that is not a list-type map, a field new to the object) when its nearest correlated
//    ancestor equals its old value; kube then reports the failure as a warning, worded as the
//    error would be (`spec.x: Invalid value: "a": <message>`). Values compare as kube's
//    CorrelatedObject compares them: list-type map items by their keys, wherever they sit, and an
//    object holding a key its schema does not declare is never equal. Evaluation errors and the
//    root's apiVersion and kind are never ratcheted.
// CRD validation uses CompileRule to refuse rules that do not compile.
//
// Rules are type-checked against the schema when compiled (cel_schema_types.h): a rule that
// selects an undeclared field, misuses a type or does not evaluate to a bool does not compile.
//
// CRD validation refuses rules whose estimated cost, times how often their node can occur, is
// over kube's per-rule or per-CRD limit (kStaticEstimatedCostLimit, kStaticEstimatedCrdCostLimit).
// Lists of x-kubernetes-list-type set and map compare and concatenate as kube's do (order-free
// equality, `+` as a union / merge by key).
//
// Thread-safety: immutable once compiled; evaluation is safe from many threads.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cel/cel.h"
#include "cel/field_usage.h"
#include "schema/schema.h"
#include "util/field_error.h"

namespace kube::apiextensions {

// The per-request cost budget of rule evaluation and the limit of one rule (kube's
// RuntimeCELCostBudget and PerCallLimit).
inline constexpr uint64_t kRuntimeCelCostBudget = 10000000;
inline constexpr uint64_t kPerCallCostLimit = 1000000;
// The static limits on estimated costs: one rule (times its node's cardinality) and all rules of
// a CRD version's schema together.
inline constexpr uint64_t kStaticEstimatedCostLimit = 10000000;
inline constexpr uint64_t kStaticEstimatedCrdCostLimit = 100000000;

struct CompiledRule {
  std::string rule, message, message_expression, reason, field_path;
  bool optional_old_self = false;
  std::shared_ptr<const cel::Program> program;          // null: the rule did not compile
  std::shared_ptr<const cel::Program> message_program;  // null: none, or it did not compile
  std::string compile_error;                            // cel-go's rendering, when program is null
  bool uses_old_self = false;
  // Whether the rule or its messageExpression reads oldSelf: the old value is then built.
  bool reads_old_self = false;
  // The static cost estimates (cost_estimator.h) of the rule and of its messageExpression, and
  // how many times the rule's node can occur in a request of the largest size, given the least
  // bytes its values take (kube's maxCardinality).
  uint64_t max_cost = 0, message_max_cost = 0, max_cardinality = 0;
  // What the rule and its messageExpression read of `self` and `oldSelf`, together: the values
  // are built for it (rule_values.h).
  cel::FieldUse self_use;
};

// Compiles one rule (as written in the CRD: rule, message, messageExpression, reason, fieldPath,
// optionalOldSelf) of schema node `node` with `self` and `oldSelf` typed from it
// (cel_schema_types.h; dyn when `node` is null or not exposed; `resource_root` for the root of a
// resource or an embedded one). Compile errors are in compile_error ("compilation failed:
// ERROR: <input>...", "cel expression must evaluate to a bool") and, for messageExpression, in
// *message_error ("messageExpression compilation failed: ...", "messageExpression must evaluate
// to a string").
CompiledRule CompileRule(const nlohmann::json& rule, const schema::Schema* node, bool resource_root,
                         std::string* message_error = nullptr);
// The same with `self`'s type given (SchemaCelType of the node, computed once for all its rules;
// null: dyn).
CompiledRule CompileRule(const nlohmann::json& rule, cel::TypeRef self_type, std::string* message_error = nullptr);

// The rules of one schema node and the nodes below it that have rules (rules_tree in the .cc).
struct RuleNode;

class ValidationRules {
 public:
  // Compiles every rule below `root` (nullptr when there are none).
  static std::shared_ptr<const ValidationRules> Compile(const schema::Schema* root);

  // Appends the causes of failing rules for `obj` (and, on update, `old`) to `errs`, and the
  // ratcheted failures, rendered as field.Error.Error() renders them, to `warnings` (nullptr:
  // dropped).
  void Validate(const nlohmann::json& obj, const nlohmann::json* old, FieldErrors* errs,
                std::vector<std::string>* warnings = nullptr) const;

 private:
  // The schema's nodes with rules, and their ancestors; shared where the schema shares nodes.
  std::shared_ptr<const RuleNode> root_;
  friend class RuleWalker;
};

}  // namespace kube::apiextensions
