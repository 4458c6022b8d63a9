#include "catalogue/catalogue.h"

#include <algorithm>
#include <deque>
#include <map>
#include <stdexcept>
#include <tuple>
#include <utility>

#include <nlohmann/json.hpp>

namespace kube::catalogue {
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

  Type type_ = Type::kAny;
  std::string_view definition_;  // points into the definitions map's key
  const Schema* target_ = nullptr;
  std::vector<std::pair<std::string, const Schema*>> fields_;  // sorted by name
  std::vector<std::string> required_;
  const Schema* items_ = nullptr;
  std::string list_type_;
  std::vector<std::string> list_map_keys_;
  std::string patch_strategy_;
  std::string patch_merge_key_;
};

std::string StringOr(const json& j, const char* key, std::string fallback = {}) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::move(fallback);
}

std::vector<std::string> Strings(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) return {};
  return it->get<std::vector<std::string>>();
}

bool Flag(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

// Turns the compact OpenAPI definitions into Nodes. Every definition gets its node before any
// is filled in, so $refs (including cycles such as JSONSchemaProps) resolve to stable pointers
// at load time and lookups later never touch JSON.
class GraphBuilder {
 public:
  GraphBuilder(std::deque<Node>& nodes, std::map<std::string, Node*, std::less<>>& defs)
      : nodes_(nodes), defs_(defs) {
    any_ = &nodes_.emplace_back();
  }

  void Build(const json& definitions, const json& special) {
    std::vector<std::pair<Node*, const json*>> todo;
    for (const auto& [name, schema] : definitions.items()) {
      Node* node = &nodes_.emplace_back();
      auto [it, inserted] = defs_.emplace(name, node);
      node->definition_ = it->first;
      todo.emplace_back(node, &schema);
    }
    for (auto [node, schema] : todo) Fill(*node, *schema);
    for (const auto& [name, kind] : special.items()) {
      auto it = defs_.find(name);
      if (it == defs_.end()) throw std::runtime_error("catalogue: special type of unknown " + name);
      Node& node = *it->second;
      node.type_ = SpecialType(kind.get<std::string>());
      if (node.type_ == Type::kAny) {
        node.fields_.clear();
        node.required_.clear();
        node.items_ = nullptr;
      }
    }
  }

 private:
  static Type SpecialType(const std::string& kind) {
    if (kind == "int-or-string") return Type::kIntOrString;
    if (kind == "quantity") return Type::kQuantity;
    if (kind == "time") return Type::kTime;
    if (kind == "any") return Type::kAny;
    throw std::runtime_error("catalogue: unknown special type " + kind);
  }

  const Node* Resolve(const std::string& ref) const {
    std::string_view name = ref;
    if (name.substr(0, kRefPrefix.size()) == kRefPrefix) name.remove_prefix(kRefPrefix.size());
    auto it = defs_.find(name);
    if (it == defs_.end()) throw std::runtime_error("catalogue: dangling $ref " + ref);
    return it->second;
  }

  static bool HasFieldAnnotations(const json& s) {
    return s.contains("x-kubernetes-list-type") || s.contains("x-kubernetes-list-map-keys") ||
           s.contains("x-kubernetes-patch-strategy") || s.contains("x-kubernetes-patch-merge-key");
  }

  // Shares the definition's node for plain $refs: most fields are, and pointer identity then
  // tells callers two fields have the same type.
  const Schema* Inline(const json& s) {
    if (s.is_boolean()) return any_;  // additionalProperties: true
    auto ref = s.find("$ref");
    if (ref != s.end() && !HasFieldAnnotations(s)) return Resolve(ref->get<std::string>());
    Node& node = nodes_.emplace_back();
    Fill(node, s);
    return &node;
  }

  void Fill(Node& n, const json& s) {
    n.list_type_ = StringOr(s, "x-kubernetes-list-type");
    n.list_map_keys_ = Strings(s, "x-kubernetes-list-map-keys");
    n.patch_strategy_ = StringOr(s, "x-kubernetes-patch-strategy");
    n.patch_merge_key_ = StringOr(s, "x-kubernetes-patch-merge-key");
    if (auto ref = s.find("$ref"); ref != s.end()) {
      n.target_ = Resolve(ref->get<std::string>());
      return;
    }
    if (Flag(s, "x-kubernetes-int-or-string")) {
      n.type_ = Type::kIntOrString;
      return;
    }
    const std::string type = StringOr(s, "type");
    const std::string format = StringOr(s, "format");
    auto props = s.find("properties");
    auto additional = s.find("additionalProperties");
    if (type == "object" || (type.empty() && props != s.end())) {
      if (props != s.end()) {
        n.type_ = Type::kObject;
        for (const auto& [name, field] : props->items()) {
          n.fields_.emplace_back(name, Inline(field));
        }
        std::sort(n.fields_.begin(), n.fields_.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        n.required_ = Strings(s, "required");
      } else if (additional != s.end() && !(additional->is_boolean() && !additional->get<bool>())) {
        n.type_ = Type::kMap;
        n.items_ = Inline(*additional);
      } else if (Flag(s, "x-kubernetes-preserve-unknown-fields")) {
        n.type_ = Type::kAny;
      } else {
        n.type_ = Type::kObject;  // a struct without fields (e.g. StorageVersionSpec)
      }
    } else if (type == "array") {
      n.type_ = Type::kArray;
      auto items = s.find("items");
      n.items_ = items != s.end() ? Inline(*items) : any_;
    } else if (type == "string") {
      n.type_ = format == "date-time"       ? Type::kTime
                : format == "int-or-string" ? Type::kIntOrString
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
  }

  std::deque<Node>& nodes_;
  std::map<std::string, Node*, std::less<>>& defs_;
  const Node* any_ = nullptr;
};

using Key = std::tuple<std::string_view, std::string_view, std::string_view>;

template <typename T>
void SortIndex(std::vector<std::pair<Key, T>>& index) {
  // Stable + first-wins: if two entries ever share a key, the earlier (catalogue order) one,
  // i.e. the one of the preferred version's listing, is what lookups return.
  std::stable_sort(index.begin(), index.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  index.erase(std::unique(index.begin(), index.end(),
                          [](const auto& a, const auto& b) { return a.first == b.first; }),
              index.end());
}

template <typename T>
T Lookup(const std::vector<std::pair<Key, T>>& index, const Key& key) {
  auto it = std::lower_bound(index.begin(), index.end(), key,
                             [](const auto& e, const Key& k) { return e.first < k; });
  return it != index.end() && it->first == key ? it->second : nullptr;
}

}  // namespace

const ResourceInfo::Subresource* ResourceInfo::FindSubresource(std::string_view name) const {
  for (const auto& s : subresources) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

struct Catalogue::Impl {
  json doc;  // the parsed document; RawDefinitions() points into it, so it must stay unchanged
  std::vector<GroupInfo> groups;
  std::vector<ResourceInfo> resources;
  std::deque<Node> nodes;  // a deque: node addresses stay stable while the graph grows
  std::map<std::string, Node*, std::less<>> definitions;
  // Sorted (group, version, name) indexes; lookups compare string_views, no allocation.
  std::vector<std::pair<Key, const ResourceInfo*>> by_resource;
  std::vector<std::pair<Key, const ResourceInfo*>> by_kind;
  std::vector<std::pair<Key, const Schema*>> kind_schemas;
};

Catalogue::Catalogue(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Catalogue::~Catalogue() = default;

std::unique_ptr<Catalogue> Catalogue::Parse(std::string_view json_text) {
  auto impl = std::make_unique<Impl>();
  impl->doc = json::parse(json_text);
  const json& doc = impl->doc;
  if (doc.value("format", 0) != 1) throw std::runtime_error("catalogue: unsupported format");

  for (const auto& g : doc.at("groups")) {
    impl->groups.push_back(GroupInfo{g.at("name").get<std::string>(),
                                     g.at("versions").get<std::vector<std::string>>(),
                                     g.at("preferred").get<std::string>()});
  }
  for (const auto& r : doc.at("resources")) {
    ResourceInfo& info = impl->resources.emplace_back();
    info.group = r.at("g").get<std::string>();
    info.version = r.at("v").get<std::string>();
    info.resource = r.at("r").get<std::string>();
    info.singular = r.at("s").get<std::string>();
    info.kind = r.at("k").get<std::string>();
    info.list_kind = StringOr(r, "lk");
    info.namespaced = r.at("ns").get<bool>();
    info.verbs = Strings(r, "verbs");
    info.short_names = Strings(r, "short");
    info.categories = Strings(r, "cat");
    info.storage_prefix = StringOr(r, "sp");
    if (auto subs = r.find("sub"); subs != r.end()) {
      for (const auto& s : *subs) {
        info.subresources.push_back(ResourceInfo::Subresource{
            s.at("n").get<std::string>(), s.at("g").get<std::string>(),
            s.at("v").get<std::string>(), s.at("k").get<std::string>(), Strings(s, "verbs")});
      }
    }
  }

  static const json kNoSpecial = json::object();
  auto special = doc.find("special");
  GraphBuilder(impl->nodes, impl->definitions)
      .Build(doc.at("definitions"), special != doc.end() ? *special : kNoSpecial);

  // Indexes last: their string_views point into resources and doc, which are complete now.
  for (const ResourceInfo& r : impl->resources) {
    impl->by_resource.emplace_back(Key{r.group, r.version, r.resource}, &r);
    impl->by_kind.emplace_back(Key{r.group, r.version, r.kind}, &r);
  }
  for (const auto& [name, node] : impl->definitions) {
    const json& def = doc.at("definitions").at(name);
    auto gvks = def.find("x-kubernetes-group-version-kind");
    if (gvks == def.end()) continue;
    for (const auto& gvk : *gvks) {
      impl->kind_schemas.emplace_back(Key{gvk.at("group").get_ref<const std::string&>(),
                                          gvk.at("version").get_ref<const std::string&>(),
                                          gvk.at("kind").get_ref<const std::string&>()},
                                      node);
    }
  }
  SortIndex(impl->by_resource);
  SortIndex(impl->by_kind);
  SortIndex(impl->kind_schemas);
  return std::unique_ptr<Catalogue>(new Catalogue(std::move(impl)));
}

const Catalogue& Catalogue::BuiltIn() {
  // Leaked on purpose: Schema pointers handed out must stay valid through static destruction
  // and in threads still running at exit. The function-local static makes the parse run once.
  static const Catalogue* const builtin = Parse(EmbeddedCatalogueJson()).release();
  return *builtin;
}

const std::vector<GroupInfo>& Catalogue::Groups() const { return impl_->groups; }

const GroupInfo* Catalogue::FindGroup(std::string_view group) const {
  for (const auto& g : impl_->groups) {
    if (g.name == group) return &g;
  }
  return nullptr;
}

const std::vector<ResourceInfo>& Catalogue::Resources() const { return impl_->resources; }

const ResourceInfo* Catalogue::Find(std::string_view group, std::string_view version,
                                    std::string_view resource) const {
  return Lookup(impl_->by_resource, Key{group, version, resource});
}

const ResourceInfo* Catalogue::FindByKind(std::string_view group, std::string_view version,
                                          std::string_view kind) const {
  return Lookup(impl_->by_kind, Key{group, version, kind});
}

const Schema* Catalogue::KindSchema(std::string_view group, std::string_view version,
                                    std::string_view kind) const {
  return Lookup(impl_->kind_schemas, Key{group, version, kind});
}

const Schema* Catalogue::Definition(std::string_view name) const {
  auto it = impl_->definitions.find(name);
  return it != impl_->definitions.end() ? it->second : nullptr;
}

const nlohmann::json& Catalogue::RawDefinitions() const { return impl_->doc.at("definitions"); }

}  // namespace kube::catalogue
