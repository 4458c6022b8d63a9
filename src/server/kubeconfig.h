// Writes a kubeconfig pointing at the server, atomically (temporary file, then rename), so a
// process polling for the file never reads half of it.
//
// Thread-safety: pure functions (touch only the given path).
#pragma once

#include <string>

#include "util/status.h"

namespace kube::server {

struct KubeconfigCredentials {
  // PEM; empty for a plain-HTTP server, whose kubeconfig says insecure-skip-tls-verify: true
  // (clients that refuse plain HTTP without it, like @kubernetes/client-node, then connect).
  std::string ca_pem;
  std::string client_cert_pem;
  std::string client_key_pem;
};

// The kubeconfig's text: one cluster, user and context named kube-apiserver-lite, namespace
// default.
std::string KubeconfigText(const std::string& server_url, const KubeconfigCredentials& credentials = {});

// Writes `text` (a kubeconfig) atomically, readable by the owner only when it holds a client key.
Status WriteKubeconfigText(const std::string& path, const std::string& text);

Status WriteKubeconfig(const std::string& path, const std::string& server_url,
                       const KubeconfigCredentials& credentials = {});

}  // namespace kube::server
