// JWS signing and verification (ES256, RS256) and service-account tokens issued and
// authenticated as kube does.
#include <doctest/doctest.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "auth/certificates.h"
#include "auth/jwt.h"
#include "auth/openssl_util.h"
#include "auth/service_account_token.h"
#include "util/base64.h"

namespace kube::auth {

namespace {

std::string RsaKeyPem() {
  EvpPkeyPtr key(EVP_RSA_gen(2048));
  BioPtr bio(BIO_new(BIO_s_mem()));
  PEM_write_bio_PrivateKey(bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr);
  return BioString(bio.get());
}

nlohmann::json Header(const std::string& token) {
  return nlohmann::json::parse(*Base64UrlDecode(token.substr(0, token.find('.'))));
}

}  // namespace

TEST_CASE("jwt: ES256 and RS256 tokens verify with the public key, a certificate or the private key") {
  auto ca = MakeCertificate({.common_name = "sa-signer", .is_ca = true}, nullptr);
  REQUIRE(ca.ok());
  auto es = JwtSigner::FromPrivateKeyPem(ca->key_pem);
  REQUIRE(es.ok());
  CHECK((*es)->algorithm() == "ES256");
  auto token = (*es)->Sign({{"sub", "x"}});
  REQUIRE(token.ok());
  CHECK(Header(*token)["alg"] == "ES256");
  CHECK(Header(*token)["kid"] == (*es)->key_id());
  // The raw r||s signature is 64 bytes.
  CHECK(Base64UrlDecode(token->substr(token->rfind('.') + 1))->size() == 64);

  auto by_cert = JwtVerifier::FromPem({ca->cert_pem});
  REQUIRE(by_cert.ok());
  auto claims = (*by_cert)->Verify(*token);
  REQUIRE(claims.ok());
  CHECK((*claims)["sub"] == "x");
  CHECK((*JwtVerifier::FromPem({ca->key_pem}))->Verify(*token).ok());

  const std::string rsa_pem = RsaKeyPem();
  auto rs = JwtSigner::FromPrivateKeyPem(rsa_pem);
  REQUIRE(rs.ok());
  CHECK((*rs)->algorithm() == "RS256");
  auto rs_token = (*rs)->Sign({{"sub", "y"}});
  REQUIRE(rs_token.ok());
  auto both = JwtVerifier::FromPem({ca->cert_pem + rsa_pem});
  REQUIRE(both.ok());
  CHECK((*both)->Verify(*rs_token).ok());
  CHECK((*both)->Verify(*token).ok());

  // Another key, a changed payload, a changed algorithm: refused.
  auto other = MakeCertificate({.common_name = "other", .is_ca = true}, nullptr);
  CHECK((*JwtVerifier::FromPem({other->cert_pem}))->Verify(*token).status().code() == StatusCode::kUnauthorized);
  std::string tampered = *token;
  const size_t dot = tampered.find('.');
  tampered.replace(dot + 1, tampered.find('.', dot + 1) - dot - 1, Base64UrlEncode(R"({"sub":"admin"})"));
  CHECK_FALSE((*by_cert)->Verify(tampered).ok());
  CHECK_FALSE((*by_cert)->Verify("a.b").ok());
  CHECK_FALSE(JwtVerifier::LooksLikeJwt("not-a-token"));
  CHECK(JwtVerifier::LooksLikeJwt(*token));
  CHECK_FALSE(JwtVerifier::FromPem({"garbage"}).ok());
}

TEST_CASE("service-account tokens: issued, then authenticated with issuer, audience and existence checks") {
  auto key = MakeCertificate({.common_name = "sa-signer", .is_ca = true}, nullptr);
  auto signer = JwtSigner::FromPrivateKeyPem(key->key_pem);
  auto verifier = JwtVerifier::FromPem({key->cert_pem});
  REQUIRE(signer.ok());
  REQUIRE(verifier.ok());
  const std::string iss = "https://127.0.0.1:6443/";
  ServiceAccountTokenIssuer issuer(*signer, iss);
  std::map<std::string, std::string> live = {{"serviceaccounts/default/builder", "sa-uid"}, {"pods/default/p1", "pod-uid"}};
  ObjectLookup lookup = [&live](const std::string& r, const std::string& ns, const std::string& n) -> std::optional<std::string> {
    auto it = live.find(r + "/" + ns + "/" + n);
    if (it == live.end()) return std::nullopt;
    return it->second;
  };
  ServiceAccountTokenAuthenticator authn(*verifier, {iss}, lookup);
  const auto now = std::chrono::system_clock::now();

  TokenSpec spec{.ns = "default", .service_account = "builder", .service_account_uid = "sa-uid", .audiences = {iss}};
  auto issued = issuer.Issue(spec, now);
  REQUIRE(issued.ok());
  CHECK(issued->expiration - now == std::chrono::seconds(3600));
  auto user = authn.AuthenticateToken(issued->token, {iss});
  REQUIRE(user.ok());
  REQUIRE(user->has_value());
  CHECK((*user)->user.name == "system:serviceaccount:default:builder");
  CHECK((*user)->user.uid == "sa-uid");
  CHECK((*user)->user.groups == std::vector<std::string>{"system:serviceaccounts", "system:serviceaccounts:default"});
  CHECK((*user)->user.extra.count("authentication.kubernetes.io/credential-id") == 1);
  CHECK((*user)->audiences == std::vector<std::string>{iss});

  // Wrong audience; another issuer's JWT is no opinion; not a JWT is no opinion.
  CHECK(authn.AuthenticateToken(issued->token, {"other"}).status().code() == StatusCode::kUnauthorized);
  ServiceAccountTokenIssuer stranger(*signer, "https://elsewhere/");
  auto foreign = stranger.Issue(spec, now);
  CHECK_FALSE(authn.AuthenticateToken(foreign->token, {iss})->has_value());
  CHECK_FALSE(authn.AuthenticateToken("plain-token", {iss})->has_value());

  // Expired.
  auto old = issuer.Issue(spec, now - std::chrono::hours(2));
  CHECK(authn.AuthenticateToken(old->token, {iss}).status().code() == StatusCode::kUnauthorized);

  // Bound to a pod: valid while the pod lives with that uid.
  TokenSpec bound = spec;
  bound.bound = BoundObject{"Pod", "v1", "p1", "pod-uid"};
  auto pod_token = issuer.Issue(bound, now);
  auto pod_user = authn.AuthenticateToken(pod_token->token, {iss});
  REQUIRE(pod_user.ok());
  CHECK((*pod_user)->user.extra.at("authentication.kubernetes.io/pod-name") == std::vector<std::string>{"p1"});
  live.erase("pods/default/p1");
  CHECK(authn.AuthenticateToken(pod_token->token, {iss}).status().code() == StatusCode::kUnauthorized);

  // The service account deleted, or re-created with another uid.
  live["serviceaccounts/default/builder"] = "new-uid";
  CHECK(authn.AuthenticateToken(issued->token, {iss}).status().code() == StatusCode::kUnauthorized);

  CHECK(SplitServiceAccountUsername("system:serviceaccount:ns:n") == std::make_pair(std::string("ns"), std::string("n")));
  CHECK_FALSE(SplitServiceAccountUsername("system:serviceaccount:ns").has_value());
  CHECK_FALSE(SplitServiceAccountUsername("alice").has_value());
}

}  // namespace kube::auth
