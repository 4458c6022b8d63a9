// KvStore: storage::Interface over the kv layer — the equivalent of kube-apiserver's etcd3 store
// (k8s.io/apiserver/pkg/storage/etcd3), one instance per resource sharing one kv::Store.
//
// Keys: a storage key "/pods/ns/name" lives at kv key "<path_prefix>/pods/ns/name". An object's
// resourceVersion is its mod revision; a list's is the kv revision it was read at; a DELETED
// event carries the last state stamped with the deletion revision.
//
// Thread-safety: safe for concurrent use. The kv::Store must outlive the KvStore and every
// WatchStream it returned.
#pragma once

#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "kv/store.h"
#include "storage/interface.h"

namespace kube::storage {

struct StoreConfig {
  // Prefix of every key in the kv store (kube-apiserver's --etcd-prefix). Default: "/registry".
  std::string path_prefix = "/registry";
  // This resource's storage key prefix, e.g. "/pods" or "/apps/deployments"; every key passed to
  // the store must be below it. Required.
  std::string resource_prefix;
  // The resource type's empty object (apiVersion and kind), used for BOOKMARK events.
  // Default: null, meaning {}.
  ObjectPtr empty_object;
  // The largest write etcd accepts (its --max-request-bytes). A create or update whose etcd
  // transaction would be larger is refused as kube over etcd refuses it: 413
  // RequestEntityTooLarge "etcdserver: request is too large". Default: 1.5 MiB, etcd's default.
  size_t max_request_bytes = 1536 * 1024;
};

class KvWatchStream;

class KvStore final : public Interface {
 public:
  KvStore(kv::Store* kv, StoreConfig config);
  ~KvStore() override;

  Result<ObjectPtr> Create(std::string_view key, const Object& obj, uint64_t ttl_seconds) override;
  Result<ObjectPtr> Delete(std::string_view key, const Preconditions* preconditions,
                           const ValidateDeletionFunc& validate, ObjectPtr cached_existing,
                           const DeleteOptions& options) override;
  Result<WatchStreamPtr> Watch(std::string_view key, const ListOptions& options) override;
  Result<ObjectPtr> Get(std::string_view key, const GetOptions& options) override;
  Result<ListResult> GetList(std::string_view key, const ListOptions& options) override;
  Result<ObjectPtr> GuaranteedUpdate(std::string_view key, bool ignore_not_found,
                                     const Preconditions* preconditions, const UpdateFunc& update,
                                     ObjectPtr cached_existing) override;
  Result<Stats> GetStats() override;
  Status ReadinessCheck() override;
  Status RequestWatchProgress() override;
  Result<uint64_t> GetCurrentResourceVersion() override;
  int64_t CompactRevision() override;

  // The kv key of a storage key.
  std::string KvKey(std::string_view key) const;
  // The storage key of a kv key below this store's path prefix.
  std::string_view StorageKey(std::string_view kv_key) const;
  const StoreConfig& config() const { return config_; }
  kv::Store* kv() const { return kv_; }
  const Object& EmptyObject() const;

  // Progress-notify watch streams register here so RequestWatchProgress reaches them.
  void RegisterProgressWatcher(KvWatchStream* stream);
  void UnregisterProgressWatcher(KvWatchStream* stream);

 private:
  // 413 when writing `data` at `kv_key` would exceed config_.max_request_bytes.
  Status CheckWriteSize(std::string_view kv_key, std::string_view data) const;
  // A lease for an object with a TTL: reused while it fits (etcd3 lease manager, storage.md §2.7).
  Result<int64_t> LeaseFor(uint64_t ttl_seconds);

  kv::Store* kv_;
  StoreConfig config_;
  std::string path_prefix_;  // normalised: "/registry/" form, no trailing slash duplication
  ObjectPtr empty_object_;

  std::mutex progress_mu_;
  std::set<KvWatchStream*> progress_watchers_;  // guarded by progress_mu_

  std::mutex lease_mu_;
  int64_t lease_id_ = 0;            // guarded by lease_mu_
  int64_t lease_expiry_ms_ = 0;     // guarded by lease_mu_ (unix ms)
  int64_t lease_attached_ = 0;      // guarded by lease_mu_
};

}  // namespace kube::storage
