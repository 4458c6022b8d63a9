#include "registry/api_registry.h"

#include <nlohmann/json.hpp>

namespace kube::registry {

namespace {
std::string StoreKey(std::string_view group, std::string_view version, std::string_view resource) {
  return std::string(group) + "/" + std::string(version) + "/" + std::string(resource);
}
}  // namespace

Result<std::unique_ptr<ApiRegistry>> ApiRegistry::Open(const RegistryOptions& options,
                                                       const catalogue::Catalogue& catalogue) {
  std::unique_ptr<ApiRegistry> r(new ApiRegistry(catalogue));
  auto kv = kv::Store::Open(options.kv);
  if (!kv.ok()) return kv.status();
  r->kv_ = std::move(*kv);

  // One storage and cache per storage prefix, configured from the group's preferred version
  // (bookmark objects carry that version's kind).
  std::map<std::string, storage::Interface*, std::less<>> by_prefix;
  for (const auto& info : catalogue.Resources()) {
    if (info.storage_prefix.empty()) continue;
    const auto* group = catalogue.FindGroup(info.group);
    const bool preferred = group == nullptr || group->preferred_version == info.version;
    auto it = by_prefix.find(info.storage_prefix);
    if (it != by_prefix.end() && !preferred) continue;
    if (it != by_prefix.end()) continue;
    const std::string api_version = info.group.empty() ? info.version : info.group + "/" + info.version;
    auto empty = std::make_shared<storage::Object>(
        storage::Object{{"apiVersion", api_version}, {"kind", info.kind}});
    auto store = std::make_unique<storage::KvStore>(
        r->kv_.get(), storage::StoreConfig{.resource_prefix = info.storage_prefix, .empty_object = empty});
    const KindRules rules = RulesFor(info.group, info.resource);
    auto cache = std::make_unique<cacher::Cacher>(
        store.get(),
        cacher::CacherConfig{.resource_prefix = info.storage_prefix,
                             .empty_object = empty,
                             .attrs = AttrsFor(rules, info.namespaced),
                             .namespaced = info.namespaced},
        options.cacher);
    by_prefix.emplace(info.storage_prefix, cache.get());
    r->kv_stores_.push_back(std::move(store));
    r->cachers_.push_back(std::move(cache));
  }
  for (const auto& info : catalogue.Resources()) {
    if (info.storage_prefix.empty()) continue;
    auto store = std::make_unique<Store>(info, by_prefix.at(info.storage_prefix), &r->namespaces_);
    if (info.group.empty() && info.resource == "namespaces") r->namespaces_.SetNamespaceStore(store.get());
    if (info.namespaced) r->namespaces_.AddNamespacedStore(store.get());
    r->stores_.emplace(StoreKey(info.group, info.version, info.resource), std::move(store));
  }
  for (const auto& c : r->cachers_) {
    if (!c->WaitUntilFresh(0, options.ready_timeout)) return Status::Internal("watch cache did not initialise");
  }
  KUBE_RETURN_IF_ERROR(r->namespaces_.EnsureInitialNamespaces());
  r->namespaces_.Start();
  return r;
}

ApiRegistry::~ApiRegistry() {
  namespaces_.Stop();
  stores_.clear();
  cachers_.clear();
  kv_stores_.clear();
  kv_.reset();
}

Store* ApiRegistry::Find(std::string_view group, std::string_view version, std::string_view resource) const {
  auto it = stores_.find(StoreKey(group, version, resource));
  return it == stores_.end() ? nullptr : it->second.get();
}

Status ApiRegistry::ReadinessCheck() const {
  for (const auto& c : cachers_) KUBE_RETURN_IF_ERROR(c->ReadinessCheck());
  return Status::OK();
}

}  // namespace kube::registry
