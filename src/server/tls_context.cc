#include "server/tls_context.h"

#include <openssl/err.h>
#include <openssl/pem.h>

namespace kube::server {

namespace {

std::string SslError() {
  std::string out;
  while (unsigned long e = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    if (!out.empty()) out += "; ";
    out += buf;
  }
  return out;
}

// Accepts whatever chain the client presents; authentication verifies it per request.
int AcceptAnyClientCertificate(int, X509_STORE_CTX*) { return 1; }

}  // namespace

TlsContext::~TlsContext() { SSL_CTX_free(ctx_); }

Result<std::shared_ptr<TlsContext>> TlsContext::Create(const std::string& cert_pem, const std::string& key_pem) {
  std::shared_ptr<TlsContext> t(new TlsContext());
  t->ctx_ = SSL_CTX_new(TLS_server_method());
  if (t->ctx_ == nullptr) return Status::Internal("cannot create TLS context: " + SslError());
  SSL_CTX_set_min_proto_version(t->ctx_, TLS1_2_VERSION);
  SSL_CTX_set_options(t->ctx_, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
  // Serving certificate chain: the leaf first, intermediates after it.
  BIO* bio = BIO_new_mem_buf(cert_pem.data(), static_cast<int>(cert_pem.size()));
  X509* leaf = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
  if (leaf == nullptr || SSL_CTX_use_certificate(t->ctx_, leaf) != 1) {
    X509_free(leaf);
    BIO_free(bio);
    return Status::BadRequest("failed to find any PEM data in certificate input");
  }
  X509_free(leaf);
  while (X509* extra = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr)) {
    if (SSL_CTX_add_extra_chain_cert(t->ctx_, extra) != 1) X509_free(extra);  // the context owns it on success
  }
  ERR_clear_error();
  BIO_free(bio);
  bio = BIO_new_mem_buf(key_pem.data(), static_cast<int>(key_pem.size()));
  EVP_PKEY* key = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  if (key == nullptr || SSL_CTX_use_PrivateKey(t->ctx_, key) != 1) {
    EVP_PKEY_free(key);
    ERR_clear_error();
    return Status::BadRequest("failed to find any PEM data in key input");
  }
  EVP_PKEY_free(key);
  if (SSL_CTX_check_private_key(t->ctx_) != 1) {
    ERR_clear_error();
    return Status::BadRequest("tls: private key does not match public key");
  }
  SSL_CTX_set_verify(t->ctx_, SSL_VERIFY_PEER, AcceptAnyClientCertificate);
  // Needed once client certificates are requested and sessions may be resumed.
  static const unsigned char kSessionContext[] = "kube-apiserver-lite";
  SSL_CTX_set_session_id_context(t->ctx_, kSessionContext, sizeof kSessionContext - 1);
  return t;
}

SSL* TlsContext::NewSession(int fd) const {
  SSL* ssl = SSL_new(ctx_);
  if (ssl != nullptr) SSL_set_fd(ssl, fd);
  return ssl;
}

}  // namespace kube::server
