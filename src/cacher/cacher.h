// cacher::Cacher: the watch cache, a storage::Interface decorating the kv-backed store
// (k8s.io/apiserver/pkg/storage/cacher: Cacher + CacheDelegator, storage.md §3).
//
// One Cacher per resource. It keeps every object of the resource in memory plus a ring buffer of
// recent events, fed by one storage watch (initialised with sendInitialEvents, re-initialised
// after errors). It serves:
//   * Watch always (initial events, buffered history, live events, periodic bookmarks; slow
//     watchers are closed, never waited for beyond a small shared budget);
//   * Get with RV "0"/N and GetList with RV ""/"0"/N (not exact) from the cache, after waiting
//     for freshness (a read that must wait asks storage for a progress notification at once,
//     and again every 100 ms while it keeps waiting);
//   * everything else (writes, exact-RV and continued lists, Get with RV "") from storage.
// Before the first initialisation completes, cache reads go to storage where kube allows it and
// otherwise get 429 TooManyRequests with a Retry-After.
//
// Thread-safety: safe for concurrent use. The decorated storage must outlive the Cacher; watch
// streams it returned must be destroyed before it.
#pragma once

#include <memory>
#include <string>

#include "cacher/options.h"
#include "storage/interface.h"

namespace kube::cacher {

struct CacherConfig {
  // The storage key prefix of the resource, e.g. "/pods". Required.
  std::string resource_prefix;
  // The resource type's empty object (apiVersion and kind), for BOOKMARK events. Default: {}.
  storage::ObjectPtr empty_object;
  // Selectable attributes of an object. Default (null): storage::DefaultAttrs.
  storage::AttrsFunc attrs;
  // Whether objects are namespaced: keys are prefix/ns/name, otherwise prefix/name.
  // Default: true.
  bool namespaced = true;
};

class Cacher final : public storage::Interface {
 public:
  // Starts initialising at once, in the background.
  Cacher(storage::Interface* storage, CacherConfig config, Options options = {});
  ~Cacher() override;
  Cacher(const Cacher&) = delete;
  Cacher& operator=(const Cacher&) = delete;

  Result<storage::ObjectPtr> Create(std::string_view key, const storage::Object& obj,
                                    uint64_t ttl_seconds) override;
  Result<storage::ObjectPtr> Delete(std::string_view key, const storage::Preconditions* preconditions,
                                    const storage::ValidateDeletionFunc& validate,
                                    storage::ObjectPtr cached_existing,
                                    const storage::DeleteOptions& options) override;
  Result<storage::WatchStreamPtr> Watch(std::string_view key,
                                        const storage::ListOptions& options) override;
  Result<storage::ObjectPtr> Get(std::string_view key, const storage::GetOptions& options) override;
  Result<storage::ListResult> GetList(std::string_view key,
                                      const storage::ListOptions& options) override;
  Result<storage::ObjectPtr> GuaranteedUpdate(std::string_view key, bool ignore_not_found,
                                              const storage::Preconditions* preconditions,
                                              const storage::UpdateFunc& update,
                                              storage::ObjectPtr cached_existing) override;
  Result<storage::Stats> GetStats() override;
  Status ReadinessCheck() override;
  Status RequestWatchProgress() override;
  Result<uint64_t> GetCurrentResourceVersion() override;
  int64_t CompactRevision() override;

  // Blocks until the cache is ready and has applied `revision` (0: just ready), or `timeout`
  // passes. For tests, benchmarks and start-up hooks.
  bool WaitUntilFresh(uint64_t revision, std::chrono::milliseconds timeout);

  // Ends every watch and stops following storage, for a resource that is no longer served
  // (its CRD went): later cache reads and watches are refused. Idempotent; the destructor
  // does the same.
  void Stop();

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace kube::cacher
