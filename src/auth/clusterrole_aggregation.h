// The clusterrole-aggregation controller (kube-controller-manager's, run here in the server):
// a ClusterRole with an aggregationRule gets as rules the union of the rules of every other
// ClusterRole its clusterRoleSelectors match (selectors in order, matching roles by name, each
// rule once), written by server-side apply as field manager clusterrole-aggregation-controller.
// Every change of a ClusterRole re-checks every aggregated role, as kube's controller does.
//
// Thread-safety: Start/Stop from one thread; the controller runs on its own thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <nlohmann/json_fwd.hpp>

#include "registry/api_registry.h"

namespace kube::auth {

// Whether the labels of `obj` match a metav1.LabelSelector (matchLabels and matchExpressions
// with In, NotIn, Exists, DoesNotExist; an empty selector matches everything). An unknown
// operator matches nothing.
bool LabelSelectorMatches(const nlohmann::json& selector, const nlohmann::json& obj);

class ClusterRoleAggregator {
 public:
  explicit ClusterRoleAggregator(registry::ApiRegistry* registry) : registry_(registry) {}
  ~ClusterRoleAggregator() { Stop(); }

  // Aggregates until nothing changes (aggregations of aggregated roles settle before the server
  // is ready), then follows ClusterRole changes on a background thread.
  Status Start();
  void Stop();
  // One pass over every aggregated role (what the thread does after each change); *changed
  // tells whether a role was written (roles aggregating aggregated roles need further passes).
  Status SyncAll(bool* changed = nullptr);

 private:
  void Run(std::string resource_version);

  registry::ApiRegistry* registry_;
  registry::StorePtr store_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace kube::auth
