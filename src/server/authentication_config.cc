#include "server/authentication_config.h"

#include "auth/certificates.h"
#include "auth/jwt.h"
#include "auth/token_file_authenticator.h"
#include "auth/x509_authenticator.h"

namespace kube::server {

Result<AuthenticationSetup> BuildAuthentication(const ServerOptions& options,
                                                const std::vector<std::string>& extra_client_cas,
                                                auth::ObjectLookup lookup) {
  auth::RequestAuthenticatorOptions authn;
  authn.anonymous = options.anonymous_auth;

  std::vector<std::string> cas = extra_client_cas;
  if (!options.client_ca_file.empty()) {
    auto pem = auth::ReadFile(options.client_ca_file);
    if (!pem.ok()) return Status::BadRequest("unable to load client CA file: " + pem.status().message());
    cas.push_back(*pem);
  }
  if (!cas.empty()) {
    auto x509 = auth::X509Authenticator::Create(cas);
    if (!x509.ok()) return Status::BadRequest("unable to load client CA file: " + x509.status().message());
    authn.certificates = *x509;
  }
  if (!options.token_auth_file.empty()) {
    auto tokens = auth::TokenFileAuthenticator::Load(options.token_auth_file);
    if (!tokens.ok()) return tokens.status();
    authn.tokens.push_back(*tokens);
  }

  // The signing key: the flag's, else one made now.
  std::string signing_pem;
  if (!options.service_account_signing_key_file.empty()) {
    auto pem = auth::ReadFile(options.service_account_signing_key_file);
    if (!pem.ok()) return Status::BadRequest("failed to parse service-account-issuer-key-file: " + pem.status().message());
    signing_pem = *pem;
  } else {
    auto generated = auth::MakeCertificate({.common_name = "service-account-signer"}, nullptr);
    if (!generated.ok()) return generated.status();
    signing_pem = generated->key_pem;
  }
  auto signer = auth::JwtSigner::FromPrivateKeyPem(signing_pem);
  if (!signer.ok()) return Status::BadRequest("failed to parse service-account-issuer-key-file: " + signer.status().message());

  std::vector<std::string> key_pems;
  for (const auto& file : options.service_account_key_files) {
    auto pem = auth::ReadFile(file);
    if (!pem.ok()) return Status::BadRequest("failed to read service-account-key-file: " + pem.status().message());
    key_pems.push_back(*pem);
  }
  if (key_pems.empty()) {
    key_pems.push_back(signing_pem);
    if (!options.tls_private_key_file.empty()) {
      if (auto pem = auth::ReadFile(options.tls_private_key_file); pem.ok()) key_pems.push_back(*pem);
    }
  }
  auto verifier = auth::JwtVerifier::FromPem(key_pems);
  if (!verifier.ok()) return Status::BadRequest("failed to parse service-account-key-file: " + verifier.status().message());

  std::vector<std::string> issuers = options.service_account_issuers;
  if (issuers.empty()) issuers.push_back(kDefaultServiceAccountIssuer);
  // kube: without --api-audiences, tokens must be meant for the (first) issuer.
  authn.api_audiences = options.api_audiences.empty() ? std::vector<std::string>{issuers[0]} : options.api_audiences;
  authn.tokens.push_back(std::make_shared<auth::ServiceAccountTokenAuthenticator>(
      *verifier, issuers, options.service_account_lookup ? std::move(lookup) : auth::ObjectLookup()));

  AuthenticationSetup setup;
  setup.authenticator = std::make_shared<auth::RequestAuthenticator>(std::move(authn));
  setup.token_issuer = std::make_shared<auth::ServiceAccountTokenIssuer>(*signer, issuers[0]);
  return setup;
}

}  // namespace kube::server
