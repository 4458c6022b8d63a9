// X.509 certificates and keys as PEM text, with OpenSSL underneath: making the certificates the
// server needs when none are given (a self-signed CA, a serving certificate signed by it, client
// certificates for the kubeconfig it writes), reading PEM files, and the subject fields that
// client-certificate authentication maps to a user (CN = name, O = groups).
//
// Keys made here are ECDSA P-256 (PKCS#8 PEM), certificates SHA-256 signed, as kube's and
// envtest's own generators make them. Any RSA or ECDSA key is accepted when signing.
//
// Thread-safety: pure functions.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "util/status.h"

namespace kube::auth {

// A certificate and its private key, both PEM.
struct KeyPair {
  std::string cert_pem;
  std::string key_pem;
};

struct CertificateSpec {
  std::string common_name;
  std::vector<std::string> organizations;
  // Subject alternative names of a serving certificate: IP literals become IP SANs, the rest DNS.
  std::vector<std::string> hosts;
  // Validity from a minute before now. Default: one year.
  std::chrono::hours valid_for{24 * 365};
  bool is_ca = false;
  bool server_auth = false;
  bool client_auth = false;
};

// A fresh P-256 key and a certificate for it, self-signed when `signer` is null.
Result<KeyPair> MakeCertificate(const CertificateSpec& spec, const KeyPair* signer);

// Every certificate in `pem` (PEM "CERTIFICATE" blocks), as DER. An error when there is none or
// a block does not parse.
Result<std::vector<std::string>> ParseCertificatesPem(const std::string& pem);
// DER to PEM.
std::string CertificateDerToPem(const std::string& der);
// Checks that `key_pem` holds a private key matching the first certificate of `cert_pem`.
Status CheckKeyPair(const KeyPair& pair);

// The subject of a DER certificate as client-certificate authentication reads it.
struct CertificateName {
  std::string common_name;
  std::vector<std::string> organizations;
};
Result<CertificateName> CertificateSubject(const std::string& der);

// Standard base64 with padding (kubeconfig *-data fields).
std::string Base64Encode(const std::string& data);

// Reads a whole file; NotFound-free wording for flag errors ("open FILE: no such file ...").
Result<std::string> ReadFile(const std::string& path);
// Writes `data` to `path` with the given mode, atomically (temporary file, then rename).
Status WriteFileAtomic(const std::string& path, const std::string& data, unsigned mode);

}  // namespace kube::auth
