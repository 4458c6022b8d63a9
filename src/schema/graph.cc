#include "schema/graph.h"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>
#include <re2/re2.h>

namespace kube::schema {
namespace {

using json = nlohmann::json;
using Type = Schema::Type;

constexpr std::string_view kRefPrefix = "#/definitions/";

// One node of the type graph. A node with a target is a $ref field that carries annotations of
// its own (DeploymentSpec.strategy is a DeploymentStrategy with patch strategy retainKeys): its
// structure is the shared definition's, its patch/list metadata the field's. Without such an
// alias the field-level metadata would either be lost or leak into every other use of the type.
class Node final : public Schema {
 public:
  Type type() const override { return target_ ? target_->type() : type_; }
  std::string_view definition() const override {
    return target_ ? target_->definition() : definition_;
  }
  const Schema* Field(std::string_view name) const override {
    if (target_) return target_->Field(name);
    auto it = std::lower_bound(fields_.begin(), fields_.end(), name,
                               [](const auto& f, std::string_view n) { return f.first < n; });
    return it != fields_.end() && it->first == name ? it->second : nullptr;
  }
  std::vector<std::string> FieldNames() const override {
    if (target_) return target_->FieldNames();
    std::vector<std::string> names;
    names.reserve(fields_.size());
    for (const auto& f : fields_) names.push_back(f.first);
    return names;
  }
  const std::vector<std::string>& Required() const override {
    return target_ ? target_->Required() : required_;
  }
  const Schema* Items() const override { return target_ ? target_->Items() : items_; }
  std::string_view ListType() const override {
    return list_type_.empty() && target_ ? target_->ListType() : list_type_;
  }
  const std::vector<std::string>& ListMapKeys() const override {
    return list_map_keys_.empty() && target_ ? target_->ListMapKeys() : list_map_keys_;
  }
  std::string_view PatchStrategy() const override {
    return patch_strategy_.empty() && target_ ? target_->PatchStrategy() : patch_strategy_;
  }
  std::string_view PatchMergeKey() const override {
    return patch_merge_key_.empty() && target_ ? target_->PatchMergeKey() : patch_merge_key_;
  }
  std::string_view OpenAPIType() const override {
    return target_ ? target_->OpenAPIType() : openapi_type_;
  }
  bool Nullable() const override { return nullable_ || (target_ && target_->Nullable()); }
  const json* Default() const override {
    return default_ || !target_ ? default_ : target_->Default();
  }
  bool PreserveUnknownFields() const override {
    return target_ ? target_->PreserveUnknownFields() : preserve_;
  }
  bool EmbeddedResource() const override {
    return target_ ? target_->EmbeddedResource() : embedded_;
  }
  std::string_view MapType() const override {
    return map_type_.empty() && target_ ? target_->MapType() : map_type_;
  }
  const ValueValidation* Validation() const override {
    return validation_ || !target_ ? validation_.get() : target_->Validation();
  }
  const json* CelRules() const override {
    return cel_rules_ || !target_ ? cel_rules_ : target_->CelRules();
  }
  bool OmitsEmpty(std::string_view name) const override {
    if (target_) return target_->OmitsEmpty(name);
    return std::binary_search(omit_empty_.begin(), omit_empty_.end(), name);
  }

  Type type_ = Type::kAny;
  std::string_view definition_;  // points into the definitions map's key
  const Schema* target_ = nullptr;
  std::vector<std::pair<std::string, const Schema*>> fields_;  // sorted by name
  std::vector<std::string> required_;
  std::vector<std::string> omit_empty_;  // sorted
  const Schema* items_ = nullptr;
  std::string list_type_;
  std::vector<std::string> list_map_keys_;
  std::string patch_strategy_;
  std::string patch_merge_key_;
  std::string map_type_;
  std::string_view openapi_type_;  // points into the source JSON
  bool nullable_ = false;
  bool preserve_ = false;
  bool embedded_ = false;
  const json* default_ = nullptr;
  const json* cel_rules_ = nullptr;
  std::unique_ptr<ValueValidation> validation_;  // only for nodes that have a keyword
};

std::string StringOr(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::string> Strings(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return {};
  return it->get<std::vector<std::string>>();
}

bool Flag(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

template <typename T>
std::optional<T> Number(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  if (!it->is_number()) throw std::invalid_argument(std::string(key) + " must be a number");
  return it->get<T>();
}

// regexp.Compile's error for a pattern RE2 refuses: RE2 follows Go's syntax, its error codes map
// onto Go's and its error_arg is Go's offending fragment.
std::string GoRegexpError(const RE2& re) {
  std::string_view code;
  switch (re.error_code()) {
    case RE2::ErrorBadEscape: code = "invalid escape sequence"; break;
    case RE2::ErrorBadCharClass: code = "invalid character class"; break;
    case RE2::ErrorBadCharRange: code = "invalid character class range"; break;
    case RE2::ErrorMissingBracket: code = "missing closing ]"; break;
    case RE2::ErrorMissingParen: code = "missing closing )"; break;
    case RE2::ErrorUnexpectedParen: code = "unexpected )"; break;
    case RE2::ErrorTrailingBackslash: code = "trailing backslash at end of expression"; break;
    case RE2::ErrorRepeatArgument: code = "missing argument to repetition operator"; break;
    case RE2::ErrorRepeatSize: code = "invalid repeat count"; break;
    case RE2::ErrorRepeatOp: code = "invalid nested repetition operator"; break;
    case RE2::ErrorBadPerlOp: code = "invalid or unsupported Perl syntax"; break;
    case RE2::ErrorBadUTF8: code = "invalid UTF-8"; break;
    case RE2::ErrorBadNamedCapture: code = "invalid named capture"; break;
    case RE2::ErrorPatternTooLarge: code = "expression too large"; break;
    default: code = "regexp/syntax: internal error"; break;
  }
  return "error parsing regexp: " + std::string(code) + ": `" + re.error_arg() + "`";
}

// Turns OpenAPI JSON into Nodes; see graph.h for the two modes.
class Builder {
 public:
  enum class Mode { kDefinitions, kCustomResource };

  Builder(Mode mode, std::deque<Node>& nodes, std::map<std::string, const Schema*, std::less<>>& defs)
      : mode_(mode), nodes_(nodes), defs_(defs) {
    free_form_ = &nodes_.emplace_back();
    free_form_->preserve_ = true;
    // additionalProperties: true in a CRD: values may be anything, nothing below is described,
    // so nothing below is kept unless it is a scalar (kube prunes with a nil schema there).
    unknown_ = &nodes_.emplace_back();
  }

  void BuildDefinitions(const json& definitions, const json& special, const json* omit_empty) {
    std::map<std::string_view, Node*> own;  // defs_ hands out const nodes; these are still built
    std::vector<std::pair<Node*, const json*>> todo;
    for (const auto& [name, schema] : definitions.items()) {
      Node* node = &nodes_.emplace_back();
      auto [it, inserted] = defs_.emplace(name, node);
      node->definition_ = it->first;
      own.emplace(it->first, node);
      todo.emplace_back(node, &schema);
    }
    for (auto [node, schema] : todo) Fill(*node, *schema);
    for (const auto& [name, kind] : special.items()) {
      auto it = own.find(name);
      if (it == own.end()) throw std::invalid_argument("special type of unknown " + name);
      Node& node = *it->second;
      node.type_ = SpecialType(kind.get<std::string>());
      if (node.type_ == Type::kAny) {
        node.fields_.clear();
        node.required_.clear();
        node.items_ = nullptr;
        node.preserve_ = true;
      }
    }
    if (omit_empty == nullptr) return;
    for (const auto& [name, fields] : omit_empty->items()) {
      auto it = own.find(name);
      if (it == own.end()) throw std::invalid_argument("omitempty of unknown " + name);
      Node& node = *it->second;
      node.omit_empty_ = fields.get<std::vector<std::string>>();
      std::sort(node.omit_empty_.begin(), node.omit_empty_.end());
    }
  }

  const Schema* BuildRoot(const json& schema) {
    Node& root = nodes_.emplace_back();
    Fill(root, schema);
    return &root;
  }

 private:
  static Type SpecialType(const std::string& kind) {
    if (kind == "int-or-string") return Type::kIntOrString;
    if (kind == "quantity") return Type::kQuantity;
    if (kind == "time") return Type::kTime;
    if (kind == "any") return Type::kAny;
    throw std::invalid_argument("unknown special type " + kind);
  }

  const Schema* Resolve(const std::string& ref) const {
    if (mode_ == Mode::kCustomResource) {
      throw std::invalid_argument("$ref is not supported in a custom resource schema: " + ref);
    }
    std::string_view name = ref;
    if (name.substr(0, kRefPrefix.size()) == kRefPrefix) name.remove_prefix(kRefPrefix.size());
    auto it = defs_.find(name);
    if (it == defs_.end()) throw std::invalid_argument("dangling $ref " + ref);
    return it->second;
  }

  static bool HasFieldAnnotations(const json& s) {
    return s.contains("x-kubernetes-list-type") || s.contains("x-kubernetes-list-map-keys") ||
           s.contains("x-kubernetes-patch-strategy") || s.contains("x-kubernetes-patch-merge-key");
  }

  // Shares the definition's node for plain $refs: most fields are, and pointer identity then
  // tells callers two fields have the same type.
  const Schema* Inline(const json& s) {
    if (s.is_boolean()) return mode_ == Mode::kDefinitions ? free_form_ : unknown_;
    if (!s.is_object()) throw std::invalid_argument("a schema must be an object");
    auto ref = s.find("$ref");
    if (ref != s.end() && !HasFieldAnnotations(s)) return Resolve(ref->get<std::string>());
    Node& node = nodes_.emplace_back();
    Fill(node, s);
    return &node;
  }

  std::vector<const Schema*> InlineAll(const json& s, const char* key) {
    std::vector<const Schema*> out;
    auto it = s.find(key);
    if (it == s.end() || it->is_null()) return out;
    if (!it->is_array()) throw std::invalid_argument(std::string(key) + " must be an array");
    for (const auto& sub : *it) out.push_back(Inline(sub));
    return out;
  }

  // The value validations, allocated only for nodes that have one: the built-in catalogue has
  // thousands of nodes and few keywords.
  std::unique_ptr<ValueValidation> ParseValidation(const json& s) {
    static constexpr const char* kKeywords[] = {
        "format",   "maximum",       "minimum",       "multipleOf",    "maxLength", "minLength",
        "pattern",  "maxItems",      "minItems",      "uniqueItems",   "enum",      "maxProperties",
        "minProperties", "allOf",    "anyOf",         "oneOf",         "not"};
    if (std::none_of(std::begin(kKeywords), std::end(kKeywords),
                     [&](const char* k) { return s.contains(k); })) {
      return nullptr;
    }
    auto v = std::make_unique<ValueValidation>();
    v->format = StringOr(s, "format");
    v->maximum = Number<double>(s, "maximum");
    v->exclusive_maximum = Flag(s, "exclusiveMaximum");
    v->minimum = Number<double>(s, "minimum");
    v->exclusive_minimum = Flag(s, "exclusiveMinimum");
    v->multiple_of = Number<double>(s, "multipleOf");
    v->max_length = Number<int64_t>(s, "maxLength");
    v->min_length = Number<int64_t>(s, "minLength");
    v->pattern = StringOr(s, "pattern");
    if (!v->pattern.empty()) {
      RE2::Options options;
      options.set_log_errors(false);
      auto re = std::make_shared<const RE2>(v->pattern, options);
      if (re->ok()) {
        v->compiled_pattern = std::move(re);
      } else {
        v->pattern_error = GoRegexpError(*re);
      }
    }
    v->max_items = Number<int64_t>(s, "maxItems");
    v->min_items = Number<int64_t>(s, "minItems");
    v->unique_items = Flag(s, "uniqueItems");
    v->max_properties = Number<int64_t>(s, "maxProperties");
    v->min_properties = Number<int64_t>(s, "minProperties");
    if (auto e = s.find("enum"); e != s.end() && e->is_array()) v->enum_values = &*e;
    v->all_of = InlineAll(s, "allOf");
    v->any_of = InlineAll(s, "anyOf");
    v->one_of = InlineAll(s, "oneOf");
    if (auto n = s.find("not"); n != s.end() && !n->is_null()) v->negated = Inline(*n);
    return v;
  }

  void Fill(Node& n, const json& s) {
    if (!s.is_object()) throw std::invalid_argument("a schema must be an object");
    n.list_type_ = StringOr(s, "x-kubernetes-list-type");
    n.list_map_keys_ = Strings(s, "x-kubernetes-list-map-keys");
    n.patch_strategy_ = StringOr(s, "x-kubernetes-patch-strategy");
    n.patch_merge_key_ = StringOr(s, "x-kubernetes-patch-merge-key");
    n.map_type_ = StringOr(s, "x-kubernetes-map-type");
    n.nullable_ = Flag(s, "nullable");
    n.preserve_ = Flag(s, "x-kubernetes-preserve-unknown-fields");
    n.embedded_ = Flag(s, "x-kubernetes-embedded-resource");
    if (auto d = s.find("default"); d != s.end() && !d->is_null()) n.default_ = &*d;
    if (auto r = s.find("x-kubernetes-validations"); r != s.end() && !r->is_null()) {
      n.cel_rules_ = &*r;
    }
    n.validation_ = ParseValidation(s);
    // Any node may require fields: allOf/anyOf/oneOf branches do without declaring structure.
    n.required_ = Strings(s, "required");
    if (auto ref = s.find("$ref"); ref != s.end()) {
      n.target_ = Resolve(ref->get<std::string>());
      return;
    }
    if (auto t = s.find("type"); t != s.end() && t->is_string()) {
      n.openapi_type_ = t->get_ref<const std::string&>();
    }
    if (Flag(s, "x-kubernetes-int-or-string")) {
      n.type_ = Type::kIntOrString;
      return;
    }
    const std::string_view type = n.openapi_type_;
    auto props = s.find("properties");
    auto additional = s.find("additionalProperties");
    auto items = s.find("items");
    const bool has_props = props != s.end() && !props->is_null();
    const bool has_additional = additional != s.end() && !additional->is_null() &&
                                !(additional->is_boolean() && !additional->get<bool>());
    if (type == "object" || (type.empty() && (has_props || has_additional))) {
      if (has_props) {
        n.type_ = Type::kObject;
        if (!props->is_object()) throw std::invalid_argument("properties must be an object");
        for (const auto& [name, field] : props->items()) {
          n.fields_.emplace_back(name, Inline(field));
        }
        std::sort(n.fields_.begin(), n.fields_.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
      } else if (has_additional) {
        n.type_ = Type::kMap;
        n.items_ = Inline(*additional);
      } else if (n.preserve_) {
        n.type_ = Type::kAny;
      } else {
        n.type_ = Type::kObject;  // a struct without fields (e.g. StorageVersionSpec)
      }
    } else if (type == "array" || (type.empty() && items != s.end() && !items->is_null())) {
      n.type_ = Type::kArray;
      n.items_ = items != s.end() && !items->is_null()
                     ? Inline(*items)
                     : (mode_ == Mode::kDefinitions ? free_form_ : unknown_);
    } else if (type == "string") {
      const std::string format = StringOr(s, "format");
      // The built-in document marks Time and IntOrString by format; in a CRD a format only
      // constrains the string (x-kubernetes-int-or-string is how a CRD says int-or-string).
      const bool builtin = mode_ == Mode::kDefinitions;
      n.type_ = builtin && format == "date-time"       ? Type::kTime
                : builtin && format == "int-or-string" ? Type::kIntOrString
                                                       : Type::kString;
    } else if (type == "integer") {
      n.type_ = Type::kInteger;
    } else if (type == "number") {
      n.type_ = Type::kNumber;
    } else if (type == "boolean") {
      n.type_ = Type::kBoolean;
    } else {
      n.type_ = Type::kAny;
    }
    // Built-in free-form values (RawExtension, JSON) are kept whole by typed decoding.
    if (n.type_ == Type::kAny && mode_ == Mode::kDefinitions) n.preserve_ = true;
  }

  Mode mode_;
  std::deque<Node>& nodes_;
  std::map<std::string, const Schema*, std::less<>>& defs_;
  Node* free_form_ = nullptr;
  Node* unknown_ = nullptr;
};

}  // namespace

struct SchemaGraph::Impl {
  json document;                   // FromOpenAPIV3's own copy; nodes point into it
  const json* source = &document;  // what the graph was built from
  std::deque<Node> nodes;    // a deque: node addresses stay stable while the graph grows
  std::map<std::string, const Schema*, std::less<>> definitions;
  const Schema* root = nullptr;
};

SchemaGraph::SchemaGraph(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SchemaGraph::~SchemaGraph() = default;

Result<std::unique_ptr<SchemaGraph>> SchemaGraph::FromDefinitions(const json& definitions,
                                                                  const json& special,
                                                                  const json* omit_empty) {
  auto impl = std::make_unique<Impl>();
  impl->source = &definitions;
  try {
    Builder(Builder::Mode::kDefinitions, impl->nodes, impl->definitions)
        .BuildDefinitions(definitions, special, omit_empty);
  } catch (const std::exception& e) {
    return Status::BadRequest(std::string("schema definitions: ") + e.what());
  }
  return std::unique_ptr<SchemaGraph>(new SchemaGraph(std::move(impl)));
}

Result<std::unique_ptr<SchemaGraph>> SchemaGraph::FromOpenAPIV3(const json& schema) {
  auto impl = std::make_unique<Impl>();
  impl->document = schema;
  try {
    impl->root = Builder(Builder::Mode::kCustomResource, impl->nodes, impl->definitions)
                     .BuildRoot(impl->document);
  } catch (const std::exception& e) {
    return Status::BadRequest(std::string("openAPIV3Schema: ") + e.what());
  }
  return std::unique_ptr<SchemaGraph>(new SchemaGraph(std::move(impl)));
}

const Schema* SchemaGraph::Root() const { return impl_->root; }

const json& SchemaGraph::Source() const { return *impl_->source; }

const Schema* SchemaGraph::Definition(std::string_view name) const {
  auto it = impl_->definitions.find(name);
  return it != impl_->definitions.end() ? it->second : nullptr;
}

const std::map<std::string, const Schema*, std::less<>>& SchemaGraph::Definitions() const {
  return impl_->definitions;
}

}  // namespace kube::schema
