#include "auth/jwt.h"

#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include "auth/openssl_util.h"
#include "util/base64.h"

namespace kube::auth {

using nlohmann::json;

namespace {

Status Unauthorized(std::string message) { return Status(StatusCode::kUnauthorized, std::move(message)); }

struct Algorithm {
  std::string name;
  const EVP_MD* md = nullptr;
  size_t ec_coordinate_bytes = 0;  // 0 for RSA
};

// The JWS algorithm a key signs with.
Result<Algorithm> AlgorithmFor(EVP_PKEY* key) {
  if (EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA) return Algorithm{"RS256", EVP_sha256(), 0};
  if (EVP_PKEY_get_base_id(key) == EVP_PKEY_EC) {
    switch (EVP_PKEY_get_bits(key)) {
      case 256: return Algorithm{"ES256", EVP_sha256(), 32};
      case 384: return Algorithm{"ES384", EVP_sha384(), 48};
      case 521: return Algorithm{"ES512", EVP_sha512(), 66};
      default: break;
    }
  }
  return Status::BadRequest("unsupported key type for signing tokens");
}

std::string KeyId(EVP_PKEY* key) {
  unsigned char* der = nullptr;
  const int n = i2d_PUBKEY(key, &der);
  if (n <= 0) return "";
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(der, static_cast<size_t>(n), digest);
  OPENSSL_free(der);
  return Base64UrlEncode(std::string_view(reinterpret_cast<char*>(digest), sizeof digest));
}

// ECDSA signatures are DER in OpenSSL and r||s (fixed width) in JWS.
std::string DerToRaw(const std::string& der, size_t width) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(der.data());
  ECDSA_SIG* sig = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(der.size()));
  if (sig == nullptr) return "";
  std::string raw(2 * width, '\0');
  BN_bn2binpad(ECDSA_SIG_get0_r(sig), reinterpret_cast<unsigned char*>(raw.data()), static_cast<int>(width));
  BN_bn2binpad(ECDSA_SIG_get0_s(sig), reinterpret_cast<unsigned char*>(raw.data()) + width, static_cast<int>(width));
  ECDSA_SIG_free(sig);
  return raw;
}

std::string RawToDer(const std::string& raw) {
  const size_t width = raw.size() / 2;
  ECDSA_SIG* sig = ECDSA_SIG_new();
  BIGNUM* r = BN_bin2bn(reinterpret_cast<const unsigned char*>(raw.data()), static_cast<int>(width), nullptr);
  BIGNUM* s = BN_bin2bn(reinterpret_cast<const unsigned char*>(raw.data()) + width, static_cast<int>(width), nullptr);
  ECDSA_SIG_set0(sig, r, s);
  unsigned char* der = nullptr;
  const int n = i2d_ECDSA_SIG(sig, &der);
  std::string out = n > 0 ? std::string(reinterpret_cast<char*>(der), static_cast<size_t>(n)) : "";
  OPENSSL_free(der);
  ECDSA_SIG_free(sig);
  return out;
}

struct Parts {
  std::string signing_input;  // header.payload, as sent
  json header;
  std::string payload;  // decoded
  std::string signature;  // decoded
};

std::optional<Parts> Split(const std::string& token) {
  const size_t a = token.find('.');
  if (a == std::string::npos) return std::nullopt;
  const size_t b = token.find('.', a + 1);
  if (b == std::string::npos || token.find('.', b + 1) != std::string::npos) return std::nullopt;
  auto header = Base64UrlDecode(std::string_view(token).substr(0, a));
  auto payload = Base64UrlDecode(std::string_view(token).substr(a + 1, b - a - 1));
  auto signature = Base64UrlDecode(std::string_view(token).substr(b + 1));
  if (!header || !payload || !signature) return std::nullopt;
  json h = json::parse(*header, nullptr, /*allow_exceptions=*/false);
  if (!h.is_object() || !h.contains("alg") || !h["alg"].is_string()) return std::nullopt;
  return Parts{token.substr(0, b), std::move(h), std::move(*payload), std::move(*signature)};
}

}  // namespace

struct JwtSigner::Key {
  EvpPkeyPtr pkey;
  Algorithm alg;
};

JwtSigner::~JwtSigner() = default;

Result<std::shared_ptr<const JwtSigner>> JwtSigner::FromPrivateKeyPem(const std::string& pem) {
  auto key = ParsePrivateKey(pem);
  if (!key.ok()) return key.status();
  auto alg = AlgorithmFor(key->get());
  if (!alg.ok()) return alg.status();
  std::shared_ptr<JwtSigner> signer(new JwtSigner());
  signer->alg_ = alg->name;
  signer->kid_ = KeyId(key->get());
  signer->key_ = std::make_unique<Key>(Key{std::move(*key), *alg});
  return std::shared_ptr<const JwtSigner>(std::move(signer));
}

Result<std::string> JwtSigner::Sign(const json& claims) const {
  const json header = {{"alg", alg_}, {"kid", kid_}};
  const std::string input = Base64UrlEncode(header.dump()) + "." + Base64UrlEncode(claims.dump());
  EvpMdCtxPtr ctx(EVP_MD_CTX_new());
  size_t len = 0;
  if (EVP_DigestSignInit(ctx.get(), nullptr, key_->alg.md, nullptr, key_->pkey.get()) != 1 ||
      EVP_DigestSign(ctx.get(), nullptr, &len, reinterpret_cast<const unsigned char*>(input.data()), input.size()) != 1) {
    return Status::Internal("cannot sign token: " + OpenSslError());
  }
  std::string sig(len, '\0');
  if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(sig.data()), &len,
                     reinterpret_cast<const unsigned char*>(input.data()), input.size()) != 1) {
    return Status::Internal("cannot sign token: " + OpenSslError());
  }
  sig.resize(len);
  if (key_->alg.ec_coordinate_bytes > 0) sig = DerToRaw(sig, key_->alg.ec_coordinate_bytes);
  return input + "." + Base64UrlEncode(sig);
}

struct JwtVerifier::Keys {
  std::vector<std::pair<EvpPkeyPtr, Algorithm>> keys;
};

JwtVerifier::~JwtVerifier() = default;

Result<std::shared_ptr<const JwtVerifier>> JwtVerifier::FromPem(const std::vector<std::string>& pems) {
  std::shared_ptr<JwtVerifier> v(new JwtVerifier());
  v->keys_ = std::make_unique<Keys>();
  for (const auto& pem : pems) {
    auto keys = ParsePublicKeys(pem);
    if (!keys.ok()) return keys.status();
    for (auto& k : *keys) {
      auto alg = AlgorithmFor(k.get());
      if (!alg.ok()) return alg.status();
      v->keys_->keys.emplace_back(std::move(k), *alg);
    }
  }
  return std::shared_ptr<const JwtVerifier>(std::move(v));
}

bool JwtVerifier::LooksLikeJwt(const std::string& token) { return Split(token).has_value(); }

Result<json> JwtVerifier::Verify(const std::string& token) const {
  auto parts = Split(token);
  if (!parts) return Unauthorized("token is not a JWT");
  const std::string alg = (*parts).header["alg"].get<std::string>();
  for (const auto& [key, key_alg] : keys_->keys) {
    if (key_alg.name != alg) continue;
    std::string sig = parts->signature;
    if (key_alg.ec_coordinate_bytes > 0) {
      if (sig.size() != 2 * key_alg.ec_coordinate_bytes) continue;
      sig = RawToDer(sig);
    }
    EvpMdCtxPtr ctx(EVP_MD_CTX_new());
    if (EVP_DigestVerifyInit(ctx.get(), nullptr, key_alg.md, nullptr, key.get()) == 1 &&
        EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(sig.data()), sig.size(),
                         reinterpret_cast<const unsigned char*>(parts->signing_input.data()),
                         parts->signing_input.size()) == 1) {
      json claims = json::parse(parts->payload, nullptr, /*allow_exceptions=*/false);
      if (!claims.is_object()) return Unauthorized("token claims are not a JSON object");
      return claims;
    }
    ERR_clear_error();
  }
  return Unauthorized("invalid signature");
}

}  // namespace kube::auth
