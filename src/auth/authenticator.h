// Authentication: who sent a request (kube's authenticator.Request and authenticator.Token).
// An authenticator answers one of three ways, as kube's do:
//   - a user: the credentials it understands are valid;
//   - no user and OK: the request carries no credentials of its kind (the next one is asked);
//   - an error (Unauthorized): it carries credentials of its kind that are not valid, which
//     fails the request with 401 whatever the others say.
// RequestAuthenticator (request_authenticator.h) combines them in kube's order.
//
// Thread-safety: implementations are immutable after construction and safe for concurrent use.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "auth/user_info.h"
#include "util/status.h"

namespace kube::auth {

// What authentication looks at in a request.
struct Credentials {
  // The TLS client's certificate chain as DER, leaf first; empty without TLS or certificate.
  std::vector<std::string> peer_certificates;
  // The Authorization header, as sent.
  std::string authorization;
};

// An authenticated user plus the audiences its credentials were valid for (TokenReview reports
// them; empty means the server's own).
struct AuthenticatedUser {
  UserInfo user;
  std::vector<std::string> audiences;
};

using AuthenticationResult = Result<std::optional<AuthenticatedUser>>;

// Authenticates a request by its client certificate.
class CertificateAuthenticator {
 public:
  virtual ~CertificateAuthenticator() = default;
  virtual AuthenticationResult Authenticate(const std::vector<std::string>& chain) const = 0;
};

// Authenticates a bearer token. `audiences`: those the token must be valid for (the server's
// --api-audiences for requests; a TokenReview's spec.audiences).
class TokenAuthenticator {
 public:
  virtual ~TokenAuthenticator() = default;
  virtual AuthenticationResult AuthenticateToken(const std::string& token,
                                                 const std::vector<std::string>& audiences) const = 0;
};

inline Status UnauthorizedError(std::string message) {
  return Status(StatusCode::kUnauthorized, std::move(message));
}

}  // namespace kube::auth
