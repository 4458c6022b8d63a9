// Internal to kube_auth and kube_server: owning pointers for OpenSSL objects and the PEM parsing
// shared by certificates, JWT keys and the TLS context. Everything else speaks PEM/DER strings.
//
// Thread-safety: pure functions; the objects are not shared between threads by these helpers.
#pragma once

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include <memory>
#include <string>
#include <vector>

#include "util/status.h"

namespace kube::auth {

struct OpenSslDeleter {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
  void operator()(X509* p) const { X509_free(p); }
  void operator()(BIO* p) const { BIO_free(p); }
  void operator()(X509_STORE* p) const { X509_STORE_free(p); }
  void operator()(X509_STORE_CTX* p) const { X509_STORE_CTX_free(p); }
  void operator()(EVP_MD_CTX* p) const { EVP_MD_CTX_free(p); }
};
using EvpPkeyPtr = std::unique_ptr<EVP_PKEY, OpenSslDeleter>;
using X509Ptr = std::unique_ptr<X509, OpenSslDeleter>;
using BioPtr = std::unique_ptr<BIO, OpenSslDeleter>;
using X509StorePtr = std::unique_ptr<X509_STORE, OpenSslDeleter>;
using X509StoreCtxPtr = std::unique_ptr<X509_STORE_CTX, OpenSslDeleter>;
using EvpMdCtxPtr = std::unique_ptr<EVP_MD_CTX, OpenSslDeleter>;

// The queued OpenSSL errors as one line (and clears the queue).
inline std::string OpenSslError() {
  std::string out;
  while (unsigned long e = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    if (!out.empty()) out += "; ";
    out += buf;
  }
  return out.empty() ? "unknown error" : out;
}

inline std::string BioString(BIO* bio) {
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<size_t>(n));
}

// The first certificate of a PEM text.
Result<X509Ptr> ParseCertificate(const std::string& pem);
// The first private key of a PEM text (PKCS#8, PKCS#1 RSA or SEC1 EC).
Result<EvpPkeyPtr> ParsePrivateKey(const std::string& pem);
// Every RSA or ECDSA public key of a PEM text: public keys, the public half of private keys, and
// the keys of certificates (kube's keyutil.ParsePublicKeysPEM).
Result<std::vector<EvpPkeyPtr>> ParsePublicKeys(const std::string& pem);

}  // namespace kube::auth
