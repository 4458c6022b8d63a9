// The request authenticator kube-apiserver builds from its flags, in kube's order and with its
// results:
//   1. the client certificate (--client-ca-file);
//   2. the bearer token of "Authorization: Bearer <token>": the token file, then service-account
//      JWTs; a token none of them knows is an error;
//   the first that returns a user wins; if none does and one failed, 401;
//   3. with no credentials at all: system:anonymous in system:unauthenticated when anonymous
//      requests are allowed, 401 otherwise.
// Every authenticated (non-anonymous) user gets system:authenticated added.
//
// Thread-safety: immutable after construction; safe for concurrent use.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "auth/authenticator.h"

namespace kube::auth {

struct RequestAuthenticatorOptions {
  std::shared_ptr<const CertificateAuthenticator> certificates;  // null: no client-certificate authentication
  // In order: token file, service accounts.
  std::vector<std::shared_ptr<const TokenAuthenticator>> tokens;
  // --api-audiences (or the first --service-account-issuer when empty).
  std::vector<std::string> api_audiences;
  // --anonymous-auth. Default: true.
  bool anonymous = true;
};

class RequestAuthenticator {
 public:
  explicit RequestAuthenticator(RequestAuthenticatorOptions options) : options_(std::move(options)) {}

  // The user, or Unauthorized (kube's 401 Status message is just "Unauthorized").
  Result<AuthenticatedUser> Authenticate(const Credentials& credentials) const;
  // A bearer token alone (TokenReview): the tokens' union, no anonymous fallback; `audiences`
  // empty means the server's. No user is an Unauthorized error.
  Result<AuthenticatedUser> AuthenticateToken(const std::string& token, std::vector<std::string> audiences) const;

  const std::vector<std::string>& api_audiences() const { return options_.api_audiences; }

 private:
  RequestAuthenticatorOptions options_;
};

// Adds system:authenticated to a non-anonymous user that lacks it.
void AddAuthenticatedGroup(UserInfo* user);

}  // namespace kube::auth
