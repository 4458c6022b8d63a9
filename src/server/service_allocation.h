// --service-cluster-ip-range and --service-node-port-range: the Service storage's allocators, as
// kube's Service REST storage runs them on create — a Service without spec.clusterIP (and not
// ExternalName) gets a free address of the range (spec.clusterIP and clusterIPs); a NodePort or
// LoadBalancer Service gets a free port of the node-port range for each port without one. A
// cluster IP or node port the client asks for must be in the range and free, else kube's 422
// ("failed to allocate IP ...: provided IP is already allocated").
//
// What is in use is read from the stored Services (so restarts with --data-dir and deletions
// need no bookkeeping), plus the addresses handed out in the last minute whose Services may not
// be stored yet. The network and broadcast addresses and the range's first address (kube gives
// it to the "kubernetes" Service) are never handed out. IPv4 ranges are allocated from; an IPv6
// first range leaves Services without a cluster IP.
//
// Thread-safety: PrepareForCreate and Validate may run concurrently; a mutex orders allocations.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "registry/api_registry.h"
#include "registry/strategy.h"

namespace kube::server {

class ServiceAllocationStrategy final : public registry::Strategy {
 public:
  // `cidr`: the first range of --service-cluster-ip-range.
  ServiceAllocationStrategy(const std::string& cidr, int node_port_min, int node_port_max);
  // The registry whose Services are the ones in use; set once it is open.
  void SetRegistry(registry::ApiRegistry* registry) { registry_.store(registry); }

  void PrepareForCreate(storage::Object* obj) const override;
  FieldErrors Validate(const storage::Object& obj) const override;

 private:
  struct InUse {
    std::set<uint32_t> ips;
    std::set<int> ports;
  };
  InUse Used(const std::string& skip_uid) const;
  void PruneRecentLocked() const;

  bool ipv4_ = false;
  uint32_t first_ = 0, last_ = 0;  // usable addresses, inclusive
  std::string cidr_;
  int port_min_, port_max_;
  std::atomic<registry::ApiRegistry*> registry_{nullptr};
  mutable std::mutex mu_;
  // Handed out, perhaps not stored yet: when.
  mutable std::map<uint32_t, std::chrono::steady_clock::time_point> recent_ips_;
  mutable std::map<int, std::chrono::steady_clock::time_point> recent_ports_;
};

}  // namespace kube::server
