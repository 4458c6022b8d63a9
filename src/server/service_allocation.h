// --service-cluster-ip-range and --service-node-port-range: the Service storage's allocators, as
// kube's Service REST storage runs them.
//
// Create: spec.ipFamilies / ipFamilyPolicy settled as kube does (the primary range's family by
// default; PreferDualStack and RequireDualStack add the other family when the flag has two
// ranges; RequireDualStack on a single-stack cluster and a family without a range are 422s),
// then a free address of each family's range (spec.clusterIPs, spec.clusterIP its first);
// "None" (headless) is kept. NodePort and LoadBalancer Services (unless
// allocateLoadBalancerNodePorts is false) get a free node port for each port without one, and a
// LoadBalancer with externalTrafficPolicy Local a healthCheckNodePort. A cluster IP or node port
// the client asks for must be in range and free, else kube's 422 ("failed to allocate IP ...:
// provided IP is already allocated").
//
// Update: what the client left out is kept (cluster IPs, node ports by port name, the health
// check port); a type change drops what the new type has no use for when the client did not
// change it (ExternalName: cluster IPs and families; ClusterIP: node ports), and allocates what
// it needs (ExternalName to ClusterIP: an address; to NodePort: ports); the primary cluster IP
// cannot change ("may not change once set").
//
// Nothing is kept apart from the Services: what is in use is read from the stored Services (so
// restarts with --data-dir, deletions and type changes release without bookkeeping), plus what
// was handed out to creates and updates not stored yet (for a minute at most, so a refused or
// dry-run create wastes nothing for long). Values a client asks for are checked, not reserved:
// two concurrent creates asking for the same address can both succeed. The network and
// broadcast addresses and the range's first address (the kubernetes Service's) are never handed
// out dynamically.
//
// Thread-safety: every hook may run concurrently; a mutex orders allocations and reservations.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "registry/api_registry.h"
#include "registry/strategy.h"
#include "server/ip_range.h"

namespace kube::server {

class ServiceAllocationStrategy final : public registry::Strategy {
 public:
  // `cidrs`: --service-cluster-ip-range (one range, or two of different families).
  ServiceAllocationStrategy(const std::string& cidrs, int node_port_min, int node_port_max);
  // The registry whose Services are the ones in use; set once it is open.
  void SetRegistry(registry::ApiRegistry* registry) { registry_.store(registry); }
  // The kubernetes Service's address (the primary range's first), "" without a usable range.
  std::string KubernetesServiceIp() const;

  void PrepareForCreate(storage::Object* obj) const override;
  void PrepareForUpdate(std::string_view subresource, storage::Object* next,
                        const storage::Object& current) const override;
  FieldErrors Validate(const storage::Object& obj) const override;
  FieldErrors ValidateUpdate(std::string_view subresource, const storage::Object& obj, const storage::Object& old,
                             std::vector<std::string>* warnings) const override;
  // Adds no finalizer: forgets what was handed out to the Service being deleted.
  std::vector<std::string> FinalizersOnDelete(const storage::Object& obj) const override;

 private:
  struct InUse {
    std::set<std::string> ips;
    std::set<int> ports;
  };
  // Handed out (or asked for) by the Service `uid`, perhaps not stored yet.
  struct Reservation {
    std::chrono::steady_clock::time_point when;
    std::string uid;
  };

  // Reads the stored Services (all but `skip_uid`) and forgets reservations of stored ones.
  InUse UsedLocked(const std::string& skip_uid) const;
  const IpRange* RangeFor(const std::string& family) const;
  void SettleFamilies(storage::Object* spec) const;
  void AllocateLocked(storage::Object* spec, const std::string& uid, InUse* used) const;
  FieldErrors Check(const storage::Object& obj) const;

  std::vector<IpRange> ranges_;  // primary first
  int port_min_, port_max_;
  std::atomic<registry::ApiRegistry*> registry_{nullptr};
  mutable std::mutex mu_;
  mutable std::map<std::string, Reservation> recent_ips_;
  mutable std::map<int, Reservation> recent_ports_;
};

}  // namespace kube::server
