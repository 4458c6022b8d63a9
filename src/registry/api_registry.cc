#include "registry/api_registry.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "conversion/conversion.h"

namespace kube::registry {

namespace {
std::string StoreKey(std::string_view group, std::string_view version, std::string_view resource) {
  return std::string(group) + "/" + std::string(version) + "/" + std::string(resource);
}
}  // namespace

// The storage behind one CRD's custom resources; shared by the Stores of its versions, so it
// lives as long as the last request that uses one of them.
struct ApiRegistry::CustomStorage {
  std::string uid;
  std::string prefix;
  std::unique_ptr<storage::KvStore> store;
  std::unique_ptr<cacher::Cacher> cache;
  ~CustomStorage() {
    cache.reset();  // before the store it decorates
  }
};

Result<std::unique_ptr<ApiRegistry>> ApiRegistry::Open(const RegistryOptions& options,
                                                       const catalogue::Catalogue& catalogue) {
  std::unique_ptr<ApiRegistry> r(new ApiRegistry(catalogue));
  r->options_ = options;
  r->custom_.store(std::make_shared<const ServedCustomResources>());
  auto kv = kv::Store::Open(options.kv);
  if (!kv.ok()) return kv.status();
  r->kv_ = std::move(*kv);

  // One storage and cache per storage prefix, configured from the group's preferred version
  // (bookmark objects carry that version's kind). Every Store of a prefix writes its storage
  // version (conversion.h) there.
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
    StoreConfig config{.schema = catalogue.KindSchema(info.group, info.version, info.kind),
                       .storage_api_version = conversion::StorageApiVersion(catalogue, info.group, info.resource)};
    if (auto it = options.strategies.find(info.group + "/" + info.resource); it != options.strategies.end()) {
      config.strategy = it->second;
    }
    auto store = std::make_shared<Store>(info, by_prefix.at(info.storage_prefix), &r->namespaces_, std::move(config));
    if (info.group.empty() && info.resource == "namespaces") r->namespaces_.SetNamespaceStore(store.get());
    if (info.namespaced) r->namespaces_.AddNamespacedStore(store.get());
    r->stores_.emplace(StoreKey(info.group, info.version, info.resource), std::move(store));
  }
  for (const auto& c : r->cachers_) {
    if (!c->WaitUntilFresh(0, options.ready_timeout)) return Status::Internal("watch cache did not initialise");
  }
  KUBE_RETURN_IF_ERROR(r->namespaces_.EnsureInitialNamespaces());
  ApiRegistry* self = r.get();
  r->namespaces_.SetDynamicStores([self] {
    // One store per CRD: the versions of a custom resource share one storage.
    std::vector<StorePtr> out;
    auto served = self->CustomResources();
    for (const auto& [name, set] : served->sets) {
      if (set->versions.empty() || !set->versions.front().info.namespaced) continue;
      const auto& v = set->versions.front().info;
      if (auto store = self->Find(v.group, v.version, v.resource)) out.push_back(std::move(store));
    }
    return out;
  });
  r->namespaces_.Start();
  return r;
}

ApiRegistry::~ApiRegistry() {
  {
    std::lock_guard lock(teardown_mu_);
    shutting_down_ = true;
  }
  teardown_cv_.notify_all();
  if (teardown_thread_.joinable()) teardown_thread_.join();
  namespaces_.Stop();
  custom_.store(nullptr);
  custom_storage_.clear();
  stores_.clear();
  cachers_.clear();
  kv_stores_.clear();
  kv_.reset();
}

StorePtr ApiRegistry::Find(std::string_view group, std::string_view version, std::string_view resource) const {
  const std::string key = StoreKey(group, version, resource);
  if (auto it = stores_.find(key); it != stores_.end()) return it->second;
  auto custom = custom_.load();
  if (!custom) return nullptr;
  auto it = custom->stores.find(key);
  return it == custom->stores.end() ? nullptr : it->second;
}

Status ApiRegistry::AwaitCaches(uint64_t revision) {
  std::vector<std::shared_ptr<CustomStorage>> custom;
  {
    std::lock_guard lock(change_mu_);
    for (const auto& [name, storage] : custom_storage_) custom.push_back(storage);
  }
  Status status;
  for (const auto& c : cachers_) {
    if (!c->WaitUntilFresh(revision, options_.ready_timeout)) {
      status = Status::Internal("a watch cache did not reach revision " + std::to_string(revision));
    }
  }
  for (const auto& storage : custom) {
    // A custom resource's cache may have stopped meanwhile (its CRD went); then it is moot.
    if (!storage->cache->WaitUntilFresh(revision, options_.ready_timeout) && storage->cache->ReadinessCheck().ok()) {
      status = Status::Internal("the watch cache of " + storage->prefix + " did not reach revision " +
                                std::to_string(revision));
    }
  }
  return status;
}

Status ApiRegistry::ReadinessCheck() const {
  for (const auto& c : cachers_) KUBE_RETURN_IF_ERROR(c->ReadinessCheck());
  return Status::OK();
}

std::shared_ptr<ApiRegistry::CustomStorage> ApiRegistry::NewCustomStorage(const CustomResourceSet& set) {
  const auto& info = set.versions.front().info;
  auto storage = std::make_shared<CustomStorage>();
  storage->uid = set.crd_uid;
  storage->prefix = info.storage_prefix;
  auto empty = std::make_shared<storage::Object>(storage::Object{{"apiVersion", set.storage_api_version}, {"kind", set.kind}});
  storage->store = std::make_unique<storage::KvStore>(
      kv_.get(), storage::StoreConfig{.resource_prefix = info.storage_prefix, .empty_object = empty});
  // Selectable fields may differ per version; the cache indexes what any version can select on.
  KindRules all = set.versions.front().rules;
  for (const auto& v : set.versions) {
    for (const auto& f : v.rules.selectable_fields) {
      if (std::find(all.selectable_fields.begin(), all.selectable_fields.end(), f) == all.selectable_fields.end()) {
        all.selectable_fields.push_back(f);
      }
    }
  }
  storage->cache = std::make_unique<cacher::Cacher>(
      storage->store.get(),
      cacher::CacherConfig{.resource_prefix = info.storage_prefix,
                           .empty_object = empty,
                           .attrs = AttrsFor(all, info.namespaced),
                           .namespaced = info.namespaced},
      options_.cacher);
  return storage;
}

Status ApiRegistry::ServeCustomResources(CustomResourceSet set) {
  if (set.versions.empty()) {
    StopServingCustomResources(set.crd_name);
    return Status::OK();
  }
  std::unique_lock lock(change_mu_);
  const std::string prefix = set.versions.front().info.storage_prefix;
  auto& storage = custom_storage_[set.crd_name];
  bool fresh = false;
  // Storage is per CRD incarnation and key layout; everything else may change in place.
  if (!storage || storage->uid != set.crd_uid || storage->prefix != prefix) {
    storage = NewCustomStorage(set);
    fresh = true;
  }
  auto kept = storage;
  if (fresh) {
    // Stores only go live once their cache can answer.
    lock.unlock();
    const bool ready = kept->cache->WaitUntilFresh(0, options_.ready_timeout);
    lock.lock();
    if (!ready) return Status::Internal("the watch cache of " + set.crd_name + " did not initialise");
    if (custom_storage_[set.crd_name] != kept) return Status::OK();  // superseded meanwhile
  }
  auto current = custom_.load();
  ServedCustomResources next;
  next.generation = current->generation + 1;
  next.sets = current->sets;
  auto shared = std::make_shared<const CustomResourceSet>(std::move(set));
  next.sets[shared->crd_name] = shared;
  PublishLocked(lock, std::move(next));
  return Status::OK();
}

void ApiRegistry::StopServingCustomResources(std::string_view crd_name) {
  std::unique_lock lock(change_mu_);
  auto current = custom_.load();
  if (!current->sets.contains(crd_name) && !custom_storage_.contains(crd_name)) return;
  ServedCustomResources next;
  next.generation = current->generation + 1;
  next.sets = current->sets;
  next.sets.erase(std::string(crd_name));
  if (auto it = custom_storage_.find(crd_name); it != custom_storage_.end()) {
    // Requests in flight may still hold the storage; it is freed with the last of them once
    // its cache has stopped.
    std::lock_guard teardown_lock(teardown_mu_);
    retiring_.emplace_back(std::chrono::steady_clock::now() + options_.custom_resource_teardown_delay,
                           std::move(it->second));
    if (!teardown_thread_.joinable()) teardown_thread_ = std::thread([this] { TeardownLoop(); });
    custom_storage_.erase(it);
  }
  teardown_cv_.notify_all();
  PublishLocked(lock, std::move(next));
}

void ApiRegistry::TeardownLoop() {
  std::unique_lock lock(teardown_mu_);
  while (true) {
    const auto now = std::chrono::steady_clock::now();
    std::vector<std::shared_ptr<CustomStorage>> due;
    auto next_deadline = std::chrono::steady_clock::time_point::max();
    for (auto it = retiring_.begin(); it != retiring_.end();) {
      if (shutting_down_ || it->first <= now) {
        due.push_back(std::move(it->second));
        it = retiring_.erase(it);
      } else {
        next_deadline = std::min(next_deadline, it->first);
        ++it;
      }
    }
    if (!due.empty()) {
      // Stopping a cache joins its threads: not under the lock StopServing takes.
      lock.unlock();
      for (const auto& storage : due) storage->cache->Stop();
      due.clear();
      lock.lock();
      continue;
    }
    if (shutting_down_) return;
    if (retiring_.empty()) {
      teardown_cv_.wait(lock);
    } else {
      teardown_cv_.wait_until(lock, next_deadline);
    }
  }
}

void ApiRegistry::PublishLocked(std::unique_lock<std::mutex>& lock, ServedCustomResources next) {
  // Stores are rebuilt from the sets: cheap (no I/O), and a changed CRD changes them anyway.
  for (const auto& [name, set] : next.sets) {
    auto storage_it = custom_storage_.find(name);
    if (storage_it == custom_storage_.end()) continue;
    std::shared_ptr<CustomStorage> storage = storage_it->second;
    for (const auto& v : set->versions) {
      StoreConfig config{.rules = v.rules,
                         .strategy = v.strategy,
                         .schema = v.schema,
                         .owner = std::make_shared<std::pair<std::shared_ptr<CustomStorage>, std::shared_ptr<const void>>>(
                             storage, set->keep_alive)};
      auto store = std::make_shared<Store>(v.info, storage->cache.get(), &namespaces_, std::move(config));
      next.stores[StoreKey(v.info.group, v.info.version, v.info.resource)] = std::move(store);
      next.resources.push_back(v.info);
    }
  }
  custom_.store(std::make_shared<const ServedCustomResources>(std::move(next)));
  auto listeners = listeners_;
  lock.unlock();
  for (const auto& l : listeners) l();
}

void ApiRegistry::AddChangeListener(std::function<void()> listener) {
  std::lock_guard lock(change_mu_);
  listeners_.push_back(std::move(listener));
}

}  // namespace kube::registry
