// TlsContext: the server side of TLS for the secure port, with Debian's OpenSSL: TLS 1.2 and
// later, the serving certificate chain and its RSA or ECDSA key, and client certificates
// requested but not required (as kube's tls.RequestClientCert): any certificate the client sends
// is accepted by the handshake and judged by client-certificate authentication, so that one
// from another CA is a 401 and not a failed handshake.
//
// Thread-safety: immutable after Create; NewSession may be called from any thread.
#pragma once

#include <openssl/ssl.h>

#include <memory>
#include <string>

#include "util/status.h"

namespace kube::server {

class TlsContext {
 public:
  // `cert_pem`: the serving certificate, then any intermediates; `key_pem`: its private key.
  static Result<std::shared_ptr<TlsContext>> Create(const std::string& cert_pem, const std::string& key_pem);
  ~TlsContext();
  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;

  // A new server-side session on `fd`, handshake not yet done. The caller frees it (SSL_free).
  SSL* NewSession(int fd) const;

 private:
  TlsContext() = default;
  SSL_CTX* ctx_ = nullptr;
};

}  // namespace kube::server
