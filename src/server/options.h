// Options of the kube-apiserver-lite binary, filled by ParseFlags from kube-apiserver's flags
// (flags.h lists them all; those that mean nothing here are accepted and reported as ignored).
// A plain aggregate.
//
// Serving: HTTPS on --secure-port unless only --port is given; plain HTTP on --port when given.
// Both at once when both are given.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kube::server {

struct ServerOptions {
  // Address to listen on (--bind-address). Default: 127.0.0.1 (kube's is 0.0.0.0; a test
  // server stays on loopback unless asked).
  std::string bind_address = "127.0.0.1";
  // Plain-HTTP port (--port, kube's old insecure port: no credentials needed, every request is
  // made as a system:masters user). 0 picks a free one; -1 serves no plain HTTP. Default: -1.
  int port = -1;
  // Where to write a kubeconfig for the server once it is ready, atomically (--kubeconfig-out).
  // Default: none.
  std::string kubeconfig_out;
  // Persist everything under this directory (--data-dir). Default: "" (in memory).
  std::string data_dir;
  // Manifests created once the server is up and before it reports ready (--load, repeatable):
  // files or directories of .yaml/.yml/.json, in the order manifest_loader.h describes.
  // Default: none.
  std::vector<std::string> load;
  // Log verbosity (-v / --v). 1 and above log one line per request. Default: 0.
  int verbosity = 0;
  // Largest accepted request body in bytes (kube's limit is 3 MiB). Default: 3 MiB.
  size_t max_request_body_bytes = 3 * 1024 * 1024;

  // --- secure serving
  // HTTPS port (--secure-port); 0 picks a free one. Default: 6443.
  int secure_port = 6443;
  // Whether --secure-port was given (with --port alone, no HTTPS is served).
  bool secure_port_set = false;
  // --tls-cert-file / --tls-private-key-file; else <cert-dir>/apiserver.crt|key when present,
  // else a generated self-signed CA and serving certificate (written to --cert-dir when given).
  std::string tls_cert_file;
  std::string tls_private_key_file;
  std::string cert_dir;
  // --advertise-address: added to the serving certificate's names and /api's server address.
  std::string advertise_address;

  // --- authentication
  std::string client_ca_file;
  std::string token_auth_file;
  bool anonymous_auth = true;
  std::vector<std::string> service_account_key_files;
  std::string service_account_signing_key_file;
  std::vector<std::string> service_account_issuers;
  std::vector<std::string> api_audiences;
  // --service-account-max-token-expiration in seconds; 0: no maximum.
  int64_t service_account_max_token_expiration = 0;
  bool service_account_lookup = true;

  // --- authorization: --authorization-mode, in order. Default: AlwaysAllow (kube's).
  std::vector<std::string> authorization_modes = {"AlwaysAllow"};

  // --- API and admission
  // --runtime-config key=value pairs, in order ("api/all", "batch/v1", "batch/v1/jobs").
  std::vector<std::pair<std::string, std::string>> runtime_config;
  std::string service_cluster_ip_range = "10.0.0.0/24";
  // --service-node-port-range, inclusive. Default: 30000-32767.
  int node_port_min = 30000;
  int node_port_max = 32767;
  std::vector<std::string> enable_admission_plugins;
  std::vector<std::string> disable_admission_plugins;
  // --feature-gates as given, each flag's value in order; ResolveFeatureGates (feature_gates.h)
  // checks them against kube 1.36's gates into feature_gates (validated, not acted on).
  std::vector<std::string> feature_gate_values;
  std::map<std::string, bool> feature_gates;

  // kube-apiserver flags given that change nothing here, as "--name=value", in order.
  std::vector<std::string> ignored_flags;
};

}  // namespace kube::server
