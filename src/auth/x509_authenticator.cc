#include "auth/x509_authenticator.h"

#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#include "auth/certificates.h"
#include "auth/openssl_util.h"

namespace kube::auth {

namespace {

X509Ptr FromDer(const std::string& der) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(der.data());
  return X509Ptr(d2i_X509(nullptr, &p, static_cast<long>(der.size())));
}

struct StackDeleter {
  void operator()(STACK_OF(X509)* s) const { sk_X509_pop_free(s, X509_free); }
};

}  // namespace

struct X509Authenticator::Store {
  X509StorePtr store;
};

X509Authenticator::~X509Authenticator() = default;

Result<std::shared_ptr<const X509Authenticator>> X509Authenticator::Create(const std::vector<std::string>& ca_pems) {
  std::shared_ptr<X509Authenticator> a(new X509Authenticator());
  a->store_ = std::make_unique<Store>();
  a->store_->store.reset(X509_STORE_new());
  for (const auto& pem : ca_pems) {
    auto ders = ParseCertificatesPem(pem);
    if (!ders.ok()) return ders.status();
    for (const auto& der : *ders) {
      X509Ptr cert = FromDer(der);
      if (!cert || X509_STORE_add_cert(a->store_->store.get(), cert.get()) != 1) {
        // The same CA given twice is fine.
        ERR_clear_error();
      }
    }
  }
  return std::shared_ptr<const X509Authenticator>(std::move(a));
}

AuthenticationResult X509Authenticator::Authenticate(const std::vector<std::string>& chain) const {
  if (chain.empty()) return std::optional<AuthenticatedUser>();
  X509Ptr leaf = FromDer(chain[0]);
  if (!leaf) return UnauthorizedError("cannot parse the client certificate");
  std::unique_ptr<STACK_OF(X509), StackDeleter> intermediates(sk_X509_new_null());
  for (size_t i = 1; i < chain.size(); ++i) {
    if (X509Ptr c = FromDer(chain[i])) sk_X509_push(intermediates.get(), c.release());
  }
  X509StoreCtxPtr ctx(X509_STORE_CTX_new());
  if (X509_STORE_CTX_init(ctx.get(), store_->store.get(), leaf.get(), intermediates.get()) != 1) {
    return UnauthorizedError("cannot verify the client certificate: " + OpenSslError());
  }
  // Go's x509 verification with ExtKeyUsageClientAuth.
  X509_STORE_CTX_set_purpose(ctx.get(), X509_PURPOSE_SSL_CLIENT);
  if (X509_verify_cert(ctx.get()) != 1) {
    const int err = X509_STORE_CTX_get_error(ctx.get());
    ERR_clear_error();
    return UnauthorizedError(std::string("verifying certificate failed: x509: ") + X509_verify_cert_error_string(err));
  }
  auto subject = CertificateSubject(chain[0]);
  if (!subject.ok()) return UnauthorizedError(subject.status().message());
  if (subject->common_name.empty()) return UnauthorizedError("x509: certificate has no common name");
  AuthenticatedUser u;
  u.user.name = subject->common_name;
  u.user.groups = subject->organizations;
  return std::optional<AuthenticatedUser>(std::move(u));
}

}  // namespace kube::auth
