#include "apiextensions/validation_rules.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>

#include "apiextensions/cel_schema_types.h"
#include "apiextensions/correlated_values.h"
#include "apiextensions/field_errors.h"
#include "apiextensions/ordered_lookup.h"
#include "apiextensions/rule_values.h"
#include "cel/cost_estimator.h"
#include "protobuf/well_known.h"
#include "util/json_fields.h"
#include "util/go_format.h"

namespace kube::apiextensions {

namespace {

using json = nlohmann::json;
using schema::Schema;

std::string Trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\n\r\f\v");
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(" \t\n\r\f\v") - b + 1));
}

// The rule environment's functions: the standard library and kube's libraries. Built once;
// each rule's environment adds its typed `self` and `oldSelf` to a copy.
const cel::Environment& BaseEnvironment() {
  static const cel::Environment* env = [] {
    // Kube's environment for rules has no ext.Bindings: cel.bind is not a macro there.
    auto* e = new cel::Environment({.parse = {.bind_macro = false}});
    cel::RegisterKubernetesLibraries(e->functions());
    return e;
  }();
  return *env;
}

// A rule's fieldPath as a field.Path rendering relative to the rule's node: ".a.b" → "a.b",
// "['a.b'].c" → "a.b.c", ".list[2]" → "list[2]".
std::string NormalizeFieldPath(std::string_view p) {
  std::string out;
  size_t i = 0;
  while (i < p.size()) {
    if (p[i] == '.') {
      ++i;
      size_t end = i;
      while (end < p.size() && p[end] != '.' && p[end] != '[') ++end;
      out += (out.empty() ? "" : ".") + std::string(p.substr(i, end - i));
      i = end;
    } else if (p[i] == '[') {
      const size_t close = p.find(']', i);
      if (close == std::string_view::npos) break;
      std::string_view inner = p.substr(i + 1, close - i - 1);
      if (inner.size() >= 2 && (inner.front() == '\'' || inner.front() == '"')) {
        out += (out.empty() ? "" : ".") + std::string(inner.substr(1, inner.size() - 2));
      } else {
        out += "[" + std::string(inner) + "]";
      }
      i = close + 1;
    } else {
      ++i;
    }
  }
  return out;
}

std::string RuleErrorString(const CompiledRule& r) {
  return r.message.empty() ? Trim(r.rule) : Trim(r.message);
}

// field.Error's rendering of a scalar value; objects and arrays are not shown.
std::string RenderValue(const json& v) {
  if (v.is_string()) return GoQuote(v.get_ref<const std::string&>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  if (v.is_number_float()) return GoFormatFloat(v.get<double>());
  return "";
}

}  // namespace

// A schema node with rules, or with rules below it. Object properties and map or list items are
// listed only when rules sit at or below them, so the walk visits nothing else.
struct RuleNode {
  const Schema* schema = nullptr;
  std::vector<CompiledRule> rules;
  // The union of the rules' self_use: what the node's value is built for, and its conversion.
  cel::FieldUse use;
  std::shared_ptr<const ValuePlan> plan;
  struct Property {
    std::string key;       // as in the JSON
    std::string cel_name;  // as rules see it ("" when they cannot)
    std::shared_ptr<const RuleNode> node;
    bool cut = false;       // the metadata of a resource: rules see only its name
    bool type_meta = false;  // apiVersion or kind
  };
  std::vector<Property> properties;        // kObject; in key order
  std::shared_ptr<const RuleNode> items;  // kArray and kMap
};

namespace {

// The node for `s`, or null when no rule sits at or below it. Shared schema nodes share theirs.
std::shared_ptr<const RuleNode> BuildNode(const Schema* s, bool resource,
                                          std::map<std::pair<const Schema*, bool>, std::shared_ptr<const RuleNode>>* built,
                                          ValuePlan::Cache* plans, int depth) {
  if (s == nullptr || depth > 1000) return nullptr;
  const auto memo = std::make_pair(s, resource);
  if (auto it = built->find(memo); it != built->end()) return it->second;
  (*built)[memo] = nullptr;  // a cycle back to here finds no rules
  auto node = std::make_shared<RuleNode>();
  node->schema = s;
  if (const json* r = s->CelRules(); r != nullptr && r->is_array() && !r->empty()) {
    const cel::TypeRef self_type = SchemaCelType(s, resource);  // once for the node's rules
    for (const auto& rule : *r) {
      node->rules.push_back(CompileRule(rule, self_type));
      node->use.Merge(node->rules.back().self_use);
    }
    node->plan = ValuePlan::Build(s, resource, &node->use, plans);
  }
  if (s->type() == Schema::Type::kObject) {
    for (const auto& name : s->FieldNames()) {
      const Schema* c = s->Field(name);
      const bool embedded = c != nullptr && c->EmbeddedResource();
      if (auto child = BuildNode(c, embedded, built, plans, depth + 1)) {
        node->properties.push_back({name, EscapeCelFieldName(name).value_or(""), child, resource && name == "metadata",
                                    name == "apiVersion" || name == "kind"});
      }
    }
  }
  // In key order, the order of a JSON object's entries: the walk merges the two.
  std::sort(node->properties.begin(), node->properties.end(),
            [](const RuleNode::Property& a, const RuleNode::Property& b) { return a.key < b.key; });
  if (s->type() == Schema::Type::kArray || s->type() == Schema::Type::kMap) {
    const Schema* c = s->Items();
    node->items = BuildNode(c, c != nullptr && c->EmbeddedResource(), built, plans, depth + 1);
  }
  if (node->rules.empty() && node->properties.empty() && !node->items) return nullptr;
  (*built)[memo] = node;
  return node;
}

}  // namespace

CompiledRule CompileRule(const json& rule, const Schema* node, bool resource_root, std::string* message_error) {
  return CompileRule(rule, SchemaCelType(node, resource_root), message_error);
}

CompiledRule CompileRule(const json& rule, cel::TypeRef self_type, std::string* message_error) {
  CompiledRule c;
  c.rule = StringField(rule, "rule");
  c.message = StringField(rule, "message");
  c.message_expression = StringField(rule, "messageExpression");
  c.reason = StringField(rule, "reason");
  c.field_path = NormalizeFieldPath(StringField(rule, "fieldPath"));
  if (auto it = rule.find("optionalOldSelf"); it != rule.end() && it->is_boolean()) c.optional_old_self = it->get<bool>();
  if (Trim(c.rule).empty()) return c;
  if (!self_type) self_type = cel::Type::Dyn();
  cel::Environment env = BaseEnvironment();
  env.DeclareVariable("self", self_type);
  env.DeclareVariable("oldSelf", c.optional_old_self ? cel::Type::Optional(self_type) : self_type);
  auto program = env.Compile(c.rule);
  if (!program.ok()) {
    c.compile_error = "compilation failed: " + program.status().message();
    return c;
  }
  const cel::TypeKind result = (*program)->output_type()->kind();
  if (result != cel::TypeKind::kBool && result != cel::TypeKind::kDyn) {
    c.compile_error = "cel expression must evaluate to a bool";
    return c;
  }
  c.program = *program;
  c.uses_old_self = c.program->References("oldSelf");
  c.reads_old_self = c.uses_old_self || c.optional_old_self;
  c.self_use = cel::VariableFieldUse(c.program->expr(), "self");
  c.self_use.Merge(cel::VariableFieldUse(c.program->expr(), "oldSelf"));
  c.max_cost = cel::EstimateCost(c.program->expr(), c.program->checked(), self_type).max;
  c.max_cardinality = static_cast<uint64_t>(kCelMaxRequestSizeBytes) / (self_type->min_serialized_size() + 1);
  if (!c.message_expression.empty()) {
    auto message = env.Compile(c.message_expression);
    if (!message.ok()) {
      if (message_error != nullptr) *message_error = "messageExpression compilation failed: " + message.status().message();
    } else if (const cel::TypeKind k = (*message)->output_type()->kind(); k != cel::TypeKind::kString && k != cel::TypeKind::kDyn) {
      if (message_error != nullptr) *message_error = "messageExpression must evaluate to a string";
    } else {
      c.message_program = *message;
      c.self_use.Merge(cel::VariableFieldUse(c.message_program->expr(), "self"));
      c.self_use.Merge(cel::VariableFieldUse(c.message_program->expr(), "oldSelf"));
      c.message_max_cost = cel::EstimateCost(c.message_program->expr(), c.message_program->checked(), self_type).max;
      c.reads_old_self = c.reads_old_self || c.message_program->References("oldSelf");
    }
  }
  return c;
}

std::shared_ptr<const ValidationRules> ValidationRules::Compile(const Schema* root) {
  std::map<std::pair<const Schema*, bool>, std::shared_ptr<const RuleNode>> built;
  ValuePlan::Cache plans;
  auto tree = BuildNode(root, /*resource=*/true, &built, &plans, 0);
  if (!tree) return nullptr;
  auto rules = std::make_shared<ValidationRules>();
  rules->root_ = std::move(tree);
  return rules;
}

// A node's place in the object, rendered (as field.Path renders it) only when an error needs it:
// most walks report nothing.
struct PathStep {
  enum class Kind : uint8_t { kRoot, kField, kKey, kIndex };
  const PathStep* parent = nullptr;
  Kind kind = Kind::kRoot;
  std::string_view name;  // kField, kKey
  size_t index = 0;       // kIndex

  std::string Render() const {
    if (kind == Kind::kRoot) return "";
    std::string out = parent->Render();
    switch (kind) {
      case Kind::kField: return (out.empty() ? "" : out + ".") + std::string(name);
      case Kind::kKey: return out + "[" + std::string(name) + "]";
      default: return out + "[" + std::to_string(index) + "]";
    }
  }
};

// A value whose old value correlates, for ratcheting: whether the two are equal is worked out
// when a failure first asks, once.
struct Correlation {
  const Schema* schema = nullptr;
  const json* value = nullptr;
  const json* old = nullptr;
  mutable std::optional<bool> equal;

  bool Equal() const {
    if (!equal) equal = CorrelatedEqual(schema, *value, *old);
    return *equal;
  }
};

// One evaluation: walks the object along the schema, running the rules of each node.
class RuleWalker {
 public:
  RuleWalker(const ValidationRules& rules, FieldErrors* errs, std::vector<std::string>* warnings)
      : rules_(rules), errs_(errs), warnings_(warnings) {}

  // `value`, when known, is `v` already built whole by an ancestor (one of its rules used it
  // whole): handing children their part keeps the cost linear in the object. `ratchet` is the
  // correlation whose equality ratchets this node's failures: the node's own when `old`
  // correlates, else its nearest correlated ancestor's (kube's nearestParentCorrelation); null
  // when none does (a create, the root's apiVersion and kind).
  void Walk(const RuleNode& n, const json& v, const json* old, const PathStep& path, const cel::Value* value,
            const Correlation* ratchet) {
    if (stopped_ || v.is_null()) return;
    const Schema* s = n.schema;
    std::optional<cel::Value> self;
    if (value != nullptr) self = *value;
    const cel::FieldUse* use = value != nullptr ? nullptr : &n.use;
    std::optional<Correlation> own;
    if (old != nullptr && ratchet != nullptr && ratchet->value != &v) ratchet = &own.emplace(Correlation{s, &v, old});
    if (!n.rules.empty()) RunRules(n, v, old, path, &self, ratchet);
    if (stopped_) return;
    // Children may reuse the parts of this value that were built whole.
    auto built_whole = [&](const std::string& name) -> const cel::Value* {
      if (!self.has_value()) return nullptr;
      if (use != nullptr && !use->whole) {
        auto f = use->fields.find(name);
        if (f == use->fields.end() || !f->second.whole) return nullptr;
      }
      return self->FindField(name);
    };
    if (v.is_object() && s->type() == Schema::Type::kObject) {
      OrderedLookup in_value(v, n.properties.size());
      std::optional<OrderedLookup> in_old;
      if (old != nullptr && old != &v && old->is_object()) in_old.emplace(*old, n.properties.size());
      for (const auto& p : n.properties) {
        const json* child = in_value.Find(p.key);
        if (child == nullptr) continue;
        const json* old_child = nullptr;
        if (old == &v) {
          old_child = child;  // an unchanged subtree (the same node): no lookup
        } else if (in_old) {
          old_child = in_old->Find(p.key);
        }
        // A resource's metadata is cut down to its name: that child builds its own.
        const cel::Value* converted = nullptr;
        if (!p.cut && !p.cel_name.empty()) converted = built_whole(p.cel_name);
        // The root's apiVersion and kind are converted before validation, so their changes are
        // not visible: kube never ratchets them.
        const bool type_meta = path.kind == PathStep::Kind::kRoot && p.type_meta;
        Walk(*p.node, *child, old_child, PathStep{&path, PathStep::Kind::kField, p.key}, converted,
             type_meta ? nullptr : ratchet);
      }
    } else if (v.is_object() && s->type() == Schema::Type::kMap && n.items) {
      for (auto it = v.begin(); it != v.end(); ++it) {
        const json* old_child = nullptr;
        if (old == &v) {
          old_child = &*it;
        } else if (old != nullptr && old->is_object()) {
          if (auto o = old->find(it.key()); o != old->end()) old_child = &*o;
        }
        Walk(*n.items, *it, old_child, PathStep{&path, PathStep::Kind::kKey, it.key()}, built_whole(it.key()),
             ratchet);
      }
    } else if (v.is_array() && s->type() == Schema::Type::kArray && n.items) {
      const bool items_known = self.has_value() && (use == nullptr || use->whole) && self->kind() == cel::Kind::kList &&
                               self->AsList().size() == v.size();
      for (size_t i = 0; i < v.size(); ++i) {
        Walk(*n.items, v[i], CorrelatedListItem(s, v[i], old), PathStep{&path, PathStep::Kind::kIndex, {}, i},
             items_known ? &self->AsList()[i] : nullptr, ratchet);
      }
    }
  }

 private:
  void Add(FieldError::Type type, const std::string& path, std::string value, std::string detail) {
    errs_->push_back(FieldError{type, path.empty() ? "<nil>" : path, std::move(value), std::move(detail)});
  }

  void RunRules(const RuleNode& n, const json& v, const json* old, const PathStep& path_step,
                std::optional<cel::Value>* self_slot, const Correlation* ratchet) {
    const Schema* s = n.schema;
    // Rendered once, when the first error needs them.
    std::optional<std::string> path_text, type_text;
    auto path = [&]() -> const std::string& {
      if (!path_text) path_text = path_step.Render();
      return *path_text;
    };
    auto type_value = [&]() -> const std::string& {
      if (!type_text) type_text = GoQuote(s->OpenAPIType());
      return *type_text;
    };
    std::optional<cel::Value>& self = *self_slot;
    // Built when the first rule needs them and shared by the node's rules. oldSelf is the old
    // value, or that value as an optional for optionalOldSelf rules.
    const cel::Value* old_self = nullptr;
    std::optional<cel::Value> old_converted, old_optional;
    for (const auto& r : n.rules) {
      if (!r.program) {
        if (!r.compile_error.empty()) Add(FieldError::Type::kInvalid, path(), type_value(), "rule compile error: " + r.compile_error);
        continue;
      }
      if (r.uses_old_self && old == nullptr && !r.optional_old_self) continue;
      if (!self) self = n.plan->Convert(v, &arena_);
      // An unchanged value (common on updates) is already converted: reuse it.
      if (r.reads_old_self && old != nullptr && old_self == nullptr) {
        old_self = old == &v || *old == v ? &*self : &old_converted.emplace(n.plan->Convert(*old, &arena_));
      }
      // The walker's activations serve every node: bound here for each rule.
      cel::Activation& vars = Variables(r.optional_old_self);
      vars.BindRef(kSelfPlace, &*self);
      if (r.optional_old_self) {
        if (!old_optional) old_optional = old != nullptr ? cel::Value::OptionalOf(*old_self) : cel::Value::OptionalNone();
        vars.BindRef(kOldSelfPlace, &*old_optional);
      } else {
        vars.BindRef(kOldSelfPlace, old_self);
      }
      const uint64_t limit = std::min(kPerCallCostLimit, budget_);
      cel::EvalResult result = r.program->Evaluate(vars, {.cost_limit = limit});
      if (result.cost > budget_ || (result.value.IsError() && limit < kPerCallCostLimit &&
                                    result.value.ErrorMessage().starts_with("operation cancelled"))) {
        Add(FieldError::Type::kInvalid, path(), type_value(),
            "validation failed due to running out of cost budget, no further validation rules will be run");
        stopped_ = true;
        return;
      }
      budget_ -= result.cost;
      if (result.value.IsError()) {
        const std::string& err = result.value.ErrorMessage();
        if (err.starts_with("no such overload")) {
          Add(FieldError::Type::kInvalid, path(), type_value(),
              "'" + err + "': call arguments did not match a supported operator, function or macro signature for rule: " +
                  RuleErrorString(r));
        } else if (err.starts_with("operation cancelled: actual cost limit exceeded")) {
          Add(FieldError::Type::kInvalid, path(), type_value(),
              "'" + err + "': no further validation rules will be run due to call cost exceeds limit for rule: " +
                  RuleErrorString(r));
          stopped_ = true;
          return;
        } else {
          Add(FieldError::Type::kInvalid, path(), type_value(), err + " evaluating rule: " + RuleErrorString(r));
        }
        continue;
      }
      if (result.value.kind() == cel::Kind::kBool && result.value.AsBool()) continue;
      std::string at = path();
      if (!r.field_path.empty()) at = (at.empty() ? "" : at + (r.field_path[0] == '[' ? "" : ".")) + r.field_path;
      // Ratcheting: an unchanged value is not refused again by a rule that does not look back;
      // the client is told instead.
      auto report = [&](FieldError e) {
        if (!r.uses_old_self && ratchet != nullptr && ratchet->Equal()) {
          if (warnings_ != nullptr) warnings_->push_back(FormatFieldError(e));
          return;
        }
        errs_->push_back(std::move(e));
      };
      std::string detail;
      if (!MessageFromExpression(r, vars, &detail)) {
        // The messageExpression ran out of cost: reported in the rule's place, and nothing more runs.
        report(FieldError{FieldError::Type::kInvalid, at.empty() ? "<nil>" : at, type_value(), detail});
        stopped_ = true;
        return;
      }
      if (detail.empty()) detail = r.message.empty() ? "failed rule: " + RuleErrorString(r) : Trim(r.message);
      const std::string value = v.is_object() || v.is_array() ? "" : RenderValue(v);
      FieldError::Type type = FieldError::Type::kInvalid;
      if (r.reason == "FieldValueForbidden") type = FieldError::Type::kForbidden;
      if (r.reason == "FieldValueRequired") type = FieldError::Type::kRequired;
      if (r.reason == "FieldValueDuplicate") type = FieldError::Type::kDuplicate;
      report(FieldError{type, at.empty() ? "<nil>" : at,
                        type == FieldError::Type::kDuplicate || type == FieldError::Type::kInvalid ? value : "",
                        type == FieldError::Type::kDuplicate ? "" : detail});
    }
  }

  // Sets *message to the messageExpression's result when it gives a usable message, else leaves
  // it empty (kube then falls back to the message). False when the expression ran out of cost,
  // with *message kube's error for it: validation stops there, as kube's does.
  bool MessageFromExpression(const CompiledRule& r, const cel::Activation& vars, std::string* message) {
    if (!r.message_program) return true;
    cel::EvalResult m = r.message_program->Evaluate(vars, {.cost_limit = std::min(kPerCallCostLimit, budget_)});
    if (m.cost > budget_) {
      *message = "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run";
      return false;
    }
    budget_ -= m.cost;
    if (m.value.IsError() && m.value.ErrorMessage().starts_with("operation cancelled: actual cost limit exceeded")) {
      *message = "no further validation rules will be run due to call cost exceeds limit for messageExpression: " +
                 GoQuote(r.message_expression);
      return false;
    }
    if (m.value.kind() != cel::Kind::kString) return true;
    std::string text = Trim(m.value.AsString());
    if (text.find('\n') != std::string::npos || text.size() > 5 * 1024) return true;
    *message = std::move(text);
    return true;
  }

  const ValidationRules& rules_;
  // The lists and maps of the values built for rules: they live as long as the walk, and copies
  // of them cost nothing. Declared first, so destroyed after everything that reads them.
  cel::ValueArena arena_;
  // The rules' variables, bound by reference to the values of the node being checked: oldSelf
  // as a value, or as an optional for optionalOldSelf rules. Made when a rule first needs them.
  std::optional<cel::Activation> plain_vars_, optional_vars_;
  static constexpr size_t kSelfPlace = 0, kOldSelfPlace = 1;
  cel::Activation& Variables(bool optional_old_self) {
    std::optional<cel::Activation>& vars = optional_old_self ? optional_vars_ : plain_vars_;
    if (!vars) {
      vars.emplace();
      vars->Place("self");     // kSelfPlace
      vars->Place("oldSelf");  // kOldSelfPlace
    }
    return *vars;
  }
  FieldErrors* errs_;
  std::vector<std::string>* warnings_;  // null: ratcheted failures are dropped
  uint64_t budget_ = kRuntimeCelCostBudget;
  bool stopped_ = false;
};

void ValidationRules::Validate(const json& obj, const json* old, FieldErrors* errs,
                               std::vector<std::string>* warnings) const {
  // On update the root correlates with the old object; each node below narrows it.
  const Correlation root{root_->schema, &obj, old};
  RuleWalker(*this, errs, warnings)
      .Walk(*root_, obj, old, PathStep{}, nullptr, old != nullptr ? &root : nullptr);
}

}  // namespace kube::apiextensions
