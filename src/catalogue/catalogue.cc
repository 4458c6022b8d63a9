#include "catalogue/catalogue.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>
#include <utility>

#include <nlohmann/json.hpp>

#include "schema/graph.h"

namespace kube::catalogue {
namespace {

using json = nlohmann::json;
std::string StringOr(const json& j, const char* key, std::string fallback = {}) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::move(fallback);
}

std::vector<std::string> Strings(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) return {};
  return it->get<std::vector<std::string>>();
}

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
  std::unique_ptr<schema::SchemaGraph> graph;  // the definitions' nodes
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

  static const json kNone = json::object();
  auto special = doc.find("special");
  auto omit_empty = doc.find("omitempty");
  auto graph = schema::SchemaGraph::FromDefinitions(doc.at("definitions"),
                                                    special != doc.end() ? *special : kNone,
                                                    omit_empty != doc.end() ? &*omit_empty : nullptr);
  if (!graph.ok()) throw std::runtime_error("catalogue: " + graph.status().message());
  impl->graph = std::move(*graph);

  // Indexes last: their string_views point into resources and doc, which are complete now.
  for (const ResourceInfo& r : impl->resources) {
    impl->by_resource.emplace_back(Key{r.group, r.version, r.resource}, &r);
    impl->by_kind.emplace_back(Key{r.group, r.version, r.kind}, &r);
  }
  for (const auto& [name, node] : impl->graph->Definitions()) {
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
  return impl_->graph->Definition(name);
}

const nlohmann::json& Catalogue::RawDefinitions() const { return impl_->doc.at("definitions"); }

std::string InternalGoPackage(std::string_view group) {
  if (group.empty() || group == "events.k8s.io") return "core";
  if (group == "internal.apiserver.k8s.io") return "apiserverinternal";
  return std::string(group.substr(0, group.find('.')));
}

}  // namespace kube::catalogue
