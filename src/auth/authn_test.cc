// Client-certificate, token-file and anonymous authentication, and their union in kube's order.
#include <doctest/doctest.h>

#include "auth/certificates.h"
#include "auth/request_authenticator.h"
#include "auth/token_file_authenticator.h"
#include "auth/x509_authenticator.h"

namespace kube::auth {

namespace {

KeyPair Ca(const std::string& cn) {
  auto ca = MakeCertificate({.common_name = cn, .is_ca = true}, nullptr);
  REQUIRE(ca.ok());
  return *ca;
}

std::vector<std::string> ClientChain(const KeyPair& ca, const std::string& cn, std::vector<std::string> orgs) {
  auto c = MakeCertificate({.common_name = cn, .organizations = std::move(orgs), .client_auth = true}, &ca);
  REQUIRE(c.ok());
  auto der = ParseCertificatesPem(c->cert_pem);
  REQUIRE(der.ok());
  return *der;
}

}  // namespace

TEST_CASE("certificates: generated CA, serving and client certificates carry what was asked") {
  const KeyPair ca = Ca("test-ca");
  CHECK(CheckKeyPair(ca).ok());
  auto serving = MakeCertificate({.common_name = "localhost", .hosts = {"localhost", "127.0.0.1", "::1"},
                                  .server_auth = true}, &ca);
  REQUIRE(serving.ok());
  CHECK(CheckKeyPair(*serving).ok());
  CHECK_FALSE(CheckKeyPair({serving->cert_pem, ca.key_pem}).ok());
  auto der = ParseCertificatesPem(ca.cert_pem + serving->cert_pem);
  REQUIRE(der.ok());
  CHECK(der->size() == 2);
  auto subject = CertificateSubject((*der)[1]);
  REQUIRE(subject.ok());
  CHECK(subject->common_name == "localhost");
  CHECK(CertificateDerToPem((*der)[0]) == ca.cert_pem);
  CHECK_FALSE(ParseCertificatesPem("not a certificate").ok());
  CHECK(Base64Encode("ab") == "YWI=");
}

TEST_CASE("x509: CN is the user, O the groups; other CAs and server-only certificates are errors") {
  const KeyPair ca = Ca("client-ca");
  const KeyPair rogue = Ca("client-ca");  // same name, other key
  auto authn = X509Authenticator::Create({ca.cert_pem});
  REQUIRE(authn.ok());
  auto alice = (*authn)->Authenticate(ClientChain(ca, "alice", {"dev", "qa"}));
  REQUIRE(alice.ok());
  REQUIRE(alice->has_value());
  CHECK((*alice)->user.name == "alice");
  CHECK((*alice)->user.groups == std::vector<std::string>{"dev", "qa"});

  auto foreign = (*authn)->Authenticate(ClientChain(rogue, "admin", {"system:masters"}));
  CHECK(foreign.status().code() == StatusCode::kUnauthorized);

  auto server_only = MakeCertificate({.common_name = "srv", .server_auth = true}, &ca);
  REQUIRE(server_only.ok());
  CHECK((*authn)->Authenticate(*ParseCertificatesPem(server_only->cert_pem)).status().code() ==
        StatusCode::kUnauthorized);

  auto none = (*authn)->Authenticate({});
  REQUIRE(none.ok());
  CHECK_FALSE(none->has_value());
}

TEST_CASE("token file: kube's CSV with quoted groups, uid, duplicates and errors") {
  auto tokens = TokenFileAuthenticator::Parse("t1,bob,bob-uid,\"dev,qa\"\n\nt2,root,root-uid,system:masters\n"
                                              "t3,nogroups,u3\nt1,bob2,uid2\n");
  REQUIRE(tokens.ok());
  auto bob = (*tokens)->AuthenticateToken("t1", {});
  REQUIRE(bob.ok());
  REQUIRE(bob->has_value());
  CHECK((*bob)->user.name == "bob2");  // the later line wins
  auto root = (*tokens)->AuthenticateToken("t2", {});
  CHECK((*root)->user.groups == std::vector<std::string>{"system:masters"});
  CHECK((*root)->user.uid == "root-uid");
  CHECK((*(*tokens)->AuthenticateToken("t3", {}))->user.groups.empty());
  CHECK_FALSE((*tokens)->AuthenticateToken("nope", {})->has_value());

  auto groups = TokenFileAuthenticator::Parse("x,carol,c-uid,\"a,b,c\"\n");
  CHECK((*(*groups)->AuthenticateToken("x", {}))->user.groups == std::vector<std::string>{"a", "b", "c"});
  CHECK_FALSE(TokenFileAuthenticator::Parse("tok,user\n").ok());
  CHECK_FALSE(TokenFileAuthenticator::Parse("tok,user,uid,\"unterminated\n").ok());
  CHECK_FALSE(TokenFileAuthenticator::Load("/nonexistent/tokens.csv").ok());
}

TEST_CASE("request authenticator: kube's union order, 401s and the anonymous user") {
  const KeyPair ca = Ca("client-ca");
  const KeyPair rogue = Ca("rogue");
  auto certs = X509Authenticator::Create({ca.cert_pem});
  auto tokens = TokenFileAuthenticator::Parse("good,bob,bob-uid,\"dev\"\n");
  RequestAuthenticatorOptions options;
  options.certificates = *certs;
  options.tokens = {*tokens};
  RequestAuthenticator authn(options);

  auto bob = authn.Authenticate({.authorization = "Bearer good"});
  REQUIRE(bob.ok());
  CHECK(bob->user.name == "bob");
  CHECK(bob->user.groups == std::vector<std::string>{"dev", "system:authenticated"});
  CHECK(authn.Authenticate({.authorization = "bearer good"})->user.name == "bob");

  auto unknown = authn.Authenticate({.authorization = "Bearer not-a-token"});
  CHECK(unknown.status().code() == StatusCode::kUnauthorized);
  CHECK(unknown.status().message() == "Unauthorized");

  auto alice = authn.Authenticate({.peer_certificates = ClientChain(ca, "alice", {"dev"})});
  REQUIRE(alice.ok());
  CHECK(alice->user.groups == std::vector<std::string>{"dev", "system:authenticated"});
  // A certificate from another CA fails the request even though anonymous requests are allowed.
  CHECK(authn.Authenticate({.peer_certificates = ClientChain(rogue, "admin", {"system:masters"})}).status().code() ==
        StatusCode::kUnauthorized);
  // A bad certificate with a good token: the token wins (kube's union).
  CHECK(authn.Authenticate({.peer_certificates = ClientChain(rogue, "admin", {}), .authorization = "Bearer good"})
            ->user.name == "bob");

  auto anonymous = authn.Authenticate({});
  REQUIRE(anonymous.ok());
  CHECK(anonymous->user.name == "system:anonymous");
  CHECK(anonymous->user.groups == std::vector<std::string>{"system:unauthenticated"});
  // Another scheme is no credential at all.
  CHECK(authn.Authenticate({.authorization = "Basic Zm9vOmJhcg=="})->user.name == "system:anonymous");

  options.anonymous = false;
  RequestAuthenticator strict(options);
  CHECK(strict.Authenticate({}).status().code() == StatusCode::kUnauthorized);
  CHECK(strict.AuthenticateToken("good", {})->user.name == "bob");
  CHECK_FALSE(strict.AuthenticateToken("bad", {}).ok());
}

}  // namespace kube::auth
