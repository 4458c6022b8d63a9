#include "apiextensions/openapi_schema_validation.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

#include "apiextensions/cel_schema_types.h"
#include "apiextensions/crd_internal.h"
#include "apiextensions/schema_field_path.h"
#include "apiextensions/structural_schema.h"
#include "apiextensions/validation_rules.h"
#include "schema/graph.h"
#include "util/go_format.h"

namespace kube::apiextensions {

using namespace json_access;

namespace {

const std::vector<std::string> kOpenAPITypes = {"array", "boolean", "integer", "number", "object", "string"};
const std::vector<std::string> kValidationReasons = {"FieldValueDuplicate", "FieldValueForbidden",
                                                     "FieldValueInvalid", "FieldValueRequired"};

// specStandardValidatorV3's state along the recursion.
struct NodeRules {
  bool allow_defaults = true;
  std::string disallow_defaults_reason;
  bool inside_resource_meta = false;

  NodeRules WithForbiddenDefaults(std::string reason) const {
    NodeRules r = *this;
    r.allow_defaults = false;
    r.disallow_defaults_reason = std::move(reason);
    return r;
  }
  NodeRules WithInsideResourceMeta() const {
    NodeRules r = *this;
    r.inside_resource_meta = true;
    return r;
  }
};

bool HasNewlines(std::string_view s) { return s.find_first_of("\n\r") != std::string_view::npos; }

std::string TrimSpace(std::string_view s) {
  const char* ws = " \t\n\r\v\f";
  const size_t b = s.find_first_not_of(ws);
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(ws) - b + 1));
}

const Json* ItemsSchema(const Json& s) { return Obj(&s, "items"); }

class SchemaValidator {
 public:
  SchemaValidator(const OpenAPISchemaOptions& opts, FieldErrors* errs) : opts_(opts), errs_(errs) {}

  // Rules are type-checked against the structural schema their node is part of: when `root`
  // builds into a schema graph, each JSON node of it is matched with its graph node.
  void MatchStructuralNodes(const Json& root) {
    auto graph = schema::SchemaGraph::FromOpenAPIV3(root);
    if (!graph.ok()) return;
    graph_ = std::move(*graph);
    Match(root, graph_->Root(), /*resource=*/true, 1, 0);
  }

  // After Validate: the schema-wide cost limit (kube refuses the CRD and names the most
  // expensive rules).
  void CheckTotalCost(const FieldPath& root) {
    if (total_cost_ <= kStaticEstimatedCrdCostLimit) return;
    for (const auto& [cost, path] : most_expensive_) {
      errs_->push_back(Forbidden(path, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"));
    }
    errs_->push_back(Forbidden(root, CostErrorMessage("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
                                                      total_cost_, kStaticEstimatedCrdCostLimit)));
  }

  void Validate(const Json& s, const FieldPath& p, const NodeRules& rules, bool is_root) {
    if (!s.is_object()) return;
    NodeKeywords(s, p, rules);
    if (Bool(&s, "uniqueItems")) {
      errs_->push_back(Forbidden(p.Child("uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"));
    }
    const Json* props = Obj(&s, "properties");
    const bool has_props = props != nullptr && !props->empty();
    if (const Json* ap = Get(&s, "additionalProperties")) {
      if (has_props && !(ap->is_boolean() && ap->get<bool>())) {
        errs_->push_back(Forbidden(p.Child("additionalProperties"), "additionalProperties and properties are mutual exclusive"));
      }
      NodeRules sub = rules;
      if (rules.inside_resource_meta) sub = rules.WithForbiddenDefaults("inside additionalProperties applying to object metadata");
      if (ap->is_object()) Validate(*ap, p.Child("additionalProperties"), sub, false);
    }
    if (has_props) {
      const bool embedded = Bool(&s, "x-kubernetes-embedded-resource");
      for (const auto& [name, prop] : props->items()) {
        NodeRules sub = rules;
        if ((is_root || embedded) && (name == "metadata" || name == "kind" || name == "apiVersion")) {
          sub = sub.WithInsideResourceMeta();
          if (is_root) sub = sub.WithForbiddenDefaults("in top-level " + name);
        }
        Validate(prop, p.Child("properties").Key(name), sub, false);
      }
    }
    if (const Json* no = Obj(&s, "not")) Validate(*no, p.Child("not"), rules, false);
    for (const char* junctor : {"allOf", "oneOf", "anyOf"}) {
      if (const Json* list = Arr(&s, junctor)) {
        for (size_t i = 0; i < list->size(); ++i) Validate((*list)[i], p.Child(junctor).Index(i), rules, false);
      }
    }
    if (const Json* defs = Obj(&s, "definitions")) {
      for (const auto& [name, def] : defs->items()) Validate(def, p.Child("definitions").Key(name), rules, false);
    }
    if (const Json* items = Get(&s, "items")) {
      if (items->is_object()) Validate(*items, p.Child("items"), rules, false);
      if (items->is_array()) {
        for (size_t i = 0; i < items->size(); ++i) Validate((*items)[i], p.Child("items").Index(i), rules, false);
      }
    }
    if (const Json* deps = Obj(&s, "dependencies")) {
      for (const auto& [name, dep] : deps->items()) {
        if (dep.is_object()) Validate(dep, p.Child("dependencies").Key(name), rules, false);
      }
    }
    ExtensionRules(s, p);
    if (opts_.require_map_list_keys_map_set_validation) Append(errs_, MapListKeysMapSet(s, p));
    ValidationRules(s, p);
  }

  // validateMapListKeysMapSet.
  static FieldErrors MapListKeysMapSet(const Json& s, const FieldPath& p) {
    FieldErrors errs;
    const Json* items = ItemsSchema(s);
    auto list_type = OptStr(&s, "x-kubernetes-list-type");
    if (items == nullptr || !list_type || (*list_type != "set" && *list_type != "map")) return errs;
    if (Bool(items, "nullable")) {
      errs.push_back(Forbidden(p.Child("items").Child("nullable"), "cannot be nullable when x-kubernetes-list-type is " + *list_type));
    }
    if (*list_type != "map") return errs;
    const std::vector<std::string> required = Strings(items, "required");
    const std::set<std::string> is_required(required.begin(), required.end());
    const Json* props = Obj(items, "properties");
    for (const std::string& key : Strings(&s, "x-kubernetes-list-map-keys")) {
      const Json* prop = Get(props, key);
      if (prop == nullptr) continue;
      const FieldPath kp = p.Child("items").Child("properties").Key(key);
      if (!is_required.count(key) && Get(prop, "default") == nullptr) {
        errs.push_back(Required(kp.Child("default"), "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"));
      }
      if (Bool(prop, "nullable")) {
        errs.push_back(Forbidden(kp.Child("nullable"), "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"));
      }
    }
    return errs;
  }

 private:
  // specStandardValidatorV3.validate.
  void NodeKeywords(const Json& s, const FieldPath& p, const NodeRules& rules) {
    const std::string type = Str(&s, "type");
    if (opts_.require_valid_property_type && !type.empty() &&
        std::find(kOpenAPITypes.begin(), kOpenAPITypes.end(), type) == kOpenAPITypes.end()) {
      errs_->push_back(NotSupported(p.Child("type"), type, kOpenAPITypes));
    }
    if (Get(&s, "default") != nullptr && !rules.allow_defaults) {
      std::string detail = "must not be set";
      if (!rules.disallow_defaults_reason.empty()) detail += " " + rules.disallow_defaults_reason;
      errs_->push_back(Forbidden(p.Child("default"), detail));
    }
    if (!Str(&s, "id").empty()) errs_->push_back(Forbidden(p.Child("id"), "id is not supported"));
    if (Get(&s, "additionalItems") != nullptr) errs_->push_back(Forbidden(p.Child("additionalItems"), "additionalItems is not supported"));
    if (const Json* pp = Obj(&s, "patternProperties"); pp && !pp->empty()) {
      errs_->push_back(Forbidden(p.Child("patternProperties"), "patternProperties is not supported"));
    }
    if (const Json* d = Obj(&s, "definitions"); d && !d->empty()) {
      errs_->push_back(Forbidden(p.Child("definitions"), "definitions is not supported"));
    }
    if (Obj(&s, "dependencies") != nullptr) errs_->push_back(Forbidden(p.Child("dependencies"), "dependencies is not supported"));
    if (OptStr(&s, "$ref")) errs_->push_back(Forbidden(p.Child("$ref"), "$ref is not supported"));
    if (type == "null") errs_->push_back(Forbidden(p.Child("type"), "type cannot be set to null, use nullable as an alternative"));
    if (const Json* items = Arr(&s, "items"); items && !items->empty()) {
      errs_->push_back(Forbidden(p.Child("items"), "items must be a schema object and not an array"));
    }
    if (rules.inside_resource_meta && Bool(&s, "x-kubernetes-embedded-resource")) {
      errs_->push_back(Forbidden(p.Child("x-kubernetes-embedded-resource"), "must not be used inside of resource meta"));
    }
  }

  void ExtensionRules(const Json& s, const FieldPath& p) {
    const std::string type = Str(&s, "type");
    if (const Json* pu = Get(&s, "x-kubernetes-preserve-unknown-fields"); pu && pu->is_boolean() && !pu->get<bool>()) {
      errs_->push_back(InvalidRendered(p.Child("x-kubernetes-preserve-unknown-fields"), "false", "must be true or undefined"));
    }
    const auto map_type = OptStr(&s, "x-kubernetes-map-type");
    if (map_type && type != "object") {
      if (type.empty()) {
        errs_->push_back(Required(p.Child("type"), "must be object if x-kubernetes-map-type is specified"));
      } else {
        errs_->push_back(Invalid(p.Child("type"), type, "must be object if x-kubernetes-map-type is specified"));
      }
    }
    if (map_type && *map_type != "atomic" && *map_type != "granular") {
      errs_->push_back(NotSupported(p.Child("x-kubernetes-map-type"), *map_type, {"atomic", "granular"}));
    }
    const auto list_type = OptStr(&s, "x-kubernetes-list-type");
    const Json* items = ItemsSchema(s);
    if (list_type && type != "array") {
      if (type.empty()) {
        errs_->push_back(Required(p.Child("type"), "must be array if x-kubernetes-list-type is specified"));
      } else {
        errs_->push_back(Invalid(p.Child("type"), type, "must be array if x-kubernetes-list-type is specified"));
      }
    } else if (opts_.require_atomic_set_type && list_type && *list_type == "set" && items != nullptr) {
      // kube renders the item's list type as the value of both errors.
      const auto item_list_type = OptStr(items, "x-kubernetes-list-type");
      const std::string rendered = item_list_type ? GoJsonMarshal(Json(*item_list_type)) : "null";
      const std::string item_type = Str(items, "type");
      if (item_type == "array" && item_list_type && *item_list_type != "atomic") {
        errs_->push_back(InvalidRendered(p.Child("items").Child("x-kubernetes-list-type"), rendered,
                                         "must be atomic as item of a list with x-kubernetes-list-type=set"));
      } else if (item_type == "object") {
        const auto item_map_type = OptStr(items, "x-kubernetes-map-type");
        if (!item_map_type || *item_map_type != "atomic") {
          errs_->push_back(InvalidRendered(p.Child("items").Child("x-kubernetes-map-type"), rendered,
                                           "must be atomic as item of a list with x-kubernetes-list-type=set"));
        }
      }
    }
    if (list_type && *list_type != "atomic" && *list_type != "set" && *list_type != "map") {
      errs_->push_back(NotSupported(p.Child("x-kubernetes-list-type"), *list_type, {"atomic", "set", "map"}));
    }
    const std::vector<std::string> keys = Strings(&s, "x-kubernetes-list-map-keys");
    if (!keys.empty()) {
      if (!list_type) {
        errs_->push_back(Required(p.Child("x-kubernetes-list-type"), "must be map if x-kubernetes-list-map-keys is non-empty"));
      } else if (*list_type != "map") {
        errs_->push_back(Invalid(p.Child("x-kubernetes-list-type"), *list_type, "must be map if x-kubernetes-list-map-keys is non-empty"));
      }
    }
    if (list_type && *list_type == "map") {
      if (keys.empty()) {
        errs_->push_back(Required(p.Child("x-kubernetes-list-map-keys"), "must not be empty if x-kubernetes-list-type is map"));
      }
      const Json* raw_items = Get(&s, "items");
      if (raw_items == nullptr) {
        errs_->push_back(Required(p.Child("items"), "must have a schema if x-kubernetes-list-type is map"));
      } else if (items == nullptr) {
        errs_->push_back(InvalidRendered(p.Child("items"), RenderInternalItems(*raw_items),
                                         "must only have a single schema if x-kubernetes-list-type is map"));
      }
      if (items != nullptr && Str(items, "type") != "object") {
        errs_->push_back(Invalid(p.Child("items").Child("type"), Str(items, "type"), "must be object if parent array's x-kubernetes-list-type is map"));
      }
      if (items != nullptr && Str(items, "type") == "object") {
        const std::string rendered_keys = GoJsonMarshal(Json(keys));
        const Json* props = Obj(items, "properties");
        std::set<std::string> seen;
        for (const std::string& k : keys) {
          if (const Json* prop = Get(props, k)) {
            const std::string t = Str(prop, "type");
            if (t == "array" || t == "object") {
              errs_->push_back(Invalid(p.Child("items").Child("properties").Key(k).Child("type"), Str(items, "type"),
                                       "must be a scalar type if parent array's x-kubernetes-list-type is map"));
            }
          } else {
            errs_->push_back(InvalidRendered(p.Child("x-kubernetes-list-map-keys"), rendered_keys, "entries must all be names of item properties"));
          }
          if (!seen.insert(k).second) {
            errs_->push_back(InvalidRendered(p.Child("x-kubernetes-list-map-keys"), rendered_keys, "must not contain duplicate entries"));
          }
        }
      }
    }
  }

  void ValidationRules(const Json& s, const FieldPath& p) {
    const Json* rules = Arr(&s, "x-kubernetes-validations");
    if (rules == nullptr) return;
    const size_t shape_errors = errs_->size();
    for (size_t i = 0; i < rules->size(); ++i) {
      const Json* r = &(*rules)[i];
      const FieldPath rp = p.Child("x-kubernetes-validations").Index(i);
      const std::string rule = Str(r, "rule");
      const std::string message = Str(r, "message");
      const std::string message_expression = Str(r, "messageExpression");
      const std::string trimmed_rule = TrimSpace(rule);
      const std::string trimmed_msg = TrimSpace(message);
      if (trimmed_rule.empty()) {
        errs_->push_back(Required(rp.Child("rule"), "rule is not specified"));
      } else if (!message.empty() && trimmed_msg.empty()) {
        errs_->push_back(Invalid(rp.Child("message"), message, "must be non-empty if specified"));
      } else if (HasNewlines(trimmed_msg)) {
        errs_->push_back(Invalid(rp.Child("message"), message, "must not contain line breaks"));
      } else if (HasNewlines(trimmed_rule) && trimmed_msg.empty()) {
        errs_->push_back(Required(rp.Child("message"), "message must be specified if rule contains line breaks"));
      }
      if (!message_expression.empty() && TrimSpace(message_expression).empty()) {
        errs_->push_back(Required(rp.Child("messageExpression"), "messageExpression must be non-empty if specified"));
      }
      if (auto reason = OptStr(r, "reason");
          reason && std::find(kValidationReasons.begin(), kValidationReasons.end(), *reason) == kValidationReasons.end()) {
        errs_->push_back(NotSupported(rp.Child("reason"), *reason, kValidationReasons));
      }
      const std::string field_path = Str(r, "fieldPath");
      if (!field_path.empty() && TrimSpace(field_path).empty()) {
        errs_->push_back(Invalid(rp.Child("fieldPath"), field_path, "must be non-empty if specified"));
      }
      if (HasNewlines(field_path)) errs_->push_back(Invalid(rp.Child("fieldPath"), field_path, "must not contain line breaks"));
      // A path is only checked against a schema that converts to a structural one.
      if (!field_path.empty() && StructuralConversionError(s).empty() &&
          !ResolveSchemaFieldPath(field_path, s, true).error.empty()) {
        errs_->push_back(Invalid(rp.Child("fieldPath"), field_path, "must be a valid path"));
      }
    }
    // The rules compile only once their shape is right, as kube compiles them.
    if (errs_->size() != shape_errors || !StructuralConversionError(s).empty()) return;
    const auto matched = nodes_.find(&s);
    const StructuralNode structural = matched != nodes_.end() ? matched->second : StructuralNode{};
    const cel::TypeRef self_type = SchemaCelType(structural.node, structural.resource);
    for (size_t i = 0; i < rules->size(); ++i) {
      const Json& r = (*rules)[i];
      if (!r.is_object() || TrimSpace(Str(&r, "rule")).empty()) continue;
      const FieldPath rp = p.Child("x-kubernetes-validations").Index(i);
      std::string message_error;
      const CompiledRule compiled = CompileRule(r, self_type, &message_error);
      if (!compiled.compile_error.empty()) {
        errs_->push_back(InvalidRendered(rp.Child("rule"), GoValidationRule(r), compiled.compile_error));
        continue;
      }
      if (!message_error.empty()) {
        errs_->push_back(InvalidRendered(rp.Child("messageExpression"), GoValidationRule(r), message_error));
      }
      if (structural.node != nullptr) {
        const uint64_t cost = ExpressionCost(compiled.max_cost, structural.cardinality, compiled.max_cardinality);
        if (cost > kStaticEstimatedCostLimit && !opts_.suppress_per_expression_cost) {
          errs_->push_back(Forbidden(rp.Child("rule"), CostErrorMessage("estimated rule cost", cost, kStaticEstimatedCostLimit)));
        }
        ObserveCost(rp.Child("rule"), cost);
        if (compiled.message_program) {
          if (compiled.message_max_cost > kStaticEstimatedCostLimit && !opts_.suppress_per_expression_cost) {
            errs_->push_back(Forbidden(rp.Child("messageExpression"),
                                       CostErrorMessage("estimated messageExpression cost", compiled.message_max_cost,
                                                        kStaticEstimatedCostLimit)));
          }
          ObserveCost(rp.Child("messageExpression"), compiled.message_max_cost);
        }
      }
      if (auto optional = r.find("optionalOldSelf"); optional != r.end() && optional->is_boolean() && !compiled.uses_old_self) {
        errs_->push_back(InvalidRendered(rp.Child("optionalOldSelf"), optional->get<bool>() ? "true" : "false",
                                         "may not be set if oldSelf is not used in rule"));
      }
    }
  }

  // kube's internal apiextensions.ValidationRule as field errors render a struct value: Go's JSON
  // of it, under the Go field names (the internal type has no json tags), in field order; unset
  // pointers are null.
  static std::string GoValidationRule(const Json& r) {
    auto str = [&](const char* key) { return GoJsonMarshal(Json(Str(&r, key))); };
    auto ptr = [&](const char* key) {
      auto it = r.find(key);
      return it == r.end() || it->is_null() ? std::string("null") : GoJsonMarshal(*it);
    };
    return "{\"Rule\":" + str("rule") + ",\"Message\":" + str("message") + ",\"MessageExpression\":" +
           str("messageExpression") + ",\"Reason\":" + ptr("reason") + ",\"FieldPath\":" + str("fieldPath") +
           ",\"OptionalOldSelf\":" + ptr("optionalOldSelf") + "}";
  }

  // `cardinality`: how many times the node can occur, from the maxItems / maxProperties above
  // it; nullopt when some list or map above it is unbounded.
  void Match(const Json& s, const schema::Schema* node, bool resource, std::optional<uint64_t> cardinality, int depth) {
    if (node == nullptr || !s.is_object() || depth > 1000) return;
    nodes_[&s] = {node, resource, cardinality};
    if (const Json* props = Obj(&s, "properties"); props != nullptr && node->type() == schema::Schema::Type::kObject) {
      for (const auto& [name, prop] : props->items()) {
        const schema::Schema* child = node->Field(name);
        if (child != nullptr) Match(prop, child, child->EmbeddedResource(), cardinality, depth + 1);
      }
    }
    const schema::Schema::Type t = node->type();
    auto times = [&](std::optional<int64_t> limit) -> std::optional<uint64_t> {
      if (!cardinality || !limit) return std::nullopt;
      const uint64_t n = *limit < 0 ? 0 : static_cast<uint64_t>(*limit);
      return n != 0 && *cardinality > UINT64_MAX / n ? UINT64_MAX : *cardinality * n;
    };
    const schema::ValueValidation* v = node->Validation();
    if (const Json* ap = Obj(&s, "additionalProperties"); ap != nullptr && t == schema::Schema::Type::kMap) {
      Match(*ap, node->Items(), node->Items() != nullptr && node->Items()->EmbeddedResource(),
            times(v != nullptr ? v->max_properties : std::nullopt), depth + 1);
    }
    if (const Json* items = Obj(&s, "items"); items != nullptr && t == schema::Schema::Type::kArray) {
      Match(*items, node->Items(), node->Items() != nullptr && node->Items()->EmbeddedResource(),
            times(v != nullptr ? v->max_items : std::nullopt), depth + 1);
    }
  }

  // A rule's cost as kube weighs it: its estimate times how often its node can occur.
  static uint64_t ExpressionCost(uint64_t cost, std::optional<uint64_t> cardinality, uint64_t fallback) {
    const uint64_t n = cardinality ? *cardinality : fallback;
    if (cost == 0) return 0;
    return UINT64_MAX / cost < n ? UINT64_MAX : cost * n;
  }

  void ObserveCost(const FieldPath& path, uint64_t cost) {
    total_cost_ = UINT64_MAX - total_cost_ < cost ? UINT64_MAX : total_cost_ + cost;
    if (cost < kStaticEstimatedCrdCostLimit / 100) return;  // under 1% of the limit: not named
    most_expensive_.emplace_back(cost, path);
    std::stable_sort(most_expensive_.begin(), most_expensive_.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    if (most_expensive_.size() > 4) most_expensive_.resize(4);
  }

  // kube's getCostErrorMessage.
  static std::string CostErrorMessage(const std::string& what, uint64_t cost, uint64_t limit) {
    const double factor = static_cast<double>(cost) / static_cast<double>(limit);
    char buf[64];
    if (factor > 100.0) {
      snprintf(buf, sizeof buf, "more than 100x");
    } else if (factor < 1.5) {
      snprintf(buf, sizeof buf, "%fx", factor);
    } else {
      snprintf(buf, sizeof buf, "%.1fx", factor);
    }
    return what + " exceeds budget by factor of " + buf +
           " (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and "
           "strings are declared)";
  }

  const OpenAPISchemaOptions& opts_;
  FieldErrors* errs_;
  std::unique_ptr<schema::SchemaGraph> graph_;
  struct StructuralNode {
    const schema::Schema* node = nullptr;
    bool resource = false;
    std::optional<uint64_t> cardinality;
  };
  std::map<const Json*, StructuralNode> nodes_;
  uint64_t total_cost_ = 0;
  std::vector<std::pair<uint64_t, FieldPath>> most_expensive_;
};

// SchemaHas: whether `pred` holds for any node reachable from `s`.
bool SchemaHas(const Json& s, const std::function<bool(const Json&)>& pred) {
  if (!s.is_object()) return false;
  if (pred(s)) return true;
  const auto any_in = [&](const Json* container) {
    if (container == nullptr) return false;
    for (const auto& child : *container) {
      if (SchemaHas(child, pred)) return true;
    }
    return false;
  };
  if (const Json* items = Get(&s, "items"); items && (items->is_object() ? SchemaHas(*items, pred) : any_in(items))) return true;
  if (any_in(Arr(&s, "allOf")) || any_in(Arr(&s, "anyOf")) || any_in(Arr(&s, "oneOf"))) return true;
  if (const Json* no = Obj(&s, "not"); no && SchemaHas(*no, pred)) return true;
  if (any_in(Obj(&s, "properties"))) return true;
  if (const Json* ap = Obj(&s, "additionalProperties"); ap && SchemaHas(*ap, pred)) return true;
  if (any_in(Obj(&s, "patternProperties"))) return true;
  if (const Json* ai = Obj(&s, "additionalItems"); ai && SchemaHas(*ai, pred)) return true;
  if (any_in(Obj(&s, "definitions"))) return true;
  if (const Json* deps = Obj(&s, "dependencies")) {
    for (const auto& [k, d] : deps->items()) {
      if (d.is_object() && SchemaHas(d, pred)) return true;
    }
  }
  return false;
}

}  // namespace

FieldErrors ValidateOpenAPISchema(const Json& schema, const FieldPath& path, const OpenAPISchemaOptions& options) {
  FieldErrors errs;
  SchemaValidator validator(options, &errs);
  validator.MatchStructuralNodes(schema);
  validator.Validate(schema, path, NodeRules{.allow_defaults = options.allow_defaults}, true);
  validator.CheckTotalCost(path);
  return errs;
}

bool SchemaHasDefaults(const Json& schema) {
  return SchemaHas(schema, [](const Json& s) { return Get(&s, "default") != nullptr; });
}

bool SchemaHasInvalidTypes(const Json& schema) {
  return SchemaHas(schema, [](const Json& s) {
    const std::string t = Str(&s, "type");
    return !t.empty() && std::find(kOpenAPITypes.begin(), kOpenAPITypes.end(), t) == kOpenAPITypes.end();
  });
}

bool SchemaHasNonAtomicSetType(const Json& schema) {
  return SchemaHas(schema, [](const Json& s) {
    auto lt = OptStr(&s, "x-kubernetes-list-type");
    const Json* items = ItemsSchema(s);
    if (!lt || *lt != "set" || items == nullptr) return false;
    const std::string t = Str(items, "type");
    if (t == "array") {
      auto ilt = OptStr(items, "x-kubernetes-list-type");
      return ilt && *ilt != "atomic";
    }
    if (t == "object") {
      auto imt = OptStr(items, "x-kubernetes-map-type");
      return !imt || *imt != "atomic";
    }
    return false;
  });
}

bool SchemaHasInvalidMapListKeysMapSet(const Json& schema) {
  return SchemaHas(schema, [](const Json& s) { return !SchemaValidator::MapListKeysMapSet(s, FieldPath()).empty(); });
}

}  // namespace kube::apiextensions
