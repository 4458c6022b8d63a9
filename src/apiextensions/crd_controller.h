// CrdController: what kube's apiextensions controllers do for CustomResourceDefinitions, in one
// thread of this process —
//   * naming: status.acceptedNames and the NamesAccepted condition, checked against the other
//     CRDs of the group (conflicts leave a CRD unserved);
//   * establishing: the Established condition, and serving the custom resources through the
//     registry (ApiRegistry::ServeCustomResources) as soon as the names are accepted;
//   * cleanup: a CRD being deleted gets Terminating, stops accepting creates, has every custom
//     resource deleted (their finalizers honoured), then loses the
//     customresourcecleanup.apiextensions.k8s.io finalizer and goes; its resources stop being
//     served.
// It follows the CRD store's watch; Start() first brings every stored CRD up to date and serves
// it, so a restarted server with --data-dir serves its custom resources before it reports ready.
// A state restore of the registry (Reset, RestoreSnapshot) pauses it and, before the restore
// returns, re-syncs every CRD whose object changed and stops serving those no longer stored, so
// serving and discovery follow the restored CRDs at once.
//
// Thread-safety: Start() and Stop() from one thread; the work happens on the controller's own
// thread. The registry must outlive the controller.
#pragma once

#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "registry/api_registry.h"

namespace kube::apiextensions {

class CrdController {
 public:
  explicit CrdController(registry::ApiRegistry* registry);
  ~CrdController();

  // Syncs every stored CRD (serving the established ones), then follows changes.
  Status Start();
  void Stop();

 private:
  void Run(uint64_t from_revision);
  // Brings one CRD's status and serving up to date; false when it must be looked at again
  // later (custom resources still being deleted).
  bool Sync(const std::string& name);
  bool SyncTerminating(const storage::Object& crd);
  // Re-checks every CRD of `group` (names freed by a deleted or renamed CRD).
  void MarkGroup(const std::string& group);
  // Re-checks every served CRD that is no longer stored (after the watch ended).
  void MarkServed();
  // Restore hooks: wait for the sync in progress and hold off the next; then re-sync what the
  // restore changed and resume.
  void PauseForRestore();
  void ResyncAfterRestore();
  // Writes `crd`'s status through the status subresource when it differs from the stored one.
  Status UpdateStatus(const std::string& name, const nlohmann::json& status);

  registry::ApiRegistry* registry_;
  registry::StorePtr crds_;

  std::mutex mu_;
  std::condition_variable cv_;
  std::set<std::string> dirty_;  // guarded by mu_
  bool stopping_ = false;        // guarded by mu_
  bool paused_ = false;          // guarded by mu_: a restore is in progress
  bool in_sync_ = false;         // guarded by mu_: the controller thread is syncing
  // Per CRD, the resourceVersion of the object the last complete sync saw. Guarded by mu_.
  std::map<std::string, std::string> synced_rv_;
  uint64_t restore_listener_ = 0;
  std::thread thread_;
  storage::WatchStreamPtr watch_;
};

}  // namespace kube::apiextensions
