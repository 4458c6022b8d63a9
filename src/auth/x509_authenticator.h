// Client-certificate authentication (--client-ca-file): a chain that verifies against one of the
// CA certificates for client authentication names the user by its subject, CN the name and each
// O a group, as kube's x509.CommonNameUserConversion. A chain that does not verify (another CA,
// expired, not for client auth) is an error: 401 even when anonymous requests are allowed.
//
// Thread-safety: immutable after creation; Authenticate is safe to call concurrently.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "auth/authenticator.h"

namespace kube::auth {

class X509Authenticator final : public CertificateAuthenticator {
 public:
  // `ca_pems`: PEM texts holding the trusted CA certificates (one or more each).
  static Result<std::shared_ptr<const X509Authenticator>> Create(const std::vector<std::string>& ca_pems);
  ~X509Authenticator() override;

  AuthenticationResult Authenticate(const std::vector<std::string>& chain) const override;

 private:
  struct Store;
  X509Authenticator() = default;
  std::unique_ptr<Store> store_;
};

}  // namespace kube::auth
