// JSON Web Tokens in compact JWS form (RFC 7515/7519), as kube-apiserver signs and verifies
// service-account tokens: RS256 with RSA keys, ES256 with P-256 keys (ES384/ES512 for P-384 and
// P-521), a "kid" header derived from the public key (base64url of the SHA-256 of its PKIX DER,
// as kube's keyIDFromPublicKey).
//
// Thread-safety: a JwtSigner or JwtVerifier is immutable after creation and safe to share.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/status.h"

namespace kube::auth {

class JwtSigner {
 public:
  // The first private key of a PEM text (--service-account-signing-key-file).
  static Result<std::shared_ptr<const JwtSigner>> FromPrivateKeyPem(const std::string& pem);
  ~JwtSigner();

  const std::string& algorithm() const { return alg_; }
  const std::string& key_id() const { return kid_; }
  // header.claims.signature
  Result<std::string> Sign(const nlohmann::json& claims) const;

 private:
  struct Key;
  JwtSigner() = default;
  std::unique_ptr<Key> key_;
  std::string alg_;
  std::string kid_;
};

class JwtVerifier {
 public:
  // Every public key of the PEM texts (--service-account-key-file: public keys, private keys or
  // certificates, several per file).
  static Result<std::shared_ptr<const JwtVerifier>> FromPem(const std::vector<std::string>& pems);
  ~JwtVerifier();

  // Whether `token` has the shape of a JWS (three base64url parts, a JSON header with "alg").
  static bool LooksLikeJwt(const std::string& token);
  // The claims of `token` when one of the keys verifies its signature; Unauthorized otherwise.
  // Claims are not checked here.
  Result<nlohmann::json> Verify(const std::string& token) const;

 private:
  struct Keys;
  JwtVerifier() = default;
  std::unique_ptr<Keys> keys_;
};

}  // namespace kube::auth
