// Builds the secure port's authentication from the flags, as kube-apiserver's
// BuiltInAuthenticationOptions do: the client-certificate authenticator (--client-ca-file, plus
// the CA of the kubeconfig this server writes), the token file, service-account tokens
// (verified with --service-account-key-file, else the signing key, else --tls-private-key-file;
// issuers from --service-account-issuer) and anonymous requests (--anonymous-auth), and the
// TokenRequest issuer (--service-account-signing-key-file and the first issuer).
//
// Unlike kube-apiserver, the signing key and issuer are optional: without them a P-256 key is
// generated at start and the issuer is https://kubernetes.default.svc.cluster.local, so that
// TokenRequest works out of the box.
//
// Thread-safety: called once at start; the results are immutable and shared.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "auth/request_authenticator.h"
#include "auth/service_account_token.h"
#include "server/options.h"

namespace kube::server {

inline constexpr char kDefaultServiceAccountIssuer[] = "https://kubernetes.default.svc.cluster.local";

struct AuthenticationSetup {
  std::shared_ptr<const auth::RequestAuthenticator> authenticator;
  std::shared_ptr<const auth::ServiceAccountTokenIssuer> token_issuer;
};

// `extra_client_cas`: PEM CAs trusted for client certificates beside --client-ca-file.
// `lookup`: finds service accounts and bound objects (for --service-account-lookup).
Result<AuthenticationSetup> BuildAuthentication(const ServerOptions& options,
                                                const std::vector<std::string>& extra_client_cas,
                                                auth::ObjectLookup lookup);

}  // namespace kube::server
