// NamespaceLifecycle: what kube-apiserver's NamespaceLifecycle admission plugin and the
// namespace controller do together (rest.md §4.1, §4.3), so that namespaces behave as in a real
// cluster (envtest lacks the controller):
//   * default, kube-system, kube-public and kube-node-lease exist from the start; the first three
//     cannot be deleted (403);
//   * every namespace carries spec.finalizers [kubernetes], status.phase and the immutable label
//     kubernetes.io/metadata.name;
//   * creating in a missing namespace is 404, in a terminating one 403 NamespaceTerminating;
//   * deleting a namespace makes it Terminating; a background controller deletes everything in
//     it (honouring finalizers), removes the kubernetes finalizer and then the namespace.
//
// Thread-safety: safe for concurrent use once the stores are registered (before Start()).
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "catalogue/catalogue.h"
#include "storage/interface.h"
#include "util/status.h"

namespace kube::registry {

class Store;

class NamespaceLifecycle {
 public:
  NamespaceLifecycle() = default;
  ~NamespaceLifecycle();

  // REQUIRES: called before Start().
  void SetNamespaceStore(Store* namespaces);
  void AddNamespacedStore(Store* store);
  // Namespaced stores that come and go while serving (custom resources), asked for on every
  // pass of the controller. REQUIRES: called before Start().
  void SetDynamicStores(std::function<std::vector<std::shared_ptr<Store>>()> stores);

  // Creates the four initial namespaces if missing.
  Status EnsureInitialNamespaces();
  void Start();
  void Stop();

  // Admission for writes of namespaced objects in `ns` (`name` for messages).
  Status Admit(std::string_view ns, bool create, std::string_view group, std::string_view resource,
               std::string_view name = "");
  // 403 for the namespaces that may never be deleted.
  Status CheckDeletable(std::string_view name) const;
  // kube's defaulting of a Namespace (no-op for other resources): the kubernetes.io/metadata.name
  // label when the name is known — before the field manager, so the writer owns the label (with
  // generateName the label comes later, from PrepareNamespaceObject, unowned, as in kube).
  void DefaultNamespaceObject(const catalogue::ResourceInfo& info, storage::Object* obj) const;
  // Server-set fields of Namespace objects (no-op for other resources), after the field manager:
  // on create (`current` null) phase Active and the kubernetes finalizer; on update
  // spec.finalizers stay as stored (only /finalize changes them); always the
  // kubernetes.io/metadata.name label from the final name.
  void PrepareNamespaceObject(const catalogue::ResourceInfo& info, storage::Object* obj,
                              const storage::Object* current) const;
  // Hands a namespace that was marked for deletion to the controller.
  void StartTerminating(std::string_view name);

  // Around a state restore (ApiRegistry::Reset / RestoreSnapshot): Pause() waits for the
  // controller's pass in progress to end and holds off the next, so no deletion decided on the
  // old state lands in the restored one; Resume() re-reads which namespaces are terminating from
  // the (restored) store and lets the controller run again. Pairs; not nested.
  void Pause();
  void Resume();

 private:
  void Run();
  // One pass over a terminating namespace; true when it is gone.
  bool Finalize(const std::string& name);

  Store* namespaces_ = nullptr;
  std::vector<Store*> namespaced_;  // one per storage prefix
  std::function<std::vector<std::shared_ptr<Store>>()> dynamic_stores_;

  std::mutex mu_;
  std::condition_variable cv_;
  std::set<std::string> terminating_;  // guarded by mu_
  bool stopping_ = false;              // guarded by mu_
  bool paused_ = false;                // guarded by mu_
  bool in_pass_ = false;               // guarded by mu_: the controller is finalizing
  // Reads the terminating namespaces from the store into terminating_.
  void LoadTerminating();
  std::thread controller_;
};

}  // namespace kube::registry
