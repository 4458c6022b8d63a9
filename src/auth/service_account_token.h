// Service-account tokens: issuing them (TokenRequest, signed with
// --service-account-signing-key-file, "iss" = the first --service-account-issuer) and
// authenticating them (verified with --service-account-key-file), as kube's
// serviceaccount.JWTTokenGenerator / JWTTokenAuthenticator do.
//
// Bound tokens carry sub = system:serviceaccount:<ns>:<name>, aud, exp, iat, nbf, jti and a
// "kubernetes.io" claim naming the namespace, the service account (name, uid) and the object the
// token is bound to (pod, secret or node). Legacy tokens (iss "kubernetes/serviceaccount", the
// kubernetes.io/serviceaccount/* claims) are accepted too. Authentication checks the issuer, the
// signature, the times, the audiences (one of the token's must be one of the server's) and —
// through an ObjectLookup — that the service account (and the bound object) still exists with
// the uid the token names. The user is the service account with groups system:serviceaccounts
// and system:serviceaccounts:<ns>.
//
// Thread-safety: immutable after creation; safe for concurrent use (the lookup must be too).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "auth/authenticator.h"
#include "auth/jwt.h"

namespace kube::auth {

inline constexpr char kLegacyServiceAccountIssuer[] = "kubernetes/serviceaccount";
inline constexpr char kServiceAccountUsernamePrefix[] = "system:serviceaccount:";
inline constexpr char kServiceAccountsGroup[] = "system:serviceaccounts";

// The uid of a live object of the core group, nullopt when there is none (or it is being
// deleted). `resource`: "serviceaccounts", "secrets", "pods" or "nodes" ("" namespace for nodes).
using ObjectLookup = std::function<std::optional<std::string>(const std::string& resource, const std::string& ns,
                                                              const std::string& name)>;

// system:serviceaccount:<ns>:<name> split; nullopt for other user names.
std::optional<std::pair<std::string, std::string>> SplitServiceAccountUsername(const std::string& username);
// The user a service account authenticates as (groups included, system:authenticated not).
UserInfo ServiceAccountUser(const std::string& ns, const std::string& name, const std::string& uid);

struct BoundObject {
  std::string kind;  // Pod, Secret or Node
  std::string api_version;
  std::string name;
  std::string uid;
};

struct TokenSpec {
  std::string ns;
  std::string service_account;
  std::string service_account_uid;
  std::vector<std::string> audiences;
  int64_t expiration_seconds = 3600;
  std::optional<BoundObject> bound;
  // The node a bound pod runs on, recorded in the token as kube does (empty when none).
  std::string pod_node_name;
  std::string pod_node_uid;
};

struct IssuedToken {
  std::string token;
  std::chrono::system_clock::time_point expiration;
};

class ServiceAccountTokenIssuer {
 public:
  ServiceAccountTokenIssuer(std::shared_ptr<const JwtSigner> signer, std::string issuer)
      : signer_(std::move(signer)), issuer_(std::move(issuer)) {}
  const std::string& issuer() const { return issuer_; }
  Result<IssuedToken> Issue(const TokenSpec& spec, std::chrono::system_clock::time_point now) const;

 private:
  std::shared_ptr<const JwtSigner> signer_;
  std::string issuer_;
};

class ServiceAccountTokenAuthenticator final : public TokenAuthenticator {
 public:
  // `issuers`: every --service-account-issuer (the legacy issuer is always accepted).
  // `lookup` may be empty: then existence is not checked (--service-account-lookup=false for
  // legacy tokens; bound tokens are always looked up when it is set).
  ServiceAccountTokenAuthenticator(std::shared_ptr<const JwtVerifier> verifier, std::vector<std::string> issuers,
                                   ObjectLookup lookup)
      : verifier_(std::move(verifier)), issuers_(std::move(issuers)), lookup_(std::move(lookup)) {}

  AuthenticationResult AuthenticateToken(const std::string& token,
                                         const std::vector<std::string>& audiences) const override;

 private:
  AuthenticationResult Bound(const nlohmann::json& claims, const std::vector<std::string>& audiences) const;
  AuthenticationResult Legacy(const nlohmann::json& claims) const;

  std::shared_ptr<const JwtVerifier> verifier_;
  std::vector<std::string> issuers_;
  ObjectLookup lookup_;
};

}  // namespace kube::auth
