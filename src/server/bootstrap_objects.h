// The objects a fresh kube-apiserver creates by itself, kept as its controllers keep them:
//  - default/kubernetes Service (labels component=apiserver, provider=kubernetes; the service
//    range's first address; port 443 named "https" to the serving port), its Endpoints (label
//    endpointslice.kubernetes.io/skip-mirror=true) and EndpointSlice (label
//    kubernetes.io/service-name=kubernetes) with the server's address — kube's
//    kubernetesservice controller and master endpoints reconciler;
//  - the system PriorityClasses system-node-critical (2000001000) and system-cluster-critical
//    (2000000000) — kube's scheduling bootstrap.
// Each is created when missing and put back to the server's values when it differs (a restart
// with --data-dir or another address); then every kReconcileInterval, so a deleted one returns.
//
// The address is --advertise-address, else --bind-address, else (unspecified or loopback, which
// Endpoints refuse) the host's first non-loopback interface address, as kube chooses it.
//
// Thread-safety: Start once; the reconciler thread stops with the object.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "registry/api_registry.h"

namespace kube::server {

struct BootstrapObjectsOptions {
  // The kubernetes Service's cluster IP; empty: no Service (no usable range).
  std::string service_ip;
  // --advertise-address / --bind-address as given ("" for unset).
  std::string advertise_address;
  std::string bind_address;
  // The port clients reach the API at (the secure port, else the plain one).
  int port = 6443;
};

class BootstrapObjects {
 public:
  static constexpr auto kReconcileInterval = std::chrono::seconds(10);

  BootstrapObjects(registry::ApiRegistry* registry, BootstrapObjectsOptions options);
  ~BootstrapObjects();

  // Creates or corrects everything once (errors are returned), then keeps it so in the
  // background.
  Status Start();
  // One pass, as Start's first.
  Status Reconcile();
  // The address the Endpoints and EndpointSlice carry.
  const std::string& endpoint_address() const { return address_; }

 private:
  Status EnsurePriorityClasses();
  Status EnsureService();
  Status EnsureEndpoints();

  registry::ApiRegistry* registry_;
  BootstrapObjectsOptions options_;
  std::string address_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace kube::server
