// The certificates of the secure port, as kube-apiserver finds them: --tls-cert-file and
// --tls-private-key-file; else apiserver.crt/.key in --cert-dir when both exist; else a
// self-signed CA and a serving certificate signed by it, generated at start (ECDSA P-256; SANs
// localhost, 127.0.0.1, ::1, the bind and advertise addresses and kubernetes.default.svc...),
// and written to --cert-dir as apiserver.crt (certificate, then CA) and apiserver.key.
//
// And the client CA kube-apiserver-lite signs its --kubeconfig-out admin certificate with:
// generated (and kept in --cert-dir as kubeconfig-client-ca.crt/.key so a restart keeps old
// kubeconfigs valid), trusted for client certificates beside --client-ca-file.
//
// Thread-safety: called once at start.
#pragma once

#include <string>
#include <vector>

#include "auth/certificates.h"
#include "server/options.h"
#include "util/status.h"

namespace kube::server {

struct ServingCertificates {
  auth::KeyPair serving;  // chain (leaf first) and key
  // The CA a client should trust to verify `serving` (kubeconfig certificate-authority-data).
  std::string ca_pem;
  bool generated = false;
};

Result<ServingCertificates> LoadOrGenerateServingCertificates(const ServerOptions& options);

// The CA of the kubeconfig's admin client certificate.
Result<auth::KeyPair> LoadOrGenerateKubeconfigClientCa(const ServerOptions& options);

// The admin client certificate (CN kube-apiserver-lite:admin, O system:masters).
Result<auth::KeyPair> MakeAdminClientCertificate(const auth::KeyPair& client_ca);

}  // namespace kube::server
