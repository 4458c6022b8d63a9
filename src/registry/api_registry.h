// ApiRegistry: the storage of every served resource — one kv store; per storage prefix a
// KvStore and a watch cache; per served group/version/resource a registry::Store; the namespace
// lifecycle with the initial namespaces.
//
// The built-in resources of the catalogue are fixed at Open(). Custom resources come and go while
// serving (ServeCustomResources / StopServingCustomResources, called by the apiextensions
// controller): the set of them is an immutable snapshot swapped atomically, so a request looks
// its resource up without taking a lock, and a request that started before a CRD went keeps the
// Store (and its storage) it found alive until it ends.
//
// State between tests (api_registry_state.cc): MarkInitialState() records the state Reset()
// returns to; SaveSnapshot(name) / RestoreSnapshot(name) save and bring back any other. A restore
// makes the stored objects exactly the saved ones — CustomResourceDefinitions included: a CRD
// created after the save goes with its custom resources and stops being served, a deleted one
// comes back and is served again — in one new revision R:
//   * resourceVersions stay monotonic: objects that differ from the saved ones get R (a
//     restored object never reuses an old resourceVersion); unchanged objects keep theirs;
//   * history is compacted at R, so lists, gets and watches from before R (resourceVersion or
//     continue token) get 410 Expired, as after a compaction;
//   * every open watch ends as a compaction ends it: an ERROR event with a 410 Expired Status,
//     then the stream closes; informers relist and see the restored state;
//   * before the call returns, every watch cache holds the restored state, the namespace
//     controller follows it, and every restore listener (RBAC index, CRD controller) has caught
//     up, so the next request sees the restored world.
// Snapshots are kept in process memory (they hold copies of the objects); with a data dir the
// restored state itself is persisted like any write. A restore writes only the objects that
// differ from the snapshot, so its cost follows the changes since the save.
//
// Thread-safety: every method is safe for concurrent use; every Store is safe for concurrent use.
// Change listeners are called on the thread that changed the set, with no lock held. Resets,
// saves and restores are serialised with each other; requests keep running meanwhile (a write
// lands either before the restore, and is undone, or after it, and is kept).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cacher/cacher.h"
#include "catalogue/catalogue.h"
#include "kv/store.h"
#include "registry/namespace_lifecycle.h"
#include "registry/store.h"
#include "storage/kv_store.h"

namespace kube::registry {

struct RegistryOptions {
  // The kv store (in memory by default; data_dir persists).
  kv::Options kv;
  // Watch cache options for every resource.
  cacher::Options cacher;
  // Readiness wait for the caches at Open() and when a custom resource starts. Default: 10 s.
  std::chrono::milliseconds ready_timeout = std::chrono::seconds(10);
  // Strategies of built-in kinds, by "group/resource" ("apiextensions.k8s.io/customresourcedefinitions").
  // Default: none.
  std::map<std::string, std::shared_ptr<const Strategy>, std::less<>> strategies;
  // How long the storage of a CRD that stopped being served keeps delivering the events already
  // under way to its watchers before they are closed (kube waits a second before it tears a
  // CRD's storage down). Default: 1 s.
  std::chrono::milliseconds custom_resource_teardown_delay = std::chrono::seconds(1);
};

using StorePtr = std::shared_ptr<Store>;

// A saved state, as ApiRegistry::Snapshots lists it.
struct SnapshotInfo {
  std::string name;
  int64_t resource_version = 0;  // the revision the state was saved at
  size_t objects = 0;            // stored objects (every resource, CRDs included)
  size_t bytes = 0;              // their encoded size
};

// Hooks around a state restore. `before` runs first (stop acting on the old state: finish or
// abandon the work in progress, hold off the next); `after` runs once every watch cache holds the
// restored state, with the restore's revision (catch up: relist, resync). Both are called on the
// restoring thread, with no registry lock held but restores serialised; either may be empty.
struct RestoreListener {
  std::function<void()> before;
  std::function<void(int64_t revision)> after;
};

// One served version of a custom resource.
struct CustomResourceVersion {
  // group, version, resource, kind, scope, verbs, subresources, names; storage_prefix is the
  // CRD's ("/<group>/<plural>") and the same for every version.
  catalogue::ResourceInfo info;
  KindRules rules;
  std::shared_ptr<const Strategy> strategy;
  // The version's structural schema; must stay valid while `keep_alive` lives.
  const catalogue::Schema* schema = nullptr;
  // The version's openAPIV3Schema as the CRD gives it, for publishing OpenAPI.
  std::shared_ptr<const nlohmann::json> openapi_schema;
};

// Everything served for one CustomResourceDefinition.
struct CustomResourceSet {
  std::string crd_name;  // "widgets.example.com"
  // The CRD's uid: a re-created CRD of the same name gets fresh storage.
  std::string crd_uid;
  // The apiVersion objects are stored with (the storage version's).
  std::string storage_api_version;
  std::string kind;
  std::vector<CustomResourceVersion> versions;  // served versions, kube's priority order
  // Owns the schemas and strategies' shared state.
  std::shared_ptr<const void> keep_alive;
};

// The custom resources served at one moment. Immutable.
struct ServedCustomResources {
  uint64_t generation = 0;  // grows with every change
  std::map<std::string, StorePtr, std::less<>> stores;  // "group/version/resource"
  // Every served custom resource version's info, grouped by group, in kube's version order.
  std::vector<catalogue::ResourceInfo> resources;
  // Per CRD, the set it was served from.
  std::map<std::string, std::shared_ptr<const CustomResourceSet>, std::less<>> sets;
};

class ApiRegistry {
 public:
  static Result<std::unique_ptr<ApiRegistry>> Open(const RegistryOptions& options,
                                                   const catalogue::Catalogue& catalogue);
  ~ApiRegistry();

  const catalogue::Catalogue& catalogue() const { return catalogue_; }
  // The store of a served resource (built-in or custom), or nullptr (not served, or never
  // stored: reviews, bindings). Lock-free.
  StorePtr Find(std::string_view group, std::string_view version, std::string_view resource) const;
  // The custom resources served now. Lock-free.
  std::shared_ptr<const ServedCustomResources> CustomResources() const { return custom_.load(); }
  kv::Store* kv() const { return kv_.get(); }
  // OK when every cache has initialised.
  Status ReadinessCheck() const;

  // Serves (or re-serves, after a change of the CRD) the custom resources of `set`: the
  // storage of a CRD is created once per uid and kept across re-serves; the stores of its
  // versions are replaced. Returns once the new storage's cache is ready.
  Status ServeCustomResources(CustomResourceSet set);
  // Stops serving a CRD's custom resources: they vanish from the set at once; their watches end
  // after RegistryOptions::custom_resource_teardown_delay, having received the events already
  // under way. Their data stays in the kv store until deleted (the CRD cleanup deletes every
  // object first).
  void StopServingCustomResources(std::string_view crd_name);
  // Called after every change of the served custom resources.
  void AddChangeListener(std::function<void()> listener);

  // --- State between tests (see the header comment).
  // Records the current state as the initial one, which Reset() returns to. Called by the
  // server once it is ready (built-in namespaces, bootstrap policy, preloaded manifests); may be
  // called again to move the mark.
  Status MarkInitialState();
  // Restores the initial state. 503 ServiceUnavailable before MarkInitialState().
  Status Reset();
  // Saves the current state under `name` (replacing a snapshot of that name). 400 BadRequest for
  // a name that is empty, longer than 253 characters or not made of [A-Za-z0-9._-].
  Status SaveSnapshot(std::string_view name);
  // Restores a saved state; 404 NotFound for an unknown name. The snapshot stays.
  Status RestoreSnapshot(std::string_view name);
  // 404 NotFound for an unknown name.
  Status DeleteSnapshot(std::string_view name);
  // The saved snapshots, by name.
  std::vector<SnapshotInfo> Snapshots() const;
  // The initial state's description (name "initial"); nullopt before MarkInitialState().
  std::optional<SnapshotInfo> InitialState() const;
  // Registers hooks around every restore; returns an id for RemoveRestoreListener.
  uint64_t AddRestoreListener(RestoreListener listener);
  // After it returns, the hooks are not running and will not run again.
  void RemoveRestoreListener(uint64_t id);

 private:
  struct CustomStorage;

  explicit ApiRegistry(const catalogue::Catalogue& catalogue) : catalogue_(catalogue) {}
  std::shared_ptr<CustomStorage> NewCustomStorage(const CustomResourceSet& set);
  // Publishes `next` (built from the current set under change_mu_) and tells the listeners.
  void PublishLocked(std::unique_lock<std::mutex>& lock, ServedCustomResources next);
  // Stops the caches of retired storages when their delay is up (and all of them at shutdown).
  void TeardownLoop();
  // Waits until every watch cache, built-in and custom, has applied `revision`.
  Status AwaitCaches(uint64_t revision);
  // Restores `snapshot` (state_mu_ held): listeners' before, kv restore, caches, namespaces,
  // listeners' after.
  Status RestoreLocked(const kv::StateSnapshot& snapshot);

  const catalogue::Catalogue& catalogue_;
  RegistryOptions options_;
  std::unique_ptr<kv::Store> kv_;
  std::vector<std::unique_ptr<storage::KvStore>> kv_stores_;
  std::vector<std::unique_ptr<cacher::Cacher>> cachers_;
  NamespaceLifecycle namespaces_;
  std::map<std::string, StorePtr, std::less<>> stores_;  // built-in, "group/version/resource"

  std::atomic<std::shared_ptr<const ServedCustomResources>> custom_;
  std::mutex change_mu_;  // serialises changes of custom_
  std::map<std::string, std::shared_ptr<CustomStorage>, std::less<>> custom_storage_;  // by CRD name; guarded by change_mu_
  std::vector<std::function<void()>> listeners_;  // guarded by change_mu_

  // Storages no longer served, each with the time its cache is to stop.
  std::mutex teardown_mu_;
  std::condition_variable teardown_cv_;
  std::vector<std::pair<std::chrono::steady_clock::time_point, std::shared_ptr<CustomStorage>>>
      retiring_;                   // guarded by teardown_mu_
  bool shutting_down_ = false;     // guarded by teardown_mu_
  std::thread teardown_thread_;    // started with the first retirement

  // Serialises resets, saves and restores, and guards what follows.
  mutable std::mutex state_mu_;
  kv::StateSnapshotPtr initial_state_;
  std::map<std::string, kv::StateSnapshotPtr, std::less<>> snapshots_;
  std::map<uint64_t, RestoreListener> restore_listeners_;
  uint64_t next_listener_id_ = 1;
};

}  // namespace kube::registry
