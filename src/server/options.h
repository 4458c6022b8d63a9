// Options of the kube-apiserver-lite binary (flag names follow kube-apiserver's where a flag
// means the same). A plain aggregate filled by ParseFlags.
#pragma once

#include <string>

namespace kube::server {

struct ServerOptions {
  // Address to listen on (--bind-address). Default: 127.0.0.1.
  std::string bind_address = "127.0.0.1";
  // Port (--port; kube's --secure-port serves TLS, this serves plain HTTP). 0 picks a free one.
  // Default: 6443.
  int port = 6443;
  // Where to write a kubeconfig for the server once it is ready, atomically (--kubeconfig-out).
  // Default: none.
  std::string kubeconfig_out;
  // Persist everything under this directory (--data-dir). Default: "" (in memory).
  std::string data_dir;
  // Comma-separated authorizers (--authorization-mode): AlwaysAllow, AlwaysDeny, RBAC.
  // Default: AlwaysAllow.
  std::string authorization_mode = "AlwaysAllow";
  // Log verbosity (-v / --v). 1 and above log one line per request. Default: 0.
  int verbosity = 0;
  // Largest accepted request body in bytes (kube's limit is 3 MiB). Default: 3 MiB.
  size_t max_request_body_bytes = 3 * 1024 * 1024;
};

}  // namespace kube::server
