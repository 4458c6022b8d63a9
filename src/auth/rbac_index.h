// RbacIndex: the Roles, ClusterRoles, RoleBindings and ClusterRoleBindings of the registry, kept
// in memory and indexed by subject so that finding the rules of a user costs a few map look-ups
// however many bindings exist (kube's informer-backed rule resolver). Follow() loads the four
// resources from the registry and keeps the index current from their watches; Apply() feeds it
// directly (tests, benchmarks).
//
// Rules are visited as kube's DefaultRuleResolver visits them: ClusterRoleBindings first, then
// the RoleBindings of the request's namespace; within each, bindings in name order; a binding
// whose role is missing contributes a resolution error instead of rules.
//
// Thread-safety: every method is safe for concurrent use; visitors run under a shared lock and
// must not call back into the index.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include "auth/rbac_rules.h"
#include "registry/api_registry.h"

namespace kube::auth {

enum class RbacKind { kRole, kClusterRole, kRoleBinding, kClusterRoleBinding };
// "roles", "clusterroles", "rolebindings", "clusterrolebindings".
const char* RbacResource(RbacKind kind);

class RbacIndex {
 public:
  RbacIndex() = default;
  ~RbacIndex();
  RbacIndex(const RbacIndex&) = delete;
  RbacIndex& operator=(const RbacIndex&) = delete;

  // Lists the four resources (replacing what the index holds) and follows their watches on
  // background threads until destruction. A state restore of the registry (Reset,
  // RestoreSnapshot) relists all four before it returns. The registry must outlive the index.
  Status Follow(registry::ApiRegistry* registry);

  // Ends the watches (joins their threads); the index keeps what it holds. Idempotent; the
  // destructor calls it. Call it before the registry goes.
  void Stop();

  // An object added or modified (`deleted` false) or deleted.
  void Apply(RbacKind kind, const storage::Object& obj, bool deleted = false);

  // A binding as the index keeps it.
  struct Binding {
    std::string name;
    std::string namespace_;  // "" for a ClusterRoleBinding
    RoleRef role_ref;
    std::vector<Subject> subjects;
  };
  // Where a visited rule comes from; Describe() renders it as kube does
  // (`ClusterRoleBinding "x" of ClusterRole "y" to User "z"`) — only when asked, since most
  // visited rules do not allow the request.
  struct RuleSource {
    const Binding* binding = nullptr;
    const Subject* subject = nullptr;
    std::string Describe() const;
  };
  using Visitor = std::function<bool(const RuleSource& source, const PolicyRule* rule, const std::string* error)>;
  // Calls `visit` for every rule that applies to `user` in `ns` ("" for cluster-wide), and for
  // every resolution error; stops when it returns false.
  void VisitRulesFor(const UserInfo& user, std::string_view ns, const Visitor& visit) const;
  // Every rule of `user` in `ns`; resolution errors go to *errors.
  std::vector<PolicyRule> RulesFor(const UserInfo& user, std::string_view ns, std::vector<std::string>* errors) const;
  // The rules a binding in `ns` ("" for a ClusterRoleBinding) grants through `ref`; NotFound
  // (kube's message) when the role does not exist.
  Result<std::vector<PolicyRule>> RoleReferenceRules(const RoleRef& ref, std::string_view ns) const;

  // Counts, for tests and logs.
  size_t BindingCount() const;

 private:
  using BindingPtr = std::shared_ptr<const Binding>;
  using Rules = std::shared_ptr<const std::vector<PolicyRule>>;
  // Bindings by the subject they name: users, groups, service accounts ("ns:name").
  struct SubjectIndex {
    std::map<std::string, BindingPtr, std::less<>> bindings;  // by name
    std::map<std::string, std::set<std::string>, std::less<>> users, groups, service_accounts;
  };

  void ApplyLocked(RbacKind kind, const storage::Object& obj, bool deleted);
  static void Unindex(SubjectIndex* index, const Binding& binding);
  static void Index(SubjectIndex* index, const BindingPtr& binding);
  // Bindings of `index` that may name `user`, in name order.
  static std::vector<const Binding*> Candidates(const SubjectIndex& index, const UserInfo& user);
  Rules RoleRulesLocked(const RoleRef& ref, std::string_view ns, std::string* error) const;
  void Watch(registry::StorePtr store, RbacKind kind, std::string resource_version);
  // A watch event: applied unless a relist already covered its resourceVersion.
  void ApplyWatched(RbacKind kind, const storage::Object& obj, bool deleted);
  Status Relist(const registry::StorePtr& store, RbacKind kind, std::string* resource_version);

  mutable std::shared_mutex mu_;
  std::map<std::string, Rules, std::less<>> cluster_roles_;  // guarded by mu_
  std::map<std::string, Rules, std::less<>> roles_;          // "ns/name"; guarded by mu_
  SubjectIndex cluster_bindings_;                            // guarded by mu_
  std::map<std::string, SubjectIndex, std::less<>> role_bindings_;  // by namespace; guarded by mu_

  // Per kind, the resourceVersion of the last relist: older watch events are stale (a restore's
  // relist may overtake the watch threads). Guarded by mu_.
  uint64_t listed_rv_[4] = {0, 0, 0, 0};

  std::atomic<bool> stopping_{false};
  std::vector<std::thread> watchers_;
  registry::ApiRegistry* registry_ = nullptr;
  uint64_t restore_listener_ = 0;
};

}  // namespace kube::auth
